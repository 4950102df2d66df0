"""Score sheets: matches played on real tiles, written down without the tiles.

A ``xuezhan-sheet`` v1 document (JSON Schema ``schema/sheet-v1.json``) lists, per round,
the kongs and wins in the order they happened — who, how (on whose discard, self-drawn,
robbed kong, 杠上花, 杠上炮, one discard won by several), the hand's pattern and add-ons
or its fan — and at a drawn round who was ready (with the fan of their best hand) and who
was a flower pig. ``settle_sheet(doc)`` builds the :class:`RoundRecord` a replay would
have built and settles it with :func:`xuezhan.settlement.settle`, the code that settles
full logs, so a sheet and a log of the same round pay the same.

What can be checked without tiles is checked, each problem a violation with the round,
event and seat, as the log verifier reports them: at most three winners, a player who has
won does not act again, a pattern and its add-ons exist in the ruleset and add up to the
fan given, the kong a 杠上花 or 杠上炮 refers to happened, draw checks only for players
still in, and the club's own totals equal the computed ones.

>>> doc = {"format": "xuezhan-sheet", "version": 1, "players": ["a", "b", "c", "d"],
...        "rounds": [{"dealer": 0, "events": [
...            {"type": "win", "seat": 1, "from": 3, "tile": "9m", "pattern": "qing_yi_se"}]}]}
>>> report = settle_sheet(doc)
>>> report.legal, report.rounds[0].settlement.deltas
(True, (0, 4, 0, -4))
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Any

import jsonschema

from xuezhan.errors import LogFormatError, XuezhanError
from xuezhan.fan import AddOn, Score
from xuezhan.files import read_input
from xuezhan.replay import Report, RoundReport, Violation, seat_facts
from xuezhan.rules import ADD_ON_NAMES, PATTERN_NAMES, Rules
from xuezhan.schema import SchemaIssue, issue_of
from xuezhan.settlement import DrawCheck, KongEvent, RoundRecord, WinEvent, settle
from xuezhan.tiles import Tile

#: the format a sheet's report names (a log's names none)
FORMAT = "xuezhan-sheet"
#: every violation code a sheet report can carry
CODES: dict[str, str] = {
    "wrong_dealer": "the round's dealer is not the one the previous round designates",
    "schema": "the sheet does not match the sheet format (the message names the JSON path)",
    "bad_ruleset": "the ruleset names an unknown preset or option, or a bad value",
    "too_many_winners": "a fourth win in one round: the round ends at the third",
    "winner_acts_again": "a player who has won kongs, wins or discards again in the round",
    "act_on_own_discard": "a player wins or kongs on their own discard",
    "unknown_pattern": "a pattern the ruleset does not have, or has switched off",
    "unknown_add_on": "an add-on the ruleset does not have, or has switched off",
    "implied_add_on": "an add-on that follows from the win's flags is listed by hand",
    "fan_mismatch": "the fan given is not what the pattern and add-ons make under the ruleset",
    "below_min_fan": "a win below the ruleset's minimum fan",
    "no_such_kong": "杠上花 or 杠上炮 without a kong of that player before it",
    "bad_group": "a win on the previous win's discard that is not on the same discard",
    "draw_check_of_winner": "a player who has won is listed as ready or as a flower pig",
    "draw_check_not_drawn": "ready players or flower pigs listed for a round that was not drawn",
    "not_a_draw": "a drawn round with fewer than two players still in",
    "totals_mismatch": "the club's recorded totals differ from the settlement",
}
#: add-ons that follow from how the win came, never listed by hand
IMPLIED = ("gang_shang_hua", "gang_shang_pao", "qiang_gang", "zi_mo")
KONG_ADD_ONS = ("kong_direct", "kong_added", "kong_concealed")


@cache
def sheet_schema() -> dict[str, Any]:
    """The JSON Schema of the ``xuezhan-sheet`` format, version 1."""
    text = resources.files("xuezhan.schema").joinpath("sheet-v1.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def settle_sheet(doc: object) -> Report:
    """Check and settle every round of a sheet. Never raises on a bad sheet: problems are
    violations (a sheet that breaks the schema is not settled at all).

    The report is the log verifier's (:class:`~xuezhan.replay.Report`, naming the format
    ``xuezhan-sheet``), its seat facts those of :func:`~xuezhan.replay.seat_facts` read
    from the record alone: without tiles, the pattern and fan are the sheet's."""
    issues = schema_issues(doc)
    if issues:
        return Report(None, [Violation(None, None, None, "schema",
                                       f"{i.path}: {i.message}") for i in issues], format=FORMAT)
    assert isinstance(doc, dict)
    try:
        rules = Rules.from_json(doc.get("ruleset", "chengdu"))
    except XuezhanError as exc:
        return Report(None, [Violation(None, None, None, "bad_ruleset", str(exc))],
                      format=FORMAT)
    report = Report(rules, format=FORMAT)
    expected_dealer: int | None = None
    for index, round_doc in enumerate(doc["rounds"]):
        if expected_dealer is not None and round_doc["dealer"] != expected_dealer:
            report.violations.append(Violation(
                index, None, round_doc["dealer"], "wrong_dealer",
                f"round {index} is dealt by seat {round_doc['dealer']}, but the previous round "
                f"makes seat {expected_dealer} the dealer"))
        builder = _RoundBuilder(index, rules, int(doc.get("base", 1)))
        record = builder.build(round_doc)
        settlement = settle(record, rules)
        report.violations.extend(builder.violations)
        recorded = round_doc.get("totals")
        if recorded is not None and list(recorded) != list(settlement.deltas):
            report.violations.append(Violation(
                index, None, None, "totals_mismatch",
                f"the sheet records {recorded}, the settlement gives {list(settlement.deltas)}"))
        report.rounds.append(RoundReport(settlement, not record.complete, record,
                                         seat_facts(record, settlement)))
        expected_dealer = settlement.next_dealer
    return report


def schema_issues(doc: object) -> list[SchemaIssue]:
    """Every way ``doc`` breaks the sheet format, with its JSON path (none: it follows it)."""
    validator = jsonschema.Draft7Validator(sheet_schema())
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
    return [issue_of(e) for e in errors]


class _RoundBuilder:
    """Turns one round of a sheet into a RoundRecord, noting what does not add up."""

    def __init__(self, index: int, rules: Rules, base: int) -> None:
        self.index = index
        self.rules = rules
        self.base = base
        self.violations: list[Violation] = []
        self.won: list[int] = []
        self.kongs: list[KongEvent] = []

    def problem(self, event: int | None, seat: int | None, code: str, message: str) -> None:
        self.violations.append(Violation(self.index, event, seat, code, message))

    def in_round(self) -> frozenset[int]:
        return frozenset(s for s in range(4) if s not in self.won)

    def build(self, round_doc: dict[str, Any]) -> RoundRecord:
        events: list[KongEvent | WinEvent] = []
        group: tuple[int, frozenset[int], int | None] | None = None  # index, in_round, from
        for i, event in enumerate(round_doc["events"]):
            seat = event["seat"]
            if seat in self.won or event.get("from") in self.won:
                who = seat if seat in self.won else event["from"]
                self.problem(i, who, "winner_acts_again",
                             f"seat {who} has already won this round")
            if event.get("from") == seat:
                self.problem(i, seat, "act_on_own_discard", f"seat {seat} cannot take from itself")
            if event["type"] == "kong":
                events.append(self.kong(i, event))
                group = None
                continue
            if event.get("with_previous"):
                if group is None or group[2] != event.get("from") or event.get("from") is None:
                    self.problem(i, seat, "bad_group",
                                 "with_previous needs the win before it on the same discard")
                    group = None
            else:
                group = None
            if group is None:
                group = (i, self.in_round(), event.get("from"))
            if len(self.won) >= 3:
                self.problem(i, seat, "too_many_winners", "the round ended at the third win")
            events.append(self.win(i, event, group[0], group[1]))
            self.won.append(seat)
        return self.finish(round_doc, tuple(events))

    def kong(self, i: int, event: dict[str, Any]) -> KongEvent:
        kong = KongEvent(index=i, seat=event["seat"], kind=event["kind"],
                         tile=Tile.parse(event["tile"]),
                         discarder=event.get("from") if event["kind"] == "direct" else None,
                         in_round=self.in_round())
        self.kongs.append(kong)
        return kong

    def last_kong(self, i: int, seat: int, what: str) -> KongEvent | None:
        mine = [k for k in self.kongs if k.seat == seat]
        if not mine:
            self.problem(i, seat, "no_such_kong", f"{what}: seat {seat} declared no kong before")
            return None
        return mine[-1]

    def win(self, i: int, event: dict[str, Any], group: int,
            in_round: frozenset[int]) -> WinEvent:
        seat, discarder = event["seat"], event.get("from")
        after_kong = kong_discard = None
        if event.get("after_kong"):
            after_kong = self.last_kong(i, seat, "杠上花")
        if event.get("kong_discard") and discarder is not None:
            kong_discard = self.last_kong(i, discarder, "杠上炮")
        # 点杠花 paid as a discard (dian_gang_hua = discard) earns no 自摸加番
        dian_gang_hua = (after_kong is not None and after_kong.kind == "direct"
                         and self.rules.dian_gang_hua == "discard")
        value = self.score(i, event, self_drawn=discarder is None and not dian_gang_hua)
        return WinEvent(index=i, seat=seat, tile=Tile.parse(event["tile"]), discarder=discarder,
                        fan=value.fan, points=value.points, score=value,
                        detail=value.breakdown(), pattern=value.pattern, in_round=in_round,
                        group=group, rob_kong=bool(event.get("rob_kong")),
                        after_kong=after_kong, kong_before_discard=kong_discard)

    def score(self, i: int, event: dict[str, Any], *, self_drawn: bool) -> Score:
        """The win's value: from pattern and add-ons under the ruleset, checked against the
        fan when the sheet gives both; from the fan alone when that is all it gives."""
        rules, seat = self.rules, event["seat"]
        names = event.get("pattern")
        patterns = [names] if isinstance(names, str) else list(names or [])
        fans: list[int] = []
        for name in patterns:
            fan = rules.patterns.get(name) if name in PATTERN_NAMES else None
            if fan is None:
                self.problem(i, seat, "unknown_pattern", f"no pattern {name!r} in this ruleset")
            fans.append(fan or 0)
        add_ons = self.add_ons(i, event, self_drawn)
        computed = sum(fans) + sum(a.fan * a.count for a in add_ons)
        given = event.get("fan")
        if given is not None and patterns and "add_ons" in event and given != computed:
            self.problem(i, seat, "fan_mismatch",
                         f"the sheet says {given} fan; pattern and add-ons make {computed}")
        elif given is not None and given < computed:
            self.problem(i, seat, "fan_mismatch",
                         f"the sheet says {given} fan, below the {computed} its pattern and "
                         f"the win's flags make")
        fan = given if given is not None else computed
        if fan < rules.min_fan:
            self.problem(i, seat, "below_min_fan", f"{fan} fan, the ruleset needs {rules.min_fan}")
        top = max(patterns, key=lambda p: rules.patterns.get(p) or 0) if patterns else None
        unlisted = fan - computed if fan != computed and "add_ons" not in event else 0
        return Score(True, top, tuple(patterns), add_ons, fan,
                     rules.max_fan is not None and fan > rules.max_fan, rules.points(fan),
                     pattern_fans=tuple(fans), max_fan=rules.max_fan, unlisted=unlisted)

    def add_ons(self, i: int, event: dict[str, Any], self_drawn: bool) -> tuple[AddOn, ...]:
        rules, seat = self.rules, event["seat"]
        out: list[AddOn] = []
        for name, count in sorted(event.get("add_ons", {}).items()):
            if name in IMPLIED:
                self.problem(i, seat, "implied_add_on",
                             f"{name} follows from the win's flags; do not list it")
                continue
            fan = (rules.kong_fan.get(name[5:]) if name in KONG_ADD_ONS
                   else rules.add_ons.get(name) if name in ADD_ON_NAMES else None)
            if fan is None:
                self.problem(i, seat, "unknown_add_on", f"no add-on {name!r} in this ruleset")
                continue
            out.append(AddOn(name, fan, count))
        flags = {
            "gang_shang_hua": bool(event.get("after_kong")),
            "gang_shang_pao": bool(event.get("kong_discard")),
            "qiang_gang": bool(event.get("rob_kong")),
            "zi_mo": rules.self_draw_bonus == "plus_fan" and self_drawn,
        }
        for name, applies in flags.items():
            extra = rules.add_ons.get(name)
            if applies and extra is not None:
                out.append(AddOn(name, extra, 1))
        return tuple(out)

    def finish(self, round_doc: dict[str, Any], events: tuple[KongEvent | WinEvent, ...]
               ) -> RoundRecord:
        drawn = bool(round_doc.get("drawn"))
        complete = not round_doc.get("incomplete", False)
        ready = {r["seat"]: r for r in round_doc.get("ready", [])}
        pigs = set(round_doc.get("flower_pigs", []))
        listed = set(ready) | pigs
        if listed and not drawn:
            self.problem(None, min(listed), "draw_check_not_drawn",
                         "ready players and flower pigs are listed only for a drawn round")
        for seat in sorted(listed & set(self.won)):
            self.problem(None, seat, "draw_check_of_winner", f"seat {seat} has already won")
        if drawn and len(self.in_round()) < 2:
            self.problem(None, None, "not_a_draw", "fewer than two players were still in")
        checks = tuple(
            DrawCheck(seat=s, flower_pig=s in pigs,
                      ready_fan=ready[s]["fan"] if s in ready else None,
                      ready_fan_no_kong=ready[s].get("fan_no_kong", ready[s]["fan"])
                      if s in ready else None)
            for s in sorted(self.in_round())
        ) if drawn else ()
        return RoundRecord(dealer=round_doc["dealer"], events=events, drawn=drawn,
                           checks=checks, base=self.base, complete=complete)


def load_sheet(text: str | bytes) -> Any:
    """Parse JSON text. :raises LogFormatError: when it is not JSON."""
    try:
        return json.loads(text)
    except (ValueError, UnicodeDecodeError) as exc:
        raise LogFormatError(f"not JSON: {exc}") from None


# -- command line ------------------------------------------------------------------------


def _add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = "Check and settle a score sheet (xuezhan-sheet v1); print the report."
    p.add_argument("file", help="a xuezhan-sheet v1 document, or - for standard input")


def _run(args: argparse.Namespace) -> int:
    report = settle_sheet(load_sheet(read_input(args.file)))
    json.dump(report.to_dict(), sys.stdout, ensure_ascii=False, indent=2)
    print()
    return 0 if report.legal else 1


CLI_COMMANDS: dict[str, tuple[Callable[[argparse.ArgumentParser], None],
                              Callable[[argparse.Namespace], int]]] = {
    "settle-sheet": (_add_arguments, _run),
}
