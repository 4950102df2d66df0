"""Settlement: one test per rule of docs/rules.md §4 "Who pays a win" and §5, and per value of
every settlement option of §7. Records are built by hand; seats are 0-3."""

from __future__ import annotations

import json
from typing import Any

import pytest

from xuezhan.fan import WinContext, score_win
from xuezhan.hand import Meld, MeldKind
from xuezhan.replay import verify_document
from xuezhan.rules import Rules
from xuezhan.settlement import (
    DrawCheck,
    KongEvent,
    Payment,
    RoundRecord,
    Settlement,
    SettlementError,
    WinEvent,
    describe,
    next_dealer,
    settle,
)
from xuezhan.sim.simulate import simulate_match
from xuezhan.tiles import Tile, counts_of, parse_tiles

ALL = frozenset({0, 1, 2, 3})
FIVE_M = Tile.parse("5m")
PRESETS = ["chengdu", "online"]


# -- helpers ------------------------------------------------------------------------


def rules(preset: str = "chengdu", **options: Any) -> Rules:
    return Rules.preset(preset).with_options(options)


def kong(index: int, seat: int, kind: str, discarder: int | None = None,
         in_round: frozenset[int] = ALL) -> KongEvent:
    return KongEvent(index=index, seat=seat, kind=kind, tile=FIVE_M, discarder=discarder,
                     in_round=in_round)


def win(index: int, seat: int, discarder: int | None = None, *, points: int = 4, fan: int = 2,
        in_round: frozenset[int] = ALL, group: int | None = None, **extra: Any) -> WinEvent:
    return WinEvent(index=index, seat=seat, tile=FIVE_M, discarder=discarder, fan=fan,
                    points=points, detail=f"test {fan} fan → {points} × base",
                    pattern="ping_hu", in_round=in_round,
                    group=index if group is None else group, **extra)


def check(seat: int, ready: int | None = None, no_kong: int | None = None,
          pig: bool = False, wait: str | None = None) -> DrawCheck:
    tile = None if wait is None else int(Tile.parse(wait))
    return DrawCheck(seat=seat, flower_pig=pig, ready_fan=ready,
                     ready_fan_no_kong=ready if no_kong is None else no_kong,
                     ready_wait=tile, ready_wait_no_kong=tile)


def record(*events: KongEvent | WinEvent, drawn: bool = False, checks: tuple[DrawCheck, ...] = (),
           base: int = 1, dealer: int = 0, complete: bool = True) -> RoundRecord:
    return RoundRecord(dealer=dealer, events=events, drawn=drawn, checks=checks, base=base,
                       complete=complete)


def pays(result: Settlement, *reasons: str) -> list[tuple[int, int, int]]:
    """(payer, payee, amount) of the payments with one of ``reasons`` (all when none given)."""
    return [(p.payer, p.payee, p.amount) for p in result.payments
            if not reasons or p.reason in reasons]


def assert_balanced(result: Settlement) -> None:
    assert sum(result.deltas) == 0
    deltas = [0, 0, 0, 0]
    for p in result.payments:
        assert p.amount > 0 and p.payer != p.payee
        deltas[p.payer] -= p.amount
        deltas[p.payee] += p.amount
    assert tuple(deltas) == result.deltas


# -- who pays a win (§4) ------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_self_drawn_win_is_paid_by_every_player_still_in_round(preset: str) -> None:
    result = settle(record(win(10, 1, points=8)), rules(preset))
    assert pays(result, "win_self_drawn") == [(0, 1, 8), (2, 1, 8), (3, 1, 8)]
    assert result.deltas == (-8, 24, -8, -8)
    assert "自摸" not in result.payments[0].detail  # no 自摸加底 by default
    assert "test 2 fan → 8 × base" in result.payments[0].detail


@pytest.mark.parametrize("preset", PRESETS)
def test_discard_win_is_paid_only_by_the_discarder(preset: str) -> None:
    result = settle(record(win(10, 1, discarder=3, points=4)), rules(preset))
    assert pays(result) == [(3, 1, 4)]
    assert result.payments[0].reason == "win_discard"
    assert result.deltas == (0, 4, 0, -4)


@pytest.mark.parametrize("preset", PRESETS)
def test_multiple_win_on_one_discard_the_discarder_pays_each_winner(preset: str) -> None:
    result = settle(record(win(10, 1, 0, points=2, group=9), win(11, 2, 0, points=8, group=9)),
                    rules(preset))
    assert pays(result, "win_discard") == [(0, 1, 2), (0, 2, 8)]
    assert result.deltas == (-10, 2, 8, 0)


@pytest.mark.parametrize("preset", PRESETS)
def test_rob_kong_is_paid_by_the_robbed_konger_as_discarder_and_the_kong_earns_nothing(
        preset: str) -> None:
    # the replay emits no KongEvent for a robbed added kong
    result = settle(record(win(10, 2, discarder=0, points=4, rob_kong=True)), rules(preset))
    assert pays(result) == [(0, 2, 4)]
    assert result.payments[0].reason == "win_rob_kong"
    assert "抢杠" in result.payments[0].detail


@pytest.mark.parametrize("preset", PRESETS)
def test_rob_kong_is_no_kong_then_discard_won(preset: str) -> None:
    # the robbed konger's earlier kong keeps its money under every kong_then_discard_won
    earlier = kong(5, 0, "concealed")
    robbed = win(10, 2, discarder=0, points=4, rob_kong=True, kong_before_discard=earlier)
    for policy in ("keep", "transfer_last", "transfer_all", "refund"):
        result = settle(record(earlier, robbed), rules(preset, kong_then_discard_won=policy))
        assert pays(result, "call_transfer", "kong_refund") == []
        assert result.deltas == (6 - 4, -2, -2 + 4, -2)


def test_dian_gang_hua_discard_the_kong_tile_discarder_pays_alone_as_a_discard_win() -> None:
    direct = kong(5, 1, "direct", discarder=3)
    result = settle(record(direct, win(7, 1, points=4, after_kong=direct)), rules("online"))
    assert pays(result, "win_discard") == [(3, 1, 4)]
    assert pays(result, "win_self_drawn") == []
    assert "点杠花" in result.payments[-1].detail


def test_dian_gang_hua_self_draw_every_player_in_round_pays() -> None:
    direct = kong(5, 1, "direct", discarder=3)
    result = settle(record(direct, win(7, 1, points=4, after_kong=direct)), rules("chengdu"))
    assert pays(result, "win_self_drawn") == [(0, 1, 4), (2, 1, 4), (3, 1, 4)]


@pytest.mark.parametrize("preset", PRESETS)
def test_dian_gang_hua_applies_only_after_a_direct_kong(preset: str) -> None:
    added = kong(5, 1, "added")
    result = settle(record(added, win(7, 1, points=4, after_kong=added)),
                    rules(preset, dian_gang_hua="discard"))
    assert pays(result, "win_self_drawn") == [(0, 1, 4), (2, 1, 4), (3, 1, 4)]


@pytest.mark.parametrize("preset", PRESETS)
def test_players_who_won_neither_pay_nor_receive_later_wins(preset: str) -> None:
    first = win(10, 1, discarder=0, points=2)
    later = win(20, 3, points=4, in_round=frozenset({0, 2, 3}))
    result = settle(record(first, later), rules(preset))
    assert pays(result, "win_self_drawn") == [(0, 3, 4), (2, 3, 4)]
    assert result.deltas == (-6, 2, -4, 8)


@pytest.mark.parametrize("preset", PRESETS)
def test_players_who_won_neither_pay_nor_receive_later_kongs(preset: str) -> None:
    first = win(10, 1, discarder=0, points=2)
    rest = frozenset({0, 2, 3})
    result = settle(record(first, kong(20, 3, "concealed", in_round=rest),
                           kong(30, 2, "added", in_round=rest)), rules(preset))
    assert pays(result, "kong_concealed") == [(0, 3, 2), (2, 3, 2)]
    assert pays(result, "kong_added") == [(0, 2, 1), (3, 2, 1)]
    assert all(1 not in (p.payer, p.payee) for p in result.payments if p.event != 10)


# -- kong money (§5) ----------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_direct_kong_is_paid_by_the_discarder_only(preset: str) -> None:
    result = settle(record(kong(5, 2, "direct", discarder=0)), rules(preset))
    assert pays(result) == [(0, 2, 2)]
    assert result.payments[0].reason == "kong_direct"
    assert result.payments[0].event == 5


@pytest.mark.parametrize("preset", PRESETS)
def test_added_kong_is_paid_by_each_other_player_in_round(preset: str) -> None:
    result = settle(record(kong(5, 2, "added")), rules(preset))
    assert pays(result, "kong_added") == [(0, 2, 1), (1, 2, 1), (3, 2, 1)]


@pytest.mark.parametrize("preset", PRESETS)
def test_concealed_kong_is_paid_by_each_other_player_in_round(preset: str) -> None:
    result = settle(record(kong(5, 2, "concealed")), rules(preset))
    assert pays(result, "kong_concealed") == [(0, 2, 2), (1, 2, 2), (3, 2, 2)]


def test_kong_payments_option_sets_each_kind_and_zero_pays_nothing() -> None:
    r = rules(kong_payments={"direct": 3, "added": 0, "concealed": 5})
    result = settle(record(kong(5, 2, "direct", discarder=1), kong(6, 2, "added"),
                           kong(7, 0, "concealed")), r)
    assert pays(result) == [(1, 2, 3), (1, 0, 5), (2, 0, 5), (3, 0, 5)]


# -- 杠上炮 money: kong_then_discard_won ------------------------------------------------


def _kong_then_discard(*winners: int) -> RoundRecord:
    """Seat 2 makes a concealed kong (income 6: 2 from each of 0, 1, 3), then its discard
    is won by ``winners``."""
    k = kong(5, 2, "concealed")
    return record(k, *(win(8 + i, w, discarder=2, points=2, group=7, kong_before_discard=k)
                       for i, w in enumerate(winners)))


def test_kong_then_discard_won_keep_the_konger_keeps_the_kong_money() -> None:
    result = settle(_kong_then_discard(1), rules("chengdu"))
    assert pays(result, "call_transfer", "kong_refund") == []
    assert result.deltas == (-2, -2 + 2, 6 - 2, -2)


def test_call_transfer_hands_the_kong_income_to_the_winner_online() -> None:
    # includes the 2 the winner itself paid for the kong
    result = settle(_kong_then_discard(1), rules("online"))
    assert pays(result, "call_transfer") == [(2, 1, 6)]
    assert result.payments[-1].event == 8
    assert "呼叫转移" in result.payments[-1].detail
    assert result.deltas == (-2, -2 + 2 + 6, 6 - 2 - 6, -2)


def test_call_transfer_hands_kong_income_to_each_winner_online() -> None:
    result = settle(_kong_then_discard(1, 3), rules("online"))
    assert pays(result, "call_transfer") == [(2, 1, 6), (2, 3, 6)]
    assert result.deltas == (-2, -2 + 2 + 6, 6 - 4 - 12, -2 + 2 + 6)


def test_call_transfer_of_the_last_kong_only_leaves_earlier_kongs() -> None:
    earlier = kong(3, 2, "added")
    result = settle(record(earlier, *_kong_then_discard(1).events), rules("online"))
    assert pays(result, "call_transfer") == [(2, 1, 6)]


def test_kong_then_discard_won_transfer_all_hands_all_kong_income_to_each_winner() -> None:
    earlier = kong(3, 2, "added")  # income 3
    other = kong(4, 0, "added")  # another konger's income is not touched
    r = rules("chengdu", kong_then_discard_won="transfer_all")
    result = settle(record(earlier, other, *_kong_then_discard(1, 3).events), r)
    assert pays(result, "call_transfer") == [(2, 1, 9), (2, 3, 9)]


def test_kong_then_discard_won_refund_returns_that_kongs_income_to_its_payers_once() -> None:
    r = rules("chengdu", kong_then_discard_won="refund")
    result = settle(_kong_then_discard(1, 3), r)
    assert pays(result, "kong_refund") == [(2, 0, 2), (2, 1, 2), (2, 3, 2)]
    assert result.deltas == (0, 2, -4, 2)


@pytest.mark.parametrize("policy", ["transfer_last", "transfer_all", "refund"])
def test_kong_then_discard_won_when_the_kong_earned_nothing_pays_nothing(policy: str) -> None:
    r = rules("online", kong_then_discard_won=policy, kong_payments={"concealed": 0})
    result = settle(_kong_then_discard(1), r)
    assert pays(result) == [(2, 1, 2)]


def test_call_transfer_uses_the_kong_income_from_players_in_round_only() -> None:
    first = win(2, 0, discarder=3, points=1)
    rest = frozenset({1, 2, 3})
    k = kong(5, 2, "concealed", in_round=rest)
    won = win(8, 1, discarder=2, points=2, in_round=rest, kong_before_discard=k)
    result = settle(record(first, k, won), rules("online"))
    assert pays(result, "call_transfer") == [(2, 1, 4)]


# -- self_draw_bonus and base ---------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_self_draw_bonus_plus_base_adds_one_base_per_payer_on_self_drawn_wins_only(
        preset: str) -> None:
    r = rules(preset, self_draw_bonus="plus_base")
    result = settle(record(win(10, 1, points=4), win(20, 3, discarder=0, points=4,
                                                      in_round=frozenset({0, 2, 3})),
                           base=2), r)
    assert pays(result, "win_self_drawn") == [(0, 1, 10), (2, 1, 10), (3, 1, 10)]
    assert pays(result, "win_discard") == [(0, 3, 8)]
    assert "自摸加底" in result.payments[0].detail


def test_self_draw_bonus_plus_base_does_not_apply_to_dian_gang_hua_paid_as_a_discard() -> None:
    direct = kong(5, 1, "direct", discarder=3)
    r = rules("online", self_draw_bonus="plus_base")
    result = settle(record(direct, win(7, 1, points=4, after_kong=direct)), r)
    assert pays(result, "win_discard") == [(3, 1, 4)]


def _dian_gang_hua_settled(dian_gang_hua: str, bonus: str) -> Settlement:
    """Seat 1 wins on the replacement tile of its direct kong of 5p, whose tile seat 3
    discarded: scored by the scorer and settled, as the replay does."""
    r = rules("online", dian_gang_hua=dian_gang_hua, self_draw_bonus=bonus)
    s = score_win(counts_of(parse_tiles("123m456m789m11p")), [Meld(MeldKind.MING, 14, 3)],
                  Tile.parse("1p"), 2, r, WinContext(after_kong="direct"))
    direct = kong(5, 1, "direct", discarder=3)
    event = WinEvent(index=7, seat=1, tile=Tile.parse("1p"), discarder=None, fan=s.fan,
                     points=s.points, detail=s.breakdown(), pattern=s.pattern, in_round=ALL,
                     group=7, after_kong=direct, score=s)
    return settle(record(direct, event), r)


def _add_on_names(result: Settlement) -> set[str]:
    return {a["name"] for a in result.payments[-1].params["score"]["add_ons"]}


# 平胡 1 + 根 1 (a declared kong counts under `online`) + 杠上花 1 = 3 fan → 4 points


def test_dian_gang_hua_discard_with_plus_fan_is_a_discard_win_without_zi_mo_fan() -> None:
    result = _dian_gang_hua_settled("discard", "plus_fan")
    assert pays(result, "win_discard") == [(3, 1, 4)]
    assert "zi_mo" not in _add_on_names(result)


def test_dian_gang_hua_discard_with_plus_base_is_a_discard_win_without_zi_mo_base() -> None:
    result = _dian_gang_hua_settled("discard", "plus_base")
    assert pays(result, "win_discard") == [(3, 1, 4)]
    assert result.payments[-1].params["dian_gang_hua"] is True


def test_dian_gang_hua_self_draw_with_plus_fan_is_a_self_draw_with_zi_mo_fan() -> None:
    result = _dian_gang_hua_settled("self_draw", "plus_fan")
    assert pays(result, "win_self_drawn") == [(0, 1, 8), (2, 1, 8), (3, 1, 8)]
    assert "zi_mo" in _add_on_names(result)


def test_dian_gang_hua_self_draw_with_plus_base_is_a_self_draw_with_zi_mo_base() -> None:
    result = _dian_gang_hua_settled("self_draw", "plus_base")
    assert pays(result, "win_self_drawn") == [(0, 1, 5), (2, 1, 5), (3, 1, 5)]
    assert result.payments[-1].params["self_draw_bonus"] == 1


@pytest.mark.parametrize("preset", PRESETS)
def test_base_multiplies_every_payment(preset: str) -> None:
    events = (kong(5, 2, "direct", discarder=0), win(10, 1, discarder=3, points=4),
              win(20, 0, points=2, in_round=frozenset({0, 2, 3})))
    checks = (check(2, ready=0), check(3), )
    one = settle(record(*events, drawn=True, checks=checks, base=1), rules(preset))
    three = settle(record(*events, drawn=True, checks=checks, base=3), rules(preset))
    assert [(p.payer, p.payee, p.reason) for p in one.payments] == \
        [(p.payer, p.payee, p.reason) for p in three.payments]
    assert [3 * p.amount for p in one.payments] == [p.amount for p in three.payments]
    assert three.deltas == tuple(3 * d for d in one.deltas)


def test_a_base_below_one_or_a_bad_seat_cannot_be_settled() -> None:
    with pytest.raises(SettlementError, match="base"):
        settle(record(base=0), rules())
    with pytest.raises(SettlementError, match="seat"):
        settle(record(win(1, 4, discarder=0)), rules())


# -- draw checks (§5) ----------------------------------------------------------------


def test_flower_pig_pays_every_non_pig_including_those_who_won_chengdu_16() -> None:
    first = win(1, 0, discarder=1, points=1)
    result = settle(record(first, drawn=True,
                           checks=(check(1, pig=True), check(2, ready=0), check(3))),
                    rules("chengdu", ting_check="off"))
    assert pays(result, "flower_pig") == [(1, 0, 16), (1, 2, 16), (1, 3, 16)]


def test_flower_pig_online_pays_the_cap_64() -> None:
    result = settle(record(drawn=True, checks=(check(0, pig=True), check(1), check(2),
                                               check(3))), rules("online"))
    assert pays(result, "flower_pig") == [(0, 1, 64), (0, 2, 64), (0, 3, 64)]


def test_flower_pig_penalty_is_a_number_of_points_times_base() -> None:
    result = settle(record(drawn=True, checks=(check(0, pig=True), check(1)), base=2),
                    rules("chengdu", flower_pig=5))
    assert pays(result, "flower_pig") == [(0, 1, 10), (0, 2, 10), (0, 3, 10)]


@pytest.mark.parametrize("preset", PRESETS)
def test_flower_pigs_never_pay_each_other(preset: str) -> None:
    result = settle(record(drawn=True, checks=(check(0, pig=True), check(1, pig=True),
                                               check(2), check(3))), rules(preset))
    assert {(a, b) for a, b, _ in pays(result, "flower_pig")} == \
        {(0, 2), (0, 3), (1, 2), (1, 3)}


@pytest.mark.parametrize("preset", PRESETS)
def test_flower_pig_zero_means_no_pig_check_and_the_pig_is_an_unready_seat(preset: str) -> None:
    r = rules(preset, flower_pig=0, pig_pays_ting_check=False)
    result = settle(record(drawn=True, checks=(check(0, pig=True), check(1, ready=2))), r)
    assert pays(result, "flower_pig") == []
    assert pays(result, "ting_check") == [(0, 1, r.points(2))]


@pytest.mark.parametrize("preset", PRESETS)
def test_flower_pig_payees_non_pigs_in_round_leaves_out_those_who_won(preset: str) -> None:
    first = win(1, 0, discarder=1, points=1)
    r = rules(preset, flower_pig_payees="non_pigs_in_round")
    result = settle(record(first, drawn=True, checks=(check(1, pig=True), check(2), check(3))),
                    r)
    assert [(a, b) for a, b, _ in pays(result, "flower_pig")] == [(1, 2), (1, 3)]


def test_pig_pays_ting_check_chengdu_the_pig_also_pays_each_ready_player() -> None:
    result = settle(record(drawn=True, checks=(check(0, pig=True), check(1, ready=2), check(2),
                                               check(3))), rules("chengdu"))
    assert pays(result, "flower_pig") == [(0, 1, 16), (0, 2, 16), (0, 3, 16)]
    assert pays(result, "ting_check") == [(0, 1, 4), (2, 1, 4), (3, 1, 4)]


def test_pig_pays_ting_check_false_online_the_pig_pays_only_the_penalty() -> None:
    result = settle(record(drawn=True, checks=(check(0, pig=True), check(1, ready=2), check(2),
                                               check(3))), rules("online"))
    assert pays(result, "ting_check") == [(2, 1, 2), (3, 1, 2)]


@pytest.mark.parametrize("preset", PRESETS)
def test_a_flower_pig_is_never_paid_as_ready(preset: str) -> None:
    result = settle(record(drawn=True, checks=(check(0, pig=True, ready=3), check(1))),
                    rules(preset))
    assert pays(result, "ting_check") == []


@pytest.mark.parametrize("preset", PRESETS)
def test_ting_check_max_each_unready_seat_pays_each_ready_seat_its_value(preset: str) -> None:
    r = rules(preset, price_difference=False)
    result = settle(record(drawn=True, checks=(check(0, ready=1), check(1, ready=3), check(2),
                                               check(3))), r)
    assert pays(result, "ting_check") == [
        (2, 0, r.points(1)), (2, 1, r.points(3)), (3, 0, r.points(1)), (3, 1, r.points(3))]
    assert "ready for 3 fan" in result.payments[1].detail


def test_ting_check_max_is_capped_by_max_fan() -> None:
    result = settle(record(drawn=True, checks=(check(0, ready=12), check(1))), rules("online"))
    assert pays(result, "ting_check") == [(1, 0, 64)]


@pytest.mark.parametrize("preset", PRESETS)
def test_ting_check_max_no_kong_fan_leaves_the_kong_add_ons_out(preset: str) -> None:
    r = rules(preset, ting_check="max_no_kong_fan")
    result = settle(record(drawn=True, checks=(check(0, ready=4, no_kong=2), check(1))), r)
    assert pays(result, "ting_check") == [(1, 0, r.points(2))]


@pytest.mark.parametrize("preset", PRESETS)
def test_ting_check_flat_pays_one_point_and_no_price_difference(preset: str) -> None:
    r = rules(preset, ting_check="flat", price_difference=True)
    result = settle(record(drawn=True, checks=(check(0, ready=4), check(1, ready=0), check(2)),
                           base=2), r)
    assert pays(result, "ting_check") == [(2, 0, 2), (2, 1, 2)]
    assert pays(result, "price_difference") == []


@pytest.mark.parametrize("preset", PRESETS)
def test_ting_check_off_pays_nothing_and_turns_price_difference_off(preset: str) -> None:
    r = rules(preset, ting_check="off", price_difference=True)
    result = settle(record(drawn=True, checks=(check(0, ready=4), check(1, ready=0), check(2))),
                    r)
    assert pays(result, "ting_check", "price_difference") == []


def test_price_difference_example_1_4_16() -> None:
    # the Chengdu rules: A 基本胡 ×1, B 清一色 ×4, C 清七对 ×16; D not ready
    result = settle(record(drawn=True, checks=(check(0, ready=0), check(1, ready=2),
                                               check(2, ready=4), check(3))), rules("chengdu"))
    assert pays(result, "price_difference") == [(0, 1, 3), (0, 2, 15), (1, 2, 12)]
    assert pays(result, "ting_check") == [(3, 0, 1), (3, 1, 4), (3, 2, 16)]


def test_price_difference_false_online_ready_players_pay_each_other_nothing() -> None:
    result = settle(record(drawn=True, checks=(check(0, ready=1), check(1, ready=3),
                                               check(2, ready=5))), rules("online"))
    assert pays(result) == []


def test_price_difference_equal_values_pay_nothing() -> None:
    result = settle(record(drawn=True, checks=(check(0, ready=2), check(1, ready=2))),
                    rules("chengdu"))
    assert pays(result) == []


@pytest.mark.parametrize("preset", PRESETS)
def test_tax_refund_unready_seats_and_pigs_return_their_kong_money(preset: str) -> None:
    events = (kong(1, 0, "concealed"), kong(2, 1, "direct", discarder=3), kong(3, 2, "added"))
    checks = (check(0), check(1, pig=True), check(2, ready=1), check(3, ready=1))
    result = settle(record(*events, drawn=True, checks=checks), rules(preset))
    assert pays(result, "tax_refund") == [(0, 1, 2), (0, 2, 2), (0, 3, 2), (1, 3, 2)]
    # the ready seat 2 keeps its added-kong money
    assert (2, 0, 1) not in pays(result)


@pytest.mark.parametrize("preset", PRESETS)
def test_tax_refund_false_unready_seats_keep_their_kong_money(preset: str) -> None:
    result = settle(record(kong(1, 0, "concealed"), drawn=True,
                           checks=(check(0), check(1, ready=0))),
                    rules(preset, tax_refund=False))
    assert pays(result, "tax_refund") == []


@pytest.mark.parametrize("preset", PRESETS)
def test_tax_refund_goes_back_also_to_a_payer_who_has_won_since(preset: str) -> None:
    events = (kong(1, 0, "concealed"), win(5, 1, discarder=2, points=1))
    result = settle(record(*events, drawn=True, checks=(check(0), check(2), check(3))),
                    rules(preset))
    assert pays(result, "tax_refund") == [(0, 1, 2), (0, 2, 2), (0, 3, 2)]


def test_tax_refund_returns_only_what_is_still_held_after_call_transfer() -> None:
    k = kong(5, 2, "concealed")
    won = win(8, 1, discarder=2, points=2, kong_before_discard=k)
    later = kong(9, 2, "added", in_round=frozenset({0, 2, 3}))
    result = settle(record(k, won, later, drawn=True,
                           checks=(check(0, ready=1), check(2), check(3))), rules("online"))
    assert pays(result, "call_transfer") == [(2, 1, 6)]
    assert pays(result, "tax_refund") == [(2, 0, 1), (2, 3, 1)]


@pytest.mark.parametrize("preset", PRESETS)
def test_tax_refund_runs_even_with_the_ting_check_off(preset: str) -> None:
    result = settle(record(kong(1, 0, "added"), drawn=True, checks=(check(0), check(1, ready=0))),
                    rules(preset, ting_check="off"))
    assert pays(result) == [(1, 0, 1), (2, 0, 1), (3, 0, 1), (0, 1, 1), (0, 2, 1), (0, 3, 1)]
    assert result.deltas == (0, 0, 0, 0)


def test_tax_refund_of_a_direct_kong_goes_to_its_discarder() -> None:
    result = settle(record(kong(1, 0, "direct", discarder=3), drawn=True,
                           checks=(check(0), check(3, ready=0))), rules("chengdu"))
    assert pays(result, "tax_refund") == [(0, 3, 2)]


def test_draw_checks_run_in_order_pig_ting_price_difference_tax_refund() -> None:
    events = (kong(1, 0, "concealed"),)
    checks = (check(0), check(1, pig=True), check(2, ready=0), check(3, ready=2))
    result = settle(record(*events, drawn=True, checks=checks), rules("chengdu"))
    order = [p.reason for p in result.payments if p.event is None]
    assert order == sorted(order, key=["flower_pig", "ting_check", "price_difference",
                                       "tax_refund"].index)
    assert set(order) == {"flower_pig", "ting_check", "price_difference", "tax_refund"}
    assert_balanced(result)


@pytest.mark.parametrize("preset", PRESETS)
def test_draw_checks_run_only_when_the_round_was_drawn_and_complete(preset: str) -> None:
    checks = (check(0, pig=True), check(1, ready=2), check(2))
    for drawn, complete in ((False, True), (True, False)):
        result = settle(record(kong(1, 2, "concealed"), drawn=drawn, checks=checks,
                               complete=complete), rules(preset))
        assert {p.reason for p in result.payments} == {"kong_concealed"}


# -- next dealer --------------------------------------------------------------------


def test_next_dealer_is_the_first_winner() -> None:
    rec = record(win(5, 2, discarder=1), win(9, 3, in_round=frozenset({0, 1, 3})), dealer=0)
    assert next_dealer(rec) == 2
    assert settle(rec, rules()).next_dealer == 2


def test_next_dealer_after_a_multiple_win_first_is_the_discarder() -> None:
    rec = record(win(5, 2, discarder=1, group=4), win(6, 3, discarder=1, group=4), dealer=0)
    assert next_dealer(rec) == 1


def test_next_dealer_after_a_kong_robbed_by_two_is_the_robbed_konger() -> None:
    rec = record(win(5, 2, discarder=1, group=4, rob_kong=True),
                 win(6, 0, discarder=1, group=4, rob_kong=True), dealer=3)
    assert next_dealer(rec) == 1


def test_next_dealer_a_later_multiple_win_does_not_count() -> None:
    rest = frozenset({0, 1, 3})
    rec = record(win(5, 2), win(8, 0, 1, group=7, in_round=rest),
                 win(9, 3, 1, group=7, in_round=rest))
    assert next_dealer(rec) == 2


def test_next_dealer_with_no_win_is_the_same_dealer() -> None:
    assert next_dealer(record(kong(1, 0, "concealed"), drawn=True, dealer=3)) == 3


def test_next_dealer_of_an_incomplete_round_is_none_but_what_happened_settles() -> None:
    rec = record(kong(1, 0, "concealed"), win(4, 2, discarder=1), complete=False)
    result = settle(rec, rules())
    assert result.next_dealer is None
    assert pays(result, "win_discard") == [(1, 2, 4)]


# -- the result ---------------------------------------------------------------------


def test_payment_and_settlement_to_json() -> None:
    result = settle(record(win(10, 1, discarder=3, points=4)), rules())
    assert result.payments[0].to_json() == {
        "payer": 3, "payee": 1, "amount": 4, "reason": "win_discard",
        "detail": result.payments[0].detail, "params": dict(result.payments[0].params)}
    assert result.to_json()["deltas"] == [0, 4, 0, -4]
    assert isinstance(result.payments[0], Payment)


# -- structured reasons ---------------------------------------------------------------


@pytest.mark.parametrize("ruleset", [
    "chengdu", "online", {"preset": "online", "kong_then_discard_won": "refund"},
    {"preset": "chengdu", "kong_then_discard_won": "transfer_all", "self_draw_bonus": "plus_base",
     "ting_check": "max_no_kong_fan"}, {"preset": "chengdu", "ting_check": "flat"}])
def test_every_payment_detail_is_rendered_from_its_reason_and_params(ruleset: Any) -> None:
    seen: set[str] = set()
    for seed in range(6):
        for r in verify_document(simulate_match(seed, 4, ruleset)).rounds:
            for p in r.settlement.payments:
                seen.add(p.reason)
                assert p.detail == describe(p.reason, p.params)
                assert json.loads(json.dumps(p.params)) == p.params  # plain JSON data
                assert p.params["amount"] == p.amount
    assert {"win_self_drawn", "win_discard", "kong_concealed"} <= seen


def test_win_params_list_pattern_ids_fans_and_add_ons_with_counts() -> None:
    result = _dian_gang_hua_settled("self_draw", "none")
    params = result.payments[-1].params
    assert (params["winner"], params["payer"], params["tile"]) == (1, 3, "1p")
    assert params["score"]["patterns"] == [{"name": "ping_hu", "fan": 1}]
    assert params["score"]["add_ons"] == [
        {"name": "gen", "count": 1, "fan": 1, "total": 1},
        {"name": "gang_shang_hua", "count": 1, "fan": 1, "total": 1}]
    assert params["after_kong"] == {"event": 5, "seat": 1, "kind": "direct", "tile": "5m"}


def test_win_params_without_a_score_carry_the_breakdown_text() -> None:
    params = settle(record(win(10, 1, discarder=3)), rules()).payments[0].params
    assert params["score"] is None and params["breakdown"] == "test 2 fan → 4 × base"
    assert (params["winner"], params["payer"], params["kong_discard"]) == (1, 3, None)


def test_kong_params_state_the_kind_the_units_and_the_base() -> None:
    result = settle(record(kong(5, 2, "direct", discarder=0), base=3), rules())
    assert result.payments[0].params == {
        "konger": 2, "payer": 0, "kong": {"event": 5, "seat": 2, "kind": "direct", "tile": "5m"},
        "units": 2, "base": 3, "amount": 6}


def test_ting_check_params_state_the_wait_and_the_value_used() -> None:
    checks = (check(0), check(1, ready=2, no_kong=1, wait="3s"))
    result = settle(record(drawn=True, checks=checks), rules(ting_check="max_no_kong_fan"))
    assert result.payments[0].params == {
        "payer": 0, "payee": 1, "value": 2, "mode": "max_no_kong_fan", "fan": 1, "wait": "3s",
        "base": 1, "amount": 2}


def test_flower_pig_params_name_the_pig_and_the_penalty() -> None:
    checks = (check(0, pig=True), check(1, ready=1))
    result = settle(record(drawn=True, checks=checks), rules())
    pig = [p.params for p in result.payments if p.reason == "flower_pig"]
    assert [(p["pig"], p["payee"], p["penalty"]) for p in pig] == [(0, 1, 16), (0, 2, 16),
                                                                   (0, 3, 16)]


def test_tax_refund_params_name_the_refunded_kong() -> None:
    checks = (check(0), check(1, ready=1))
    result = settle(record(kong(4, 0, "added"), drawn=True, checks=checks), rules())
    refunds = [p.params for p in result.payments if p.reason == "tax_refund"]
    assert {p["kong_payer"] for p in refunds} == {1, 2, 3}
    assert all(p["kong"] == {"event": 4, "seat": 0, "kind": "added", "tile": "5m"}
               for p in refunds)


def test_call_transfer_params_name_the_transferred_kong_and_the_scope() -> None:
    result = settle(_kong_then_discard(1), rules("online"))
    params = result.payments[-1].params
    assert (params["konger"], params["winner"], params["scope"]) == (2, 1, "transfer_last")
    assert params["kong"] == {"event": 5, "seat": 2, "kind": "concealed", "tile": "5m"}
    assert params["transferred"] == [params["kong"]]


def test_call_transfer_all_params_list_every_transferred_kong() -> None:
    earlier = kong(3, 2, "added")
    r = rules("chengdu", kong_then_discard_won="transfer_all")
    result = settle(record(earlier, *_kong_then_discard(1).events), r)
    transfer = next(p for p in result.payments if p.reason == "call_transfer")
    assert transfer.params["scope"] == "transfer_all"
    assert [k["event"] for k in transfer.params["transferred"]] == [3, 5]


def test_every_reason_code_has_a_sentence() -> None:
    from xuezhan.sentences import SENTENCES as _SENTENCES
    from xuezhan.settlement import REASONS

    assert set(_SENTENCES) == set(REASONS)


def test_describe_names_the_seats_with_the_function_given() -> None:
    params = settle(record(win(10, 1, discarder=3)), rules()).payments[0].params
    text = describe("win_discard", params, {1: "alice", 3: "dave"}.__getitem__)
    assert text.startswith("alice wins on dave's discard 5m;") and "seat" not in text


def test_describe_refuses_an_unknown_reason() -> None:
    with pytest.raises(SettlementError, match="nothing"):
        describe("nothing", {})
