"""Corpora shared by the simulator's tests: simulated once per test process, since each
costs seconds (200 rounds a preset; a round of every scenario)."""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Any

from xuezhan.rules import Rules
from xuezhan.sim.coverage import Coverage, coverage
from xuezhan.sim.deals import SCENARIOS
from xuezhan.sim.simulate import simulate_matches

PRESETS = ("chengdu", "online")
MATCHES, ROUNDS = 25, 8  # 200 rounds per preset
SEED = 2030
#: the coverage must not depend on the seed: it is checked on these (2026 once lacked
#: 退税 and 抢杠 by chance, before those situations had scenarios)
SEEDS = (2026, 2030)


@cache
def natural(preset: str, seed: int) -> tuple[list[dict[str, Any]], Coverage]:
    """200 rounds of bots' play under ``preset``, and their coverage."""
    docs = list(simulate_matches(MATCHES, ROUNDS, seed, preset))
    return docs, coverage(docs)


def applicable(preset: str) -> list[str]:
    """The scenarios whose situation can arise under ``preset``."""
    rules = Rules.preset(preset)
    return [name for name, s in SCENARIOS.items() if s.applies(rules)]


@cache
def steered(preset: str, seed: int, name: str) -> Coverage:
    """The coverage of one round of scenario ``name``."""
    return coverage(simulate_matches(1, 1, seed, preset, scenario=name))


def steered_total(preset: str, seed: int) -> Coverage:
    total = Coverage(Counter())
    for name in applicable(preset):
        total.add(steered(preset, seed, name))
    return total
