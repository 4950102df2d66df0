"""The command line: ``score`` and ``waits`` read a hand; a 相公 hand is bad input (exit 2)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from xuezhan.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("hand, count", [("12m", 2), ("123m456m789m11p", 11),
                                         ("123m456m789m1p2p3p", 12)])
def test_waits_of_a_hand_with_an_impossible_tile_count_exits_2_naming_the_count(
        capsys: pytest.CaptureFixture[str], hand: str, count: int) -> None:
    code, out, err = run(capsys, "waits", hand)
    assert (code, out) == (2, "")
    assert f"{count} concealed tiles, expected 13" in err


def test_waits_counts_tiles_against_the_melds(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "waits", "123m456m789m1p", "--melds", "peng:5p,an:6p")
    assert code == 2 and "10 concealed tiles with 2 melds, expected 7" in err
    code, out, _ = run(capsys, "waits", "123m456m789m1p", "--melds", "peng:5p")
    assert code == 0 and json.loads(out)["ready"] is True


@pytest.mark.parametrize("hand, melds, count, expected", [
    ("123m", "", 3, 14), ("123m456m789m111p555s", "", 15, 14),
    ("123m456m789m11p", "peng:5p,an:6p", 11, 8)])
def test_score_of_a_hand_with_an_impossible_tile_count_exits_2_naming_the_count(
        capsys: pytest.CaptureFixture[str], hand: str, melds: str, count: int,
        expected: int) -> None:
    code, out, err = run(capsys, "score", hand, "--win", "1p", "--melds", melds)
    assert (code, out) == (2, "")
    assert f"{count} concealed tiles" in err and f"expected {expected}" in err


def test_score_counts_the_winning_tile_in_the_hand(capsys: pytest.CaptureFixture[str]) -> None:
    # HAND includes the winning tile: 11 tiles next to one meld are a whole hand
    code, out, _ = run(capsys, "score", "123m456m789m11p", "--win", "1p", "--melds", "peng:5p")
    assert code == 0 and json.loads(out)["winning"] is True


def test_score_json_lists_every_counted_pattern_and_keeps_the_highest(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "score", "22244455577799m", "--win", "9m",
                       "--rules", '{"fan_system": "additive"}')
    result = json.loads(out)
    assert code == 0
    assert result["patterns"] == [{"name": "qing_yi_se", "fan": 2},
                                  {"name": "dui_dui_hu", "fan": 1}]
    assert result["pattern"] == "qing_yi_se"


def test_score_json_add_ons_state_count_fan_and_total(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "score", "123m789m11m", "--win", "1m", "--melds", "an:5m,an:6m",
                    "--self-drawn")
    kong = [a for a in json.loads(out)["add_ons"] if a["name"] == "kong_concealed"]
    assert kong == [{"name": "kong_concealed", "count": 2, "fan": 2, "total": 4}]


@pytest.mark.parametrize("after_kong, zi_mo", [("direct", False), ("concealed", True)])
def test_score_after_kong_names_the_kong_kind_for_dian_gang_hua(
        capsys: pytest.CaptureFixture[str], after_kong: str, zi_mo: bool) -> None:
    rules = '{"preset": "online", "self_draw_bonus": "plus_fan"}'
    meld = "ming:5p" if after_kong == "direct" else "an:5p"
    _, out, _ = run(capsys, "score", "123m456m789m11p", "--win", "1p", "--melds", meld,
                    "--after-kong", after_kong, "--rules", rules)
    names = {a["name"] for a in json.loads(out)["add_ons"]}
    assert "gang_shang_hua" in names and ("zi_mo" in names) is zi_mo


def test_score_rules_accept_chinese_pattern_names(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "score", "11223345678999m", "--win", "9m",
                    "--rules", '{"patterns": {"清一色": 3}}')
    assert json.loads(out)["patterns"] == [{"name": "qing_yi_se", "fan": 3}]


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
