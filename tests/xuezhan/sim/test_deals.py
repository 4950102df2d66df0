"""Dealing: steered deals keep a full set, and every round of a scenario shows its
situation, whatever the seed."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tests.xuezhan.sim.corpora import PRESETS, SEEDS, applicable, steered
from xuezhan.errors import XuezhanError
from xuezhan.rules import Rules
from xuezhan.sim.coverage import REQUIRED
from xuezhan.sim.deals import PATTERN_HANDS, SCENARIOS, split_deal, steer
from xuezhan.sim.simulate import simulate_match
from xuezhan.tiles import FULL_SET, parse_tiles

CASES = [(preset, seed, name) for preset in PRESETS for seed in SEEDS
         for name in applicable(preset)]


def test_steering_places_the_planned_wall_tiles_and_deals_a_full_set() -> None:
    rng = random.Random(3)
    hand = parse_tiles("222m555m888m22p55p")
    for dealer in range(4):
        deal = steer(rng, Rules.preset("chengdu"), dealer, dealer, hand, {3: hand[-1]})
        assert Counter(deal.tiles) == Counter(FULL_SET)
        assert deal.tiles[53 + 3] == hand[-1]


def test_a_split_deal_gives_the_dealer_fourteen_and_leaves_a_wall_of_55() -> None:
    hands, wall = split_deal(list(FULL_SET), 2)
    assert [len(h) for h in hands] == [13, 13, 14, 13] and len(wall) == 55


@pytest.mark.parametrize(("preset", "seed", "name"), CASES)
def test_every_round_of_a_scenario_shows_its_situation_and_is_legal(
        preset: str, seed: int, name: str) -> None:
    report = steered(preset, seed, name)
    assert report.rounds == 1 and (report.violations, report.mismatches) == (0, 0)
    assert report.counts[SCENARIOS[name].situation] >= 1


def test_every_scenario_aims_at_a_required_situation_and_every_rare_pattern_has_one() -> None:
    assert {s.situation for s in SCENARIOS.values()} <= set(REQUIRED)
    assert set(PATTERN_HANDS) <= set(SCENARIOS)


def test_a_scenario_is_refused_under_rules_where_its_situation_cannot_arise() -> None:
    # 点杠花 as a paid-by-the-discarder win exists only with dian_gang_hua: discard
    with pytest.raises(XuezhanError, match="cannot arise"):
        simulate_match(1, 1, "chengdu", scenario="dian_gang_hua")
    assert "dian_gang_hua" in applicable("online")
