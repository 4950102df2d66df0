"""Simulated matches: bots play real rounds on a :class:`~xuezhan.table.Table`.

``simulate_match(seed, rounds)`` deals, exchanges, declares voids and plays each round
with :mod:`xuezhan.bots`, pushing every action onto a ``Table`` (so a log is legal by
construction), and returns one FORMAT.md v1 document with the shuffled wall, the dealt
hands, the dice, every event and the settled ``result``. The same arguments give the
same document, byte for byte: all randomness comes from one ``random.Random(seed)``.

>>> doc = simulate_match(7, rounds=2)
>>> doc["format"], len(doc["rounds"]), len(doc["rounds"][0]["wall"])
('xuezhan-log', 2, 55)
>>> from xuezhan.replay import table_for_round, verify_document
>>> verify_document(doc).legal
True

``coverage(docs)`` replays documents through :func:`~xuezhan.replay.verify_document`
and counts the situations of RULES.md §4–§5 they contain (``xuezhan simulate --report``).
Scenario mode (``scenario=NAME``) steers the deal so that a rare situation, such as
天胡, arises in play; the events themselves are still the bots' and the table's.
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
from dataclasses import dataclass
from typing import Any

from xuezhan.actions import (
    Action,
    DingQue,
    Draw,
    Exchange,
    Gang,
    Hu,
    Peng,
    action_to_json,
)
from xuezhan.bots import STYLES, Bot
from xuezhan.errors import XuezhanError
from xuezhan.fan import WinContext
from xuezhan.replay import RoundWalk, verify_document
from xuezhan.rules import PATTERN_NAMES, Rules
from xuezhan.settlement import KongEvent, WinEvent, settle
from xuezhan.table import Table
from xuezhan.tiles import FULL_SET, TILES, Tile, counts_of, format_tiles, parse_tiles

#: the fixed pool of players and the style each always plays, so that statistics over
#: many matches make sense (a player's results reflect one way of playing)
PLAYER_STYLES: dict[str, str] = {
    "alice": "steady", "bob": "greedy", "carol": "pairs", "dave": "pungs",
    "erin": "cautious", "frank": "sloppy", "grace": "greedy", "heidi": "steady",
}
PLAYER_POOL: tuple[str, ...] = tuple(PLAYER_STYLES)
_STYLE_BY_NAME = {style.name: style for style in STYLES}

DEAL = 53  # 13 × 4 + the dealer's 14th
MAX_ROUNDS = 64  # the log format's limit per match


# -- matches ------------------------------------------------------------------------


def simulate_match(seed: int, rounds: int, rules: Rules | str | dict[str, Any] = "chengdu",
                   chaos: float = 0.0, scenario: str | None = None) -> dict[str, Any]:
    """One match of ``rounds`` rounds as a FORMAT.md v1 document.

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
        loaded: dict[str, Any] = json.loads(given)
        return loaded
    if isinstance(given, dict):
        return dict(given)
    return rules.to_json()


# -- one round ------------------------------------------------------------------------


@dataclass
class Deal:
    """The dice, the exchange die and the 108 tiles in dealing order."""

    dice: tuple[int, int]
    die: int
    tiles: list[Tile]


def deal_random(rng: random.Random) -> Deal:
    dice = (rng.randint(1, 6), rng.randint(1, 6))
    die = rng.randint(1, 6)
    tiles = list(FULL_SET)
    rng.shuffle(tiles)
    return Deal(dice, die, tiles)


def split_deal(tiles: Sequence[Tile], dealer: int) -> tuple[list[list[Tile]], list[Tile]]:
    """The four dealt hands (dealer 14, from the front) and the 55-tile wall."""
    hands: list[list[Tile]] = [[], [], [], []]
    pos = 0
    for step in range(4):
        seat = (dealer + step) % 4
        size = 14 if step == 0 else 13
        hands[seat] = sorted(tiles[pos:pos + size])
        pos += size
    return hands, list(tiles[DEAL:])


def simulate_round(rng: random.Random, rules: Rules, dealer: int, bots: Sequence[Bot],
                   scenario: str | None = None) -> tuple[dict[str, Any], int]:
    """Play one round; return its document and the next dealer."""
    deal = SCENARIOS[scenario](rng, rules, dealer) if scenario else deal_random(rng)
    hands, wall = split_deal(deal.tiles, dealer)
    table = Table(rules, dealer, hands, wall=wall, base=1, dice=deal.dice)
    run = _Round(table, bots, wall)
    run.play(deal.die)
    settlement = settle(table.outcome(), rules)
    assert settlement.next_dealer is not None
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
    return round_doc, settlement.next_dealer


class _Round:
    """Drives one table to its end, asking each seat's bot at each decision."""

    def __init__(self, table: Table, bots: Sequence[Bot], wall: list[Tile]) -> None:
        self.table = table
        self.bots = bots
        self.wall = wall
        self.events: list[dict[str, Any]] = []

    def push(self, action: Action) -> None:
        self.table.push(action)
        self.events.append(action_to_json(action))

    def play(self, die: int) -> None:
        table = self.table
        if table.stage == "exchange":
            self._exchange(die)
        voids = tuple(bot.choose_void(table.hands[bot.seat]) for bot in self.bots)
        self.push(DingQue(voids))
        for bot in self.bots:
            bot.start_round(table.hands[bot.seat], voids[bot.seat])
        while not table.over:
            expect = table.expect
            if expect in ("draw", "replacement"):
                self._draw(table.current, expect == "replacement")
            elif expect == "discard":
                self.push(self.bots[table.current].turn(table))
            elif expect == "claim":
                self._claims()
            else:
                self._robbing()

    def _exchange(self, die: int) -> None:
        table = self.table
        give = tuple(bot.choose_exchange(table.hands[bot.seat]) for bot in self.bots)
        dice = table.dice
        direction = table.rules.exchange_direction(die, sum(dice) if dice else None)
        source = {"from_next": 1, "opposite": 2, "from_prev": 3}[direction or "from_next"]
        receive = tuple(give[(seat + source) % 4] for seat in range(4))
        self.push(Exchange(die, give, receive))

    def _draw(self, seat: int, replacement: bool) -> None:
        table = self.table
        if replacement and table.rules.kong_draw == "back":
            tile = self.wall[table.wall_back - 1]
        else:
            tile = self.wall[table.wall_front]
        self.push(Draw(seat, tile))

    def _win_points(self, seat: int, tile: Tile, ctx: WinContext, forced: bool) -> int | None:
        """Points of a legal win by ``seat`` on another's ``tile`` now, or None."""
        table = self.table
        if tile not in table.waits_of(seat):
            return None
        score = table.win_score(seat, tile, ctx, in_hand=False)
        if not score.winning:
            return None
        passed, mode = table.passed[seat], table.rules.passed_win
        if passed is not None and mode != "off" and not forced and not (
                mode == "until_next_draw" and (score.fan > passed or table.wall_left < 4)):
            return None  # 过手胡 (the last-four rule wins a collision, RULES.md §6)
        return score.points

    def _winners(self, origin: int, tile: Tile, ctx: WinContext) -> list[int]:
        table = self.table
        # a robbed kong counts as the konger's discard (seed 004): forced in the last four too
        forced = table.last_four and table.rules.last_four == "must_win_all"
        winners = []
        for step in (1, 2, 3):
            seat = (origin + step) % 4
            if table.won[seat]:
                continue
            points = self._win_points(seat, tile, ctx, forced)
            if points is not None and self.bots[seat].wants_win(table, points, forced):
                winners.append(seat)
        return winners

    def _claims(self) -> None:
        table = self.table
        assert table.last_discard is not None
        discarder, tile = table.last_discard
        ctx = WinContext(kong_discard=table.kong_before_discard is not None,
                         last_tile=table.wall_left == 0)
        winners = self._winners(discarder, tile, ctx)
        for seat in winners:
            self.push(Hu(seat, tile, discarder))
        if not winners:
            for step in (1, 2, 3):
                seat = (discarder + step) % 4
                if table.won[seat]:
                    continue
                claim = self.bots[seat].claim(table, tile)
                if claim == "peng":
                    self.push(Peng(seat, discarder, tile))
                    return
                if claim == "gang":
                    self.push(Gang(seat, "ming", tile, discarder))
                    return
        self._next_turn(discarder, winners)

    def _robbing(self) -> None:
        table = self.table
        assert table.pending_kong is not None
        konger, tile, _ = table.pending_kong
        winners = self._winners(konger, tile, WinContext(rob_kong=True,
                                                         last_tile=table.wall_left == 0))
        for seat in winners:
            self.push(Hu(seat, tile, konger))
        if winners:
            self._next_turn(konger, winners)
        else:
            self._draw(konger, replacement=True)

    def _next_turn(self, origin: int, winners: list[int]) -> None:
        """Close a claim window nobody claimed (or that was won): the next seat draws."""
        table = self.table
        if table.wall_left == 0 or sum(table.won) >= 3:
            table.finish()
            return
        last = max(winners, key=lambda s: (s - origin) % 4) if winners else origin
        self._draw(table.next_live(last), replacement=False)


# -- scenarios ------------------------------------------------------------------------

ScenarioDeal = Callable[[random.Random, Rules, int], Deal]
_SOURCE_STEP = {"from_next": 1, "opposite": 2, "from_prev": 3}


def steer(rng: random.Random, rules: Rules, dealer: int, seat: int, hand: Sequence[Tile],
          wall_plan: dict[int, Tile] | None = None) -> Deal:
    """A deal after which ``seat`` holds exactly ``hand`` (plus, for the dealer holding 13,
    one tile of a third suit) once the exchange is done, with ``wall_plan`` tiles at those
    wall positions; every other tile is shuffled.

    The hand must use at most two suits. With the exchange on, the seat is dealt three
    tiles of a third suit to give away, and the seat it receives from is dealt three tiles
    of ``hand`` as its weakest suit, so that the bots' own choices complete the hand. The
    choices are checked with a chaos-free bot, so steered deals assume ``chaos`` 0.
    """
    plan = dict(wall_plan or {})
    for _ in range(500):
        deal = _try_steer(rng, rules, dealer, seat, list(hand), plan)
        if deal is not None:
            return deal
    raise XuezhanError(f"cannot steer a deal for hand {format_tiles(hand)}")


def _try_steer(rng: random.Random, rules: Rules, dealer: int, seat: int, hand: list[Tile],
               plan: dict[int, Tile]) -> Deal | None:
    dice = (rng.randint(1, 6), rng.randint(1, 6))
    die = rng.randint(1, 6)
    pool = Counter(FULL_SET)
    pool.subtract(hand)
    pool.subtract(plan.values())
    if min(pool.values()) < 0:
        raise XuezhanError("a steered hand and wall use a fifth copy of a tile")
    other = [s for s in range(3) if all(t // 9 != s for t in hand)]
    spare = rng.choice(other)
    size = 14 if seat == dealer else 13
    extra = [_take(rng, pool, spare) for _ in range(size - len(hand))]
    dealt: dict[int, list[Tile]] = {}
    direction = rules.exchange_direction(die, sum(dice))
    probe = Bot(seat, STYLES[0], random.Random(0))
    after = list(hand) + extra
    if direction is None:
        dealt[seat] = sorted(after)
    else:
        source = (seat + _SOURCE_STEP[direction]) % 4
        suit = rng.choice(sorted({t // 9 for t in hand}))
        of_suit = [t for t in hand if t // 9 == suit]
        if len(of_suit) < 3:
            return None
        given = rng.sample(of_suit, 3)
        mine = list(hand) + extra + [_take(rng, pool, spare) for _ in range(3)]
        for t in given:
            mine.remove(t)
        gives = probe.choose_exchange(counts_of(mine))
        if any(t // 9 != spare for t in gives):
            return None
        fill_size = (14 if source == dealer else 13) - 3
        fill = [t for t in _shuffled(rng, pool) if t // 9 != suit][:fill_size]
        theirs = sorted(given + fill)
        if sorted(probe.choose_exchange(counts_of(theirs))) != sorted(given):
            return None
        for t in fill:
            pool[t] -= 1
        dealt[seat], dealt[source] = sorted(mine), theirs
        after = list(mine) + given
        for t in gives:
            after.remove(t)
    if probe.choose_void(counts_of(after)) in {t // 9 for t in hand}:
        return None
    rest = _shuffled(rng, pool)
    tiles: list[Tile] = []
    for step in range(4):
        s = (dealer + step) % 4
        if s in dealt:
            tiles.extend(dealt[s])
        else:
            n = 14 if step == 0 else 13
            tiles.extend(rest[:n])
            del rest[:n]
    wall = []
    for pos in range(len(FULL_SET) - DEAL):
        wall.append(plan[pos] if pos in plan else rest.pop())
    return Deal(dice, die, tiles + wall)


def _take(rng: random.Random, pool: Counter[Tile], suit: int) -> Tile:
    kinds = [TILES[k] for k in range(suit * 9, suit * 9 + 9) if pool[TILES[k]] > 0]
    tile = rng.choice(kinds)
    pool[tile] -= 1
    return tile


def _shuffled(rng: random.Random, pool: Counter[Tile]) -> list[Tile]:
    tiles = [t for t in sorted(pool) for _ in range(pool[t])]
    rng.shuffle(tiles)
    return tiles


def _random_win(rng: random.Random, suits: Sequence[int]) -> list[Tile]:
    """A random winning 14 (four sets and a pair) in ``suits``."""
    while True:
        counts = [0] * 27
        for _ in range(4):
            base = rng.choice(suits) * 9
            if rng.random() < 0.6:
                r = rng.randrange(7)
                for d in range(3):
                    counts[base + r + d] += 1
            else:
                counts[base + rng.randrange(9)] += 3
        counts[rng.choice(suits) * 9 + rng.randrange(9)] += 2
        if max(counts) <= 4:
            return [TILES[k] for k in range(27) for _ in range(counts[k])]


def _two_suits(rng: random.Random) -> list[int]:
    return sorted(rng.sample(range(3), 2))


def _template(rng: random.Random, text: str) -> tuple[list[Tile], list[Tile]]:
    """A 13-tile ready hand written with suits ``a``/``b`` (randomly mapped to two suits)
    and its wait tiles after ``|``: ``"222a555a888a22b55b|2b5b"``."""
    a, b = rng.sample("mps", 2)
    hand, _, wait = text.translate(str.maketrans("ab", a + b)).partition("|")
    return parse_tiles(hand), parse_tiles(wait)


#: ready hands that wait on a rare pattern (RULES.md §4), in the template notation
PATTERN_HANDS: dict[str, str] = {
    "jiang_dui": "222a555a888a22b55b|2b5b",
    "qing_yao_jiu": "123a123a789a999a1a|1a",
    "yao_jiu": "123a789a123b999b1b|1b",
    "qing_long_qi_dui": "1111a33a55a77a99a2a|2a",
    "long_qi_dui": "1111a33a55b77b99b2a|2a",
    "qing_qi_dui": "11a22a33a55a77a99a4a|4a",
    "qing_dui": "111a333a555a77a99a|7a9a",
}
#: the dealer's draws when nobody claims: the 4th, 8th and 12th tiles of the wall
_DEALER_DRAWS = (3, 7, 11)


def _pattern_deal(pattern: str) -> ScenarioDeal:
    def deal(rng: random.Random, rules: Rules, dealer: int) -> Deal:
        hand, wait = _template(rng, PATTERN_HANDS[pattern])
        left = Counter(FULL_SET)
        left.subtract(hand)
        plan: dict[int, Tile] = {}
        for pos in _DEALER_DRAWS:
            tile = next((t for t in wait if left[t] > 0), None)
            if tile is not None:
                plan[pos] = tile
                left[tile] -= 1
        return steer(rng, rules, dealer, dealer, hand, plan)
    return deal


def _tian_hu(rng: random.Random, rules: Rules, dealer: int) -> Deal:
    """天胡: the dealer holds a winning 14 once the exchange is done."""
    return steer(rng, rules, dealer, dealer, _random_win(rng, _two_suits(rng)))


def _di_hu(rng: random.Random, rules: Rules, dealer: int) -> Deal:
    """地胡: the dealer's 下家 is ready and the wall's first tile completes its hand."""
    win = _random_win(rng, _two_suits(rng))
    last = win.pop(rng.randrange(len(win)))
    return steer(rng, rules, dealer, (dealer + 1) % 4, win, {0: last})


#: scenario name -> a function that steers the deal towards a rare situation
SCENARIOS: dict[str, ScenarioDeal] = {
    "tian_hu": _tian_hu,
    "di_hu": _di_hu,
    **{name: _pattern_deal(name) for name in PATTERN_HANDS},
}


# -- coverage -------------------------------------------------------------------------

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
}

#: situations counted for information only: they need a rare choice of the bots
INFORMATIONAL: tuple[str, ...] = ("passed_win:later_higher",)
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
            _count_round(out.counts, round_report.record, round_report.settlement.payments,
                         round_report.settlement.next_dealer)
            _count_replay(out.counts, round_doc, rules, doc.get("base", 1))
    return out


def _count_round(counts: Counter[str], record: Any, payments: Sequence[Any],
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


def _count_replay(counts: Counter[str], round_doc: dict[str, Any], rules: Rules,
                  base: int) -> None:
    """过手胡 and last-four wins, from the table's state before and after each step; the
    add-ons, from the scores of the wins."""
    walk = RoundWalk(round_doc, rules, base)  # the verifier's limit: the wins it priced
    table = walk.table
    before, must, in_last_four = list(table.passed), table.must_win, table.last_four
    for _index, action, _problems, _table in walk:
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


# -- the command line -----------------------------------------------------------------


REPORT_MATCHES = 125  # × 8 rounds: the report's default corpus of 1,000 rounds


def _add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = ("Simulate matches between bots and write them as FORMAT.md v1 logs "
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
                   help="print the coverage table of the simulated matches instead")


def _run(args: argparse.Namespace) -> int:
    if args.matches is None:
        args.matches = REPORT_MATCHES if args.report else 1
    if args.matches < 1:
        raise XuezhanError(f"--matches must be at least 1, not {args.matches}")
    rules: str | dict[str, Any] = args.rules
    if args.rules.lstrip().startswith("{"):
        try:
            rules = json.loads(args.rules)
        except ValueError as exc:
            raise XuezhanError(f"--rules is not valid JSON: {exc}") from None
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
        for scenario in SCENARIOS:
            steered.add(coverage(simulate_matches(1, 4, args.seed, rules, args.chaos,
                                                  scenario)))
        columns[f"{name} (scenarios)"] = steered
    print(format_coverage(columns))
    bad = natural.violations + natural.mismatches
    return 1 if bad else 0


CLI_COMMANDS: dict[str, tuple[Callable[[argparse.ArgumentParser], None],
                              Callable[[argparse.Namespace], int]]] = {
    "simulate": (_add_arguments, _run),
}

