"""Illegal logs on purpose: one realistic mutation of a legal document, and what it breaks.

``corrupt(doc, seed)`` copies a round log (docs/format.md) and applies one mutation chosen by
``seed`` — a tile the player does not hold, a fifth copy, a draw out of turn, a false
win, a win holding the void suit, a peng on a discard that was won, a changed result, a
missing event, a truncated round — or a structural fault (a bad tile string, wrong
types, missing fields, seat 4, deep nesting, events that are not objects, huge numbers).
It returns the new document and a :class:`Mutation` naming the kind, the round and event
index it touched and the violation codes :func:`~xuezhan.replay.verify_document` must
report there. The input is never changed.

The expected codes hold when the input is legal and complete (a simulated match, say);
the semantic kinds look at the table state before the event they change to pick a
mutation that is certainly illegal (a tile the seat does not hold, a hand that does not
win). A few kinds may leave the log legal (two events swapped, another tile discarded);
their mutation says so with ``may_stay_legal`` and names no codes.

>>> from xuezhan.sim.simulate import simulate_match
>>> from xuezhan.replay import verify_document
>>> bad, m = corrupt(simulate_match(3, rounds=1), seed=1, kind="draw_out_of_turn")
>>> m.codes, detected(verify_document(bad), m)
(frozenset({'draw_out_of_turn'}), True)
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from xuezhan.errors import XuezhanError
from xuezhan.files import read_input
from xuezhan.hand import is_seven_pairs, is_winning
from xuezhan.replay import Report, RoundWalk, load_document
from xuezhan.rules import Rules
from xuezhan.schema import validate_document
from xuezhan.table import Table
from xuezhan.tiles import SUIT_LETTERS, TILES, parse_tiles

Doc = dict[str, Any]
Event = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Mutation:
    """One change made to a document, and the violations it must cause.

    ``round``/``event`` index the document as it is *after* the change (``event`` is
    None for a change to the deal, the result or the document itself); ``codes`` are the
    violation codes of which the verifier must report at least one at that place.
    """

    kind: str
    round: int | None
    event: int | None
    codes: frozenset[str]
    description: str
    may_stay_legal: bool = False

    @property
    def expect_legal(self) -> bool:
        """True when the mutation is known to leave the document legal."""
        return not self.codes and not self.may_stay_legal

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "round": self.round, "event": self.event,
                "codes": sorted(self.codes), "description": self.description,
                "may_stay_legal": self.may_stay_legal}

    def __str__(self) -> str:
        where = "document" if self.round is None else f"round {self.round}" + (
            "" if self.event is None else f" event {self.event}")
        expect = ", ".join(sorted(self.codes)) or (
            "may stay legal" if self.may_stay_legal else "stays legal")
        return f"{self.kind} at {where}: {self.description} (expect: {expect})"


def detected(report: Report, mutation: Mutation) -> bool:
    """Whether ``report`` names one of the mutation's codes at the mutation's place."""
    return any(v.code in mutation.codes and v.round == mutation.round
               and v.event == mutation.event for v in report.violations)


def corrupt(doc: object, seed: int, kind: str | None = None) -> tuple[Any, Mutation]:
    """A mutated copy of ``doc`` and what was done to it; ``doc`` itself is untouched.

    :raises XuezhanError: for an unknown ``kind``, or when no mutation (or not the one
        asked for) applies to this document.
    """
    if kind is not None and kind not in KINDS:
        raise XuezhanError(f"unknown mutation kind {kind!r} (known: {', '.join(KINDS)})")
    rng = random.Random(seed)
    ctx = _Context.of(doc)
    order = [kind] if kind is not None else rng.sample(list(KINDS), len(KINDS))
    for name in order:
        applied = KINDS[name](ctx, rng)
        if applied is not None:
            return applied
    raise XuezhanError("no mutation applies to this document" if kind is None
                       else f"the mutation {kind!r} does not apply to this document")


# -- what the mutations need to know ---------------------------------------------------


@dataclass
class _Context:
    doc: Any
    rules: Rules | None  # None when the document is not a schema-valid match

    @classmethod
    def of(cls, doc: object) -> _Context:
        rules = None
        try:
            if not validate_document(doc):
                assert isinstance(doc, dict)
                rules = Rules.from_json(doc.get("ruleset", "chengdu"))
        except (XuezhanError, RecursionError):
            rules = None
        return cls(doc, rules)

    @property
    def valid(self) -> bool:
        return self.rules is not None

    def rounds(self, rng: random.Random) -> list[int]:
        """Round indexes in a random order (none when the document is not valid)."""
        if not self.valid:
            return []
        return rng.sample(range(len(self.doc["rounds"])), len(self.doc["rounds"]))

    def copy_round(self, r: int) -> tuple[Doc, dict[str, Any]]:
        """A copy of the document sharing every round but ``r``, which is deep-copied."""
        doc = dict(self.doc)
        doc["rounds"] = list(doc["rounds"])
        doc["rounds"][r] = copy.deepcopy(doc["rounds"][r])
        return doc, doc["rounds"][r]

    def table_before(self, r: int, stop: int) -> Table:
        """The table of round ``r`` after replaying its events before index ``stop``."""
        assert self.rules is not None
        walk = RoundWalk(self.doc["rounds"][r], self.rules, self.doc.get("base", 1), limit=None)
        if stop > 0:
            for index, *_ in walk:  # stops before the walk runs out: no Table.finish
                if index == stop - 1:
                    break
        return walk.table


Applied = tuple[Any, Mutation] | None


def _events_of(ctx: _Context, r: int, *types: str) -> list[int]:
    return [i for i, e in enumerate(ctx.doc["rounds"][r]["events"]) if e["type"] in types]


def _mutation(kind: str, r: int | None, i: int | None, codes: str | tuple[str, ...],
              description: str, may_stay_legal: bool = False) -> Mutation:
    found = frozenset((codes,) if isinstance(codes, str) else codes)
    return Mutation(kind, r, i, found, description, may_stay_legal)


# -- the realistic (semantic) mutations -------------------------------------------------


def _tile_not_in_hand(ctx: _Context, rng: random.Random) -> Applied:
    for r in ctx.rounds(rng):
        discards = _events_of(ctx, r, "discard")
        if not discards:
            continue
        i = rng.choice(discards)
        seat = ctx.doc["rounds"][r]["events"][i]["actor"]
        hand = ctx.table_before(r, i).hands[seat]
        tile = TILES[rng.choice([t for t in range(27) if hand[t] == 0])]
        doc, round_doc = ctx.copy_round(r)
        old = round_doc["events"][i]["tile"]
        round_doc["events"][i]["tile"] = str(tile)
        return doc, _mutation("tile_not_in_hand", r, i, "tile_not_in_hand",
                              f"seat {seat} discards {tile}, which it does not hold "
                              f"(was {old})")
    return None


def _fifth_copy(ctx: _Context, rng: random.Random) -> Applied:
    # Without a wall to compare with, a drawn tile is counted against the four copies.
    for r in ctx.rounds(rng):
        round_doc = ctx.doc["rounds"][r]
        seen = [0] * 27
        for hand in round_doc["hands"]:
            for t in parse_tiles(hand):
                seen[t] += 1
        candidates: list[tuple[int, list[int]]] = []
        for i, event in enumerate(round_doc["events"]):
            if event["type"] != "draw":
                continue
            full = [t for t in range(27) if seen[t] >= 4 and str(TILES[t]) != event["tile"]]
            if full:
                candidates.append((i, full))
            seen[parse_tiles([event["tile"]])[0]] += 1
        if not candidates:
            continue
        i, full = rng.choice(candidates)
        doc, round_doc = ctx.copy_round(r)
        round_doc.pop("wall", None)
        tile = TILES[rng.choice(full)]
        event = round_doc["events"][i]
        old, event["tile"] = event["tile"], str(tile)
        return doc, _mutation("fifth_copy", r, i, "fifth_copy",
                              f"seat {event['actor']} draws a fifth {tile} (was {old}; "
                              "the round's wall is dropped)")
    return None


def _draw_out_of_turn(ctx: _Context, rng: random.Random) -> Applied:
    for r in ctx.rounds(rng):
        draws = _events_of(ctx, r, "draw")
        if not draws:
            continue
        i = rng.choice(draws)
        seat = ctx.doc["rounds"][r]["events"][i]["actor"]
        won = ctx.table_before(r, i).won
        others = [s for s in range(4) if s != seat and not won[s]]
        if not others:
            continue
        doc, round_doc = ctx.copy_round(r)
        other = rng.choice(others)
        round_doc["events"][i]["actor"] = other
        return doc, _mutation("draw_out_of_turn", r, i, "draw_out_of_turn",
                              f"seat {other} draws in seat {seat}'s turn")
    return None


def _false_win(ctx: _Context, rng: random.Random) -> Applied:
    for r in ctx.rounds(rng):
        events = ctx.doc["rounds"][r]["events"]
        draws = [i for i in _events_of(ctx, r, "draw") if i + 1 < len(events)
                 and events[i + 1]["type"] == "discard"
                 and events[i + 1]["actor"] == events[i]["actor"]]
        for i in rng.sample(draws, min(len(draws), 8)):
            seat, tile = events[i]["actor"], events[i]["tile"]
            table = ctx.table_before(r, i + 1)
            hand, void, melds = table.hands[seat], table.voids[seat], table.melds[seat]
            if void is not None and any(hand[void * 9:void * 9 + 9]):
                continue  # that would be a win holding the void suit
            if is_winning(hand) or (not melds and is_seven_pairs(hand)):
                continue
            doc, round_doc = ctx.copy_round(r)
            round_doc["events"][i + 1] = {"type": "hu", "actor": seat, "tile": tile}
            return doc, _mutation("false_win", r, i + 1, "win_not_winning_hand",
                                  f"seat {seat} declares a self-drawn win on {tile} with a "
                                  "hand that does not win, instead of discarding")
    return None


def _void_win(ctx: _Context, rng: random.Random) -> Applied:
    for r in ctx.rounds(rng):
        events = ctx.doc["rounds"][r]["events"]
        declared = _events_of(ctx, r, "dingque")
        wins = _events_of(ctx, r, "hu")
        if len(declared) != 1 or not wins:
            continue
        i = rng.choice(wins)
        seat, tile = events[i]["actor"], parse_tiles([events[i]["tile"]])[0]
        table = ctx.table_before(r, i)
        suits = {t // 9 for t in range(27) if table.hands[seat][t]} | {tile // 9}
        suits |= {m.tile // 9 for m in table.melds[seat]}
        suits.discard(table.voids[seat])
        if not suits:
            continue
        void = SUIT_LETTERS[rng.choice(sorted(suits))]
        doc, round_doc = ctx.copy_round(r)
        round_doc["events"][declared[0]]["suits"][seat] = void
        return doc, _mutation("void_win", r, i, "win_with_void_suit",
                              f"seat {seat} now declares {void} void at event {declared[0]}, "
                              f"and still wins on {tile} holding {void} tiles")
    return None


def _peng_after_win(ctx: _Context, rng: random.Random) -> Applied:
    for r in ctx.rounds(rng):
        events = ctx.doc["rounds"][r]["events"]
        starts = [i for i in _events_of(ctx, r, "hu") if "target" in events[i]
                  and i > 0 and events[i - 1]["type"] == "discard"]
        if not starts:
            continue
        i = rng.choice(starts)
        target, tile = events[i]["target"], events[i]["tile"]
        end = i
        while end + 1 < len(events) and events[end + 1]["type"] == "hu" and \
                events[end + 1].get("target") == target:
            end += 1
        table = ctx.table_before(r, end + 1)
        claimers = [s for s in range(4) if s != target and not table.won[s]]
        if not claimers:
            continue
        t = parse_tiles([tile])[0]
        holding = [s for s in claimers if table.hands[s][t] >= 2]
        seat = rng.choice(holding or claimers)
        doc, round_doc = ctx.copy_round(r)
        round_doc["events"].insert(end + 1, {"type": "peng", "actor": seat, "target": target,
                                             "tile": tile})
        return doc, _mutation("peng_after_win", r, end + 1, "claim_on_won_discard",
                              f"seat {seat} pengs {tile} from seat {target} after it was won")
    return None


def _changed_result(ctx: _Context, rng: random.Random) -> Applied:
    for r in ctx.rounds(rng):
        if "deltas" not in ctx.doc["rounds"][r].get("result", {}):
            continue
        doc, round_doc = ctx.copy_round(r)
        deltas = round_doc["result"]["deltas"]
        a, b = rng.sample(range(4), 2)
        k = rng.randint(1, 8)
        deltas[a] += k
        deltas[b] -= k
        return doc, _mutation("changed_result", r, None, "result_mismatch",
                              f"the recorded result moves {k} from seat {b} to seat {a}")
    return None


def _changed_payment(ctx: _Context, rng: random.Random) -> Applied:
    for r in ctx.rounds(rng):
        payments = ctx.doc["rounds"][r].get("result", {}).get("payments")
        if not payments:
            continue
        doc, round_doc = ctx.copy_round(r)
        j = rng.randrange(len(payments))
        payment = round_doc["result"]["payments"][j]
        key: Any = "amount" if isinstance(payment, dict) else 2
        payment[key] += rng.randint(1, 8)
        return doc, _mutation("changed_payment", r, None, "result_payment_mismatch",
                              f"recorded payment {j} now says {payment[key]}")
    return None


_AFTER_MISSING_DRAW = {"discard": "discard_out_of_turn", "hu": "win_out_of_turn",
                       "gang": "kong_out_of_turn"}


def _missing_event(ctx: _Context, rng: random.Random) -> Applied:
    for r in ctx.rounds(rng):
        events = ctx.doc["rounds"][r]["events"]
        draws = [i for i in _events_of(ctx, r, "draw") if i + 1 < len(events)
                 and events[i + 1]["actor"] == events[i]["actor"]
                 and events[i + 1]["type"] in _AFTER_MISSING_DRAW
                 and "target" not in events[i + 1]]
        if not draws:
            continue
        i = rng.choice(draws)
        doc, round_doc = ctx.copy_round(r)
        gone = round_doc["events"].pop(i)
        code = _AFTER_MISSING_DRAW[round_doc["events"][i]["type"]]
        return doc, _mutation("missing_event", r, i, code,
                              f"seat {gone['actor']}'s draw of {gone['tile']} is missing")
    return None


def _truncate(ctx: _Context, rng: random.Random, keep_result: bool) -> Applied:
    rounds = ctx.rounds(rng) if keep_result else (
        [len(ctx.doc["rounds"]) - 1] if ctx.valid else [])
    for r in rounds:
        # cut just before a draw: the wall is not empty and no must-win draw is pending
        cuts = _events_of(ctx, r, "draw")
        if not cuts or (keep_result and "result" not in ctx.doc["rounds"][r]):
            continue
        k = rng.choice(cuts)
        doc, round_doc = ctx.copy_round(r)
        n = len(round_doc["events"])
        del round_doc["events"][k:]
        if keep_result:
            return doc, _mutation("truncated_round", r, None, "result_on_incomplete_round",
                                  f"the round stops after {k} of {n} events but keeps its "
                                  "result")
        round_doc.pop("result", None)
        return doc, _mutation("abandoned_round", r, None, (),
                              f"the round stops after {k} of {n} events and records no "
                              "result: incomplete, not illegal")
    return None


def _draw_not_wall_tile(ctx: _Context, rng: random.Random) -> Applied:
    for r in ctx.rounds(rng):
        draws = _events_of(ctx, r, "draw")
        if not draws or "wall" not in ctx.doc["rounds"][r]:
            continue
        i = rng.choice(draws)
        doc, round_doc = ctx.copy_round(r)
        event = round_doc["events"][i]
        old = event["tile"]
        event["tile"] = str(rng.choice([t for t in TILES if str(t) != old]))
        return doc, _mutation("draw_not_wall_tile", r, i, "draw_not_wall_tile",
                              f"seat {event['actor']} draws {event['tile']}, the wall gives "
                              f"{old}")
    return None


def _event_after_end(ctx: _Context, rng: random.Random) -> Applied:
    for r in ctx.rounds(rng):
        round_doc = ctx.doc["rounds"][r]
        if not round_doc["events"] or "result" not in round_doc:
            continue  # only a round with a result is taken to be complete
        doc, round_doc = ctx.copy_round(r)
        seat = rng.randrange(4)
        tile = str(rng.choice(TILES))
        round_doc["events"].append({"type": rng.choice(("draw", "discard")), "actor": seat,
                                    "tile": tile})
        i = len(round_doc["events"]) - 1
        return doc, _mutation("event_after_end", r, i, "event_after_end",
                              f"an event by seat {seat} after the round ended")
    return None


def _action_by_winner(ctx: _Context, rng: random.Random) -> Applied:
    for r in ctx.rounds(rng):
        events = ctx.doc["rounds"][r]["events"]
        wins = _events_of(ctx, r, "hu")
        later = [(w, j) for w in wins for j in range(w + 1, len(events))
                 if events[j]["type"] in ("draw", "discard")
                 and events[j]["actor"] != events[w]["actor"]]
        if not later:
            continue
        w, j = rng.choice(later)
        doc, round_doc = ctx.copy_round(r)
        winner = events[w]["actor"]
        round_doc["events"][j]["actor"] = winner
        return doc, _mutation("action_by_winner", r, j, "action_by_winner",
                              f"seat {winner}, who won at event {w}, plays event {j}")
    return None


def _swap_events(ctx: _Context, rng: random.Random) -> Applied:
    for r in ctx.rounds(rng):
        n = len(ctx.doc["rounds"][r]["events"])
        if n < 2:
            continue
        i = rng.randrange(n - 1)
        doc, round_doc = ctx.copy_round(r)
        events = round_doc["events"]
        events[i], events[i + 1] = events[i + 1], events[i]
        return doc, _mutation("swap_events", r, i, (), f"events {i} and {i + 1} swapped "
                              "(two wins on one discard stay legal)", may_stay_legal=True)
    return None


def _other_discard(ctx: _Context, rng: random.Random) -> Applied:
    for r in ctx.rounds(rng):
        discards = _events_of(ctx, r, "discard")
        if not discards:
            continue
        i = rng.choice(discards)
        event = ctx.doc["rounds"][r]["events"][i]
        hand = ctx.table_before(r, i).hands[event["actor"]]
        held = [str(TILES[t]) for t in range(27) if hand[t] and str(TILES[t]) != event["tile"]]
        if not held:
            continue
        doc, round_doc = ctx.copy_round(r)
        round_doc["events"][i]["tile"] = rng.choice(held)
        return doc, _mutation("other_discard", r, i, (), f"seat {event['actor']} discards "
                              f"{round_doc['events'][i]['tile']} instead of {event['tile']}",
                              may_stay_legal=True)
    return None


# -- structurally broken documents: the verifier must answer "schema" ------------------


def _event_place(ctx: _Context, rng: random.Random,
                 want: Callable[[Event], bool] = lambda e: True) -> tuple[int, int] | None:
    for r in ctx.rounds(rng):
        found = [i for i, e in enumerate(ctx.doc["rounds"][r]["events"]) if want(e)]
        if found:
            return r, rng.choice(found)
    return None


_BAD_TILES = ("0m", "10m", "5z", "5M", "m5", "", "5 m", "５m", "🀄", "1mm", "east", "9",
              " 5m", "5\u200bm")


def _bad_tile(ctx: _Context, rng: random.Random) -> Applied:
    place = _event_place(ctx, rng, lambda e: "tile" in e)
    if place is None:
        return None
    r, i = place
    doc, round_doc = ctx.copy_round(r)
    bad = rng.choice(_BAD_TILES)
    if rng.random() < 0.25:
        seat = rng.randrange(4)
        hand = round_doc["hands"][seat]
        hand[rng.randrange(len(hand))] = bad
        return doc, _mutation("bad_tile", r, None, "schema",
                              f"a tile of seat {seat}'s dealt hand is written {bad!r}")
    round_doc["events"][i]["tile"] = bad
    return doc, _mutation("bad_tile", r, i, "schema", f"the event's tile is written {bad!r}")


_WRONG_VALUES: tuple[Any, ...] = ("1", 1.5, None, [], {}, True, "one", -1.0, [0])


def _wrong_type(ctx: _Context, rng: random.Random) -> Applied:
    place = _event_place(ctx, rng)
    if place is None:
        return None
    r, i = place
    doc, round_doc = ctx.copy_round(r)
    event = round_doc["events"][i]
    key = rng.choice(sorted(event))
    value = rng.choice(_WRONG_VALUES)
    if key == "tile":
        value = rng.choice((5, None, ["5m"], {"tile": "5m"}, True))
    event[key] = value
    return doc, _mutation("wrong_type", r, i, "schema", f"the event's {key} is {value!r}")


def _integral_float(ctx: _Context, rng: random.Random) -> Applied:
    # JSON Schema counts 1.0 as an integer; the engine must still not index a list with it
    for r in ctx.rounds(rng):
        doc, round_doc = ctx.copy_round(r)
        events = round_doc["events"]
        with_seat = [i for i, e in enumerate(events) if "actor" in e or "die" in e]
        choice = rng.randrange(4)
        if choice == 0:
            doc["base"] = float(doc.get("base", 1))
            return doc, _mutation("integral_float", None, None, "schema",
                                  f"the base is written {doc['base']!r}")
        if choice == 1 or not with_seat:
            round_doc["dealer"] = float(round_doc["dealer"])
            return doc, _mutation("integral_float", r, None, "schema",
                                  f"the dealer is written {round_doc['dealer']!r}")
        i = rng.choice(with_seat)
        key = "die" if "die" in events[i] else ("target" if "target" in events[i]
                                               and choice == 3 else "actor")
        events[i][key] = float(events[i][key])
        return doc, _mutation("integral_float", r, i, "schema",
                              f"the event's {key} is written {events[i][key]!r}")
    return None


_REQUIRED = {"exchange": ("type", "die", "give"), "dingque": ("type", "suits"),
             "draw": ("type", "actor", "tile"), "discard": ("type", "actor", "tile"),
             "peng": ("type", "actor", "target", "tile"), "gang": ("type", "actor", "kind", "tile"),
             "hu": ("type", "actor", "tile")}


def _missing_field(ctx: _Context, rng: random.Random) -> Applied:
    place = _event_place(ctx, rng)
    if place is None:
        return None
    r, i = place
    doc, round_doc = ctx.copy_round(r)
    where = rng.randrange(4)
    if where == 0:
        key = rng.choice(("dealer", "hands", "events"))
        del round_doc[key]
        return doc, _mutation("missing_field", r, None, "schema", f"the round has no {key}")
    if where == 1:
        key = rng.choice(("format", "version", "players", "rounds"))
        del doc[key]
        return doc, _mutation("missing_field", None, None, "schema",
                              f"the document has no {key}")
    event = round_doc["events"][i]
    key = rng.choice(_REQUIRED[event["type"]])
    del event[key]
    return doc, _mutation("missing_field", r, i, "schema", f"the event has no {key}")


def _seat_4(ctx: _Context, rng: random.Random) -> Applied:
    place = _event_place(ctx, rng, lambda e: "actor" in e)
    if place is None:
        return None
    r, i = place
    doc, round_doc = ctx.copy_round(r)
    seat = rng.choice((4, 5, -1, 7))
    if rng.random() < 0.2:
        round_doc["dealer"] = seat
        return doc, _mutation("seat_4", r, None, "schema", f"seat {seat} deals")
    event = round_doc["events"][i]
    key = "target" if "target" in event and rng.random() < 0.5 else "actor"
    event[key] = seat
    return doc, _mutation("seat_4", r, i, "schema", f"the event's {key} is seat {seat}")


def _nest(depth: int, as_dict: bool) -> Any:
    value: Any = "5m"
    for _ in range(depth):
        value = {"type": value} if as_dict else [value]
    return value


def _deep_nesting(ctx: _Context, rng: random.Random) -> Applied:
    place = _event_place(ctx, rng)
    if place is None:
        return None
    r, i = place
    doc, round_doc = ctx.copy_round(r)
    # deep enough to hit the recursion limit, yet json.dumps/json.loads still manage it
    depth = rng.choice((50, 500, 900, 960, 985))
    as_dict = rng.random() < 0.5
    round_doc["events"][i] = _nest(depth, as_dict)
    return doc, _mutation("deep_nesting", r, i, "schema", f"the event is {depth} nested "
                          + ("objects" if as_dict else "lists"))


def _non_dict_event(ctx: _Context, rng: random.Random) -> Applied:
    place = _event_place(ctx, rng)
    if place is None:
        return None
    r, i = place
    doc, round_doc = ctx.copy_round(r)
    event = round_doc["events"][i]
    value = rng.choice((None, 3, True, event.get("type"), list(event.values()),
                        json.dumps(event), [event]))
    round_doc["events"][i] = value
    return doc, _mutation("non_dict_event", r, i, "schema", f"the event is {value!r}"[:120])


def _huge_number(ctx: _Context, rng: random.Random) -> Applied:
    place = _event_place(ctx, rng, lambda e: "actor" in e or "die" in e)
    if place is None:
        return None
    r, i = place
    doc, round_doc = ctx.copy_round(r)
    huge = rng.choice((1, -1)) * 10 ** rng.randint(9, 400)
    where = rng.randrange(4)
    if where == 0:
        doc["base"] = abs(huge)
        return doc, _mutation("huge_number", None, None, "schema", "the base is 10^"
                              f"{len(str(abs(huge))) - 1}")
    if where == 1 and "result" in round_doc:
        round_doc["result"]["deltas"][rng.randrange(4)] = huge
        return doc, _mutation("huge_number", r, None, "result_mismatch",
                              "a recorded delta is ±10^" f"{len(str(abs(huge))) - 1}")
    if where == 2:
        round_doc["dice"] = [huge, 3]
        return doc, _mutation("huge_number", r, None, "schema", "a die shows ±10^"
                              f"{len(str(abs(huge))) - 1}")
    event = round_doc["events"][i]
    key = "die" if "die" in event else "actor"
    event[key] = huge
    return doc, _mutation("huge_number", r, i, "schema", f"the event's {key} is ±10^"
                          f"{len(str(abs(huge))) - 1}")


def _extra_field(ctx: _Context, rng: random.Random) -> Applied:
    place = _event_place(ctx, rng)
    if place is None:
        return None
    r, i = place
    doc, round_doc = ctx.copy_round(r)
    round_doc["events"][i][rng.choice(("comment", "seat", "time", "tiles"))] = "x"
    return doc, _mutation("extra_field", r, i, "schema", "the event has an unknown field")


def _unknown_type(ctx: _Context, rng: random.Random) -> Applied:
    place = _event_place(ctx, rng)
    if place is None:
        return None
    r, i = place
    doc, round_doc = ctx.copy_round(r)
    name = rng.choice(("chi", "tsumo", "Discard", "", "pass", "hu "))
    round_doc["events"][i]["type"] = name
    return doc, _mutation("unknown_type", r, i, "schema", f"the event's type is {name!r}")


def _not_a_match(ctx: _Context, rng: random.Random) -> Applied:
    # works on any input: the document replaced by something that is not a match object
    choice = rng.randrange(4)
    if choice == 0 and isinstance(ctx.doc, dict) and "rounds" in ctx.doc:
        doc = dict(ctx.doc)
        doc["rounds"] = rng.choice(({}, "rounds", None, []))
        return doc, _mutation("not_a_match", None, None, "schema",
                              f"rounds is {doc['rounds']!r}")
    value = rng.choice(([], None, "xuezhan-log", 0, [ctx.doc], {"rounds": ctx.doc}))
    return value, _mutation("not_a_match", None, None, "schema",
                            f"the document is a {type(value).__name__}")


#: every mutation kind: name -> how to apply it (None when it does not apply)
KINDS: dict[str, Callable[[_Context, random.Random], Applied]] = {
    "tile_not_in_hand": _tile_not_in_hand,
    "fifth_copy": _fifth_copy,
    "draw_out_of_turn": _draw_out_of_turn,
    "false_win": _false_win,
    "void_win": _void_win,
    "peng_after_win": _peng_after_win,
    "changed_result": _changed_result,
    "changed_payment": _changed_payment,
    "missing_event": _missing_event,
    "truncated_round": lambda ctx, rng: _truncate(ctx, rng, keep_result=True),
    "abandoned_round": lambda ctx, rng: _truncate(ctx, rng, keep_result=False),
    "draw_not_wall_tile": _draw_not_wall_tile,
    "event_after_end": _event_after_end,
    "action_by_winner": _action_by_winner,
    "swap_events": _swap_events,
    "other_discard": _other_discard,
    "bad_tile": _bad_tile,
    "wrong_type": _wrong_type,
    "integral_float": _integral_float,
    "missing_field": _missing_field,
    "seat_4": _seat_4,
    "deep_nesting": _deep_nesting,
    "non_dict_event": _non_dict_event,
    "huge_number": _huge_number,
    "extra_field": _extra_field,
    "unknown_type": _unknown_type,
    "not_a_match": _not_a_match,
}


# -- command line -------------------------------------------------------------------


def _add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = ("Apply one mutation to a round log: print the mutated document to "
                     "standard output and what was done to standard error.")
    p.add_argument("file", help="a round log (docs/format.md), or - for standard input")
    p.add_argument("--seed", type=int, default=0, help="chooses the mutation (default 0)")
    p.add_argument("--kind", choices=sorted(KINDS), help="the mutation to apply")
    p.add_argument("--json", action="store_true",
                   help="describe the mutation as JSON on standard error")


def _run(args: argparse.Namespace) -> int:
    doc, mutation = corrupt(load_document(read_input(args.file)), args.seed, args.kind)
    print(json.dumps(doc, ensure_ascii=False))
    print(json.dumps(mutation.to_json(), ensure_ascii=False) if args.json else str(mutation),
          file=sys.stderr)
    return 0


CLI_COMMANDS: dict[str, tuple[Callable[[argparse.ArgumentParser], None],
                              Callable[[argparse.Namespace], int]]] = {
    "corrupt": (_add_arguments, _run),
}
