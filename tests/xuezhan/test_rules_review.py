"""An independent review of the table, the replay and the settlement against docs/rules.md
and the seed texts: each test names the rule it checks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.xuezhan.logs import match_doc, round_doc
from tests.xuezhan.test_table import HANDS, act, table
from xuezhan.fan import score_win
from xuezhan.replay import verify_document
from xuezhan.rules import Rules
from xuezhan.table import Table
from xuezhan.tiles import Tile, counts_of, parse_tiles

DATA = Path(__file__).resolve().parent.parent / "data"

# Seat 0 (void p) pengs 4m and later adds the fourth to a kong; seat 1 (void s) waits on
# 1m and 4m (`23m567m678m11m999p`), so it can rob that kong.
ROB_HANDS = ["44m1234567s99s1p1s1m", "23m567m678m11m999p", "4m123456789p11p2p",
             "345p678p22p3m5m6m7m9m"]
ROB_VOIDS = "pspm"
ROB_BEFORE = ["0-1p", "1+6p", "1-6p", "2+3p", "2-4m", "0peng2 4m", "0-1s", "1+7s", "1-7s",
              "2+7p", "2-7p", "3+8p", "3-8p"]


def codes(t: Table, *events: str) -> list[str]:
    found = []
    for text in events:
        found += [p.code for p in t.play(act(text))]
    return found


def test_passed_win_a_kong_one_could_rob_and_did_not_is_a_passed_win() -> None:
    # docs/rules.md §3 过手胡 (online rules: 不能棄先和後; 搶杠可視為…點炮): seat 1 lets seat 0's
    # added 4m go (平胡 + 抢杠 = 1 fan), then wins seat 0's next discard 1m for no more
    # (平胡 + 杠上炮 = 1 fan) before drawing again.
    t = table(hands=ROB_HANDS, voids=ROB_VOIDS)
    assert codes(t, *ROB_BEFORE) == []
    assert codes(t, "0+4m", "0jia 4m", "0+2s", "0-1m", "1hu0 1m") == ["passed_win"]


def test_passed_win_off_a_kong_one_could_rob_blocks_nothing() -> None:
    t = table({"passed_win": "off"}, hands=ROB_HANDS, voids=ROB_VOIDS)
    assert codes(t, *ROB_BEFORE, "0+4m", "0jia 4m", "0+2s", "0-1m", "1hu0 1m") == []


def test_robbing_a_kong_is_the_kongers_discard_so_where_discards_must_be_won_it_must_be_robbed(
) -> None:
    # docs/rules.md §3 last four (最后四张牌，若有人点炮则自动和牌), with 抢杠 counted
    # as 点炮 by the konger (the online rules).
    t = table({"last_four": "must_win_all"}, hands=ROB_HANDS, voids=ROB_VOIDS)
    assert codes(t, *ROB_BEFORE) == []
    t.wall_left = 4
    assert codes(t, "0+4m", "0jia 4m") == []
    assert t.legal_actions(1) == [act("1hu0 4m")]  # no pass: the rob is compulsory
    assert codes(t, "0+2s") == ["last_four_not_won"]


def test_robbing_a_kong_in_the_last_four_a_must_win_overrides_the_passed_win_bar() -> None:
    # Seat 1 lets seat 3's 1m go before the last four (a passed win under strict 过手胡);
    # in the last four, before seat 1 draws again, it must rob seat 0's added 4m.
    t = table({"last_four": "must_win_all", "passed_win": "strict"}, hands=ROB_HANDS,
              voids=ROB_VOIDS)
    assert codes(t, *ROB_BEFORE[:-2]) == []
    t.wall_left = 5
    assert codes(t, "3+1m", "3-1m", "0+4m") == []
    assert t.passed[1] is not None and t.last_four
    assert codes(t, "0jia 4m", "1hu0 4m") == []


def test_last_four_chengdu_a_robbable_added_kong_may_be_let_go() -> None:
    # chengdu (must_win_self_draw): only self-drawn winning tiles must be won.
    t = table({"last_four": "must_win_self_draw"}, hands=ROB_HANDS, voids=ROB_VOIDS)
    codes(t, *ROB_BEFORE)
    t.wall_left = 4
    assert codes(t, "0+4m", "0jia 4m", "0+2s") == []


def _third_win_doc() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(
        (DATA / "third_win_ends_round_chengdu.json").read_text(encoding="utf-8"))
    return doc


def test_whole_numbers_written_as_floats_in_a_result_are_schema_issues_not_a_crash() -> None:
    # 3.0 is an integer to JSON Schema, but the format's integer fields take integers: the
    # reader refuses such a text, and a document built by hand is reported, never raises
    doc = _third_win_doc()
    doc["rounds"][0]["result"] = {"deltas": [3.0, 3.0, 2.0, -8.0]}
    report = verify_document(doc)
    assert [(v.code, v.round) for v in report.violations] == [("schema", 0)] * 4
    assert report.violations[3].message.startswith("$.rounds[0].result.deltas[3]: -8.0 is")


@pytest.mark.parametrize("ruleset", [
    {"preset": "chengdu", "patterns": {"ping_hu": 10**18}},
    {"preset": "chengdu", "patterns": {"ping_hu": 100000}},
    {"preset": "online", "max_fan": 10**9, "patterns": {"ping_hu": 10**9}},
    {"preset": "chengdu", "flower_pig": 10**5000},
])
def test_verifier_never_raises_an_absurd_fan_or_amount_is_a_bad_ruleset(
        ruleset: dict[str, Any]) -> None:
    # docs/rules.md §6/§7: the verifier never crashes; an option's bad value is a clear error.
    doc = _third_win_doc()
    doc["ruleset"] = ruleset
    assert [v.code for v in verify_document(doc).violations] == ["bad_ruleset"]


def test_no_dealer_check_after_an_abandoned_round() -> None:
    # docs/rules.md §6: the round after an incomplete one may have any dealer; a complete round's
    # successor is checked (wrong_dealer).
    abandoned = round_doc(HANDS, ["dq smmm", "0-5s", "1+4p"])
    for dealer in range(4):
        after = round_doc(_rotate(HANDS, dealer), ["dq smmm"], dealer=dealer)
        report = verify_document(match_doc(abandoned, after, ruleset={"exchange": "off"}))
        assert report.legal, [v.code for v in report.violations]
        assert report.rounds[0].incomplete


def _rotate(hands: list[str], dealer: int) -> list[str]:
    return hands[-dealer:] + hands[:-dealer] if dealer else list(hands)


@pytest.mark.parametrize("system", ["table", "additive"])
def test_ping_hu_never_adds_to_another_pattern_in_either_fan_system(system: str) -> None:
    # docs/rules.md §4: 平胡 is the hand with no other pattern (online: 平胡 1, 对对胡 2).
    rules = Rules.from_json({"preset": "online", "fan_system": system})
    pungs = score_win(counts_of(parse_tiles("111333444m66677p")), [], Tile.parse("7p"), 2,
                      rules)
    assert (pungs.patterns, pungs.fan) == (("dui_dui_hu",), 2)
    plain = score_win(counts_of(parse_tiles("23445677m345789p")), [], Tile.parse("7m"), 2,
                      rules)
    assert (plain.patterns, plain.fan) == (("ping_hu",), 1)


def test_a_player_who_won_pays_nothing_for_a_later_self_drawn_win_even_after_a_late_claim() -> None:
    # docs/rules.md §4 (the Chengdu rules): players who have already won neither pay nor receive.
    # Seat 0 claims seat 1's 5m too late (seat 2 has drawn): the replay reports it and
    # counts seat 0 as won, so seat 0 must not pay seat 2's self-drawn win that follows.
    hands = ["1112345678999m5s", "5m1234567p123s99p", "2345678p456789s", "112233p667788s9s"]
    t = table(hands=hands)
    assert codes(t, "0-5s", "1+4p", "1-5m", "2+8p") == []
    assert "win_out_of_turn" in codes(t, "0hu1 5m")
    assert codes(t, "2hu 8p") == []
    win = t.outcome().events[-1]
    assert win.seat == 2 and win.in_round == frozenset({1, 2, 3})
