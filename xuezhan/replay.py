"""Replay and verify a round log (docs/format.md), and settle every round.

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
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict

from xuezhan import __version__
from xuezhan.actions import Action, action_from_json
from xuezhan.errors import LogFormatError, XuezhanError
from xuezhan.fastpath import replay_document
from xuezhan.frames import Frame, Framer, problem_json
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
    seats: list[SeatFacts] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        out = {
            "deltas": list(self.settlement.deltas),
            "payments": [p.to_json() for p in self.settlement.payments],
            "next_dealer": self.settlement.next_dealer,
            "incomplete": self.incomplete,
            "seats": self.seats,
        }
        if self.settlement.pot_payments:  # only with a pot: other reports keep their shape
            out["pot"] = self.settlement.pot
            out["pot_payments"] = [p.to_json() for p in self.settlement.pot_payments]
        return out


@dataclass
class Report:
    """What ``xuezhan verify`` prints: the contract other programs rely on; and what
    ``xuezhan settle-sheet`` prints for a score sheet (:mod:`xuezhan.sheet`), which names
    its ``format``."""

    rules: Rules | None
    violations: list[Violation] = field(default_factory=list)
    rounds: list[RoundReport] = field(default_factory=list)
    format: str | None = None
    """The document format the report names (``xuezhan-sheet``); None names none (a log's)."""

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
            **({"format": self.format} if self.format is not None else {}),
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


def verify_document(doc: object, *, fastpath: bool = True) -> Report:
    """Check a parsed document and settle every round; never raises on bad input.

    ``fastpath`` validates and replays the document on the lean path
    (:mod:`xuezhan.fastpath`) first: a round with a fault is replayed again on the
    lenient walk, and a document whose structure is in doubt goes the standard way
    (schema check, then the lenient walk). The report is the same either way.
    """
    lean = replay_document(doc) if fastpath else None
    if lean is not None:
        assert isinstance(doc, dict)  # replay_document vouches for it
        return _report(doc, *lean)
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
    return _report(doc, rules, [None] * len(doc["rounds"]))


def _report(doc: dict[str, Any], rules: Rules, tables: list[Table | None]) -> Report:
    """Check and settle the rounds of a valid document; ``tables`` holds the lean path's
    table of each round it replayed without a fault (None: replay it leniently)."""
    report = Report(rules=rules)
    expected_dealer: int | None = None
    for index, round_doc in enumerate(doc["rounds"]):
        if expected_dealer is not None and round_doc["dealer"] != expected_dealer:
            report.violations.append(Violation(
                index, None, round_doc["dealer"], "wrong_dealer",
                f"round {index} is dealt by seat {round_doc['dealer']}, but the previous round "
                f"makes seat {expected_dealer} the dealer"))
        round_report = _verify_round(index, round_doc, rules, doc.get("base", 1), report,
                                     tables[index])
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
                                         "nested too deeply to validate", "too_deep"))
    return found or [SchemaIssue("$", "nested too deeply to validate", "too_deep")]


def table_for_round(round_doc: dict[str, Any], rules: Rules, base: int = 1) -> Table:
    """A fresh table dealt as a schema-valid round of a document says."""
    return Table(rules, round_doc["dealer"], [parse_tiles(h) for h in round_doc["hands"]],
                 wall=parse_tiles(round_doc["wall"]) if "wall" in round_doc else None,
                 base=base, dice=round_doc.get("dice"))


#: One event of a round, replayed: ``(index, action, problems, table)`` — its index in the
#: round's ``events``, the action, the problems it raised (empty when legal) and the table
#: after it. A plain tuple, the cheapest thing to make once per event on the hot path.
#: ``table`` is the walk's one live table, not a copy: it moves on with the walk; copy
#: what you keep (``table.hands[0][:]``) or build it at the step (a replay frame).
Step = tuple[int, Action, list[Problem], Table]


class RoundWalk:
    """The one replay of a round: iterate it for one :data:`Step` per event.

    ``verify_document``, the replay frames, the corruption tool and the coverage report
    all walk a round this way. The walk deals a fresh table (``table``; the deal's faults
    are in ``deal_problems``), plays each event leniently and yields a step; nothing is
    copied per step. When the events run out it closes the table (``Table.finish``) and
    keeps what that found in ``end_problems``. After more than ``limit`` faults in the
    round (deal included) the step that crossed it also carries ``too_many_violations``
    and the walk stops there (``stopped``), neither playing on nor finishing; ``limit``
    None never stops. A walk replays its round once.

    >>> from xuezhan.rules import Rules
    >>> round_doc = {"dealer": 0, "hands": ["123456789m1122p9s", "123456789p1122s",
    ...              "123456789s1122m", "345678m345678p3s"], "events": [
    ...     {"type": "dingque", "suits": ["s", "m", "p", "s"]},
    ...     {"type": "discard", "actor": 0, "tile": "9s"},
    ...     {"type": "draw", "actor": 1, "tile": "9m"},
    ...     {"type": "discard", "actor": 3, "tile": "9p"}]}
    >>> walk = RoundWalk(round_doc, Rules.from_json({"exchange": "off"}))
    >>> for index, action, problems, table in walk:
    ...     print(index, action.type, [p.code for p in problems])
    0 dingque []
    1 discard []
    2 draw []
    3 discard ['discard_out_of_turn', 'tile_not_in_hand']
    >>> walk.table.discards[3], walk.deal_problems, walk.end_problems, walk.stopped
    ([Tile.parse('9p')], [], [], False)
    """

    def __init__(self, round_doc: dict[str, Any], rules: Rules, base: int = 1, *,
                 limit: int | None = MAX_VIOLATIONS_PER_ROUND) -> None:
        self.table = table_for_round(round_doc, rules, base)
        self.deal_problems: list[Problem] = list(self.table.deal_problems)
        self.end_problems: list[Problem] = []
        self.stopped = False
        self._events: Sequence[dict[str, Any]] = round_doc["events"]
        self._limit = limit
        self._started = False

    def __iter__(self) -> Iterator[Step]:
        if self._started:
            raise RuntimeError("a RoundWalk replays its round once: make a new one")
        self._started = True
        return self._steps()

    def _steps(self) -> Iterator[Step]:
        table, limit = self.table, self._limit
        play = table.play
        faults = len(self.deal_problems)
        for index, event in enumerate(self._events):
            action = action_from_json(event)
            problems = play(action, index)
            if problems and limit is not None:  # the usual case skips the count
                faults += len(problems)
                if faults > limit:
                    problems.append(Problem(
                        "too_many_violations", f"more than {limit} faults; the replay of "
                        "this round stopped here"))
                    self.stopped = True
                    yield index, action, problems, table
                    return
            yield index, action, problems, table
        self.end_problems = table.finish()


def play_round(round_doc: dict[str, Any], rules: Rules, base: int = 1) -> tuple[
        Table, list[tuple[int | None, Problem]]]:
    """Replay one schema-valid round on a fresh table; return it and the problems found,
    each with its event index (None for the deal's and the end's)."""
    walk = RoundWalk(round_doc, rules, base)
    problems: list[tuple[int | None, Problem]] = [(None, p) for p in walk.deal_problems]
    for index, _action, found, _table in walk:
        if found:
            problems.extend((index, p) for p in found)
    problems.extend((None, p) for p in walk.end_problems)
    return walk.table, problems


def _verify_round(index: int, round_doc: dict[str, Any], rules: Rules, base: int,
                  report: Report, table: Table | None = None) -> RoundReport:
    if table is None:
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
    wanted = [k for k in map(key, recorded) if k[2]]
    paid = [(p.payer, p.payee, p.amount) for p in payments]
    if len(wanted) == len(paid) and sorted(wanted) == sorted(paid):
        return []  # the usual case: the record agrees, nothing to count
    want, got = Counter(wanted), Counter(paid)
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


class SeatFacts(TypedDict):
    """One seat's facts in one round: the report's ``rounds[i].seats[s]``, which the
    service stores for statistics.

    - ``seat``; ``won``; ``win_order`` (1 for the first winner, null if not won);
    - ``self_drawn``: won by 自摸; ``discarder``: whose discard it won on (the robbed konger
      for 抢杠), null if self-drawn or not won;
    - ``pattern``, ``fan``, ``points``: the scored win (null if not won);
    - ``delta``: the round's total for the seat;
    - ``kong_income``: kong money received (direct, added and concealed kongs);
    - ``ready``: ready (听牌) at a drawn round's 查叫, null when there was none;
    - ``flower_pig``: a flower pig (花猪) at that check;
    - ``ting_paid``/``ting_received``: 查叫 and 补差价 paid and received;
    - ``refunded``: kong money paid back (退税); ``transferred``: kong money handed over
      (呼叫转移 and kong refunds).
    """

    seat: int
    won: bool
    win_order: int | None
    self_drawn: bool
    discarder: int | None
    pattern: str | None
    fan: int | None
    points: int | None
    delta: int
    kong_income: int
    ready: bool | None
    flower_pig: bool
    ting_paid: int
    ting_received: int
    refunded: int
    transferred: int


#: which payments each money fact of SeatFacts sums: (reasons, summed for the payer?)
_MONEY_FACTS: dict[str, tuple[frozenset[str], bool]] = {
    "kong_income": (frozenset({"kong_direct", "kong_added", "kong_concealed"}), False),
    "ting_paid": (frozenset({"ting_check", "price_difference"}), True),
    "ting_received": (frozenset({"ting_check", "price_difference"}), False),
    "refunded": (frozenset({"tax_refund"}), True),
    "transferred": (frozenset({"call_transfer", "kong_refund"}), True),
}


#: the money facts each payment reason counts in: (fact, summed for the payer?)
_FACTS_OF_REASON: dict[str, tuple[tuple[str, bool], ...]] = {
    reason: tuple((name, payer) for name, (reasons, payer) in _MONEY_FACTS.items()
                  if reason in reasons)
    for reasons, _ in _MONEY_FACTS.values() for reason in reasons}


def _seat_facts(table: Table, record: RoundRecord, settlement: Settlement) -> list[
        SeatFacts]:
    # the table knows who won even where the win was void (no WinEvent): it counts
    return seat_facts(record, settlement, table.won, table.win_order)


def seat_facts(record: RoundRecord, settlement: Settlement, won: Sequence[bool] | None = None,
               win_order: Sequence[int] | None = None) -> list[SeatFacts]:
    """Per seat, the :class:`SeatFacts` of a settled round: from the record alone (a score
    sheet's, where every win is a :class:`WinEvent`), or with the replay's ``won`` and
    ``win_order`` (which also count a win the table refused to score).

    >>> from xuezhan.settlement import settle
    >>> from xuezhan.rules import Rules
    >>> win = WinEvent(index=0, seat=1, tile=0, discarder=3, fan=2, points=4, detail="",
    ...                pattern="qing_yi_se", in_round=frozenset(range(4)), group=0)
    >>> record = RoundRecord(dealer=0, events=(win,), drawn=False, complete=False)
    >>> facts = seat_facts(record, settle(record, Rules()))
    >>> [(f["won"], f["win_order"], f["discarder"], f["delta"]) for f in facts[1::2]]
    [(True, 1, 3, 4), (False, None, None, -4)]
    """
    wins = {e.seat: e for e in record.events if isinstance(e, WinEvent)}
    if won is None or win_order is None:
        order = [e.seat for e in record.events if isinstance(e, WinEvent)]
        won, win_order = [s in wins for s in range(4)], order
    checks = {c.seat: c for c in record.checks}
    money = {name: [0, 0, 0, 0] for name in _MONEY_FACTS}
    for p in settlement.payments:  # one pass: a round has tens of payments, four seats
        for name, payer in _FACTS_OF_REASON.get(p.reason, ()):
            money[name][p.payer if payer else p.payee] += p.amount
    facts: list[SeatFacts] = []
    for seat in range(4):
        win = wins.get(seat)
        check = checks.get(seat)
        facts.append({
            "seat": seat,
            "won": won[seat],
            "win_order": win_order.index(seat) + 1 if seat in win_order else None,
            "self_drawn": win is not None and win.discarder is None,
            "discarder": win.discarder if win else None,
            "pattern": win.pattern if win else None,
            "fan": win.fan if win else None,
            "points": win.points if win else None,
            "delta": settlement.deltas[seat],
            "kong_income": money["kong_income"][seat],
            "ready": None if check is None else check.ready_fan is not None,
            "flower_pig": bool(check and check.flower_pig),
            "ting_paid": money["ting_paid"][seat],
            "ting_received": money["ting_received"][seat],
            "refunded": money["refunded"][seat],
            "transferred": money["transferred"][seat],
        })
    return facts


def replay_frames(doc: dict[str, Any], round_index: int) -> list[Frame]:
    """The table after each step of one round, for a step-through viewer: the deal, then
    one frame per event (see :class:`xuezhan.frames.Frame` for the shape).

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
    # a viewer shows a faulty round to its end: no limit on the faults
    walk = RoundWalk(rounds[round_index], rules, doc.get("base", 1), limit=None)
    framer = Framer(walk.table)
    frames = [framer.deal(walk.deal_problems)]
    frames.extend(framer.step(index, action, found) for index, action, found, _ in walk)
    frames[-1]["problems"].extend(problem_json(p) for p in walk.end_problems)
    if walk.table.over:  # closing the last claim window ended the round: no one is to act
        frames[-1]["to_act"] = None
    return frames
