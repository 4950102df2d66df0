"""Scoring (docs/rules.md §4, §7): one test per row of the §4 tables under both presets, and
every option that affects scoring under each of its values."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from xuezhan.errors import TileCountError
from xuezhan.fan import AddOn, Score, WinContext, score_win, ting_value
from xuezhan.hand import Meld, MeldKind
from xuezhan.rules import Rules
from xuezhan.tiles import Tile, counts_of, parse_tiles

M, P, S = 0, 1, 2
CHENGDU = Rules.preset("chengdu")
ONLINE = Rules.preset("online")
BOTH = pytest.mark.parametrize("rules", [CHENGDU, ONLINE], ids=["chengdu", "online"])


def meld(kind: str, tile: str) -> Meld:
    k = MeldKind(kind)
    return Meld(k, Tile.parse(tile), None if k in (MeldKind.AN, MeldKind.JIA) else 1)


def score(hand: str, win: str, *, melds: Sequence[Meld] = (), void: int | None = None,
          rules: Rules = CHENGDU, **ctx: Any) -> Score:
    """Score ``hand`` (the concealed tiles, the winning tile included)."""
    if void is None:
        held = {t // 9 for t in parse_tiles(hand)} | {m.tile // 9 for m in melds}
        void = next((s for s in (S, P, M) if s not in held), None)
    return score_win(counts_of(parse_tiles(hand)), list(melds), Tile.parse(win), void, rules,
                     WinContext(**ctx))


def add_ons(s: Score) -> dict[str, tuple[int, int]]:
    return {a.name: (a.fan, a.count) for a in s.add_ons}


def rules(**options: Any) -> Rules:
    preset = options.pop("preset", "chengdu")
    return Rules.preset(preset).with_options(options)


# -- §4 patterns, with the seed examples ----------------------------------------------

PATTERN_ROWS = [
    # pattern, hand, winning tile, chengdu fan, online fan
    ("ping_hu", "23445677m345789p", "7m", 0, 1),          # 基本胡 / 素番 (the Chengdu rules)
    ("dui_dui_hu", "111333444m66677p", "7p", 1, 2),
    ("qing_yi_se", "11223345678999m", "9m", 2, 3),
    ("qi_dui", "11334466m557799p", "9p", 2, 3),
    ("yao_jiu", "111222333m78999p", "9p", 2, 3),          # 123·123·123·789·99
    ("qing_dui", "22244455577799m", "9m", 3, 4),
    ("jiang_dui", "222555888m55588p", "8p", 3, 4),
    ("qing_qi_dui", "11334466778899m", "9m", 4, 5),
    ("long_qi_dui", "11222244m557788p", "8p", 4, 5),
    ("qing_yao_jiu", "11123777888999m", "9m", 4, 5),
    ("qing_long_qi_dui", "11224444557799m", "9m", 5, 6),
]


@pytest.mark.parametrize("pattern, hand, win, chengdu, online", PATTERN_ROWS,
                         ids=[r[0] for r in PATTERN_ROWS])
def test_each_pattern_scores_its_table_fan_under_both_presets(
        pattern: str, hand: str, win: str, chengdu: int, online: int) -> None:
    for rs, fan in ((CHENGDU, chengdu), (ONLINE, online)):
        s = score(hand, win, rules=rs)
        assert (s.winning, s.pattern, s.patterns, s.fan) == (True, pattern, (pattern,), fan)
        assert s.add_ons == ()


@BOTH
def test_tian_hu_replaces_a_lower_hand_pattern(rules: Rules) -> None:
    s = score("23445677m345789p", "7m", rules=rules, self_drawn=True, heaven=True)
    assert (s.pattern, s.fan) == ("tian_hu", rules.patterns["tian_hu"])
    assert s.fan == (5 if rules is CHENGDU else 6)


@BOTH
def test_di_hu_replaces_a_lower_hand_pattern_and_keeps_the_add_ons(rules: Rules) -> None:
    s = score("123333m45566799s", "9s", rules=rules, self_drawn=True, earth=True)
    assert s.pattern == "di_hu"
    assert s.fan == rules.patterns["di_hu"] + 1  # + 根


@BOTH
def test_tian_hu_does_not_replace_an_equal_pattern(rules: Rules) -> None:
    s = score("11224444557799m", "9m", rules=rules, self_drawn=True, heaven=True)
    assert s.pattern == "qing_long_qi_dui"


def test_heaven_and_earth_off_scores_the_hand_pattern() -> None:
    s = score("23445677m345789p", "7m", rules=rules(heaven_earth=False), heaven=True)
    assert (s.pattern, s.fan) == ("ping_hu", 0)
    s = score("23445677m345789p", "7m", rules=rules(heaven_earth=False), earth=True)
    assert s.pattern == "ping_hu"


@BOTH
def test_fan_offset_sets_the_points(rules: Rules) -> None:
    # chengdu: points = 2^fan; online: 2^(fan − 1) (滚滚番, the online rules)
    s = score("11223345678999m", "9m", rules=rules)
    assert s.points == 4
    assert rules.points(s.fan) == s.points


@pytest.mark.parametrize("offset, points", [(0, 4), (1, 2), (2, 1), (3, 1)])
def test_fan_offset_under_each_value(offset: int, points: int) -> None:
    assert score("11223345678999m", "9m", rules=rules(fan_offset=offset)).points == points


def test_chengdu_has_no_cap() -> None:
    s = score("11113333557799m", "9m", rules=CHENGDU)
    assert (s.pattern, s.fan, s.capped, s.points) == ("qing_long_qi_dui", 6, False, 64)


def test_online_caps_at_seven_fan_64_points() -> None:
    s = score("11113333557799m", "9m", rules=ONLINE)
    assert (s.pattern, s.fan, s.capped, s.points) == ("qing_long_qi_dui", 7, False, 64)
    s = score("11113333557799m", "9m",
              rules=ONLINE.with_options({"add_ons": {"hai_di_lao_yue": 1}}),
              self_drawn=True, last_tile=True)
    assert (s.fan, s.capped, s.points) == (8, True, 64)
    assert "capped at 7" in s.breakdown()


@pytest.mark.parametrize("max_fan, capped, points", [(None, False, 128), (7, False, 128),
                                                     (6, True, 64), (3, True, 8)])
def test_max_fan_under_each_value(max_fan: int | None, capped: bool, points: int) -> None:
    s = score("11113333557799m", "9m", rules=rules(max_fan=max_fan),
              self_drawn=True, after_kong=None, kong_discard=True)
    assert s.fan == 7  # 清龙七对 5 + 根 1 (the dragon's four is not one) + 杠上炮 1
    assert (s.capped, s.points) == (capped, points)


# -- §4 add-ons ------------------------------------------------------------------


@BOTH
def test_gen_a_concealed_four_adds_one(rules: Rules) -> None:
    s = score("123333m45566799s", "9s", rules=rules)    # 带根 (the Chengdu rules)
    assert add_ons(s) == {"gen": (1, 1)}
    assert s.fan == rules.patterns["ping_hu"] + 1


@BOTH
def test_gen_a_pung_with_its_fourth_in_hand_adds_one(rules: Rules) -> None:
    s = score("123m456m789m5p5p", "5p", melds=[meld("peng", "5p")], rules=rules)
    assert add_ons(s)["gen"] == (1, 1)


@BOTH
def test_gen_a_declared_kong_counts_online_not_chengdu(rules: Rules) -> None:
    s = score("123m456m789m11p", "1p", melds=[meld("ming", "5p")], rules=rules)
    assert ("gen" in add_ons(s)) == (rules is ONLINE)


@BOTH
def test_direct_kong_declared_by_the_winner_adds_kong_fan(rules: Rules) -> None:
    s = score("123m456m789m11p", "1p", melds=[meld("ming", "5p")], rules=rules)
    expected = {"kong_direct": (1, 1)} if rules is CHENGDU else {"gen": (1, 1)}
    assert add_ons(s) == expected


@BOTH
def test_added_kong_declared_by_the_winner_adds_kong_fan(rules: Rules) -> None:
    s = score("123m456m789m11p", "1p", melds=[meld("jia", "5p"), ], rules=rules)
    expected = {"kong_added": (1, 1)} if rules is CHENGDU else {"gen": (1, 1)}
    assert add_ons(s) == expected


@BOTH
def test_concealed_kong_declared_by_the_winner_adds_kong_fan(rules: Rules) -> None:
    s = score("123m456m11p", "1p", melds=[meld("an", "5p"), meld("an", "6p")], rules=rules)
    expected = {"kong_concealed": (2, 2)} if rules is CHENGDU else {"gen": (1, 2)}
    assert add_ons(s) == expected
    assert s.fan == (4 if rules is CHENGDU else 3)


@BOTH
def test_gang_shang_hua_adds_one_on_top_of_the_kongs_own_add_on(rules: Rules) -> None:
    # the Chengdu rules: 杠上花 +2 after 刮风 (明杠), +3 after 下雨 (暗杠) = kong add-on + 1
    direct = score("123m456m789m11p", "1p", melds=[meld("ming", "5p")], rules=rules,
                   self_drawn=True, after_kong="direct")
    concealed = score("123m456m789m11p", "1p", melds=[meld("an", "5p")], rules=rules,
                      self_drawn=True, after_kong="concealed")
    assert add_ons(direct)["gang_shang_hua"] == (1, 1)
    if rules is CHENGDU:
        assert direct.fan - direct.pattern_fans[0] == 2
        assert concealed.fan - concealed.pattern_fans[0] == 3
    else:  # kong_fan 0; the kong is a 根
        assert direct.fan == rules.patterns["ping_hu"] + 1 + 1


@BOTH
def test_gang_shang_pao_adds_one(rules: Rules) -> None:
    s = score("23445677m345789p", "7m", rules=rules, kong_discard=True)
    assert add_ons(s) == {"gang_shang_pao": (1, 1)}


@BOTH
def test_qiang_gang_adds_one(rules: Rules) -> None:
    s = score("23445677m345789p", "7m", rules=rules, rob_kong=True)
    assert add_ons(s) == {"qiang_gang": (1, 1)}
    assert s.fan == rules.patterns["ping_hu"] + 1


@BOTH
def test_the_dragons_four_is_not_a_gen_again_each_further_one_is(rules: Rules) -> None:
    assert score("11222244m557788p", "8p", rules=rules).add_ons == ()
    s = score("11112222m557788p", "8p", rules=rules)
    assert (s.pattern, add_ons(s)) == ("long_qi_dui", {"gen": (1, 1)})


def test_dragon_root_count_all_counts_the_dragons_four_too() -> None:
    s = score("11222244m557788p", "8p", rules=rules(dragon_root="count_all"))
    assert (s.pattern, add_ons(s), s.fan) == ("long_qi_dui", {"gen": (1, 1)}, 5)


def test_a_four_in_a_sets_reading_is_an_ordinary_gen() -> None:
    s = score("111123m456789p99p", "9p", rules=CHENGDU)   # 111·123·456·789·99
    assert (s.pattern, add_ons(s)) == ("ping_hu", {"gen": (1, 1)})
    s = score("1111223344m5566p", "6p", rules=CHENGDU)    # seven pairs only: the dragon
    assert (s.pattern, s.fan) == ("long_qi_dui", 4)


# -- options that affect scoring -----------------------------------------------------


@pytest.mark.parametrize("root, peng_fourth, kong, concealed_four", [
    ("concealed", 0, 0, 1), ("no_kongs", 1, 0, 1), ("all", 1, 1, 1)])
def test_root_under_each_value(root: str, peng_fourth: int, kong: int,
                               concealed_four: int) -> None:
    rs = rules(root=root)
    peng = score("123m456m789m5p5p", "5p", melds=[meld("peng", "5p")], rules=rs)
    assert add_ons(peng).get("gen", (1, 0))[1] == peng_fourth
    ming = score("123m456m789m11p", "1p", melds=[meld("ming", "5p")], rules=rs)
    assert add_ons(ming).get("gen", (1, 0))[1] == kong
    four = score("123333m45566799s", "9s", rules=rs)
    assert add_ons(four).get("gen", (1, 0))[1] == concealed_four


def test_fan_system_additive_adds_qing_yi_se_and_dui_dui_hu() -> None:
    s = score("22244455577799m", "9m", rules=rules(fan_system="additive"))
    assert (s.patterns, s.pattern, s.fan) == (("qing_yi_se", "dui_dui_hu"), "qing_yi_se", 3)
    assert s.breakdown() == "清一色 2 + 对对胡 1 = 3 fan → 8 × base"


def test_fan_system_table_takes_the_single_highest_pattern() -> None:
    s = score("22244455577799m", "9m", rules=rules(fan_system="table"))
    assert (s.patterns, s.fan) == (("qing_dui",), 3)


def test_additive_counts_jiang_dui_on_top_of_dui_dui_hu() -> None:
    rs = rules(fan_system="additive", patterns={"jiang_dui": 2})
    s = score("222555888m55588p", "8p", rules=rs)
    assert (s.patterns, s.fan) == (("dui_dui_hu", "jiang_dui"), 3)


def test_additive_counts_long_qi_dui_on_top_of_qi_dui_and_keeps_the_dragon_rule() -> None:
    rs = rules(fan_system="additive", patterns={"long_qi_dui": 1})
    s = score("11112222m557788p", "8p", rules=rs)
    assert (s.patterns, s.fan) == (("qi_dui", "long_qi_dui"), 2 + 1 + 1)
    assert add_ons(s) == {"gen": (1, 1)}


def test_additive_adds_yao_jiu_and_qing_yi_se() -> None:
    s = score("11123777888999m", "9m", rules=rules(fan_system="additive"))
    assert (s.patterns, s.fan) == (("qing_yi_se", "yao_jiu"), 4)


def test_additive_counts_ping_hu_only_when_nothing_else_applies() -> None:
    rs = rules(fan_system="additive", preset="online")
    assert score("23445677m345789p", "7m", rules=rs).patterns == ("ping_hu",)
    assert score("111333444m66677p", "7p", rules=rs).patterns == ("dui_dui_hu",)
    s = score("23445677m345789p", "7m", rules=rs, self_drawn=True, heaven=True)
    assert (s.patterns, s.fan) == (("tian_hu",), 6)


def test_additive_adds_tian_hu_to_the_hand_patterns() -> None:
    s = score("11223345678999m", "9m", rules=rules(fan_system="additive"), self_drawn=True,
              heaven=True)
    assert (s.patterns, s.pattern, s.fan) == (("qing_yi_se", "tian_hu"), "tian_hu", 7)


@pytest.mark.parametrize("kong_fan, fan", [({"direct": 0}, 0), ({"direct": 1}, 1),
                                           ({"direct": 3}, 3)])
def test_kong_fan_under_each_value(kong_fan: dict[str, int], fan: int) -> None:
    s = score("123m456m789m11p", "1p", melds=[meld("ming", "5p")], rules=rules(kong_fan=kong_fan))
    assert s.fan == fan
    assert ("kong_direct" in add_ons(s)) == (fan > 0)


@pytest.mark.parametrize("bonus, fan", [("none", 0), ("plus_fan", 1), ("plus_base", 0)])
def test_self_draw_bonus_under_each_value(bonus: str, fan: int) -> None:
    rs = rules(self_draw_bonus=bonus)
    assert score("23445677m345789p", "7m", rules=rs, self_drawn=True).fan == fan
    assert score("23445677m345789p", "7m", rules=rs, self_drawn=False).fan == 0


@pytest.mark.parametrize("dian_gang_hua, zi_mo", [("discard", False), ("self_draw", True)])
def test_dian_gang_hua_discard_is_a_discard_win_without_zi_mo_fan(dian_gang_hua: str,
                                                                   zi_mo: bool) -> None:
    rs = rules(self_draw_bonus="plus_fan", dian_gang_hua=dian_gang_hua)
    s = score("123m456m789m11p", "1p", melds=[meld("ming", "5p")], rules=rs,
              after_kong="direct")
    assert ("zi_mo" in add_ons(s)) is zi_mo
    assert "gang_shang_hua" in add_ons(s)  # still a win on a kong's replacement tile


@pytest.mark.parametrize("kind", ["added", "concealed"])
def test_dian_gang_hua_discard_keeps_zi_mo_fan_after_an_added_or_concealed_kong(kind: str) -> None:
    rs = rules(self_draw_bonus="plus_fan", dian_gang_hua="discard")
    s = score("123m456m789m11p", "1p", melds=[meld("an" if kind == "concealed" else "jia", "5p")],
              rules=rs, after_kong=kind)
    assert "zi_mo" in add_ons(s)


def test_self_draw_bonus_counts_a_win_on_a_kong_replacement_as_self_drawn() -> None:
    s = score("123m456m789m11p", "1p", melds=[meld("an", "5p")],
              rules=rules(self_draw_bonus="plus_fan"), after_kong="concealed")
    assert {"zi_mo", "gang_shang_hua", "kong_concealed"} <= set(add_ons(s))


@pytest.mark.parametrize("min_fan, winning", [(0, True), (1, True), (2, False)])
def test_min_fan_under_each_value(min_fan: int, winning: bool) -> None:
    s = score("111333444m66677p", "7p", rules=rules(min_fan=min_fan))   # 对对胡 1
    assert s.winning is winning
    assert s.reason == (None if winning else "below_min_fan")
    assert s.points == (2 if winning else 0)


def test_online_min_fan_one_is_always_met_by_su_fan() -> None:
    assert score("23445677m345789p", "7m", rules=ONLINE).winning


def test_patterns_override_changes_a_fan() -> None:
    s = score("11334466m557799p", "9p", rules=rules(patterns={"qi_dui": 3}))
    assert (s.pattern, s.fan) == ("qi_dui", 3)


def test_patterns_override_null_switches_a_pattern_off() -> None:
    rs = rules(patterns={"jiang_dui": None})
    s = score("222555888m55588p", "8p", rules=rs)
    assert (s.pattern, s.fan) == ("dui_dui_hu", 1)
    rs = rules(patterns={"qi_dui": None})
    assert score("11334466m557799p", "9p", rules=rs).pattern == "ping_hu"


def test_patterns_override_null_of_the_dragon_makes_its_four_a_gen() -> None:
    rs = rules(patterns={"long_qi_dui": None})
    s = score("11222244m557788p", "8p", rules=rs)
    assert (s.pattern, add_ons(s), s.fan) == ("qi_dui", {"gen": (1, 1)}, 3)


def test_patterns_override_can_make_yao_jiu_worth_nothing() -> None:
    s = score("111222333m78999p", "9p", rules=rules(patterns={"yao_jiu": 0}))
    assert s.fan == 0


@pytest.mark.parametrize("name, ctx", [("gang_shang_pao", {"kong_discard": True}),
                                       ("qiang_gang", {"rob_kong": True}),
                                       ("gen", {})])
def test_add_ons_override_null_switches_an_add_on_off(name: str, ctx: dict[str, Any]) -> None:
    hand = "123333m45566799s"
    assert name in add_ons(score(hand, "9s", **ctx))
    s = score(hand, "9s", rules=rules(add_ons={name: None}), **ctx)
    assert name not in add_ons(s)


def test_add_ons_override_changes_a_fan() -> None:
    s = score("123333m45566799s", "9s", rules=rules(add_ons={"gen": 2}))
    assert add_ons(s) == {"gen": (2, 1)}
    assert s.breakdown() == "平胡 0 + 根 2 ×1 = 2 fan → 4 × base"


def test_gang_shang_hua_null_leaves_only_the_kongs_own_add_on() -> None:
    s = score("123m456m789m11p", "1p", melds=[meld("ming", "5p")],
              rules=rules(add_ons={"gang_shang_hua": None}), self_drawn=True,
              after_kong="direct")
    assert add_ons(s) == {"kong_direct": (1, 1)}


# -- the extra patterns (off in both presets) -----------------------------------------


FOUR_MELDS = [meld("peng", "2m"), meld("peng", "5m"), meld("ming", "7p"), meld("an", "9p")]


@BOTH
def test_extra_patterns_are_off_in_both_presets(rules: Rules) -> None:
    s = score("33m", "3m", melds=FOUR_MELDS, rules=rules, self_drawn=True, last_tile=True)
    names = set(add_ons(s))
    assert not names & {"jin_gou_diao", "hai_di_lao_yue", "hai_di_pao", "men_qing",
                        "zhong_zhang"}


def test_jin_gou_diao_melded_four_is_four_melds_and_the_pair_wait() -> None:
    rs = rules(add_ons={"jin_gou_diao": 1}, jin_gou_diao="melded_four")
    s = score("33m", "3m", melds=FOUR_MELDS, rules=rs)
    assert add_ons(s)["jin_gou_diao"] == (1, 1)
    assert s.pattern == "dui_dui_hu"
    s = score("33m444p", "3m", melds=FOUR_MELDS[:3], rules=rs)
    assert "jin_gou_diao" not in add_ons(s)


def test_jin_gou_diao_pair_wait_all_pungs_needs_every_set_a_pung_and_the_pair_tile() -> None:
    rs = rules(add_ons={"jin_gou_diao": 1}, jin_gou_diao="pair_wait_all_pungs")
    assert "jin_gou_diao" in add_ons(score("33m444p", "3m", melds=FOUR_MELDS[:3], rules=rs))
    assert "jin_gou_diao" in add_ons(score("33m", "3m", melds=FOUR_MELDS, rules=rs))
    # won on the pung's tile, not the pair's
    assert "jin_gou_diao" not in add_ons(score("33m444p", "4p", melds=FOUR_MELDS[:3], rules=rs))
    # a chow among the sets
    assert "jin_gou_diao" not in add_ons(score("33m234p", "3m", melds=FOUR_MELDS[:3], rules=rs))


def test_hai_di_lao_yue_is_a_self_drawn_win_on_the_last_tile() -> None:
    rs = rules(add_ons={"hai_di_lao_yue": 1, "hai_di_pao": 1})
    s = score("23445677m345789p", "7m", rules=rs, self_drawn=True, last_tile=True)
    assert add_ons(s) == {"hai_di_lao_yue": (1, 1)}


def test_hai_di_pao_is_a_win_on_the_last_tiles_discard() -> None:
    rs = rules(add_ons={"hai_di_lao_yue": 1, "hai_di_pao": 1})
    s = score("23445677m345789p", "7m", rules=rs, last_tile=True)
    assert add_ons(s) == {"hai_di_pao": (1, 1)}
    assert score("23445677m345789p", "7m", rules=rs).add_ons == ()


def test_men_qing_means_no_peng_and_no_direct_or_added_kong() -> None:
    rs = rules(add_ons={"men_qing": 1})
    assert "men_qing" in add_ons(score("23445677m345789p", "7m", rules=rs))
    assert "men_qing" in add_ons(score("123m456m789m11p", "1p", melds=[meld("an", "5p")],
                                       rules=rs))
    for kind in ("peng", "ming", "jia"):
        s = score("123m456m789m11p", "1p", melds=[meld(kind, "5p")], rules=rs)
        assert "men_qing" not in add_ons(s)


def test_zhong_zhang_means_no_1_or_9_in_hand_or_melds() -> None:
    rs = rules(add_ons={"zhong_zhang": 1})
    assert "zhong_zhang" in add_ons(score("234456m345678p88p", "8p", rules=rs))
    assert "zhong_zhang" not in add_ons(score("23445677m345789p", "7m", rules=rs))
    s = score("234m456m678p88p", "8p", melds=[meld("peng", "9m")], rules=rs)
    assert s.winning and "zhong_zhang" not in add_ons(s)


# -- not winning -----------------------------------------------------------------


def test_a_hand_that_is_not_a_winning_shape_says_so() -> None:
    s = score("23445677m345788p", "8p")
    assert (s.winning, s.reason, s.pattern, s.points) == (False, "not_a_winning_hand", None, 0)
    assert s.breakdown() == "not a win: not_a_winning_hand"


def test_a_hand_holding_the_void_suit_is_not_a_win() -> None:
    s = score("23445677m345789p", "7m", void=P)
    assert (s.winning, s.reason) == (False, "holds_void_suit")


def test_a_meld_of_the_void_suit_is_not_a_win() -> None:
    s = score("123m456m789m11p", "1p", melds=[meld("peng", "5s")], void=S)
    assert s.reason == "holds_void_suit"


def test_seven_pairs_need_a_concealed_hand() -> None:
    # fourteen concealed tiles next to a peng: the replay (not strict) finds no win in it
    s = score_win(counts_of(parse_tiles("11334466m557799p")), [meld("peng", "9s")],
                  Tile.parse("9p"), M, CHENGDU, strict=False)
    assert s.reason == "not_a_winning_hand"


# -- the best reading ---------------------------------------------------------------


def test_111222333_is_read_as_chows_for_yao_jiu() -> None:
    assert score("111222333m78999p", "9p").pattern == "yao_jiu"


def test_111222333_is_read_as_pungs_for_qing_dui() -> None:
    s = score("11122233344455m", "5m")
    assert (s.pattern, s.fan) == ("qing_dui", 3)


def test_seven_pairs_and_sets_take_the_better_reading() -> None:
    # 112233 556677 p + 99p: 七对 beats 清一色? both: 清七对 4
    s = score("11223355667799p", "9p")
    assert (s.pattern, s.fan) == ("qing_qi_dui", 4)


def test_score_is_the_same_whatever_the_winning_tiles_position() -> None:
    a = score("111333444m66677p", "7p")
    b = score("77p666p444m333m111m", "7p")
    assert a == b


# -- presentation -----------------------------------------------------------------


def test_breakdown_names_pattern_add_ons_and_points() -> None:
    s = score("11112345678999m", "9m", melds=[], rules=CHENGDU, self_drawn=True)
    assert s.breakdown() == "清一色 2 + 根 ×1 = 3 fan → 8 × base"
    s = score("123m456m789m11m", "1m", melds=[meld("an", "5m")], rules=CHENGDU,
              self_drawn=True, after_kong="concealed")
    assert s.breakdown() == "清一色 2 + 暗杠 2 ×1 + 杠上花 1 = 5 fan → 32 × base"


def test_to_json_is_plain_data() -> None:
    s = score("123333m45566799s", "9s", rules=ONLINE)
    assert s.to_json() == {
        "winning": True, "reason": None, "pattern": "ping_hu",
        "patterns": [{"name": "ping_hu", "fan": 1}], "fan": 2,
        "add_ons": [{"name": "gen", "count": 1, "fan": 1, "total": 1}],
        "capped": False, "max_fan": 7, "points": 2,
        "breakdown": "平胡 1 + 根 ×1 = 2 fan → 2 × base",
    }


def test_score_json_lists_every_counted_pattern_in_additive() -> None:
    s = score("22244455577799m", "9m", rules=rules(fan_system="additive"))
    out = s.to_json()
    assert out["patterns"] == [{"name": "qing_yi_se", "fan": 2}, {"name": "dui_dui_hu", "fan": 1}]
    assert out["pattern"] == "qing_yi_se"  # the highest, kept for older readers
    assert out["fan"] == sum(p["fan"] for p in out["patterns"])


def test_score_json_lists_the_one_pattern_of_the_table_system() -> None:
    out = score("22244455577799m", "9m", rules=CHENGDU).to_json()
    assert out["patterns"] == [{"name": "qing_dui", "fan": 3}]
    assert out["pattern"] == "qing_dui"


def test_score_json_add_ons_state_count_fan_per_unit_and_total() -> None:
    s = score("123m789m11m", "1m", melds=[meld("an", "5m"), meld("an", "6m")],
              rules=CHENGDU, after_kong="concealed", self_drawn=True)
    kong = next(a for a in s.to_json()["add_ons"] if a["name"] == "kong_concealed")
    assert kong == {"name": "kong_concealed", "count": 2, "fan": 2, "total": 4}


def test_score_json_of_no_win_states_the_reason() -> None:
    out = score("123m456m789m12p555s", "5s", void=S).to_json()
    assert (out["winning"], out["reason"], out["patterns"]) == (False, "not_a_winning_hand", [])


TWO_MELDS = [meld("peng", "5p"), meld("an", "6p")]


@pytest.mark.parametrize("hand, melds", [("123m456m789m11p5s", []), ("123m456m789m1p", []),
                                         ("123m456m789m11p", TWO_MELDS)])
def test_score_refuses_a_hand_whose_tile_count_does_not_fit_its_melds(
        hand: str, melds: list[Meld]) -> None:
    with pytest.raises(TileCountError, match=str(len(parse_tiles(hand)))):
        score_win(counts_of(parse_tiles(hand)), melds, Tile.parse("1m"), None, CHENGDU)


@pytest.mark.parametrize("hand, melds", [("12m", []), ("123m456m789m11p", []),
                                         ("123m456m789m1p", TWO_MELDS)])
def test_ting_value_refuses_a_hand_whose_tile_count_does_not_fit_its_melds(
        hand: str, melds: list[Meld]) -> None:
    with pytest.raises(TileCountError, match="相公"):
        ting_value(counts_of(parse_tiles(hand)), melds, None, CHENGDU)


def test_add_on_names_print_in_chinese() -> None:
    assert str(AddOn("gen", 1, 2)) == "根 ×2"
    assert str(AddOn("kong_direct", 1, 1)) == "直杠 ×1"
    assert str(AddOn("qiang_gang", 1, 1)) == "抢杠 1"


# -- 查叫 (ting_value) --------------------------------------------------------------


@BOTH
def test_ting_value_scores_112233556677p99m_as_qi_dui_not_ping_hu(rules: Rules) -> None:
    # the Chengdu rules: 112233556677筒99万 is valued as 暗七对, not 基本胡
    value = ting_value(counts_of(parse_tiles("112233556677p9m")), [], S, rules)
    assert value is not None
    fan, per_wait = value
    assert fan == rules.patterns["qi_dui"]
    assert [(str(t), s.pattern) for t, s in per_wait] == [("9m", "qi_dui")]


def test_ting_value_takes_the_highest_wait() -> None:
    value = ting_value(counts_of(parse_tiles("2344567m345789p")), [], S, CHENGDU)
    assert value is not None
    assert value[0] == 0
    value = ting_value(counts_of(parse_tiles("1112345678999m")), [], S, CHENGDU)
    assert value is not None and value[0] == 3   # 清一色 + 根 on the ninth 1m or 9m
    assert len(value[1]) == 9


def test_ting_value_is_none_when_not_ready() -> None:
    assert ting_value(counts_of(parse_tiles("2344567m345799p")), [], S, CHENGDU) is None
    assert ting_value(counts_of(parse_tiles("2344567m345789p")), [], P, CHENGDU) is None


def test_ting_value_leaves_the_situational_add_ons_out() -> None:
    rs = rules(add_ons={"hai_di_pao": 1}, self_draw_bonus="plus_fan")
    value = ting_value(counts_of(parse_tiles("2344567m345789p")), [], S, rs)
    assert value is not None and value[0] == 0


def test_ting_value_is_none_when_no_wait_reaches_min_fan() -> None:
    rs = rules(min_fan=1)
    assert ting_value(counts_of(parse_tiles("2344567m345789p")), [], S, rs) is None
    assert ting_value(counts_of(parse_tiles("2344567m345789p")), [], S,
                      rules(min_fan=0)) is not None


def test_ting_value_can_exclude_the_kong_fan() -> None:
    hand = counts_of(parse_tiles("123m456m789m1p"))
    melds = [meld("an", "5p")]
    full = ting_value(hand, melds, S, CHENGDU)
    bare = ting_value(hand, melds, S, CHENGDU, exclude_kong_fan=True)
    assert full is not None and bare is not None
    assert (full[0], bare[0]) == (2, 0)


@pytest.mark.parametrize("waits_rule, ready", [("theoretical", True), ("live", False)])
def test_ting_check_waits_under_each_value(waits_rule: str, ready: bool) -> None:
    rs = rules(ting_check_waits=waits_rule)
    # peng 5p and the fourth 5p in hand: waits on a 5p that can never arrive
    hand = counts_of(parse_tiles("123m456m789m5p"))
    assert (ting_value(hand, [meld("peng", "5p")], S, rs) is not None) is ready
    # 1111m: the only wait is a fifth 1m
    hand = counts_of(parse_tiles("1111m234p567p789p"))
    assert (ting_value(hand, [], S, rs) is not None) is ready


def test_live_waits_keep_the_waits_that_can_still_arrive() -> None:
    rs = rules(ting_check_waits="live")
    hand = counts_of(parse_tiles("1111234m"))   # waits 1m 4m; the 1m is dead
    value = ting_value(hand, [meld("peng", "5p"), meld("peng", "7p")], S, rs)
    assert value is not None
    assert [str(t) for t, _ in value[1]] == ["4m"]
