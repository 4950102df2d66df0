"""Simulated matches: bots play real rounds on a :class:`~xuezhan.table.Table`.

``simulate_match(seed, rounds)`` deals, exchanges, declares voids and plays each round
with :mod:`xuezhan.sim.bots`, pushing every action onto a ``Table`` (so a log is legal by
construction), and returns one round log (docs/format.md) with the shuffled wall, the dealt
hands, the dice, every event and the settled ``result``. The same arguments give the
same document, byte for byte: all randomness comes from one ``random.Random(seed)``.

>>> doc = simulate_match(7, rounds=2)
>>> doc["format"], len(doc["rounds"]), len(doc["rounds"][0]["wall"])
('xuezhan-log', 2, 55)
>>> from xuezhan.replay import table_for_round, verify_document
>>> verify_document(doc).legal
True

Scenario mode (``scenario=NAME``) deals by :mod:`xuezhan.sim.deals` so that a rare
situation, such as 天胡, arises in play; the events themselves are still the bots' and the
table's. ``xuezhan simulate --report`` prints the :mod:`xuezhan.sim.coverage` table.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from xuezhan.actions import (
    Action,
    DingQue,
    Draw,
    Exchange,
    Gang,
    Hu,
    Pass,
    Peng,
    action_to_json,
)
from xuezhan.errors import XuezhanError
from xuezhan.reader import ReadError, read_json
from xuezhan.rules import Rules
from xuezhan.settlement import Settlement, settle
from xuezhan.sim.bots import STYLES, Bot
from xuezhan.sim.coverage import Coverage, coverage, format_coverage, round_situations
from xuezhan.sim.deals import MAX_TRIES, SCENARIOS, Deal, deal_random, split_deal
from xuezhan.table import Expect, Stage, Table

#: the fixed pool of players and the style each always plays, so that statistics over
#: many matches make sense (a player's results reflect one way of playing)
PLAYER_STYLES: dict[str, str] = {
    "alice": "steady", "bob": "greedy", "carol": "pairs", "dave": "pungs",
    "erin": "cautious", "frank": "sloppy", "grace": "greedy", "heidi": "steady",
}
PLAYER_POOL: tuple[str, ...] = tuple(PLAYER_STYLES)
_STYLE_BY_NAME = {style.name: style for style in STYLES}

MAX_ROUNDS = 64  # the log format's limit per match


# -- matches ------------------------------------------------------------------------


def simulate_match(seed: int, rounds: int, rules: Rules | str | dict[str, Any] = "chengdu",
                   chaos: float = 0.0, scenario: str | None = None) -> dict[str, Any]:
    """One match of ``rounds`` rounds as a round log (docs/format.md).

    :raises XuezhanError: for a bad ruleset, a round count outside 1–64, a chaos share
        outside 0–1 or an unknown scenario.
    """
    resolved = Rules.from_json(rules)
    if not 1 <= rounds <= MAX_ROUNDS:
        raise XuezhanError(f"rounds must be 1-{MAX_ROUNDS}, not {rounds!r}")
    if not 0.0 <= chaos <= 1.0:
        raise XuezhanError(f"chaos must be between 0 and 1, not {chaos!r}")
    if scenario is not None and scenario not in SCENARIOS:
        raise XuezhanError(f"unknown scenario {scenario!r} (known: {', '.join(SCENARIOS)})")
    if scenario is not None and not SCENARIOS[scenario].applies(resolved):
        raise XuezhanError(f"scenario {scenario!r} cannot arise under this ruleset")
    rng = random.Random(seed)
    players = rng.sample(PLAYER_POOL, 4)
    styles = [_STYLE_BY_NAME[PLAYER_STYLES[name]] for name in players]
    bots = [Bot(seat, styles[seat], random.Random(rng.getrandbits(64)), chaos)
            for seat in range(4)]
    dealer = rng.randrange(4)
    docs = []
    for _ in range(rounds):
        round_doc, next_dealer = simulate_round(rng, resolved, dealer, bots, scenario)
        docs.append(round_doc)
        dealer = next_dealer
    doc: dict[str, Any] = {
        "format": "xuezhan-log",
        "version": 1,
        "ruleset": _ruleset_json(rules, resolved),
        "base": 1,
        "players": players,
        "match_id": _match_id(seed, rounds, resolved, chaos, scenario),
        "source": "xuezhan simulate (styles: " + ", ".join(s.name for s in styles) + ")",
        "rounds": docs,
    }
    return doc


def _match_id(seed: int, rounds: int, rules: Rules, chaos: float,
              scenario: str | None) -> str:
    """A stable id naming every argument, so that uploads of different runs never clash."""
    key = json.dumps([seed, rounds, rules.to_json(), chaos, scenario], sort_keys=True)
    return f"sim-{seed}-{hashlib.sha256(key.encode()).hexdigest()[:12]}"


def match_seed(seed: int, index: int) -> int:
    """The seed of match ``index`` of a run seeded ``seed`` (string seeding is stable)."""
    return random.Random(f"xuezhan-simulate:{seed}:{index}").getrandbits(63)


def simulate_matches(n: int, rounds: int, seed: int,
                     rules: Rules | str | dict[str, Any] = "chengdu", chaos: float = 0.0,
                     scenario: str | None = None) -> Iterator[dict[str, Any]]:
    """``n`` matches; match ``i`` is ``simulate_match(match_seed(seed, i), ...)``."""
    for i in range(n):
        yield simulate_match(match_seed(seed, i), rounds, rules, chaos, scenario)


def _ruleset_json(given: Rules | str | dict[str, Any], rules: Rules) -> str | dict[str, Any]:
    if isinstance(given, str) and not given.lstrip().startswith("{"):
        return given
    if isinstance(given, str):
        loaded: dict[str, Any] = read_json(given)
        return loaded
    if isinstance(given, dict):
        return dict(given)
    return rules.to_json()


# -- one round ------------------------------------------------------------------------


def simulate_round(rng: random.Random, rules: Rules, dealer: int, bots: Sequence[Bot],
                   scenario: str | None = None) -> tuple[dict[str, Any], int]:
    """Play one round; return its document and the next dealer.

    A scenario's round is dealt and played again until it shows the scenario's situation.

    :raises XuezhanError: when a scenario's situation did not occur in ``MAX_TRIES`` deals.
    """
    if scenario is None:
        round_doc, settlement, _ = _play(rng, rules, dealer, bots, deal_random(rng))
        assert settlement.next_dealer is not None
        return round_doc, settlement.next_dealer
    wanted = SCENARIOS[scenario]
    for _ in range(MAX_TRIES):
        deal = wanted.deal(rng, rules, dealer)
        round_doc, settlement, table = _play(rng, rules, dealer, bots, deal)
        if round_situations(round_doc, table.outcome(), settlement, rules)[wanted.situation]:
            assert settlement.next_dealer is not None
            return round_doc, settlement.next_dealer
    raise XuezhanError(f"scenario {scenario!r} did not reach {wanted.situation} "
                       f"in {MAX_TRIES} deals")


def _play(rng: random.Random, rules: Rules, dealer: int, bots: Sequence[Bot],
          deal: Deal) -> tuple[dict[str, Any], Settlement, Table]:
    hands, wall = split_deal(deal.tiles, dealer)
    table = Table(rules, dealer, hands, wall=wall, base=1, dice=deal.dice)
    run = _Round(table, bots)
    run.play(deal.die)
    settlement = settle(table.outcome(), rules)
    round_doc: dict[str, Any] = {
        "dealer": dealer,
        "dice": list(deal.dice),
        "hands": [[str(t) for t in h] for h in hands],
        "wall": [str(t) for t in wall],
        "events": run.events,
        "result": {
            "deltas": list(settlement.deltas),
            "payments": [[p.payer, p.payee, p.amount, p.reason] for p in settlement.payments],
        },
    }
    return round_doc, settlement, table


#: the chance, per turn on a drawn tile, of a 诈胡 under a false_win penalty
FALSE_WIN_RATE = 0.01


class _Round:
    """Drives one table to its end, asking each seat's bot at each decision among the
    table's legal actions (the table says who draws, what may be claimed, who must win)."""

    def __init__(self, table: Table, bots: Sequence[Bot]) -> None:
        self.table = table
        self.bots = bots
        self.events: list[dict[str, Any]] = []

    def push(self, action: Action) -> None:
        self.table.push(action)
        self.events.append(action_to_json(action))

    def play(self, die: int) -> None:
        table = self.table
        if table.stage is Stage.EXCHANGE:
            self._exchange(die)
        voids = tuple(bot.choose_void(table.hands[bot.seat]) for bot in self.bots)
        self.push(DingQue(voids))
        for bot in self.bots:
            bot.start_round(table.hands[bot.seat], voids[bot.seat])
        while not table.over:
            expect = table.expect
            if expect is Expect.DRAW or expect is Expect.REPLACEMENT:
                self._draw(table.current)
            elif expect is Expect.DISCARD:
                self._maybe_false_win(table.current)
                self.push(self.bots[table.current].turn(table))
            else:
                self._window()

    def _exchange(self, die: int) -> None:
        table = self.table
        give = tuple(bot.choose_exchange(table.hands[bot.seat]) for bot in self.bots)
        self.push(Exchange(die, give, table.exchange_received(die, give)))

    def _maybe_false_win(self, seat: int) -> None:
        """Under a ``false_win`` penalty a player now and then declares a win on the tile it
        drew with a hand that does not win (诈胡): it pays, and plays on."""
        table = self.table
        tile = table.last_draw
        if (table.rules.false_win == "violation" or tile is None or table.must_win == seat
                or self.bots[seat].rng.random() >= FALSE_WIN_RATE):
            return
        declared = Hu(seat, tile)
        if not table.score_of(declared).winning:
            self.push(declared)

    def _draw(self, seat: int) -> None:
        self.push(next(a for a in self.table.legal_actions(seat) if isinstance(a, Draw)))

    def _window(self) -> None:
        """A discard or an added kong open to the others: wins first, then a peng or kong
        (not on a kong being robbed), else the window closes with the next draw."""
        table = self.table
        if table.expect is Expect.ROB:
            assert table.pending_kong is not None
            origin, tile, _ = table.pending_kong
        else:
            assert table.last_discard is not None
            origin, tile = table.last_discard
        seats = [(origin + step) % 4 for step in (1, 2, 3)]
        legal = {seat: table.legal_actions(seat) for seat in seats if not table.won[seat]}
        winners = []
        for seat, actions in legal.items():
            win = next((a for a in actions if isinstance(a, Hu)), None)
            if win is not None and self.bots[seat].wants_win(
                    table, table.score_of(win).points, forced=Pass(seat) not in actions):
                winners.append(win)
        for win in winners:
            self.push(win)
        if not winners and table.expect is Expect.CLAIM:
            for seat, actions in legal.items():
                claim = self.bots[seat].claim(
                    table, tile, [a for a in actions if isinstance(a, Peng | Gang)])
                if claim is not None:
                    self.push(claim)
                    return
        after = table.next_draw()
        if after is None:
            table.finish()
        else:
            self._draw(after[0])


# -- the command line -----------------------------------------------------------------


REPORT_MATCHES = 125  # × 8 rounds: the report's default corpus of 1,000 rounds
SCENARIO_ROUNDS = 4  # the report's rounds of each scenario (fewer if --rounds is smaller)


def _add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = ("Simulate matches between bots and write them as round logs (docs/format.md) "
                     "(or, with --report, print how often each situation occurred).")
    p.add_argument("--matches", type=int, default=None,
                   help=f"how many matches (default 1; with --report {REPORT_MATCHES}, "
                   f"i.e. {REPORT_MATCHES * 8} rounds of 8)")
    p.add_argument("--rounds", type=int, default=8, help="rounds per match (default 8)")
    p.add_argument("--seed", type=int, default=0, help="the run's seed (default 0)")
    p.add_argument("--rules", default="chengdu", help="a preset name or JSON overrides")
    p.add_argument("--out", default="-", help="a directory for one JSON file per match, "
                   "or - for JSON lines on standard output (default)")
    p.add_argument("--chaos", type=float, default=0.0,
                   help="share of decisions made at random (still legal), 0-1")
    p.add_argument("--scenario", choices=sorted(SCENARIOS),
                   help="steer every deal towards a rare situation")
    p.add_argument("--report", action="store_true",
                   help="print the coverage table of the simulated matches instead, "
                   f"with {SCENARIO_ROUNDS} rounds of each scenario beside it")


def _run(args: argparse.Namespace) -> int:
    if args.matches is None:
        args.matches = REPORT_MATCHES if args.report else 1
    if args.matches < 1:
        raise XuezhanError(f"--matches must be at least 1, not {args.matches}")
    rules: str | dict[str, Any] = args.rules
    if args.rules.lstrip().startswith("{"):
        try:
            rules = read_json(args.rules)
        except ReadError as exc:
            raise XuezhanError(f"--rules is not readable JSON: {exc}") from None
    docs = simulate_matches(args.matches, args.rounds, args.seed, rules, args.chaos,
                            args.scenario)
    if args.report:
        return _report(docs, rules, args)
    if args.out == "-":
        out = sys.stdout
        for doc in docs:
            out.write(json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n")
        return 0
    os.makedirs(args.out, exist_ok=True)
    for i, doc in enumerate(docs):
        path = os.path.join(args.out, f"match-{i:05d}.json")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n")
    return 0


def _report(docs: Iterable[dict[str, Any]], rules: str | dict[str, Any],
            args: argparse.Namespace) -> int:
    natural = coverage(docs)
    name = rules if isinstance(rules, str) else str(rules.get("preset", "chengdu"))
    columns = {f"{name} (natural)": natural}
    if args.scenario is None and SCENARIOS:
        steered = Coverage(Counter())
        resolved = Rules.from_json(rules)
        for scenario in (k for k, v in SCENARIOS.items() if v.applies(resolved)):
            steered.add(coverage(simulate_matches(
                1, min(args.rounds, SCENARIO_ROUNDS), args.seed, rules, args.chaos, scenario)))
        columns[f"{name} (scenarios)"] = steered
    print(format_coverage(columns))
    bad = natural.violations + natural.mismatches
    return 1 if bad else 0


CLI_COMMANDS: dict[str, tuple[Callable[[argparse.ArgumentParser], None],
                              Callable[[argparse.Namespace], int]]] = {
    "simulate": (_add_arguments, _run),
}

