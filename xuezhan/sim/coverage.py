"""The coverage report: how often each situation of the rule book occurs in some logs.

``coverage(docs)`` replays documents through :func:`~xuezhan.replay.verify_document` and
counts the situations of docs/rules.md §4–§5 they contain; ``format_coverage`` writes the
table that ``xuezhan simulate --report`` prints.

>>> from xuezhan.sim.simulate import simulate_match
>>> report = coverage([simulate_match(3, rounds=2, scenario="tian_hu")])
>>> report.rounds, report.violations, report.mismatches, report.counts["pattern:tian_hu"]
(2, 0, 0, 2)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from xuezhan.actions import Hu, Peng
from xuezhan.replay import RoundWalk, verify_document
from xuezhan.rules import PATTERN_NAMES, Rules
from xuezhan.settlement import KongEvent, RoundRecord, Settlement, WinEvent

#: the situations the coverage report counts, in report order, with a short label
SITUATIONS: dict[str, str] = {
    **{f"pattern:{k}": f"{v} {k}" for k, v in PATTERN_NAMES.items()},
    "add_on:gen": "根 (gen)",
    "add_on:direct_kong": "直杠 add-on (winner's direct kong)",
    "add_on:added_kong": "补杠 add-on (winner's added kong)",
    "add_on:concealed_kong": "暗杠 add-on (winner's concealed kong)",
    "add_on:gang_shang_hua": "杠上花 add-on",
    "add_on:gang_shang_pao": "杠上炮 add-on",
    "add_on:qiang_gang": "抢杠 add-on",
    "add_on:yi_tiao_long": "一条龙 add-on (an extra, off until given a fan)",
    "add_on:jia_xin_wu": "夹心五 add-on (an extra, off until given a fan)",
    "kong:direct": "直杠 declared (direct kong)",
    "kong:added": "补杠 declared (added kong)",
    "kong:concealed": "暗杠 declared (concealed kong)",
    "pay:kong_direct": "kong payment, direct (刮风)",
    "pay:kong_added": "kong payment, added (刮风)",
    "pay:kong_concealed": "kong payment, concealed (下雨)",
    "win:self_drawn": "self-drawn wins (自摸)",
    "win:discard": "wins on a discard",
    "win:multiple": "一炮多响 (multiple win on one discard)",
    "win:rob_kong": "抢杠胡 (robbing a kong)",
    "win:gang_shang_hua": "杠上花 (win on a kong replacement)",
    "win:dian_gang_hua": "点杠花 paid by the kong-tile discarder",
    "win:gang_shang_pao": "杠上炮 (win on the discard after a kong)",
    "pay:call_transfer": "呼叫转移 (call transfer)",
    "pay:kong_refund": "杠上炮 kong refund",
    "round:three_winners": "rounds ended by the third win",
    "round:drawn": "drawn rounds (流局)",
    "pay:flower_pig": "查花猪 (flower-pig payments)",
    "pay:ting_check": "查叫 (ting-check payments)",
    "pay:price_difference": "补差价 (price difference)",
    "pay:tax_refund": "退税 (tax refund)",
    "last_four:self_drawn": "last-four must-win, self-drawn",
    "last_four:discard": "last-four must-win, on a discard",
    "passed_win:passed": "过手胡: a win on a discard passed",
    "passed_win:later_higher": "过手胡: won a discard later for more fan before drawing",
    "dealer:discarder_after_multiple": "next dealer is the discarder of a multiple win",
    "claim:peng_last_discard": "碰 of a discard with the wall empty (last_discard_claims)",
    "kong:added_late": "回头杠: an added kong of a tile held from before",
    "kong:paid_after_discard": "kong money paid at the declarer's discard (after_discard)",
    "kong:never_paid": "kong money never paid: its declarer won first (after_discard)",
    "pay:false_win": "诈胡 penalties (false_win)",
    "pay:pot": "payments into the pot (the club's kitty)",
}

#: situations counted for information only: they need a rare choice of the bots, or an
#: option that neither preset sets
INFORMATIONAL: tuple[str, ...] = ("passed_win:later_higher", "claim:peng_last_discard",
                                  "add_on:yi_tiao_long", "add_on:jia_xin_wu",
                                  "kong:added_late", "kong:paid_after_discard",
                                  "kong:never_paid", "pay:false_win", "pay:pot")
#: the situations that must each occur in a coverage run (natural or steered)
REQUIRED: tuple[str, ...] = tuple(k for k in SITUATIONS if k not in INFORMATIONAL)

#: situations that cannot arise under a preset's options (listed as n/a in the report)
NOT_APPLICABLE: dict[str, tuple[str, ...]] = {
    "chengdu": ("pay:call_transfer", "pay:kong_refund", "win:dian_gang_hua",
                "last_four:discard"),
    "online": ("pay:price_difference", "pay:kong_refund", "add_on:direct_kong",
               "add_on:added_kong", "add_on:concealed_kong"),
}

#: the situation each add-on of a scored win counts as (by the add-on's identifier)
_ADD_ON_SITUATIONS: dict[str, str] = {
    "gen": "add_on:gen",
    "kong_direct": "add_on:direct_kong",
    "kong_added": "add_on:added_kong",
    "kong_concealed": "add_on:concealed_kong",
    "gang_shang_hua": "add_on:gang_shang_hua",
    "gang_shang_pao": "add_on:gang_shang_pao",
    "qiang_gang": "add_on:qiang_gang",
    "yi_tiao_long": "add_on:yi_tiao_long",
    "jia_xin_wu": "add_on:jia_xin_wu",
}


@dataclass
class Coverage:
    """Counts of each situation over some documents, and any fault the replay found."""

    counts: Counter[str]
    rounds: int = 0
    violations: int = 0
    mismatches: int = 0

    def add(self, other: Coverage) -> None:
        self.counts.update(other.counts)
        self.rounds += other.rounds
        self.violations += other.violations
        self.mismatches += other.mismatches


def coverage(docs: Iterable[dict[str, Any]]) -> Coverage:
    """Replay each document with :func:`verify_document` and count what happened.

    Wins, kongs and payments are read from the verifier's records and settlements
    (patterns, reason codes); the add-ons from the scores of the wins, and 过手胡 and the
    last-four rule, which leave no payment, from the round's replay walk.
    """
    out = Coverage(Counter())
    for doc in docs:
        report = verify_document(doc)
        out.violations += sum(v.code not in ("result_mismatch", "result_payment_mismatch")
                              for v in report.violations)
        out.mismatches += sum(v.code in ("result_mismatch", "result_payment_mismatch")
                              for v in report.violations)
        rules = report.rules or Rules()
        for round_doc, round_report in zip(doc["rounds"], report.rounds, strict=False):
            out.rounds += 1
            out.counts.update(round_situations(round_doc, round_report.record,
                                               round_report.settlement, rules,
                                               doc.get("base", 1)))
    return out


def round_situations(round_doc: dict[str, Any], record: RoundRecord, settlement: Settlement,
                     rules: Rules, base: int = 1) -> Counter[str]:
    """The situations of one round, given what its replay recorded and how it settled
    (the simulator asks this of a scenario's round before it keeps the round)."""
    counts: Counter[str] = Counter()
    _count_round(counts, record, (*settlement.payments, *settlement.pot_payments),
                 settlement.next_dealer)
    counts["pay:pot"] += len(settlement.pot_payments)
    _count_kong_options(counts, record, rules)
    _count_replay(counts, round_doc, rules, base)
    return counts


def _count_round(counts: Counter[str], record: RoundRecord, payments: Sequence[Any],
                 next_dealer: int | None) -> None:
    wins = [e for e in record.events if isinstance(e, WinEvent)]
    kongs = [e for e in record.events if isinstance(e, KongEvent)]
    for k in kongs:
        counts[f"kong:{k.kind}"] += 1
    groups = Counter(w.group for w in wins if w.discarder is not None)
    for w in wins:
        counts[f"pattern:{w.pattern}"] += 1
        counts["win:self_drawn" if w.discarder is None else "win:discard"] += 1
        if w.rob_kong:
            counts["win:rob_kong"] += 1
        if w.after_kong is not None:
            counts["win:gang_shang_hua"] += 1
        if w.kong_before_discard is not None:
            counts["win:gang_shang_pao"] += 1
    counts["win:multiple"] += sum(1 for n in groups.values() if n > 1)
    if wins and next_dealer is not None:
        first = wins[0]
        if first.discarder is not None and groups[first.group] > 1 and \
                next_dealer == first.discarder:
            counts["dealer:discarder_after_multiple"] += 1
    if len(wins) >= 3:
        counts["round:three_winners"] += 1
    if record.drawn:
        counts["round:drawn"] += 1
    # 点杠花: a self-drawn win that the settlement prices as a discard win
    self_drawn = {w.index for w in wins if w.discarder is None}
    for p in payments:
        counts[f"pay:{p.reason}"] += 1
        if p.reason == "win_discard" and p.event in self_drawn:
            counts["win:dian_gang_hua"] += 1


def _count_kong_options(counts: Counter[str], record: RoundRecord, rules: Rules) -> None:
    """回头杠, and kong money that waited for a discard (docs/rules.md §7)."""
    released = record.kong_discards
    for k in record.events:
        if not isinstance(k, KongEvent):
            continue
        if k.kind == "added" and not k.fresh:
            counts["kong:added_late"] += 1
        if rules.kong_payment_timing == "after_discard" and released is not None:
            if k.index in released:
                counts["kong:paid_after_discard"] += 1
            elif record.complete:
                counts["kong:never_paid"] += 1


def _count_replay(counts: Counter[str], round_doc: dict[str, Any], rules: Rules,
                  base: int) -> None:
    """过手胡 and last-four wins, from the table's state before and after each step; the
    add-ons, from the scores of the wins."""
    walk = RoundWalk(round_doc, rules, base)  # the verifier's limit: the wins it priced
    table = walk.table
    before, must, in_last_four = list(table.passed), table.must_win, table.last_four
    for _index, action, _problems, _table in walk:
        if isinstance(action, Peng) and table.wall_left == 0:
            counts["claim:peng_last_discard"] += 1
        for seat in range(4):
            after, prior = table.passed[seat], before[seat]
            if after is not None and (prior is None or after > prior):
                counts["passed_win:passed"] += 1
        if isinstance(action, Hu):
            if action.target is None and must == action.actor:
                counts["last_four:self_drawn"] += 1
            elif (action.target is not None and in_last_four
                  and rules.last_four == "must_win_all"):
                counts["last_four:discard"] += 1
            if action.target is not None and before[action.actor] is not None:
                counts["passed_win:later_higher"] += 1
        before, must, in_last_four = list(table.passed), table.must_win, table.last_four
    for score in table.scores.values():
        for add_on in score.add_ons:
            if add_on.name in _ADD_ON_SITUATIONS:
                counts[_ADD_ON_SITUATIONS[add_on.name]] += 1


def format_coverage(columns: dict[str, Coverage]) -> str:
    """The coverage table as Markdown, one column per corpus."""
    names = list(columns)
    head = "| situation | " + " | ".join(names) + " |"
    rule = "|---|" + "---:|" * len(names)
    lines = [head, rule]
    for key, label in SITUATIONS.items():
        cells = []
        for name in names:
            preset = name.split()[0]
            if key in NOT_APPLICABLE.get(preset, ()):
                cells.append("n/a")
            else:
                cells.append(str(columns[name].counts.get(key, 0)))
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines.append("| rounds | " + " | ".join(str(columns[n].rounds) for n in names) + " |")
    lines.append("| violations / result mismatches | " + " | ".join(
        f"{columns[n].violations} / {columns[n].mismatches}" for n in names) + " |")
    return "\n".join(lines)
