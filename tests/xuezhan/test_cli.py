"""The command line's machine-readable answers."""

from __future__ import annotations

import json
from typing import Any

import pytest

from xuezhan.cli import main


def waits_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["waits", *args]) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def test_waits_lists_apart_the_waits_whose_win_is_below_min_fan(
        capsys: pytest.CaptureFixture[str]) -> None:
    # 平胡 0 + 暗杠 2 = 2 fan on 1p or 5p: below min_fan 3 neither counts
    out = waits_json(capsys, "345m678m11p55p", "--melds", "an:2m", "--void", "s",
                     "--rules", '{"min_fan": 3}')
    assert (out["ready"], out["value"], out["waits"]) == (False, None, [])
    assert out["waits_below_min_fan"] == [{"tile": "1p", "fan": 2}, {"tile": "5p", "fan": 2}]


def test_waits_counts_a_wait_whose_fan_with_kong_add_ons_reaches_min_fan(
        capsys: pytest.CaptureFixture[str]) -> None:
    out = waits_json(capsys, "345m678m11p55p", "--melds", "an:2m", "--void", "s",
                     "--rules", '{"min_fan": 2}')
    assert (out["ready"], out["value"]) == (True, 2)
    assert [(w["tile"], w["fan"], w["points"]) for w in out["waits"]] == [("1p", 2, 4),
                                                                          ("5p", 2, 4)]
    assert out["waits_below_min_fan"] == [] == out["waits_not_live"]


def test_waits_states_apart_a_wait_whose_four_copies_the_player_holds_under_live(
        capsys: pytest.CaptureFixture[str]) -> None:
    # 222m3333m waits on 1m, 3m and 4m; all four 3m are in the hand
    out = waits_json(capsys, "2223333m456p789p", "--rules", '{"ting_check_waits": "live"}')
    assert [w["tile"] for w in out["waits"]] == ["1m", "4m"]
    assert out["waits_not_live"] == ["3m"]
    theoretical = waits_json(capsys, "2223333m456p789p")
    assert [w["tile"] for w in theoretical["waits"]] == ["1m", "3m", "4m"]
