"""Dealing for the simulator: a shuffled deal, and scenarios that bring rare situations.

A :class:`Scenario` names the coverage situation (see :mod:`xuezhan.sim.coverage`) that
each of its rounds must show, and how to deal towards it. Some deals give one seat a
chosen hand once the exchange is done — 天胡, 地胡, a ready hand waiting on a rare pattern,
a four-of-a-kind whose replacement tile wins — with the tiles that complete it placed in
the wall; others are plain shuffles, for situations that a deal cannot force because they
hang on later choices (a peng and then an added kong to rob, a drawn round). Only the deal
is steered: the exchange, the void and every later choice are still the bots' own, so the
simulator plays a scenario's round again, with a new deal, until the situation occurs
(:data:`MAX_TRIES` at most). The situation therefore occurs by construction, whatever
the seed.

>>> import random
>>> from xuezhan.rules import Rules
>>> deal = SCENARIOS["tian_hu"].deal(random.Random(1), Rules.preset("chengdu"), 0)
>>> hands, wall = split_deal(deal.tiles, dealer=0)
>>> [len(h) for h in hands], len(wall), SCENARIOS["rob_kong"].situation
([14, 13, 13, 13], 55, 'win:rob_kong')
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xuezhan.errors import XuezhanError
from xuezhan.rules import Rules
from xuezhan.sim.bots import STYLES, Bot
from xuezhan.table import SOURCE_STEP
from xuezhan.tiles import FULL_SET, TILES, Tile, counts_of, format_tiles, parse_tiles

DEAL = 53  # 13 × 4 + the dealer's 14th


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


# -- scenarios ----------------------------------------------------------------------

ScenarioDeal = Callable[[random.Random, Rules, int], Deal]


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
        source = (seat + SOURCE_STEP[direction]) % 4
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


def _template(rng: random.Random, text: str, suits: str | None = None
              ) -> tuple[list[Tile], list[Tile]]:
    """A 13-tile ready hand written with suits ``a``/``b`` (mapped to ``suits``, by default
    two random ones) and its wait tiles after ``|``: ``"222a555a888a22b55b|2b5b"``."""
    a, b = list(suits or rng.sample("mps", 2))
    hand, _, wait = text.translate(str.maketrans("ab", a + b)).partition("|")
    return parse_tiles(hand), parse_tiles(wait)


#: ready hands that wait on a rare pattern (docs/rules.md §4), in the template notation
PATTERN_HANDS: dict[str, str] = {
    "jiang_dui": "222a555a888a22b55b|2b5b",
    "qing_yao_jiu": "123a123a789a999a1a|1a",
    "yao_jiu": "123a789a123b999b1b|1b",
    "qing_long_qi_dui": "1111a33a55a77a99a2a|2a",
    "long_qi_dui": "1111a33a55b77b99b2a|2a",
    "qing_qi_dui": "11a22a33a55a77a99a4a|4a",
    "qing_dui": "111a333a555a77a99a|7a9a",
    "dui_dui_hu": "111a333a555b77b99b|7b9b",
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


def _shuffle(rng: random.Random, rules: Rules, dealer: int) -> Deal:
    return deal_random(rng)


#: a replacement tile that wins: the seat after the dealer holds a four-of-a-kind and a
#: hand that the first tile it draws makes ready; the replacement completes it
_KONG_HAND = "2222a345a678b113b|4b|2b5b"


def _gang_shang_hua(rng: random.Random, rules: Rules, dealer: int) -> Deal:
    """杠上花: the dealer's 下家 draws the wall's first tile, declares its concealed kong and
    wins on the replacement (the wall's second tile, or its last with ``kong_draw: back``)."""
    suits = "".join(rng.sample("mps", 2))
    head, _, last = _KONG_HAND.rpartition("|")
    hand, draw = _template(rng, head, suits)
    wins = _template(rng, "|" + last, suits)[1]
    return steer(rng, rules, dealer, (dealer + 1) % 4, hand,
                 {0: draw[0], 1: wins[0], len(FULL_SET) - DEAL - 1: wins[1]})


def _dian_gang_hua(rng: random.Random, rules: Rules, dealer: int) -> Deal:
    """点杠花: the dealer's 下家 holds a concealed triplet and a ready hand; the fourth copy
    is the next seat's first draw, and the replacement after a direct kong on it wins."""
    suits = "".join(rng.sample("mps", 2))
    hand, wins = _template(rng, "222a345a678b1134b|2b5b", suits)
    fourth = _template(rng, "|2a", suits)[1][0]
    return steer(rng, rules, dealer, (dealer + 1) % 4, hand,
                 {1: fourth, 2: wins[0], len(FULL_SET) - DEAL - 1: wins[1]})


def _always(rules: Rules) -> bool:
    return True


@dataclass(frozen=True)
class Scenario:
    """A way to deal, and the coverage situation every round of the scenario must show."""

    situation: str
    deal: ScenarioDeal = _shuffle
    applies: Callable[[Rules], bool] = _always
    """Whether the situation can arise under a ruleset at all (the scenario is skipped
    where it cannot: 点杠花 needs ``dian_gang_hua: discard``)."""


#: how many deals a scenario's round may take before the simulator gives up
MAX_TRIES = 2000


def _heaven_earth(rules: Rules) -> bool:
    return rules.heaven_earth


#: scenario name -> how it deals and the situation its rounds show
SCENARIOS: dict[str, Scenario] = {
    "tian_hu": Scenario("pattern:tian_hu", _tian_hu, _heaven_earth),
    "di_hu": Scenario("pattern:di_hu", _di_hu, _heaven_earth),
    **{name: Scenario(f"pattern:{name}", _pattern_deal(name)) for name in PATTERN_HANDS},
    "gang_shang_hua": Scenario("win:gang_shang_hua", _gang_shang_hua),
    "dian_gang_hua": Scenario("win:dian_gang_hua", _dian_gang_hua,
                              lambda rules: rules.dian_gang_hua == "discard"),
    "gang_shang_pao": Scenario("win:gang_shang_pao"),
    "rob_kong": Scenario("win:rob_kong"),
    "tax_refund": Scenario("pay:tax_refund", applies=lambda rules: rules.tax_refund),
    "multiple_win": Scenario("dealer:discarder_after_multiple"),
}
