"""The lean replay of a regular round: most events applied in place, no fault reporting.

A round is mostly draws and discards that break no rule. :func:`replay_regular` plays
those straight from the event dicts onto a :class:`~xuezhan.table.Table`'s state —
no action object, no problem list, the claim window of a discard nobody can win closed
by one wait look-up a seat — and hands every other event (an exchange, a void
declaration, a claim, a kong, a win, a draw in the last four, a discard someone waits
on) to :meth:`Table.play`, the lenient walk. The moment anything reports a problem the
round is given up (``None``): the caller replays it from the start on the lenient walk,
which is the specification and names every fault with its locator (docs/format.md).

An event is applied here only when :meth:`Table.play` would accept it without a problem
and leave the same state, so a round this replays to its end is exactly the lenient
walk's table; ``tests/xuezhan/test_fastpath.py`` checks that on the whole corpus, legal
and corrupted.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xuezhan.actions import action_from_json
from xuezhan.rules import Rules
from xuezhan.table import CLAIM, DISCARD, DRAW, REPLACEMENT, Table
from xuezhan.tiles import TILES, Tile, parse_tiles

_NAMED: dict[str, Tile] = {str(t): t for t in TILES}


def replay_regular(round_doc: dict[str, Any], rules: Rules, base: int = 1) -> Table | None:
    """The table after a schema-valid round, or None when the deal or any event breaks a
    rule (or the end of the log does): the lenient walk then reports it."""
    wall = parse_tiles(round_doc["wall"]) if "wall" in round_doc else None
    table = Table(rules, round_doc["dealer"], [parse_tiles(h) for h in round_doc["hands"]],
                  wall=wall, base=base, dice=round_doc.get("dice"))
    if table.deal_problems:
        return None
    back = rules.kong_draw == "back"
    last_four_rule = rules.last_four != "off"
    void_first = rules.void_first
    play = table.play
    for index, event in enumerate(round_doc["events"]):
        kind = event["type"]
        tile = _NAMED.get(event.get("tile"))
        if tile is not None and table.must_win is None and table.stage == "play":
            if kind == "draw":
                if _draw(table, event["actor"], tile, back, last_four_rule):
                    table.event_index = index
                    continue
            elif kind == "discard" and _discard(table, event["actor"], tile, void_first):
                table.event_index = index
                continue
        if play(action_from_json(event), index):
            return None
    if table.finish():
        return None
    return table


def _draw(table: Table, seat: int, tile: Tile, back: bool, last_four_rule: bool) -> bool:
    """Apply a draw that breaks no rule (closing a discard's window nobody can win);
    False, with nothing changed, for any other draw."""
    expect = table.expect
    closing = expect is CLAIM
    if closing:
        last = table.last_discard
        if last is None or table.claim_winners:
            return False
        discarder, discard = last
        won = table.won
        if sum(won) >= 3 or table.wall_left == 0:
            return False
        for other in range(4):
            if other != discarder and not won[other] and discard in _waits(table, other):
                return False  # a pass to register: the lenient walk prices it
        if seat != table.next_live(discarder):
            return False
    elif (expect is not DRAW and expect is not REPLACEMENT) or seat != table.current:
        return False
    replacement = expect is REPLACEMENT
    wall = table.wall
    left = table.wall_left
    if wall is None or left <= 0 or table.wall_front >= table.wall_back:
        return False
    if last_four_rule and (table.last_four or left <= 4):
        return False  # a winning draw in the last four binds the player to win
    from_back = replacement and back
    position = table.wall_back - 1 if from_back else table.wall_front
    if wall[position] != tile:
        return False
    if closing:  # what the window's close does when nobody could win the discard
        table.last_discard = None
        table.kong_before_discard = None
        table.claim_winners = []
    if from_back:
        table.wall_back = position
    else:
        table.wall_front = position + 1
    table.last_four = table.last_four or left <= 4
    table.wall_left = left - 1
    table.hands[seat][tile] += 1
    table.keys[seat].add(tile)
    table._waits[seat] = None
    table.draws[seat] += 1
    table.passed[seat] = None
    table.current, table.expect, table.last_draw = seat, DISCARD, tile
    if not replacement:
        table.replacement_of = None
    return True


def _discard(table: Table, seat: int, tile: Tile, void_first: bool) -> bool:
    """Apply a discard that breaks no rule; False, with nothing changed, otherwise."""
    if table.expect is not DISCARD or seat != table.current or table.won[seat]:
        return False
    hand = table.hands[seat]
    if not hand[tile]:
        return False
    void = table.voids[seat]
    if void_first and void is not None and tile // 9 != void and _holds(hand, void):
        return False
    hand[tile] -= 1
    table.keys[seat].remove(tile)
    table._waits[seat] = None
    table.discards[seat].append(tile)
    table.kong_before_discard = table.replacement_of
    table.replacement_of = None
    table.expect = CLAIM
    table.last_discard = (seat, tile)
    table.claim_winners = []
    table.last_draw = None
    return True


def _waits(table: Table, seat: int) -> frozenset[Tile]:
    cached = table._waits[seat]
    return cached if cached is not None else table.waits_of(seat)


def _holds(hand: Sequence[int], suit: int) -> bool:
    return any(hand[suit * 9:suit * 9 + 9])
