"""Rulesets as data: the presets of docs/rules.md §4-§5 and every option of §7."""

from __future__ import annotations

import json
from typing import Any

import pytest

from xuezhan.errors import RulesError
from xuezhan.rules import PATTERN_NAMES, Rules

CHENGDU_PATTERNS = {
    "ping_hu": 0, "dui_dui_hu": 1, "qing_yi_se": 2, "qi_dui": 2, "yao_jiu": 2,
    "qing_dui": 3, "jiang_dui": 3, "qing_qi_dui": 4, "long_qi_dui": 4, "qing_yao_jiu": 4,
    "qing_long_qi_dui": 5, "tian_hu": 5, "di_hu": 5,
}


def test_chengdu_preset_matches_the_rule_book() -> None:
    r = Rules.preset("chengdu")
    assert r.patterns == CHENGDU_PATTERNS
    assert (r.fan_offset, r.max_fan) == (0, None)
    assert r.kong_payments == {"direct": 2, "added": 1, "concealed": 2}
    assert r.kong_fan == {"direct": 1, "added": 1, "concealed": 2}
    assert (r.root, r.kong_then_discard_won, r.dian_gang_hua) == ("no_kongs", "keep",
                                                                  "self_draw")
    assert (r.flower_pig, r.pig_pays_ting_check, r.price_difference) == (16, True, True)
    assert (r.last_four, r.min_fan, r.exchange) == ("must_win_self_draw", 0, "dice")
    assert r.kong_after_peng is False


def test_online_preset_matches_the_rule_book() -> None:
    r = Rules.preset("online")
    assert r.patterns == {k: v + 1 for k, v in CHENGDU_PATTERNS.items()}
    assert (r.fan_offset, r.max_fan) == (1, 7)
    assert r.kong_fan == {"direct": 0, "added": 0, "concealed": 0}
    assert (r.root, r.kong_then_discard_won, r.dian_gang_hua) == ("all", "transfer_last",
                                                                  "discard")
    assert (r.flower_pig, r.pig_pays_ting_check, r.price_difference) == ("cap", False, False)
    assert (r.last_four, r.min_fan) == ("must_win_all", 1)
    assert r.kong_after_peng is False


def test_points_are_two_to_the_fan_less_offset_capped_first() -> None:
    assert Rules.preset("chengdu").points(4) == 16
    online = Rules.preset("online")
    assert online.points(1) == 1
    assert online.points(7) == 64
    assert online.points(9) == 64  # 封顶: the cap applies to the fan first


def test_online_flower_pig_penalty_is_the_cap() -> None:
    assert Rules.preset("online").pig_penalty == 64
    assert Rules.preset("chengdu").pig_penalty == 16


@pytest.mark.parametrize("preset", ["chengdu", "online"])
def test_a_ruleset_round_trips_through_json(preset: str) -> None:
    rules = Rules.preset(preset)
    assert Rules.from_json(json.loads(json.dumps(rules.to_json()))) == rules


def test_a_ruleset_accepts_a_json_string_and_defaults_to_chengdu() -> None:
    assert Rules.from_json('{"max_fan": 4}') == Rules.preset("chengdu").with_options(
        {"max_fan": 4})


VALID_OPTIONS: list[tuple[str, Any]] = [
    ("exchange", "off"), ("exchange", "dice"), ("exchange", "parity"),
    ("exchange", "from_next"), ("exchange", "from_prev"), ("exchange", "opposite"),
    ("exchange", {"by": "die", "map": {str(i): "opposite" for i in range(1, 7)}}),
    ("exchange", {"by": "sum", "map": {str(i): ("from_next", "from_prev", "opposite")[i % 3]
                                       for i in range(2, 13)}}),
    ("void_first", True), ("void_first", False), ("no_claim_void", True),
    ("no_claim_void", False), ("fan_offset", 1), ("max_fan", 4), ("max_fan", None),
    ("self_draw_bonus", "none"), ("self_draw_bonus", "plus_fan"),
    ("self_draw_bonus", "plus_base"), ("kong_payments", {"direct": 3}),
    ("kong_fan", {"concealed": 1}), ("fan_system", "table"), ("fan_system", "additive"),
    ("root", "concealed"), ("root", "no_kongs"), ("root", "all"),
    ("kong_then_discard_won", "keep"), ("kong_then_discard_won", "transfer_last"),
    ("kong_then_discard_won", "transfer_all"), ("kong_then_discard_won", "refund"),
    ("dian_gang_hua", "self_draw"), ("dian_gang_hua", "discard"), ("flower_pig", 0),
    ("flower_pig", 32), ("flower_pig_rule", "three_suits"), ("flower_pig_rule", "holds_void"),
    ("flower_pig_payees", "all_non_pigs"), ("flower_pig_payees", "non_pigs_in_round"),
    ("pig_pays_ting_check", False), ("ting_check", "max"), ("ting_check", "max_no_kong_fan"),
    ("ting_check", "flat"), ("ting_check", "off"), ("ting_check_waits", "theoretical"),
    ("ting_check_waits", "live"), ("price_difference", False), ("tax_refund", False),
    ("passed_win", "off"), ("passed_win", "until_next_draw"), ("passed_win", "strict"),
    ("last_four", "off"), ("last_four", "must_win_self_draw"), ("last_four", "must_win_all"),
    ("heaven_earth", False), ("min_fan", 2), ("jin_gou_diao", "melded_four"),
    ("jin_gou_diao", "pair_wait_all_pungs"), ("kong_draw", "front"), ("kong_draw", "back"),
    ("dragon_root", "count_all"), ("kong_after_peng", True), ("kong_after_peng", False),
    ("patterns", {"jiang_dui": None, "qi_dui": 3}),
    ("add_ons", {"jin_gou_diao": 1, "gen": None}),
]


@pytest.mark.parametrize("option, value", VALID_OPTIONS)
def test_every_option_accepts_each_of_its_values(option: str, value: Any) -> None:
    rules = Rules.from_json({"preset": "chengdu", option: value})
    got = rules.to_json()[option]
    if isinstance(value, dict) and option in ("kong_payments", "kong_fan", "patterns",
                                              "add_ons"):
        assert all(got[k] == v for k, v in value.items())
    else:
        assert got == value
    assert Rules.from_json(rules.to_json()) == rules


BAD_OPTIONS: list[tuple[str, Any, str]] = [
    ("colour", "red", "colour"), ("exchange", "sideways", "exchange"),
    ("exchange", {"by": "die", "map": {"1": "opposite"}}, "exchange.map"),
    ("exchange", {"by": "moon", "map": {}}, "exchange.by"),
    ("void_first", "yes", "void_first"), ("fan_offset", -1, "fan_offset"),
    ("max_fan", 2.5, "max_fan"), ("max_fan", True, "max_fan"),
    ("kong_payments", {"sideways": 1}, "kong_payments.sideways"),
    ("kong_fan", [1, 2], "kong_fan"), ("root", "some", "root"),
    ("flower_pig", "lots", "flower_pig"), ("patterns", {"hua_long": 2}, "patterns.hua_long"),
    ("add_ons", {"gen": -1}, "add_ons.gen"), ("ting_check", "max_fan", "ting_check"),
    ("kong_after_peng", 1, "kong_after_peng"), ("kong_after_peng", "true", "kong_after_peng"),
]


@pytest.mark.parametrize("option, value, named", BAD_OPTIONS)
def test_an_unknown_option_or_bad_value_is_an_error_that_names_it(
        option: str, value: Any, named: str) -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_json({"preset": "chengdu", option: value})
    assert info.value.option == named
    assert repr(named) in str(info.value)


def test_an_unknown_preset_is_an_error() -> None:
    with pytest.raises(RulesError, match="preset"):
        Rules.from_json("shanghai")


def test_flower_pig_cap_needs_a_cap() -> None:
    with pytest.raises(RulesError, match="flower_pig"):
        Rules.from_json({"preset": "online", "max_fan": None})


@pytest.mark.parametrize("die, direction", [(1, "from_next"), (2, "from_next"),
                                            (3, "opposite"), (4, "opposite"),
                                            (5, "from_prev"), (6, "from_prev")])
def test_exchange_dice_follows_seed_000(die: int, direction: str) -> None:
    assert Rules.preset("chengdu").exchange_direction(die, None) == direction


@pytest.mark.parametrize("die, direction", [(1, "from_next"), (2, "from_prev"),
                                            (5, "from_next"), (6, "from_prev")])
def test_exchange_parity_is_odd_from_next_even_from_prev(die: int, direction: str) -> None:
    rules = Rules.from_json({"exchange": "parity"})
    assert rules.exchange_direction(die, None) == direction


def test_exchange_table_by_sum_reads_the_dice_sum() -> None:
    table = {str(i): ("from_next", "from_prev", "opposite")[i % 3] for i in range(2, 13)}
    rules = Rules.from_json({"exchange": {"by": "sum", "map": table}})
    assert rules.exchange_direction(1, 7) == "from_prev"
    assert rules.exchange_direction(1, 9) == "from_next"


def test_exchange_off_has_no_direction() -> None:
    assert Rules.from_json({"exchange": "off"}).exchange_direction(3, 7) is None


def test_every_pattern_has_a_chinese_name() -> None:
    assert set(PATTERN_NAMES) == set(CHENGDU_PATTERNS)


def test_patterns_accept_the_chinese_name_as_an_alias_of_the_identifier() -> None:
    by_zh = Rules.from_json({"patterns": {"清一色": 3}})
    assert by_zh == Rules.from_json({"patterns": {"qing_yi_se": 3}})
    assert by_zh.patterns["qing_yi_se"] == 3


def test_add_ons_accept_the_chinese_name_as_an_alias_of_the_identifier() -> None:
    r = Rules.from_json({"add_ons": {"金钩钓": 1, "根": None}})
    assert (r.add_ons["jin_gou_diao"], r.add_ons["gen"]) == (1, None)


def test_a_ruleset_given_chinese_names_prints_identifiers() -> None:
    printed = Rules.from_json({"patterns": {"龙七对": 6}, "add_ons": {"门清": 1}}).to_json()
    assert printed["patterns"]["long_qi_dui"] == 6 and "龙七对" not in printed["patterns"]
    assert printed["add_ons"]["men_qing"] == 1 and "门清" not in printed["add_ons"]


def test_a_pattern_named_twice_by_identifier_and_chinese_name_is_refused() -> None:
    with pytest.raises(RulesError, match="qing_yi_se"):
        Rules.from_json({"patterns": {"清一色": 3, "qing_yi_se": 2}})


def test_an_unknown_chinese_name_is_refused_naming_it() -> None:
    with pytest.raises(RulesError, match="花龙"):
        Rules.from_json({"patterns": {"花龙": 2}})
