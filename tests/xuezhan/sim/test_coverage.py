"""The coverage report: every situation the rule book lists occurs, whatever the seed
(rare ones by scenario), and the table lists each one."""

from __future__ import annotations

import pytest

from tests.xuezhan.sim.corpora import PRESETS, SEEDS, natural, steered_total
from xuezhan.sim.coverage import (
    NOT_APPLICABLE,
    REQUIRED,
    SITUATIONS,
    Coverage,
    format_coverage,
)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("preset", PRESETS)
def test_every_listed_situation_occurs_whatever_the_seed(preset: str, seed: int) -> None:
    report, scenario = natural(preset, seed)[1], steered_total(preset, seed)
    assert (scenario.violations, scenario.mismatches) == (0, 0)
    missing = [key for key in REQUIRED if key not in NOT_APPLICABLE[preset]
               and not report.counts[key] + scenario.counts[key]]
    assert missing == []


def test_the_report_table_lists_every_situation(reports: dict[str, Coverage]) -> None:
    text = format_coverage({"chengdu": reports["chengdu"], "online": reports["online"]})
    lines = text.splitlines()
    assert len(lines) == 2 + len(SITUATIONS) + 2
    assert "| 呼叫转移 (call transfer) | n/a |" in text
