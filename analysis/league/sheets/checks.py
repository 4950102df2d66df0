"""A score sheet as the form at the table sees it: every problem in the page language,
naming the round (from 1), the player and the field; each round's payments and the
running totals; and the next round's dealer as the engine works it out, with the rule
that applied.

The engine (``xuezhan.sheet.settle_sheet``) settles and checks the sheet; this module only
words what it says, and first checks what a form can leave out (no players, a win without
its tile or its pattern) so that an unfinished sheet gets a sentence, not a schema path.
Rounds that are complete are settled even while others are not, so the payments and the
next dealer show as the sheet grows.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from analysis import labels, sentences
from analysis.league.corrections import wind
from xuezhan.errors import XuezhanError
from xuezhan.rules import ADD_ON_NAMES, PATTERN_NAMES, Rules
from xuezhan.sheet import IMPLIED, KONG_ADD_ONS, settle_sheet

_TILE = re.compile(r"^[1-9][mps]$")
KINDS = ("direct", "added", "concealed")
MAX_ROUNDS = 64
MAX_EVENTS = 64


@dataclass
class Problem:
    """Something the sheet cannot be saved with (``blocking``) or should not be: where it
    is (``round`` and ``event`` from 0, ``field``) and what, in the page language."""

    text: str
    round: int | None = None
    event: int | None = None
    field: str = ""
    blocking: bool = True
    code: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "round": self.round, "event": self.event,
                "field": self.field, "blocking": self.blocking, "code": self.code}


@dataclass
class CheckedRound:
    settled: bool
    deltas: list[int] = field(default_factory=list)
    payments: list[dict[str, Any]] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)  # running, after this round
    next_dealer: int | None = None
    rule: str = ""  # why that dealer, in the page language

    def to_json(self) -> dict[str, Any]:
        return {"settled": self.settled, "deltas": self.deltas, "payments": self.payments,
                "totals": self.totals, "next_dealer": self.next_dealer, "rule": self.rule}


@dataclass
class Checked:
    problems: list[Problem]
    rounds: list[CheckedRound]
    totals: list[int]

    @property
    def blocking(self) -> bool:
        """Something is missing or unreadable: the sheet cannot be stored."""
        return any(p.blocking for p in self.problems)

    @property
    def legal(self) -> bool:
        return not self.problems

    def to_json(self) -> dict[str, Any]:
        return {"problems": [p.to_json() for p in self.problems],
                "rounds": [r.to_json() for r in self.rounds], "totals": self.totals,
                "blocking": self.blocking, "legal": self.legal}


def _names(doc: dict[str, Any]) -> list[str]:
    players = doc.get("players")
    seats = [wind(i) for i in range(4)]
    if not isinstance(players, list) or len(players) != 4:
        return seats
    return [p.strip() if isinstance(p, str) and p.strip() else seats[i]
            for i, p in enumerate(players)]


def check_sheet(doc: Any) -> Checked:
    """Check a sheet as the form builds it (``xuezhan-sheet`` v1, possibly unfinished)."""
    if not isinstance(doc, dict):
        return Checked([Problem(_("The sheet could not be read."), field="sheet")], [], [0] * 4)
    names = _names(doc)
    problems = _players(doc)
    rules = _rules(doc, problems)
    given = doc.get("rounds")
    rounds: list[Any] = given if isinstance(given, list) else []
    if not rounds:
        problems.append(Problem(_("Enter at least one round."), field="rounds"))
    if len(rounds) > MAX_ROUNDS:
        problems.append(Problem(_("A sheet has at most %(n)s rounds.") % {"n": MAX_ROUNDS},
                                field="rounds"))
        rounds = rounds[:MAX_ROUNDS]
    complete = []
    for index, round_doc in enumerate(rounds):
        found = _round(index, round_doc, names, rules)
        problems.extend(found)
        complete.append(not found)
    checked_rounds: list[CheckedRound] = []
    totals = [0, 0, 0, 0]
    base = {k: doc[k] for k in ("format", "version", "ruleset", "base") if k in doc}
    whole = (not any(p.blocking for p in problems) and rules is not None)
    report = settle_sheet({**base, "format": "xuezhan-sheet", "version": 1,
                           "players": _players_or_seats(doc), "rounds": rounds}) if whole else None
    for index, round_doc in enumerate(rounds):
        if report is not None:
            result = report.rounds[index]
        elif complete[index] and rules is not None:
            alone = settle_sheet({**base, "format": "xuezhan-sheet", "version": 1,
                                  "players": _players_or_seats(doc), "rounds": [round_doc]})
            if alone.violations and alone.violations[0].code == "schema":
                checked_rounds.append(CheckedRound(False))
                continue
            result = alone.rounds[0]
            problems.extend(_engine(alone.violations, names, index, None))
        else:
            checked_rounds.append(CheckedRound(False))
            continue
        deltas = list(result.settlement.deltas)
        totals = [t + d for t, d in zip(totals, deltas, strict=True)]
        checked_rounds.append(CheckedRound(
            True, deltas, [_payment(p.to_json(), names) for p in result.settlement.payments],
            list(totals), result.settlement.next_dealer,
            _rule(round_doc, result.settlement.next_dealer, names)))
    if report is not None:
        previous = [r.next_dealer for r in checked_rounds]
        problems.extend(_engine(report.violations, names, None, previous))
    return Checked(problems, checked_rounds, totals)


def _players_or_seats(doc: dict[str, Any]) -> list[str]:
    players = doc.get("players")
    if isinstance(players, list) and len(players) == 4 and all(
            isinstance(p, str) and p.strip() for p in players) and len(set(players)) == 4:
        return [p.strip() for p in players]
    return ["east", "south", "west", "north"]


def _players(doc: dict[str, Any]) -> list[Problem]:
    players = doc.get("players")
    if not isinstance(players, list) or len(players) != 4:
        return [Problem(_("Choose the four players."), field="players")]
    out = []
    seats = [wind(i) for i in range(4)]
    seen: dict[str, int] = {}
    for i, handle in enumerate(players):
        name = handle.strip() if isinstance(handle, str) else ""
        if not name:
            out.append(Problem(_("%(seat)s: choose a player.") % {"seat": seats[i]},
                               field=f"player{i}"))
        elif len(name) > 64:
            out.append(Problem(_("%(seat)s: a handle has at most 64 characters.") % {
                "seat": seats[i]}, field=f"player{i}"))
        elif name in seen:
            out.append(Problem(_("%(name)s sits at %(first)s and %(seat)s: a player sits once.")
                               % {"name": name, "first": seats[seen[name]], "seat": seats[i]},
                               field=f"player{i}"))
        else:
            seen[name] = i
    return out


def _rules(doc: dict[str, Any], problems: list[Problem]) -> Rules | None:
    try:
        return Rules.from_json(doc.get("ruleset", "chengdu"))
    except (XuezhanError, TypeError, ValueError):
        problems.append(Problem(_("The ruleset is not one this site knows."), field="ruleset"))
        return None


def _round(index: int, round_doc: Any, names: list[str], rules: Rules | None) -> list[Problem]:
    """What a form can leave out of a round, each problem a sentence."""
    number = index + 1
    if not isinstance(round_doc, dict):
        return [Problem(_("Round %(n)s could not be read.") % {"n": number}, index)]
    out = []
    dealer = round_doc.get("dealer")
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer <= 3:
        out.append(Problem(_("Round %(n)s: choose the dealer.") % {"n": number}, index,
                           field="dealer"))
    events = round_doc.get("events")
    if not isinstance(events, list):
        return [*out, Problem(_("Round %(n)s could not be read.") % {"n": number}, index)]
    if len(events) > MAX_EVENTS:
        out.append(Problem(_("Round %(n)s: at most %(max)s wins and kongs.") % {
            "n": number, "max": MAX_EVENTS}, index, field="events"))
    wins = kongs = 0
    for e, event in enumerate(events[:MAX_EVENTS]):
        if not isinstance(event, dict) or event.get("type") not in ("win", "kong"):
            out.append(Problem(_("Round %(n)s: an entry could not be read.") % {"n": number},
                               index, e))
            continue
        if event["type"] == "win":
            wins += 1
            out.extend(_win(index, e, wins, event, names, rules))
        else:
            kongs += 1
            out.extend(_kong(index, e, kongs, event, names))
    for r, ready in enumerate(round_doc.get("ready") or []):
        if not isinstance(ready, dict) or not _seat(ready.get("seat")) or not _count(
                ready.get("fan"), 64):
            out.append(Problem(_("Round %(n)s: give the fan of each player who was ready.") % {
                "n": number}, index, field=f"ready{r}"))
    for key in ("drawn", "incomplete"):
        if key in round_doc and not isinstance(round_doc[key], bool):
            out.append(Problem(_("Round %(n)s could not be read.") % {"n": number}, index))
    known = {"dealer", "events", "drawn", "ready", "flower_pigs", "incomplete", "totals", "note"}
    if set(round_doc) - known:
        out.append(Problem(_("Round %(n)s could not be read.") % {"n": number}, index))
    return out


def _seat(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 3


def _count(value: Any, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= high


def _win(index: int, e: int, nth: int, event: dict[str, Any], names: list[str],
         rules: Rules | None) -> list[Problem]:
    number = index + 1
    where = {"n": number, "k": nth}
    if not _seat(event.get("seat")):
        return [Problem(_("Round %(n)s, win %(k)s: choose the winner.") % where, index, e,
                        "seat")]
    where["player"] = names[event["seat"]]
    out = []
    if "from" in event and not _seat(event["from"]):
        out.append(Problem(_("Round %(n)s, %(player)s's win: choose who discarded, or "
                             "self-drawn.") % where, index, e, "from"))
    elif event.get("from") == event["seat"]:
        out.append(Problem(_("Round %(n)s, %(player)s's win: a player cannot win on their own "
                             "discard.") % where, index, e, "from"))
    if not isinstance(event.get("tile"), str) or not _TILE.match(event["tile"]):
        out.append(Problem(_("Round %(n)s, %(player)s's win: pick the winning tile.") % where,
                           index, e, "tile"))
    pattern = event.get("pattern")
    has_fan = "fan" in event
    if pattern is None and not has_fan:
        out.append(Problem(_("Round %(n)s, %(player)s's win: choose its pattern or give its "
                             "fan.") % where, index, e, "pattern"))
    if has_fan and not _count(event["fan"], 64):
        out.append(Problem(_("Round %(n)s, %(player)s's win: the fan is a whole number from 0 "
                             "to 64.") % where, index, e, "fan"))
    patterns = [pattern] if isinstance(pattern, str) else pattern
    if pattern is not None and (not isinstance(patterns, list) or not patterns or not all(
            isinstance(p, str) and p in PATTERN_NAMES for p in patterns)):
        out.append(Problem(_("Round %(n)s, %(player)s's win: choose its pattern from the list.")
                           % where, index, e, "pattern"))
    add_ons = event.get("add_ons", {})
    if not isinstance(add_ons, dict) or not all(
            (k in ADD_ON_NAMES or k in KONG_ADD_ONS) and k not in IMPLIED and _count(v, 8) and v
            for k, v in add_ons.items()):
        out.append(Problem(_("Round %(n)s, %(player)s's win: each add-on is counted 1 to 8 "
                             "times.") % where, index, e, "add_ons"))
    flags = ("rob_kong", "after_kong", "kong_discard", "with_previous")
    known = {"type", "seat", "from", "tile", "pattern", "add_ons", "fan", *flags}
    if any(not isinstance(event.get(f, False), bool) for f in flags) or set(event) - known:
        out.append(Problem(_("Round %(n)s, %(player)s's win could not be read.") % where,
                           index, e))
    return out


def _kong(index: int, e: int, nth: int, event: dict[str, Any], names: list[str]
          ) -> list[Problem]:
    number = index + 1
    where = {"n": number, "k": nth}
    if not _seat(event.get("seat")):
        return [Problem(_("Round %(n)s, kong %(k)s: choose who declared it.") % where, index,
                        e, "seat")]
    where["player"] = names[event["seat"]]
    out = []
    if event.get("kind") not in KINDS:
        out.append(Problem(_("Round %(n)s, %(player)s's kong: choose its kind.") % where,
                           index, e, "kind"))
    if not isinstance(event.get("tile"), str) or not _TILE.match(event["tile"]):
        out.append(Problem(_("Round %(n)s, %(player)s's kong: pick its tile.") % where, index,
                           e, "tile"))
    if event.get("kind") == "direct" and not _seat(event.get("from")):
        out.append(Problem(_("Round %(n)s, %(player)s's direct kong: choose who discarded the "
                             "tile.") % where, index, e, "from"))
    elif "from" in event and event.get("from") == event["seat"]:
        out.append(Problem(_("Round %(n)s, %(player)s's kong: not on their own discard.")
                           % where, index, e, "from"))
    if set(event) - {"type", "seat", "kind", "tile", "from"}:
        out.append(Problem(_("Round %(n)s, %(player)s's kong could not be read.") % where,
                           index, e))
    return out


def _rule(round_doc: dict[str, Any], dealer: int | None, names: list[str]) -> str:
    """Why ``dealer`` (the engine's answer) deals next, in words: the rule book's three
    cases, told apart by comparing the engine's answer with the round's first win."""
    if dealer is None:
        return _("The round did not finish: choose the next dealer.")
    wins = [e for e in round_doc.get("events", []) if e.get("type") == "win"]
    if not wins:
        return _("Nobody won: %(dealer)s deals again.") % {"dealer": names[dealer]}
    if dealer == wins[0].get("seat"):
        return _("%(dealer)s won first and deals next.") % {"dealer": names[dealer]}
    return _("The first win was one of several on %(dealer)s's discard: %(dealer)s deals "
             "next.") % {"dealer": names[dealer]}


def _payment(p: dict[str, Any], names: list[str]) -> dict[str, Any]:
    try:
        text = sentences.sentence(p["reason"], p["params"], lambda s: names[s])
    except (KeyError, TypeError, ValueError):
        text = p["detail"]
    return {"payer": p["payer"], "payee": p["payee"], "amount": p["amount"],
            "reason": p["reason"], "label": labels.label("reason", p["reason"]), "text": text}


ENGINE: dict[str, Callable[[], str]] = {
    "wrong_dealer": lambda: _("Round %(n)s: %(player)s deals, but the round before makes "
                              "%(expected)s the dealer."),
    "too_many_winners": lambda: _("Round %(n)s: a fourth win — the round ends at the third."),
    "winner_acts_again": lambda: _("Round %(n)s: %(player)s has already won this round."),
    "act_on_own_discard": lambda: _("Round %(n)s: %(player)s cannot take their own discard."),
    "unknown_pattern": lambda: _("Round %(n)s, %(player)s's win: this ruleset has no such "
                                 "pattern."),
    "unknown_add_on": lambda: _("Round %(n)s, %(player)s's win: this ruleset has no such "
                                "add-on."),
    "implied_add_on": lambda: _("Round %(n)s, %(player)s's win: an add-on that follows from "
                                "how it was won is ticked, not listed."),
    "fan_mismatch": lambda: _("Round %(n)s, %(player)s's win: the fan given does not match "
                              "its pattern and add-ons."),
    "below_min_fan": lambda: _("Round %(n)s, %(player)s's win: below the ruleset's minimum "
                               "fan."),
    "no_such_kong": lambda: _("Round %(n)s, %(player)s's win: a win on a kong needs that kong "
                              "entered before it."),
    "bad_group": lambda: _("Round %(n)s: “same discard as the win before” needs a win before "
                           "it on the same discard."),
    "draw_check_of_winner": lambda: _("Round %(n)s: %(player)s has won, so is neither ready "
                                      "nor a flower pig."),
    "draw_check_not_drawn": lambda: _("Round %(n)s: who was ready and who was a flower pig "
                                      "count only in a drawn round."),
    "not_a_draw": lambda: _("Round %(n)s: a drawn round needs two players or more still in."),
    "totals_mismatch": lambda: _("Round %(n)s: the totals written down differ from the "
                                 "settlement."),
    "bad_ruleset": lambda: _("The ruleset is not one this site knows."),
}


def _engine(violations: list[Any], names: list[str], index: int | None,
            dealers: list[int | None] | None) -> list[Problem]:
    """The engine's findings as sentences (the sheet can be stored with them, if the
    person saving it confirms: an admin may accept it as played)."""
    out = []
    for v in violations:
        number = (v.round if index is None else index)
        if v.code == "wrong_dealer" and index is not None:
            continue  # a round alone has no round before it
        template = ENGINE.get(v.code)
        expected = None
        if dealers and number is not None and number > 0:
            expected = dealers[number - 1]
        values = {"n": (number or 0) + 1,
                  "player": names[v.seat] if v.seat is not None else "",
                  "expected": names[expected] if expected is not None else ""}
        text = template() % values if template else _(
            "Round %(n)s: the sheet does not add up here.") % values
        out.append(Problem(text, number, v.event, v.code, blocking=False, code=v.code))
    return out
