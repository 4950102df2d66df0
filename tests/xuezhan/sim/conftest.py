"""Fixtures of the simulator's tests: the natural corpus of each preset (see corpora.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.xuezhan.sim.corpora import PRESETS, SEED, natural
from xuezhan.sim.coverage import Coverage


@pytest.fixture(scope="module")
def corpus() -> dict[str, list[dict[str, Any]]]:
    return {preset: natural(preset, SEED)[0] for preset in PRESETS}


@pytest.fixture(scope="module")
def reports() -> dict[str, Coverage]:
    return {preset: natural(preset, SEED)[1] for preset in PRESETS}
