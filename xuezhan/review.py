"""Decision review: every choice a player made in a round, graded by arithmetic the
player can check (docs/rules.md §3 for 向听 and 进张).

Each decision is scored by ``(shanten, unseen 进张)``: the 向听 of the hand it leaves
(:func:`xuezhan.shanten.shanten`, with the seat's void suit as tiles to lose) and how
many copies of the tiles that would lower it are still unseen **to that player**: four
less the copies in their own hand, in every river and in every meld on the table (their
own concealed kongs included, the others' not: those lie face down). Nothing else is
read — not the other hands, not the wall — so a review never uses what the player could
not know. Every option of the decision is ranked the same way, lowest shanten first,
then most unseen 进张; the verdict of the choice is ``best`` (ranked first), ``equal``
(the same shanten and 进张 as the first) or ``worse``, with ``loss`` the 进张 given up:
the difference at the same shanten, and all of the best option's 进张 when the choice
leaves a higher shanten. A discard of another suit while a void-suit tile is still held
is ``void_held`` (a mistake; under ``void_first`` also a violation).

What is reviewed: the exchange (``exchange``: each suit's best three to give, judged by
the hand kept), the void suit (``dingque``), each discard (``discard``), each peng or
kong taken or let go (``peng``, ``gang``: with the kong money and the waits before and
after), each win let go (``pass_win``, 过手胡, with its fan; verdict ``passed``), and
when a seat is first ready its waits, their unseen copies and the hand's 查叫 value.

>>> from xuezhan.tiles import parse_tiles
>>> hands = ["123m456m789m23p55s9p", "123456789p1122s4m", "123456789s1122m4p",
...          "345678m345678p3s"]
>>> doc = {"format": "xuezhan-log", "version": 1, "ruleset": {"exchange": "off"},
...        "players": ["a", "b", "c", "d"], "rounds": [{"dealer": 0,
...        "hands": [[str(t) for t in parse_tiles(h)] for h in hands], "events": [
...            {"type": "dingque", "suits": ["s", "m", "p", "m"]},
...            {"type": "discard", "actor": 0, "tile": "9p"}]}]}
>>> d = review_round(doc, 0, seat=0).decisions[-1]
>>> d.kind, d.chosen, d.verdict, d.shanten_before, d.shanten_after, d.loss
('discard', '9p', 'void_held', 1, 2, 11)
>>> best = d.alternatives[0]
>>> best.chosen, best.shanten_after, [(str(t), n) for t, n in best.ukeire], best.unseen
('5s', 1, [('1p', 4), ('4p', 4), ('9p', 3)], 11)
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from xuezhan import quickcheck
from xuezhan.actions import Action, Discard, Gang, Hu, Pass, Peng
from xuezhan.errors import LogFormatError, XuezhanError
from xuezhan.fan import ting_value
from xuezhan.files import read_input
from xuezhan.hand import MeldKind, waits
from xuezhan.reader import read_document
from xuezhan.replay import RoundWalk
from xuezhan.rules import Rules
from xuezhan.schema import validate_document
from xuezhan.shanten import (
    discard_leaders,
    discard_masks,
    keys_shanten,
    suit_variant_shantens,
    ukeire_mask,
)
from xuezhan.table import Table
from xuezhan.tiles import COPIES, NUM_KINDS, SUIT_LETTERS, TILES, Tile, format_tiles

KINDS = ("exchange", "dingque", "discard", "peng", "gang", "pass_win")
VERDICTS = ("best", "equal", "worse", "void_held", "passed")
#: verdicts counted as mistakes in the summary
MISTAKES = ("worse", "void_held")
_NAMED = {str(t): t for t in TILES}
_NAMES = [str(t) for t in TILES]
_NO_TILES = bytes(9)  # a suit key holding nothing
_KONG_KIND = {"ming": "direct", "jia": "added", "an": "concealed"}


@dataclass(slots=True)
class Option:
    """One choice of a decision, scored: what the hand is after it and its 进张."""

    chosen: str
    """``"5m"`` (a discard), ``"123m"`` (three to give), ``"m"`` (a void suit),
    ``"peng 5m"``, ``"gang 5m"``, ``"pass"``."""
    shanten_before: int
    shanten_after: int
    mask: int
    """The 进张 kinds: bit ``k`` for kind ``k``."""
    left: Sequence[int]
    """The copies of each kind unseen to the player when deciding (shared by the options)."""
    unseen: int
    """The 进张's unseen copies, summed."""

    @property
    def ukeire(self) -> tuple[tuple[Tile, int], ...]:
        """The 进张 kinds with their copies unseen to the player, in tile order."""
        left, mask, out = self.left, self.mask, []
        while mask:
            low = mask & -mask
            kind = low.bit_length() - 1
            out.append((TILES[kind], left[kind]))
            mask ^= low
        return tuple(out)

    @property
    def rank_key(self) -> tuple[int, int]:
        return (self.shanten_after, -self.unseen)

    def to_json(self) -> dict[str, Any]:
        return {"chosen": self.chosen, "shanten_before": self.shanten_before,
                "shanten_after": self.shanten_after, "unseen": self.unseen,
                "ukeire": _ukeire_json(self.mask, self.left)}


def _ukeire_json(mask: int, left: Sequence[int]) -> list[dict[str, Any]]:
    """:attr:`Option.ukeire` as JSON, from the set bits (every option of every decision
    is printed this way)."""
    out = []
    while mask:
        low = mask & -mask
        kind = low.bit_length() - 1
        out.append({"tile": _NAMES[kind], "unseen": left[kind]})
        mask ^= low
    return out


@dataclass(frozen=True, slots=True)
class Decision:
    """One reviewed decision of one seat."""

    round: int
    event: int
    """Index into the round's ``events`` (the claim, or the discard it let go)."""
    seat: int
    kind: str
    chosen: str
    verdict: str
    shanten_before: int
    shanten_after: int
    picked: Option = field(repr=False)
    """The chosen option (its 进张 is :attr:`ukeire`)."""
    options: _Ranked = field(repr=False, compare=False)
    """The options, ranked when first asked for (see :attr:`alternatives`)."""
    loss: int
    """进张 given up against the best option (0 when best or equal)."""
    detail: dict[str, Any] = field(default_factory=dict)
    """What the kind adds: fewest-tiles suit, kong money, waits before and after, the fan
    of a passed win, the ready hand's quality."""

    @property
    def ukeire(self) -> tuple[tuple[Tile, int], ...]:
        """The chosen option's 进张 with the copies unseen to the player, in tile order
        (listed when read: a summary does not need it)."""
        return self.picked.ukeire

    @property
    def alternatives(self) -> tuple[Option, ...]:
        """Every option, ranked best first (the chosen one among them)."""
        return self.options.ranked()

    def to_json(self) -> dict[str, Any]:
        alternatives = self.alternatives
        best = alternatives[0].rank_key if alternatives else None
        return {
            "round": self.round, "event": self.event, "seat": self.seat, "kind": self.kind,
            "chosen": self.chosen, "verdict": self.verdict,
            "shanten_before": self.shanten_before, "shanten_after": self.shanten_after,
            "ukeire": _ukeire_json(self.picked.mask, self.picked.left),
            "alternatives": [{**o.to_json(), "verdict": _verdict_of(i, o, best)}
                             for i, o in enumerate(alternatives)],
            "loss": self.loss, "detail": self.detail,
        }


class _Ranked:
    """A decision's options, ranked when first asked for. A discard is judged from the
    few options that leave the lowest shanten; the others are scored (their 进张
    counted) only when the whole ranking is read — for the JSON, not for a summary."""

    __slots__ = ("_build", "_ranked")

    def __init__(self, ranked: Sequence[Option] = (),
                 build: Callable[[], list[Option]] | None = None) -> None:
        self._ranked: tuple[Option, ...] | None = None if build else tuple(ranked)
        self._build = build

    def ranked(self) -> tuple[Option, ...]:
        if self._ranked is None:
            assert self._build is not None
            self._ranked = tuple(_rank(self._build()))
            self._build = None
        return self._ranked


@dataclass
class SeatSummary:
    """One seat's decisions in a round (or a match) in a few numbers."""

    seat: int
    decisions: int = 0
    best: int = 0
    equal: int = 0
    discards: int = 0
    ukeire_lost: int = 0
    """进张 given up over the discards."""
    mistakes: dict[str, int] = field(default_factory=dict)
    """Kind -> decisions judged ``worse`` or ``void_held``."""
    passed_wins: int = 0
    first_ready: dict[str, Any] | None = None

    def add(self, d: Decision) -> None:
        if d.verdict == "passed":
            self.passed_wins += 1
            return
        self.decisions += 1
        self.best += d.verdict == "best"
        self.equal += d.verdict == "equal"
        if d.kind == "discard":
            self.discards += 1
            self.ukeire_lost += d.loss
        if d.verdict in MISTAKES:
            self.mistakes[d.kind] = self.mistakes.get(d.kind, 0) + 1
        if "ready" in d.detail and self.first_ready is None:
            self.first_ready = {"round": d.round, "event": d.event, **d.detail["ready"]}

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat, "decisions": self.decisions,
            "share_best": _share(self.best, self.decisions),
            "share_equal": _share(self.equal, self.decisions),
            "share_best_or_equal": _share(self.best + self.equal, self.decisions),
            "discards": self.discards, "ukeire_lost": self.ukeire_lost,
            "ukeire_lost_per_discard": _share(self.ukeire_lost, self.discards),
            "mistakes": dict(sorted(self.mistakes.items())), "passed_wins": self.passed_wins,
            "first_ready": self.first_ready,
        }


@dataclass
class RoundReview:
    """The review of one round: its decisions in event order and a summary per seat."""

    round: int
    decisions: list[Decision] = field(default_factory=list)

    def summary(self, seat: int) -> SeatSummary:
        out = SeatSummary(seat)
        for d in self.decisions:
            if d.seat == seat:
                out.add(d)
        return out

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "decisions": [d.to_json() for d in self.decisions],
                "summary": [self.summary(s).to_json() for s in range(4)]}


def review_round(document: dict[str, Any], round_index: int,
                 seat: int | None = None) -> RoundReview:
    """Review the decisions of ``seat`` (every seat when None) in one round.

    :raises LogFormatError: when the document is not schema-valid, its ruleset is bad or
        it has no such round.
    """
    rules = _checked(document)
    rounds = document["rounds"]
    if not 0 <= round_index < len(rounds):
        raise LogFormatError(f"no round {round_index}: the match has {len(rounds)}")
    return _review(rounds[round_index], round_index, rules, document.get("base", 1), seat)


def review_document(document: dict[str, Any], seat: int | None = None) -> list[RoundReview]:
    """:func:`review_round` of every round (the document is checked once)."""
    rules = _checked(document)
    base = document.get("base", 1)
    return [_review(r, i, rules, base, seat) for i, r in enumerate(document["rounds"])]


def summarize(reviews: Sequence[RoundReview]) -> list[SeatSummary]:
    """Each seat's summary over several rounds (a match)."""
    out = [SeatSummary(s) for s in range(4)]
    for review in reviews:
        for d in review.decisions:
            out[d.seat].add(d)
    return out


def _checked(document: object) -> Rules:
    # the quick check vouches for the usual document; the schema decides the rest
    if not quickcheck.passes(document) and validate_document(document):
        raise LogFormatError("the document does not match the log format")
    assert isinstance(document, dict)
    try:
        return Rules.from_json(document.get("ruleset", "chengdu"))
    except XuezhanError as exc:
        raise LogFormatError(str(exc)) from None


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def _verdict_of(rank: int, option: Option, best: tuple[int, int] | None) -> str:
    if rank == 0:
        return "best"
    return "equal" if option.rank_key == best else "worse"


# -- the walk -------------------------------------------------------------------------


def _review(round_doc: dict[str, Any], index: int, rules: Rules, base: int,
            seat: int | None) -> RoundReview:
    # the replay's own walk, to the end of a faulty round as the replay viewer goes
    walk = RoundWalk(round_doc, rules, base, limit=None)
    reviewer = _Reviewer(index, round_doc["events"], rules, base,
                         range(4) if seat is None else (seat,))
    reviewer.before(walk.table, 0)
    for event_index, action, _problems, table in walk:
        reviewer.after(event_index, action)
        reviewer.before(table, event_index + 1)
    # a window's decisions are found seat by seat: list them in the order of the log
    return RoundReview(index, sorted(reviewer.decisions, key=lambda d: d.event))


# -- scoring --------------------------------------------------------------------------


#: byte tables for :class:`_Eyes`: a count held at 15 (so that sums stay within a byte),
#: the copies left of a kind seen ``v`` times, and for n = 1..4 "1" when n or more are left
_CLAMP = bytes(min(v, 15) for v in range(256))
_UNSEEN = bytes(max(COPIES - v, 0) for v in range(256))
_LEVELS = tuple(bytes(ord("1") if COPIES - v >= n else ord("0") for v in range(256))
                for n in range(1, COPIES + 1))
_SEEN_CAP = 8  # more than COPIES: a kind seen that often has none left either way


class _Eyes:
    """What the seats have seen: the copies of each kind in the rivers and melds, and
    each seat's own concealed kongs — for each seat also as one int holding a byte per
    kind, so that adding the hand is a single addition."""

    def __init__(self) -> None:
        self.public = [0] * NUM_KINDS
        self.own_hidden = [[0] * NUM_KINDS for _ in range(4)]
        self.packed = [0] * 4

    def show(self, kind: int, n: int, seat: int | None = None) -> None:
        """``n`` more copies of ``kind`` seen by everyone, or by ``seat`` alone."""
        if seat is None:
            self.public[kind] += n
        else:
            self.own_hidden[seat][kind] += n
        shift = 8 * kind
        for s in range(4) if seat is None else (seat,):
            seen = min(self.public[kind] + self.own_hidden[s][kind], _SEEN_CAP)
            self.packed[s] = self.packed[s] & ~(0xFF << shift) | seen << shift

    def left(self, seat: int, keys: Sequence[bytes]) -> _Left:
        """The copies of each kind ``seat`` has not seen, holding the hand with these suit
        keys. Taken before the decision and kept for every option: a tile discarded,
        given or melded stays seen (it moved from the hand to a river, a rival or a
        meld)."""
        held = b"".join(keys).translate(_CLAMP)
        seen = (int.from_bytes(held, "little") + self.packed[seat]).to_bytes(NUM_KINDS,
                                                                            "little")
        seen = seen[::-1]  # kind 26 first: the digits of the masks, highest first
        one, two, three, four = _LEVELS  # written out: this runs for every decision
        return _Left(seen.translate(_UNSEEN)[::-1], (
            int(seen.translate(one), 2), int(seen.translate(two), 2),
            int(seen.translate(three), 2), int(seen.translate(four), 2)))


class _Left:
    """The copies of each kind unseen to a player (``counts``), and ``levels``: for
    ``n`` = 1..4 the kinds with at least ``n`` unseen as a mask, so that summing a mask's
    kinds is four bit counts."""

    __slots__ = ("counts", "levels")

    def __init__(self, counts: bytes, levels: tuple[int, int, int, int]) -> None:
        self.counts = counts
        self.levels = levels


def _option(chosen: str, before: int, after: int, mask: int, left: _Left) -> Option:
    a, b, c, d = left.levels  # _unseen written out: this runs for every option scored
    return Option(chosen, before, after, mask, left.counts, (mask & a).bit_count() + (
        mask & b).bit_count() + (mask & c).bit_count() + (mask & d).bit_count())


def _unseen(mask: int, left: _Left) -> int:
    a, b, c, d = left.levels
    return ((mask & a).bit_count() + (mask & b).bit_count() + (mask & c).bit_count()
            + (mask & d).bit_count())


def _keys_without(keys: Sequence[bytes], tiles: Sequence[int]
                  ) -> tuple[bytes, bytes, bytes]:
    if len(tiles) == 1 or all(t == tiles[0] for t in tiles):  # the usual case: one kind
        t = tiles[0]
        suit = t // 9
        key = bytearray(keys[suit])
        key[t % 9] -= len(tiles)
        if suit == 0:
            return bytes(key), keys[1], keys[2]
        if suit == 1:
            return keys[0], bytes(key), keys[2]
        return keys[0], keys[1], bytes(key)
    out = [bytearray(k) for k in keys]
    for t in tiles:
        out[t // 9][t % 9] -= 1
    return bytes(out[0]), bytes(out[1]), bytes(out[2])


def _rank(options: list[Option]) -> list[Option]:
    return sorted(options, key=lambda o: o.rank_key)


def _first(options: list[Option]) -> tuple[Option, _Ranked]:
    """The best of a few options, and all of them ranked."""
    ranked = _rank(options)
    return ranked[0], _Ranked(ranked)


def _judge(chosen: Option, best: Option) -> tuple[str, int]:
    if chosen is best:
        return "best", 0
    if chosen.rank_key == best.rank_key:
        return "equal", 0
    if chosen.shanten_after == best.shanten_after:
        return "worse", best.unseen - chosen.unseen
    return "worse", best.unseen


def _scored(keys: Sequence[bytes], melds: int, void: int | None, kind: int, before: int,
            left: _Left) -> Option:
    """The discard of ``kind``, its 进张 counted."""
    return _option(_NAMES[kind], before, *ukeire_mask(_keys_without(keys, (kind,)), melds,
                                                      void), left)


def _leaders(keys: Sequence[bytes], melds: int, void: int | None, kinds: Sequence[int],
             left: _Left) -> tuple[int, dict[int, tuple[int, int]], Option]:
    """The shanten of the hand, the shanten and 进张 mask of each discard of ``kinds``
    that leaves the lowest shanten, and the first of them with the most unseen 进张 (an
    option): the one a full ranking puts first, found without counting the 进张 of the
    others. ``kinds`` is not empty."""
    before = keys_shanten(keys, melds, void)
    scored = discard_leaders(keys, kinds, melds, void)
    a, b, c, d = left.levels  # _unseen written out: this runs for every leader
    most, kind, mask = -1, -1, 0
    for k, (_, m) in scored.items():  # the first of equals, as a stable sort leaves them
        n = (m & a).bit_count() + (m & b).bit_count() + (m & c).bit_count() + (
            m & d).bit_count()
        if n > most:
            most, kind, mask = n, k, m
    return before, scored, Option(_NAMES[kind], before, scored[kind][0], mask, left.counts,
                                  most)


def _all_discards(keys: Sequence[bytes], melds: int, void: int | None,
                  kinds: Sequence[int], before: int, left: _Left,
                  scored: dict[int, tuple[int, int]]) -> list[Option]:
    """Every discard of ``kinds`` scored, in their order (the shanten and masks in
    ``scored`` reused)."""
    after = discard_masks(keys, melds, void, [k for k in kinds if k not in scored])
    after.update(scored)
    return [_option(_NAMES[k], before, *after[k], left) for k in kinds]


class _Reviewer:
    """Follows one round's walk; ``before`` sees the table before each event (where the
    decision is taken), ``after`` what the event made public."""

    def __init__(self, round_index: int, events: Sequence[dict[str, Any]], rules: Rules,
                 base: int, seats: Sequence[int]) -> None:
        self.round = round_index
        self.events = events
        self.rules = rules
        self.base = base
        self.seats = frozenset(seats)
        self.eyes = _Eyes()
        self.ready = [False] * 4
        self.decisions: list[Decision] = []

    # -- the table before an event ----------------------------------------------------

    def before(self, table: Table, index: int) -> None:
        if index >= len(self.events) or table.over:
            return
        event = self.events[index]
        kind = event["type"]
        try:
            if kind == "exchange":
                for seat in sorted(self.seats):
                    self._exchange(table, index, seat, event["give"][seat])
            elif kind == "dingque":
                for seat in sorted(self.seats):
                    self._dingque(table, index, seat, SUIT_LETTERS.index(event["suits"][seat]))
            elif table.expect == "discard" and table.stage == "play":
                self._turn(table, index, event)
            elif table.expect in ("claim", "rob") and table.stage == "play":
                self._window(table, index)
        except (XuezhanError, IndexError, ValueError):
            return  # a faulty log (a fifth copy, a tile not held): its verifier reports it

    def after(self, index: int, action: Action) -> None:
        if isinstance(action, Discard):
            self.eyes.show(action.tile, 1)
        elif isinstance(action, Peng):
            self.eyes.show(action.tile, 2)
        elif isinstance(action, Gang):
            kind = self.events[index].get("kind")
            if kind == "an":
                self.eyes.show(action.tile, 4, action.actor)
            else:
                self.eyes.show(action.tile, 3 if kind == "ming" else 1)

    # -- exchange and void suit -------------------------------------------------------

    def _exchange(self, table: Table, index: int, seat: int, give: Sequence[str]) -> None:
        hand = table.hands[seat]
        keys = table.keys[seat].keys
        given = [_NAMED[t] for t in give]
        left = self.eyes.left(seat, keys)
        before = keys_shanten(keys)
        options: dict[str, Option] = {}
        for suit in range(3):
            best: tuple[int, int, list[int], int] | None = None
            picks = list(_threes(keys[suit]))
            if not picks:
                continue
            shantens = suit_variant_shantens(keys, suit, [key for key, _ in picks])
            threes = [(after, [suit * 9 + r for r in ranks])
                      for after, (_, ranks) in zip(shantens, picks, strict=True)]
            fewest = min(after for after, _ in threes)
            for after, three in threes:
                if after > fewest:
                    continue  # ranked by shanten first: only the lowest need their 进张
                _, mask = ukeire_mask(_keys_without(keys, three))
                key = (after, -_unseen(mask, left), three, mask)
                if best is None or key[:2] < best[:2]:
                    best = key
            if best is not None:
                option = _option(format_tiles(best[2]), before, best[0], best[3], left)
                options[option.chosen] = option
        three = sorted(given)
        chosen = _option(format_tiles(three), before,
                         *ukeire_mask(_keys_without(keys, three)), left)
        options.setdefault(chosen.chosen, chosen)
        counts = [sum(hand[s * 9:s * 9 + 9]) for s in range(3)]
        self._decide(index, seat, "exchange", options[chosen.chosen],
                     *_first(list(options.values())),
                     {"suit_tiles": dict(zip(SUIT_LETTERS, counts, strict=True)),
                      "shortest": [SUIT_LETTERS[s] for s in range(3)
                                   if counts[s] == min(c for c in counts if c >= 3)]})

    def _dingque(self, table: Table, index: int, seat: int, chosen: int) -> None:
        hand = table.hands[seat]
        keys = table.keys[seat].keys
        before = keys_shanten(keys)
        left = self.eyes.left(seat, keys)
        options = []
        for void in range(3):
            if sum(hand) % 3 == 1:
                after, mask = ukeire_mask(keys, 0, void)
                option = _option(SUIT_LETTERS[void], before, after, mask, left)
            else:  # the dealer's 14: as good as its best discard with this void
                _, _, best = _leaders(keys, 0, void, [k for k in range(NUM_KINDS) if hand[k]],
                                      left)
                option = _option(SUIT_LETTERS[void], before, best.shanten_after, best.mask, left)
            options.append(option)
        counts = [sum(hand[s * 9:s * 9 + 9]) for s in range(3)]
        self._decide(index, seat, "dingque", options[chosen], *_first(options),
                     {"suit_tiles": dict(zip(SUIT_LETTERS, counts, strict=True)),
                      "fewest": [SUIT_LETTERS[s] for s in range(3) if counts[s] == min(counts)]})

    # -- a seat's own turn ------------------------------------------------------------

    def _turn(self, table: Table, index: int, event: dict[str, Any]) -> None:
        seat = table.current
        if seat not in self.seats or table.won[seat]:
            return
        kind = event["type"]
        if event.get("actor") != seat or kind not in ("discard", "gang"):
            return
        hand, keys = table.hands[seat], table.keys[seat].keys
        melds, void = min(len(table.melds[seat]), 4), table.voids[seat]
        legal = self._turn_actions(table, seat)
        if legal is None:  # neither a win nor a kong of the drawn tile to pass up
            discards = self._legal_discards(table, seat)
        else:
            discards = [a.tile for a in legal if isinstance(a, Discard)]
        tile = _NAMED[event["tile"]]
        if kind == "discard" and hand[tile]:
            self._discard(table, index, seat, tile, discards)
            if legal is not None:
                self._passed_self_win(table, index, seat, legal)
                self._passed_kong(table, index, seat, legal, discards)
        elif kind == "gang" and event.get("kind") in ("an", "jia") and \
                hand[tile] >= (4 if event["kind"] == "an" else 1):
            self._own_kong(index, seat, tile, event["kind"], hand, keys, melds, void,
                           discards, len(table.live_seats()))

    @staticmethod
    def _turn_actions(table: Table, seat: int) -> list[Action | Pass] | None:
        """The table's legal actions when the seat may have a win or a kong of the tile it
        drew to pass up; None when it cannot (the usual case: asking costs more than the
        discards' ranking)."""
        hand, drawn = table.hands[seat], table.last_draw
        if table.keys[seat].is_winning(table.voids[seat]) or (drawn is not None and (
                hand[drawn] == COPIES or any(m.kind is MeldKind.PENG and m.tile == drawn
                                             for m in table.melds[seat]))):
            return table.legal_actions(seat)
        return None

    def _legal_discards(self, table: Table, seat: int) -> list[Tile]:
        """The discards :meth:`Table.legal_actions` lists: every kind held, only the void
        suit's under ``void_first`` while one is held, none when the last-four rule binds
        the seat to win (docs/rules.md §2)."""
        if table.must_win == seat:
            return []
        hand, void = table.hands[seat], table.voids[seat]
        kinds = [k for k in range(NUM_KINDS) if hand[k]]
        if self.rules.void_first and void is not None:
            kinds = [k for k in kinds if k // 9 == void] or kinds
        return [TILES[k] for k in kinds]

    def _discard(self, table: Table, index: int, seat: int, tile: Tile,
                 legal: list[Tile]) -> None:
        keys = tuple(table.keys[seat].keys)  # a snapshot: the ranking may be built later
        melds, void = min(len(table.melds[seat]), 4), table.voids[seat]
        kinds: list[int] = list(legal)
        if tile not in kinds:
            kinds.append(tile)
        left = self.eyes.left(seat, keys)
        before, scored, best = _leaders(keys, melds, void, kinds, left)
        if best.chosen == _NAMES[tile]:
            chosen = best
        elif tile in scored:
            chosen = _option(_NAMES[tile], before, *scored[tile], left)
        else:
            chosen = _scored(keys, melds, void, tile, before, left)
        holds_void = void is not None and tile // 9 != void and keys[void] != _NO_TILES
        detail: dict[str, Any] = {}
        if chosen.shanten_after == 0 and not self.ready[seat]:
            detail["ready"] = self._ready(table, seat, tile, chosen)
        ranking = _Ranked(build=lambda: _all_discards(keys, melds, void, kinds, before, left,
                                                      scored))
        self._decide(index, seat, "discard", chosen, best, ranking, detail,
                     verdict="void_held" if holds_void else None)

    def _ready(self, table: Table, seat: int, tile: Tile, chosen: Option) -> dict[str, Any]:
        self.ready[seat] = True
        hand = list(table.hands[seat])
        hand[tile] -= 1
        value = ting_value(hand, table.melds[seat], table.voids[seat], self.rules, strict=False)
        return {"waits": [str(t) for t, _ in chosen.ukeire], "unseen": chosen.unseen,
                "value": None if value is None else value[0]}

    def _own_kong(self, index: int, seat: int, tile: Tile, kind: str, hand: Sequence[int],
                  keys: Sequence[bytes], melds: int, void: int | None,
                  discards: list[Tile], live: int) -> None:
        if not discards:
            return
        left = self.eyes.left(seat, keys)
        before, _, pass_best = _leaders(keys, melds, void, discards, left)
        pass_option = _option("pass", before, pass_best.shanten_after, pass_best.mask, left)
        kong = self._kong_option(keys, void, tile, 4 if kind == "an" else 1,
                                 melds + (kind == "an"), before, left)
        detail = self._kong_detail(live, seat, tile, kind, void, _minus(hand, tile, 1),
                                   kong)
        self._decide(index, seat, "gang", kong, *_first([kong, pass_option]), detail)

    def _passed_kong(self, table: Table, index: int, seat: int, legal: list[Action | Pass],
                     discards: list[Tile]) -> None:
        """A kong the seat could declare with the tile it just drew, and discarded instead."""
        drawn = table.last_draw
        kongs = [a for a in legal if isinstance(a, Gang) and a.tile == drawn]
        if drawn is None or not kongs or not discards:
            return
        hand = table.hands[seat]
        kind = kongs[0].kind.log
        keys, void = table.keys[seat].keys, table.voids[seat]
        melds = min(len(table.melds[seat]), 4)
        left = self.eyes.left(seat, keys)
        before, _, pass_best = _leaders(keys, melds, void, discards, left)
        pass_option = _option("pass", before, pass_best.shanten_after, pass_best.mask, left)
        kong = self._kong_option(keys, void, drawn, 4 if kind == "an" else 1,
                                 melds + (kind == "an"), before, left)
        detail = self._kong_detail(len(table.live_seats()), seat, drawn, kind, void,
                                   _minus(hand, drawn, 1), kong)
        self._decide(index, seat, "gang", pass_option, *_first([kong, pass_option]), detail)

    def _kong_option(self, keys: Sequence[bytes], void: int | None, tile: Tile,
                     n: int, melds_after: int, before: int, left: _Left) -> Option:
        after, mask = ukeire_mask(_keys_without(keys, (tile,) * n), min(melds_after, 4), void)
        return _option(f"gang {tile}", before, after, mask, left)

    def _kong_detail(self, live: int, seat: int, tile: Tile, kind: str, void: int | None,
                     waiting: Sequence[int], kong: Option) -> dict[str, Any]:
        """Kong money, and the waits of the hand before (``waiting``) and after the kong."""
        before = [str(t) for t in waits(waiting, void)]
        after = [str(t) for t, _ in kong.ukeire] if kong.shanten_after == 0 else []
        units = self.rules.kong_payments.get(_KONG_KIND[kind], 0) * self.base
        payers = 1 if kind == "ming" else live - 1
        return {"kong_kind": _KONG_KIND[kind], "kong_money": units * payers,
                "waits_before": before, "waits_after": after,
                "broke_ready": bool(before) and not after,
                "changed_waits": bool(before) and bool(after) and before != after}

    def _passed_self_win(self, table: Table, index: int, seat: int,
                         legal: list[Action | Pass]) -> None:
        for action in legal:
            if isinstance(action, Hu):
                self._passed_win(table, index, seat, action.tile, table.score_of(action).fan)
                return

    def _passed_win(self, table: Table, index: int, seat: int, tile: Tile, fan: int) -> None:
        keys = table.keys[seat].keys
        melds, void = min(len(table.melds[seat]), 4), table.voids[seat]
        before, mask = ukeire_mask(keys, melds, void)
        left = self.eyes.left(seat, keys)
        option = _option("pass", before, before, mask, left)
        win = _option(f"hu {tile}", before, -1, 0, left)
        self._decide(index, seat, "pass_win", option, win, _Ranked((win, option)),
                     {"tile": str(tile), "fan": fan}, verdict="passed")

    # -- an open window: claims and wins on another's tile ------------------------------

    def _window(self, table: Table, index: int) -> None:
        if table.expect == "rob" and table.pending_kong is not None:
            origin, tile, _ = table.pending_kong
        elif table.last_discard is not None:
            origin, tile = table.last_discard
        else:
            return
        winners, claim = self._window_events(index, origin)
        for seat in sorted(self.seats):
            if seat == origin or seat in winners or table.won[seat]:
                continue
            if table.hands[seat][tile] < 2 and tile not in table.waits_of(seat):
                continue  # the usual case: nothing to claim, no need to ask the table
            claims = table.legal_actions(seat)
            for action in claims:
                if isinstance(action, Hu):
                    self._passed_win(table, index - 1, seat, tile, table.score_of(action).fan)
            if not winners and any(isinstance(a, Peng | Gang) for a in claims):
                self._claim(table, index, seat, tile, claim)

    def _window_events(self, index: int, origin: int) -> tuple[set[int], tuple[int, int, str]
                                                                        | None]:
        """The seats that win the window's tile, and the claim (seat, event, type) that
        takes it, from the events that follow."""
        winners = set()
        i = index
        while i < len(self.events) and self.events[i]["type"] == "hu" and \
                self.events[i].get("target") == origin:
            winners.add(self.events[i]["actor"])
            i += 1
        claim = None
        if i < len(self.events) and not winners:
            event = self.events[i]
            if event["type"] == "peng" or (event["type"] == "gang" and event.get("kind") == "ming"):
                claim = (event["actor"], i, "gang" if event["type"] == "gang" else "peng")
        return winners, claim

    def _claim(self, table: Table, index: int, seat: int, tile: Tile,
               claim: tuple[int, int, str] | None) -> None:
        hand, void = table.hands[seat], table.voids[seat]
        keys, melds = table.keys[seat].keys, min(len(table.melds[seat]), 3)
        before, mask = ukeire_mask(keys, melds, void)
        left = self.eyes.left(seat, keys)  # the pair to peng with moves to a meld: still seen
        pass_option = _option("pass", before, before, mask, left)
        options = [pass_option]
        after_peng = _minus(hand, tile, 2)
        kinds = [k for k in range(NUM_KINDS) if after_peng[k]]
        if self.rules.void_first and void is not None:
            kinds = [k for k in kinds if k // 9 == void] or kinds
        if kinds:
            _, _, best = _leaders(_keys_without(keys, (tile, tile)), melds + 1, void, kinds,
                                  left)
            options.append(_option(f"peng {tile}", before, best.shanten_after, best.mask, left))
        kong = None
        if hand[tile] >= 3:
            kong = self._kong_option(keys, void, tile, 3, melds + 1, before, left)
            options.append(kong)
        taken = claim is not None and claim[0] == seat
        kind = claim[2] if taken and claim else ("gang" if kong else "peng")
        event = claim[1] if taken and claim else index - 1
        chosen = next((o for o in options if o.chosen.startswith(kind)), pass_option) \
            if taken else pass_option
        detail: dict[str, Any] = {"tile": str(tile)}
        if kong is not None:
            detail.update(self._kong_detail(len(table.live_seats()), seat, tile, "ming", void,
                                            hand, kong))
        self._decide(event, seat, kind, chosen, *_first(options), detail)

    # -- recording --------------------------------------------------------------------

    def _decide(self, index: int, seat: int, kind: str, chosen: Option, best: Option,
                ranking: _Ranked, detail: dict[str, Any], verdict: str | None = None) -> None:
        """Record a decision: ``best`` is the option ``ranking`` puts first."""
        judged, loss = _judge(chosen, best)
        self.decisions.append(Decision(
            self.round, index, seat, kind, chosen.chosen, verdict or judged,
            chosen.shanten_before, chosen.shanten_after, chosen, ranking, loss,
            detail))


def _minus(hand: Sequence[int], tile: int, n: int) -> list[int]:
    out = list(hand)
    out[tile] -= n
    return out


def _threes(key: bytes) -> Iterator[tuple[bytes, list[int]]]:
    """Every distinct choice of three tiles from one suit's key, in the order of their
    ranks: the key left, and the ranks taken."""
    tiles = [r for r in range(9) for _ in range(key[r])]
    for ranks in dict.fromkeys(combinations(tiles, 3)):  # the first of equal choices
        left = bytearray(key)
        for r in ranks:
            left[r] -= 1
        yield bytes(left), list(ranks)


# -- the command line -----------------------------------------------------------------


def review_json(reviews: Sequence[RoundReview], seat: int | None = None) -> dict[str, Any]:
    """What ``xuezhan review`` prints: each round's decisions and summary, and each seat's
    summary over the rounds reviewed."""
    seats = range(4) if seat is None else (seat,)
    totals = summarize(reviews)
    return {"rounds": [{"round": r.round, "decisions": [d.to_json() for d in r.decisions],
                        "summary": [r.summary(s).to_json() for s in seats]} for r in reviews],
            "summary": [totals[s].to_json() for s in seats]}


def format_review(reviews: Sequence[RoundReview], seat: int | None = None) -> str:
    """The review as a readable table: one line per decision, then each seat's summary."""
    lines = []
    for r in reviews:
        lines.append(f"round {r.round}")
        for d in r.decisions:
            best = d.alternatives[0] if d.alternatives else None
            unseen = sum(n for _, n in d.ukeire)
            text = (f"  e{d.event:<3} seat {d.seat} {d.kind:<8} {d.chosen:<9} {d.verdict:<9}"
                    f" 向听 {d.shanten_before}→{d.shanten_after}  进张 {unseen:>2}")
            if d.loss:
                text += f" (−{d.loss})"
            if best is not None and d.verdict not in ("best", "passed"):
                text += f"  best: {best.chosen} 向听 {best.shanten_after} 进张 {best.unseen}"
            if d.kind == "pass_win":
                text += f"  passed {d.detail['tile']} for {d.detail['fan']} fan"
            lines.append(text)
    for s in summarize(reviews):
        if seat is not None and s.seat != seat:
            continue
        j = s.to_json()
        lines.append(f"seat {s.seat}: {s.decisions} decisions, best or equal "
                     f"{_percent(j['share_best_or_equal'])}, 进张 lost {s.ukeire_lost} over "
                     f"{s.discards} discards, mistakes {j['mistakes'] or 'none'}, "
                     f"wins passed {s.passed_wins}")
    return "\n".join(lines)


def _percent(share: float | None) -> str:
    return "—" if share is None else f"{share:.0%}"


def _cli_arguments(p: argparse.ArgumentParser) -> None:
    p.description = ("Review every decision of a log: each exchange, void suit, discard, "
                     "claim, kong and passed win, graded by shanten and unseen 进张.")
    p.add_argument("file", help="a round log (docs/format.md), or - for standard input")
    p.add_argument("--round", type=int, help="only this round (0-based)")
    p.add_argument("--seat", type=int, choices=range(4), help="only this seat's decisions")
    p.add_argument("--text", action="store_true", help="print a readable table instead")


def _cli_run(args: argparse.Namespace) -> int:
    document = read_document(read_input(args.file))
    if not isinstance(document, dict):
        raise LogFormatError("the document does not match the log format")
    if args.round is None:
        reviews = review_document(document, args.seat)
    else:
        reviews = [review_round(document, args.round, args.seat)]
    if args.text:
        print(format_review(reviews, args.seat))
    else:
        print(json.dumps(review_json(reviews, args.seat), ensure_ascii=False, indent=2))
    return 0


CLI_COMMANDS: dict[str, tuple[Callable[[argparse.ArgumentParser], None],
                              Callable[[argparse.Namespace], int]]] = {
    "review": (_cli_arguments, _cli_run),
}
