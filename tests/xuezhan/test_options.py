"""The house-rule options of issue 29 (docs/rules.md §7): each test names the rule it checks."""

from __future__ import annotations

import copy
import dataclasses
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.xuezhan.test_table import run, table
from xuezhan.actions import Gang, Peng
from xuezhan.errors import RulesError
from xuezhan.fan import Score, WinContext, score_win
from xuezhan.replay import RoundWalk, verify_document
from xuezhan.rules import Rules
from xuezhan.settlement import DrawCheck, KongEvent, RoundRecord, settle
from xuezhan.sim.coverage import _count_kong_options, coverage
from xuezhan.table import Table
from xuezhan.tiles import Tile, counts_of, parse_tiles

DATA = Path(__file__).resolve().parents[1] / "data"


def load(name: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((DATA / name).read_text(encoding="utf-8"))
    return doc


def with_rules(doc: dict[str, Any], **options: Any) -> dict[str, Any]:
    out = copy.deepcopy(doc)
    ruleset = out["ruleset"]
    out["ruleset"] = {**({"preset": ruleset} if isinstance(ruleset, str) else ruleset),
                      **options}
    return out


def walked(doc: dict[str, Any], events: int | None = None) -> Table:
    """The table after the first ``events`` events of the document's first round."""
    round_doc = dict(doc["rounds"][0])
    walk = RoundWalk(round_doc, Rules.from_json(doc["ruleset"]))
    stop = len(round_doc["events"]) if events is None else events
    for step, _ in enumerate(walk):
        if step + 1 >= stop:  # before the walk's end closes the open window
            break
    return walk.table


# -- last_discard_claims ---------------------------------------------------------------

PENG_LOG = "options/peng_last_discard_chengdu.json"


def test_a_pung_of_the_last_discard_is_a_violation_under_win_only() -> None:
    doc = with_rules(load(PENG_LOG), last_discard_claims="win_only")
    codes = [v.code for v in verify_document(doc).violations]
    assert codes[0] == "claim_after_wall_empty"


def test_a_pung_of_the_last_discard_verifies_under_peng_and_settles_as_a_drawn_round() -> None:
    # Seat 1 pungs seat 0's 6s, the discard after the last wall tile, and lets go 2m: its
    # hand is then 3m alone beside 5s, 6m (a direct kong), 7m and 6s — ready on 3m for
    # 对对胡 1 + its direct kong 1 = 2 fan = 4 points. Seat 0 is ready on 3p for 平胡
    # (1 point). Both are ready, so 查叫 charges nobody and 补差价 moves 4 − 1 = 3 from
    # seat 0 to seat 1. Earlier: 0 → 1 2 (direct kong), seat 2 self-draws 平胡 (1 from
    # each of 0, 1, 3), seat 3 wins 平胡 on seat 0's 1p (1).
    report = verify_document(load(PENG_LOG))
    assert report.legal, [v.to_json() for v in report.violations]
    settlement = report.rounds[0].settlement
    assert report.rounds[0].record.drawn
    assert sorted((p.payer, p.payee, p.amount, p.reason) for p in settlement.payments) == sorted([
        (0, 1, 2, "kong_direct"), (0, 2, 1, "win_self_drawn"), (1, 2, 1, "win_self_drawn"),
        (3, 2, 1, "win_self_drawn"), (0, 3, 1, "win_discard"), (0, 1, 3, "price_difference")])
    assert settlement.deltas == (-7, 4, 3, 0)


def test_the_last_discard_may_be_punged_but_never_konged_under_peng() -> None:
    doc = load(PENG_LOG)
    peng = next(i for i, e in enumerate(doc["rounds"][0]["events"]) if e["type"] == "peng"
                and i > 100)
    table = walked(doc, peng)
    assert table.wall_left == 0
    actions = table.legal_actions(1)
    assert any(isinstance(a, Peng) for a in actions)
    assert not any(isinstance(a, Gang) for a in actions)
    strict = walked(with_rules(doc, last_discard_claims="win_only"), peng)
    assert not any(isinstance(a, Peng) for a in strict.legal_actions(1))


@pytest.mark.parametrize("value", ["win_only", "peng"])
def test_last_discard_claims_takes_win_only_or_peng(value: str) -> None:
    assert Rules.from_json({"last_discard_claims": value}).last_discard_claims == value


# -- added_kong_fresh_only -------------------------------------------------------------

# Seat 1 holds three 5m, pungs the dealer's 5m and, a turn later, adds its own fourth 5m
# (a 回头杠: the tile drawn that turn is 8p, not 5m).
LATE_HANDS = ["1112345678999m5s", "555m234567p12s99p", "2345678p456789s", "112233p667788s9s"]
LATE_ADDED_KONG = ["0-5m", "1peng0 5m", "1-1s", "2+6m", "2-6m", "3+7m", "3-7m", "0+1p",
                   "0-1p", "1+8p", "1jia 5m", "1+4p", "1-4p"]


def kong_payments(t: Table, reason: str) -> list[tuple[int, int, int]]:
    return [(p.payer, p.payee, p.amount) for p in settle(t.outcome(), t.rules).payments
            if p.reason == reason]


@pytest.mark.parametrize("fresh_only, paid", [
    (False, [(0, 1, 1), (2, 1, 1), (3, 1, 1)]), (True, [])])
def test_a_late_added_kong_pays_nothing_under_added_kong_fresh_only(
        fresh_only: bool, paid: list[tuple[int, int, int]]) -> None:
    t = table({"added_kong_fresh_only": fresh_only}, LATE_HANDS, voids="ssmm")
    assert run(t, *LATE_ADDED_KONG) == []
    kong = next(e for e in t.record if isinstance(e, KongEvent))
    assert not kong.fresh
    assert kong_payments(t, "kong_added") == paid


def test_an_added_kong_of_the_tile_just_drawn_still_pays_under_added_kong_fresh_only() -> None:
    # seat 1 holds two 5m and draws the fourth on the turn it adds it
    events = [e if e != "1+8p" else "1+5m" for e in LATE_ADDED_KONG]
    t = table({"added_kong_fresh_only": True}, [LATE_HANDS[0], "55m8234567p12s99p",
                                                *LATE_HANDS[2:]], voids="ssmm")
    assert run(t, *events) == []
    assert kong_payments(t, "kong_added") == [(0, 1, 1), (2, 1, 1), (3, 1, 1)]


# -- kong_payment_timing ---------------------------------------------------------------

# The dealer konges 1111m concealed at once; its replacement tile is 8m (a win: 234m 567m
# 999m 88m, 杠上花) or 5s, which it discards.
KONG_HANDS = ["1111m234m567m999m8m", "5m1234567p123s99p", "2345678p456789s",
              "112233p667788s9s"]


@pytest.mark.parametrize("timing, paid", [
    ("immediate", [(1, 0, 2), (2, 0, 2), (3, 0, 2)]), ("after_discard", [])])
def test_kong_money_is_never_paid_when_the_declarer_wins_before_discarding_after_discard(
        timing: str, paid: list[tuple[int, int, int]]) -> None:
    t = table({"kong_payment_timing": timing}, KONG_HANDS)
    assert run(t, "0an 1m", "0+8m", "0hu 8m") == []
    assert kong_payments(t, "kong_concealed") == paid
    assert t.record[-1].after_kong is not None  # still 杠上花: the add-on stands


def test_kong_money_is_paid_at_the_declarers_next_discard_after_discard() -> None:
    t = table({"kong_payment_timing": "after_discard"}, KONG_HANDS)
    assert run(t, "0an 1m", "0+5s") == []
    assert kong_payments(t, "kong_concealed") == []
    assert run(t, "0-5s") == []
    assert kong_payments(t, "kong_concealed") == [(1, 0, 2), (2, 0, 2), (3, 0, 2)]
    assert t.outcome().kong_discards == {1: 3}


@pytest.mark.parametrize("timing", ["immediate", "after_discard"])
def test_kong_payment_timing_takes_immediate_or_after_discard(timing: str) -> None:
    assert Rules.from_json({"kong_payment_timing": timing}).kong_payment_timing == timing
    with pytest.raises(RulesError, match="kong_payment_timing"):
        Rules.from_json({"kong_payment_timing": "later"})


def test_the_coverage_table_counts_a_pung_of_the_last_discard() -> None:
    assert coverage([load(PENG_LOG)]).counts["claim:peng_last_discard"] == 1


def test_the_coverage_table_counts_late_added_kongs_and_kong_money_by_its_timing() -> None:
    counts: Counter[str] = Counter()
    rules = Rules.from_json({"kong_payment_timing": "after_discard"})
    late = table({"added_kong_fresh_only": True}, LATE_HANDS, voids="ssmm")
    run(late, *LATE_ADDED_KONG)
    _count_kong_options(counts, late.outcome(), rules)
    assert counts["kong:added_late"] == 1 and counts["kong:paid_after_discard"] == 1
    bloom = table({"kong_payment_timing": "after_discard"}, KONG_HANDS)
    run(bloom, "0an 1m", "0+8m", "0hu 8m")
    record = dataclasses.replace(bloom.outcome(), complete=True)
    _count_kong_options(counts, record, rules)
    assert counts["kong:never_paid"] == 1


# -- the extras 一条龙 and 夹心五, and exclusions ---------------------------------------

EXTRAS = Rules.from_json({"exchange": "off", "add_ons": {"一条龙": 1, "jia_xin_wu": 1}})


PLAIN = WinContext()


def score(hand: str, win: str, rules: Rules = EXTRAS, void: int = 2,
          ctx: WinContext = PLAIN) -> Score:
    return score_win(counts_of(parse_tiles(hand)), [], Tile.parse(win), void, rules, ctx)


def add_on_names(s: Score) -> list[str]:
    return [a.name for a in s.add_ons]


def test_yi_tiao_long_counts_a_one_to_nine_straight_of_one_suit_when_given_a_fan() -> None:
    assert add_on_names(score("123456789m11p234p", "4p")) == ["yi_tiao_long"]
    assert score("123456789m11p234p", "4p").fan == 1
    assert add_on_names(score("123456789m11p234p", "4p", Rules())) == []  # off by default


def test_yi_tiao_long_needs_the_straight_as_three_sets_of_one_suit() -> None:
    assert add_on_names(score("12345678m11p234p9p", "9p", void=0 + 2)) == []
    assert "yi_tiao_long" not in add_on_names(score("123456m789p11p234p", "4p"))


def test_jia_xin_wu_counts_a_win_on_a_5_between_4_and_6() -> None:
    assert add_on_names(score("234m46m789m11p345p5m", "5m")) == ["jia_xin_wu"]
    assert add_on_names(score("234m45m789m11p345p6m", "6m")) == []  # not a 5
    assert add_on_names(score("234m46m789m11p345p5m", "5m", Rules())) == []  # off by default


def test_an_exclusion_drops_the_later_add_on_when_both_apply() -> None:
    bloom = WinContext(self_drawn=True, after_kong="concealed")
    plain = score("11223344556677p", "7p", Rules(), void=0, ctx=bloom)
    assert "gang_shang_hua" in add_on_names(plain)
    rules = Rules.from_json({"exclusions": [["清七对", "杠上花"]]})
    dropped = score("11223344556677p", "7p", rules, void=0, ctx=bloom)
    assert "gang_shang_hua" not in add_on_names(dropped)
    assert dropped.fan == plain.fan - 1


def test_an_exclusion_that_does_not_apply_changes_nothing() -> None:
    rules = Rules.from_json({"exclusions": [["qi_dui", "gang_shang_hua"]]})
    bloom = WinContext(self_drawn=True, after_kong="concealed")
    # a 清七对 is not 七对 by name: each pattern of the family is listed on its own
    assert score("11223344556677p", "7p", rules, void=0, ctx=bloom) == \
        score("11223344556677p", "7p", Rules(), void=0, ctx=bloom)


def test_an_exclusion_between_patterns_drops_the_later_pattern_in_the_additive_system() -> None:
    rules = Rules.from_json({"fan_system": "additive",
                             "exclusions": [["dui_dui_hu", "qing_yi_se"]]})
    s = score("11122244455566m", "6m", rules, void=2)  # pungs only
    assert s.patterns == ("dui_dui_hu",)


def test_exclusions_round_trip_through_json_and_read_chinese_names() -> None:
    rules = Rules.from_json({"exclusions": [["七对", "gang_shang_hua"], ["kong_added", "gen"]]})
    assert rules.exclusions == (("qi_dui", "gang_shang_hua"), ("kong_added", "gen"))
    assert Rules.from_json(rules.to_json()) == rules
    assert rules.to_json()["exclusions"] == [["qi_dui", "gang_shang_hua"], ["kong_added", "gen"]]


@pytest.mark.parametrize("value, field", [
    ("qi_dui", "exclusions"), ([["qi_dui"]], "exclusions.0"),
    ([["qi_dui", "nope"]], "exclusions.0"), ([["gen", "gen"]], "exclusions.0"),
    ([["gen", 3]], "exclusions.0")])
def test_a_bad_exclusion_is_refused_naming_it(value: object, field: str) -> None:
    with pytest.raises(RulesError) as caught:
        Rules.from_json({"exclusions": value})
    assert caught.value.option == field


# -- false_win and the pot -------------------------------------------------------------

# Seat 1 (void m) declares a win on the dealer's 5s with a hand that does not win.
FALSE_WIN = ["0-5s", "1hu0 5s"]


def test_a_false_win_is_a_violation_by_default() -> None:
    t = table({}, voids="smmm")
    assert run(t, *FALSE_WIN) == ["win_not_winning_hand"]


@pytest.mark.parametrize("to, paid, pot", [
    ("each_other_player", [(1, 0, 16), (1, 2, 16), (1, 3, 16)], []),
    ("pot", [], [(1, -1, 16)])])
def test_a_false_win_pays_its_penalty_and_play_goes_on_with_the_tiles_unchanged(
        to: str, paid: list[tuple[int, int, int]], pot: list[tuple[int, int, int]]) -> None:
    t = table({"false_win": {"penalty": 16, "to": to}})
    hand = list(t.hands[1])
    assert run(t, *FALSE_WIN) == []
    assert t.hands[1] == hand and not t.won[1]  # the declared tile is not taken
    assert t.discards[0] == [Tile.parse("5s")]  # it stays the discarder's discard
    # the window is still open: another seat may claim the 5s, here nobody does
    assert run(t, "1+4p", "1-4p") == []
    result = settle(t.outcome(), t.rules)
    assert [(p.payer, p.payee, p.amount) for p in result.payments
            if p.reason == "false_win"] == paid
    assert [(p.payer, p.payee, p.amount) for p in result.pot_payments] == pot
    assert sum(result.deltas) == -result.pot


def test_a_false_win_penalty_of_the_cap_is_the_capped_points() -> None:
    t = table({"max_fan": 3, "false_win": {"penalty": "cap", "to": "pot"}})
    assert run(t, *FALSE_WIN) == []
    result = settle(t.outcome(), t.rules)
    assert result.pot == 8
    assert result.to_json()["pot_payments"][0]["payee"] == "pot"


def test_a_self_drawn_false_win_keeps_the_drawn_tile_in_hand_and_the_turn() -> None:
    t = table({"false_win": {"penalty": 2, "to": "each_other_player"}})
    assert run(t, "0-5s", "1+4p", "1hu 4p") == []
    assert t.hands[1][Tile.parse("4p")] == 2 and t.current == 1 and t.expect == "discard"
    assert run(t, "1-4p") == []


def test_a_false_win_that_breaks_another_rule_is_still_a_violation() -> None:
    t = table({"false_win": {"penalty": 2, "to": "pot"}})
    assert run(t, "0-5s", "2hu1 5s") == ["win_wrong_tile", "win_not_winning_hand"]


def test_flower_pigs_pay_the_pot_once_each_under_flower_pig_payees_pot() -> None:
    record = RoundRecord(dealer=0, events=(), drawn=True, checks=(
        DrawCheck(1, True, None, None), DrawCheck(2, False, 1, None)))
    result = settle(record, Rules.from_json({"flower_pig_payees": "pot"}))
    assert [(p.payer, p.amount, p.reason) for p in result.pot_payments] == [
        (1, 16, "flower_pig")]
    # the pig also pays the ready seat 查叫 (1 fan = 2 points): that is between players
    assert result.deltas == (0, -16 - 2, 2, 0) and sum(result.deltas) == -result.pot
    assert "the pot" in result.pot_payments[0].detail


@pytest.mark.parametrize("value, option", [
    ("penalty", "false_win"), ({"penalty": 2}, "false_win"),
    ({"penalty": -1, "to": "pot"}, "false_win.penalty"),
    ({"penalty": 2, "to": "dealer"}, "false_win.to"),
    ({"penalty": "cap", "to": "pot"}, "false_win.penalty")])
def test_a_bad_false_win_is_refused_naming_it(value: object, option: str) -> None:
    with pytest.raises(RulesError) as caught:
        Rules.from_json({"false_win": value})
    assert caught.value.option == option
