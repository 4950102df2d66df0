"""Replay and verify a FORMAT.md v1 document, and settle every round.

``verify_document(doc)`` is the one entry point the CLI and the service use. It checks
the structure against the JSON Schema, then replays each round on a :class:`Table`,
collecting every violation with its round, event index, seat and stable code, and
settles what happened. It never raises on a bad document: problems are results.

>>> report = verify_document({"format": "xuezhan-log"})
>>> report.legal, report.violations[0].code
(False, 'schema')
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from xuezhan import __version__
from xuezhan.actions import action_from_json
from xuezhan.errors import LogFormatError, XuezhanError
from xuezhan.reader import read_document
from xuezhan.rules import Rules
from xuezhan.schema import SchemaIssue, validate_document
from xuezhan.settlement import Payment, RoundRecord, Settlement, WinEvent, settle
from xuezhan.table import CODES as TABLE_CODES
from xuezhan.table import Problem, Table
from xuezhan.tiles import parse_tiles

#: every violation code a report can carry (the table's, plus the document-level ones)
CODES: dict[str, str] = {
    "schema": "the document does not match the log format (the message names the JSON path)",
    "bad_ruleset": "the ruleset names an unknown preset or option, or a bad value",
    "wrong_dealer": "the round's dealer is not the one the previous round designates",
    **TABLE_CODES,
    "too_many_violations": "the round has so many faults that the replay stopped",
    "result_on_incomplete_round": "an unfinished round records a result as if it had ended",
    "result_mismatch": "a recorded seat delta differs from the recomputed settlement",
    "result_payment_mismatch": "a recorded payment is missing from, or extra to, the settlement",
}
MAX_VIOLATIONS_PER_ROUND = 100
_PATH = re.compile(r"^\$\.rounds\[(\d+)\](?:\.events\[(\d+)\])?")


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule: where (round and event index into the document), who, and what."""

    round: int | None
    event: int | None
    seat: int | None
    code: str
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "event": self.event, "seat": self.seat,
                "code": self.code, "message": self.message}


@dataclass
class RoundReport:
    """The settlement of one round and the facts per seat that statistics need."""

    settlement: Settlement
    incomplete: bool
    record: RoundRecord
    seats: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "deltas": list(self.settlement.deltas),
            "payments": [p.to_json() for p in self.settlement.payments],
            "next_dealer": self.settlement.next_dealer,
            "incomplete": self.incomplete,
            "seats": self.seats,
        }


@dataclass
class Report:
    """What ``xuezhan verify`` prints: the contract other programs rely on."""

    rules: Rules | None
    violations: list[Violation] = field(default_factory=list)
    rounds: list[RoundReport] = field(default_factory=list)

    @property
    def legal(self) -> bool:
        return not self.violations

    @property
    def totals(self) -> list[int]:
        return [sum(r.settlement.deltas[s] for r in self.rounds) for s in range(4)]

    def to_dict(self) -> dict[str, Any]:
        return {
            "legal": self.legal,
            "engine": __version__,
            "ruleset": self.rules.to_json() if self.rules else None,
            "violations": [v.to_json() for v in self.violations],
            "rounds": [r.to_json() for r in self.rounds],
            "totals": self.totals,
        }


def load_document(text: str | bytes) -> Any:
    """Read a document with the strict reader (:func:`xuezhan.reader.read_document`).

    :raises xuezhan.reader.ReadError: when it is not strict JSON, naming where and why.
    """
    return read_document(text)


def verify_document(doc: object) -> Report:
    """Check a parsed document and settle every round; never raises on bad input."""
    try:
        issues = validate_document(doc)
    except RecursionError:  # an object built by hand can nest past the validators' reach
        issues = _deep_issues(doc)
    if issues:
        report = Report(rules=None)
        for issue in issues:
            m = _PATH.match(issue.path)
            report.violations.append(Violation(
                int(m.group(1)) if m else None, int(m.group(2)) if m and m.group(2) else None,
                None, "schema", f"{issue.path}: {issue.message}"))
        return report
    assert isinstance(doc, dict)
    try:
        rules = Rules.from_json(doc.get("ruleset", "chengdu"))
    except (XuezhanError, RecursionError) as exc:
        return Report(rules=None, violations=[Violation(None, None, None, "bad_ruleset",
                                                        str(exc)[:200])])
    report = Report(rules=rules)
    expected_dealer: int | None = None
    for index, round_doc in enumerate(doc["rounds"]):
        if expected_dealer is not None and round_doc["dealer"] != expected_dealer:
            report.violations.append(Violation(
                index, None, round_doc["dealer"], "wrong_dealer",
                f"round {index} is dealt by seat {round_doc['dealer']}, but the previous round "
                f"makes seat {expected_dealer} the dealer"))
        round_report = _verify_round(index, round_doc, rules, doc.get("base", 1), report)
        report.rounds.append(round_report)
        expected_dealer = round_report.settlement.next_dealer
    return report


def _deep_issues(doc: object) -> list[SchemaIssue]:
    """Name the rounds and events that nest too deeply to validate (or the document)."""
    def depth(value: object) -> int:
        deepest, stack = 0, [(value, 1)]
        while stack:
            node, level = stack.pop()
            deepest = max(deepest, level)
            if isinstance(node, dict):
                stack.extend((v, level + 1) for v in node.values())
            elif isinstance(node, list):
                stack.extend((v, level + 1) for v in node)
        return deepest

    found = []
    rounds = doc.get("rounds") if isinstance(doc, dict) else None
    for r, round_doc in enumerate(rounds if isinstance(rounds, list) else ()):
        events = round_doc.get("events") if isinstance(round_doc, dict) else None
        for i, event in enumerate(events if isinstance(events, list) else ()):
            if depth(event) > 64:
                found.append(SchemaIssue(f"$.rounds[{r}].events[{i}]",
                                         "nested too deeply to validate"))
    return found or [SchemaIssue("$", "nested too deeply to validate")]


def table_for_round(round_doc: dict[str, Any], rules: Rules, base: int = 1) -> Table:
    """A fresh table dealt as a schema-valid round of a document says."""
    return Table(rules, round_doc["dealer"], [parse_tiles(h) for h in round_doc["hands"]],
                 wall=parse_tiles(round_doc["wall"]) if "wall" in round_doc else None,
                 base=base, dice=round_doc.get("dice"))


def play_round(round_doc: dict[str, Any], rules: Rules, base: int = 1) -> tuple[
        Table, list[tuple[int | None, Problem]]]:
    """Replay one schema-valid round on a fresh table; return it and the problems found."""
    table = table_for_round(round_doc, rules, base)
    problems: list[tuple[int | None, Problem]] = [(None, p) for p in table.deal_problems]
    play = table.play
    for event_index, event in enumerate(round_doc["events"]):
        found = play(action_from_json(event), event_index)
        if not found:  # the usual case: no generator, no length check
            continue
        problems.extend((event_index, p) for p in found)
        if len(problems) > MAX_VIOLATIONS_PER_ROUND:
            problems.append((event_index, Problem(
                "too_many_violations", f"more than {MAX_VIOLATIONS_PER_ROUND} faults; the "
                "replay of this round stopped here")))
            return table, problems
    problems.extend((None, p) for p in table.finish())
    return table, problems


def _verify_round(index: int, round_doc: dict[str, Any], rules: Rules, base: int,
                  report: Report) -> RoundReport:
    table, problems = play_round(round_doc, rules, base)
    for event_index, p in problems:
        report.violations.append(Violation(index, event_index, p.seat, p.code, p.message))
    record = table.outcome()
    settlement = settle(record, rules)
    incomplete = not table.over
    if "result" in round_doc:
        report.violations.extend(
            _compare_result(index, round_doc["result"], settlement, incomplete))
    return RoundReport(settlement, incomplete, record, _seat_facts(table, record, settlement))


def _compare_result(index: int, result: dict[str, Any], settlement: Settlement,
                    incomplete: bool) -> list[Violation]:
    if incomplete:
        return [Violation(index, None, None, "result_on_incomplete_round",
                          "the round's events stop before its end, but it records a result")]
    found = []
    recorded = result.get("deltas")
    if recorded is not None:
        for seat, (want, got) in enumerate(zip(recorded, settlement.deltas, strict=True)):
            if want != got:
                found.append(Violation(index, None, seat, "result_mismatch",
                                       f"seat {seat}: recorded {want:+}, recomputed {got:+d}"))
    if result.get("payments") is not None:
        found.extend(_compare_payments(index, result["payments"], settlement.payments))
    return found


def _compare_payments(index: int, recorded: Sequence[Any],
                      payments: Sequence[Payment]) -> list[Violation]:
    def key(p: Any) -> tuple[int, int, int]:
        if isinstance(p, dict):
            return (p["payer"], p["payee"], p["amount"])
        return (p[0], p[1], p[2])

    # a recorded payment of nothing moves no money: the settlement never lists one
    want = Counter(k for k in map(key, recorded) if k[2])
    got = Counter((p.payer, p.payee, p.amount) for p in payments)
    found = []
    for (payer, payee, amount), n in sorted((want - got).items()):
        found.append(Violation(index, None, payer, "result_payment_mismatch",
                               f"recorded payment seat {payer} → seat {payee} {amount} "
                               f"(×{n}) is not in the settlement"))
    for (payer, payee, amount), n in sorted((got - want).items()):
        found.append(Violation(index, None, payer, "result_payment_mismatch",
                               f"the settlement has seat {payer} → seat {payee} {amount} "
                               f"(×{n}), which the result does not record"))
    return found


def _seat_facts(table: Table, record: RoundRecord, settlement: Settlement) -> list[
        dict[str, Any]]:
    wins = {e.seat: e for e in record.events if isinstance(e, WinEvent)}
    checks = {c.seat: c for c in record.checks}
    facts = []
    for seat in range(4):
        win = wins.get(seat)
        score = table.scores.get(seat)
        check = checks.get(seat)

        def paid(reasons: tuple[str, ...], payer: bool, seat: int = seat) -> int:
            return sum(p.amount for p in settlement.payments if p.reason in reasons
                       and (p.payer if payer else p.payee) == seat)

        facts.append({
            "seat": seat,
            "won": table.won[seat],
            "win_order": table.win_order.index(seat) + 1 if seat in table.win_order else None,
            "self_drawn": win is not None and win.discarder is None,
            "discarder": win.discarder if win else None,
            "pattern": score.pattern if score else None,
            "fan": score.fan if score else None,
            "points": score.points if score else None,
            "delta": settlement.deltas[seat],
            "kong_income": paid(("kong_direct", "kong_added", "kong_concealed"), payer=False),
            "ready": None if check is None else check.ready_fan is not None,
            "flower_pig": bool(check and check.flower_pig),
            "ting_paid": paid(("ting_check", "price_difference"), payer=True),
            "ting_received": paid(("ting_check", "price_difference"), payer=False),
            "refunded": paid(("tax_refund",), payer=True),
            "transferred": paid(("call_transfer", "kong_refund"), payer=True),
        })
    return facts


def replay_frames(doc: dict[str, Any], round_index: int) -> list[dict[str, Any]]:
    """The state after each event of one round, for a step-through viewer.

    :raises LogFormatError: when the document is not schema-valid or has no such round.
    """
    issues = validate_document(doc)
    if issues:
        raise LogFormatError("the document does not match the log format",
                             [(i.path, i.message) for i in issues])
    rounds = doc["rounds"]
    if not 0 <= round_index < len(rounds):
        raise LogFormatError(f"no round {round_index}: the match has {len(rounds)}")
    try:
        rules = Rules.from_json(doc.get("ruleset", "chengdu"))
    except XuezhanError as exc:
        raise LogFormatError(str(exc)) from None
    round_doc = rounds[round_index]
    table = table_for_round(round_doc, rules, doc.get("base", 1))
    frames = [_frame(table, None, None, [])]
    for event_index, event in enumerate(round_doc["events"]):
        problems = table.play(action_from_json(event), event_index)
        frames.append(_frame(table, event_index, event, problems))
    return frames


def _frame(table: Table, index: int | None, event: dict[str, Any] | None,
           problems: list[Problem]) -> dict[str, Any]:
    running = settle(RoundRecord(dealer=table.dealer, events=tuple(table.record), drawn=False,
                                 base=table.base, complete=False), table.rules)
    return {"event": index, "action": event, **table.snapshot(),
            "scores": list(running.deltas),
            "problems": [{"code": p.code, "message": p.message, "seat": p.seat}
                         for p in problems]}
