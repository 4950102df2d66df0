"""What each seat did in a round, read from its events: turns, pengs, the exchange and
void choices, and how far the starting hand was from winning (docs/statistics.md).

The report's seat facts (``xuezhan.replay``) say how a round ended and what it paid;
these say how the seat played it. They come from one light pass over the events of a
schema-valid round, apart from the verification's replay, so the verifier's hot path
pays nothing for them. A faulty log gives facts as far as they can be read: a tile
given away that the hand did not hold is simply not counted.

>>> from xuezhan.rules import Rules
>>> round_doc = {"dealer": 0, "hands": ["123456789m1122p9s", "123456789p1122s",
...              "123456789s1122m", "345678m345678p3s"], "events": [
...     {"type": "dingque", "suits": ["s", "m", "p", "s"]},
...     {"type": "discard", "actor": 0, "tile": "9s"},
...     {"type": "draw", "actor": 1, "tile": "9m"}]}
>>> facts = play_facts(round_doc, Rules.from_json({"exchange": "off"}))
>>> facts[0]["active_turns"], facts[0]["void_cleared_turn"], facts[1]["active_turns"]
(1, 1, 1)
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any, TypedDict

from xuezhan.errors import XuezhanError
from xuezhan.rules import Rules
from xuezhan.shanten import shanten
from xuezhan.tiles import NUM_KINDS, SUIT_LETTERS, Tile, counts_of, parse_tiles

_SOURCE = {"from_next": 1, "opposite": 2, "from_prev": 3}
_KONG_KINDS = {"ming": "kongs_direct", "jia": "kongs_added", "an": "kongs_concealed"}


class PlayFacts(TypedDict):
    """One seat's play in one round (docs/statistics.md, "Counting rules").

    - ``active_turns``: draws from the wall that are no kong replacement, plus pengs,
      while the seat was still in the round (plus the dealer's first turn);
    - ``pengs``: pengs made; ``kongs_direct``/``kongs_added``/``kongs_concealed``: kongs
      made, a robbed one not (it did not happen); ``robbed_kongs``: added kongs robbed (抢杠);
    - ``deal_ins``: discards (and added kongs) of the seat that others won on, each once
      however many won on it (一炮多响 is one deal-in, 抢杠 is one for the konger);
    - ``exchange_shortest``: the tiles given at 换三张 came from the suit with the fewest
      tiles among those holding three or more (null without an exchange);
    - ``void_is_given``: the void suit is the suit given away (null without an exchange);
    - ``void_fewest``: the void suit held the fewest tiles after the exchange (null
      without a 定缺);
    - ``void_cleared_turn``: the seat's own turn (1 = first) at which its last void-suit
      tile left the hand, 0 when it held none after the exchange, null if never;
    - ``starting_shanten``: shanten of the hand after the exchange, void counted (null
      without a 定缺, or for a hand of the wrong size).
    """

    active_turns: int
    pengs: int
    kongs_direct: int
    kongs_added: int
    kongs_concealed: int
    robbed_kongs: int
    deal_ins: int
    exchange_shortest: bool | None
    void_is_given: bool | None
    void_fewest: bool | None
    void_cleared_turn: int | None
    starting_shanten: int | None


def play_facts(round_doc: dict[str, Any], rules: Rules) -> list[PlayFacts]:
    """The four seats' :class:`PlayFacts` of one schema-valid round."""
    hands = [counts_of(parse_tiles(h)) for h in round_doc["hands"]]
    facts: list[PlayFacts] = [
        {"active_turns": 0, "pengs": 0, "kongs_direct": 0, "kongs_added": 0,
         "kongs_concealed": 0, "robbed_kongs": 0, "deal_ins": 0, "exchange_shortest": None,
         "void_is_given": None, "void_fewest": None, "void_cleared_turn": None,
         "starting_shanten": None}
        for _ in range(4)]
    given: list[int | None] = [None] * 4
    voids: list[int] | None = None
    void_left = [0, 0, 0, 0]
    won = [False] * 4
    replacement_for: int | None = None  # the konger whose next draw is a replacement
    dealt_in: set[int] = set()  # the discards and kongs already won on (by event index)
    window = -1  # the last discard or kong: what a claimed win is on
    added_kong = -1  # the last added kong, which a win on it robs
    for index, event in enumerate(round_doc["events"]):
        kind, actor = event["type"], event.get("actor")
        if kind == "exchange":
            given = _exchange(event, hands, round_doc.get("dice"), rules, facts)
        elif kind == "dingque":
            voids = [SUIT_LETTERS.index(s) for s in event["suits"]]
            void_left = _declare(voids, given, hands, facts)
            facts[round_doc["dealer"]]["active_turns"] += 1  # the dealer's first turn: no draw
        elif actor is None or not 0 <= actor < 4 or won[actor]:
            continue
        elif kind == "hu":
            won[actor] = True
            replacement_for = None
            target = event.get("target")
            if target is not None and 0 <= target < 4 and window not in dealt_in:
                dealt_in.add(window)
                facts[target]["deal_ins"] += 1
                if window == added_kong:
                    facts[target]["kongs_added"] -= 1
                    facts[target]["robbed_kongs"] += 1
        elif kind == "gang":
            replacement_for, window = actor, index
            kong_kind = _KONG_KINDS.get(event["kind"], "kongs_added")
            facts[actor][kong_kind] += 1
            added_kong = index if kong_kind == "kongs_added" else -1
            if voids is not None and Tile.parse(event["tile"]) // 9 == voids[actor]:
                void_left[actor] -= {"an": 4, "ming": 3}.get(event["kind"], 1)
        else:
            tile = Tile.parse(event["tile"])
            if kind == "discard":
                window = index
            turn_starts = kind == "peng" or (kind == "draw" and replacement_for != actor)
            replacement_for = None
            if turn_starts:
                facts[actor]["active_turns"] += 1
            if kind == "peng":
                facts[actor]["pengs"] += 1
            if voids is not None and tile // 9 == voids[actor]:
                void_left[actor] += 1 if kind == "draw" else -1 if kind == "discard" else -2
                if void_left[actor] <= 0 and facts[actor]["void_cleared_turn"] is None:
                    facts[actor]["void_cleared_turn"] = facts[actor]["active_turns"]
    return facts


def _exchange(event: dict[str, Any], hands: list[list[int]], dice: Sequence[int] | None,
              rules: Rules, facts: list[PlayFacts]) -> list[int | None]:
    """Move the exchanged tiles between the hands; note each seat's choice of suit."""
    gives = [counts_of(parse_tiles(g)) for g in event["give"]]
    direction = rules.exchange_direction(event["die"], sum(dice) if dice else None)
    receive = event.get("receive")
    given: list[int | None] = []
    for seat, give in enumerate(gives):
        suits = {t // 9 for t in range(NUM_KINDS) if give[t]}
        suit = suits.pop() if len(suits) == 1 else None
        given.append(suit)
        sizes = _suit_sizes(hands[seat])
        eligible = [n for n in sizes if n >= 3]
        if suit is not None and eligible:
            facts[seat]["exchange_shortest"] = sizes[suit] == min(eligible)
    received = ([counts_of(parse_tiles(r)) for r in receive]
                if direction is None and receive is not None
                else [gives[(seat + _SOURCE[direction or "from_next"]) % 4] for seat in range(4)])
    for seat in range(4):
        hand = hands[seat]
        for t in range(NUM_KINDS):
            hand[t] = max(hand[t] - gives[seat][t], 0) + received[seat][t]
    return given


def _declare(voids: list[int], given: list[int | None], hands: list[list[int]],
             facts: list[PlayFacts]) -> list[int]:
    """Note each seat's void choice and starting shanten; the void tiles each holds."""
    left = []
    for seat, void in enumerate(voids):
        sizes = _suit_sizes(hands[seat])
        facts[seat]["void_fewest"] = sizes[void] == min(sizes)
        if given[seat] is not None:
            facts[seat]["void_is_given"] = void == given[seat]
        if sizes[void] == 0:
            facts[seat]["void_cleared_turn"] = 0
        with contextlib.suppress(XuezhanError):  # a hand of the wrong size: no shanten
            facts[seat]["starting_shanten"] = shanten(hands[seat], 0, void)
        left.append(sizes[void])
    return left


def _suit_sizes(counts: Sequence[int]) -> list[int]:
    return [sum(counts[s * 9:s * 9 + 9]) for s in range(3)]
