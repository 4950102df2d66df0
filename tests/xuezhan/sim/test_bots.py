"""The bots: their count of useful tiles, the exchange and the void they choose."""

from __future__ import annotations

import random

from xuezhan.shanten import shanten
from xuezhan.sim.bots import STYLES, Bot
from xuezhan.tiles import FULL_SET, counts_of, parse_tiles


def test_useful_tiles_match_a_brute_force_count() -> None:
    rng = random.Random(2)
    bot = Bot(0, STYLES[0], random.Random(0))
    visible = [0] * 27
    for _ in range(300):
        counts = counts_of(rng.sample([t for t in FULL_SET if t // 9 != 2], 14))
        drop = next(k for k in range(27) if counts[k])
        after = list(counts)
        after[drop] -= 1
        base = shanten(after, 0, 2)
        brute = 0
        for k in range(27):
            after[k] += 1
            if shanten(after, 0, 2) < base:
                brute += max(4 - after[k] + 1 - (k == drop), 0)
            after[k] -= 1
        assert bot._useful(counts, drop, 0, 2, visible) == brute


def test_exchange_gives_three_tiles_of_the_weakest_suit_and_voids_the_smallest() -> None:
    bot = Bot(0, STYLES[0], random.Random(0))
    hand = counts_of(parse_tiles("1234567m2345p19s"))
    assert {t // 9 for t in bot.choose_exchange(hand)} == {1}
    assert bot.choose_void(hand) == 2
