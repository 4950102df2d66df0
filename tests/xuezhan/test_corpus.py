"""The hand-made round logs of tests/data: each proves one rule of docs/rules.md.

Every expected number below was worked out by hand from docs/rules.md (tests/data/README.md
shows the arithmetic), not copied from the engine's output. The settlement logs also
record that result, so ``xuezhan verify`` must find them legal; the logs in
tests/data/violations/ each break exactly one rule, at a known event.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from xuezhan.replay import CODES, Report, replay_frames, verify_document

DATA = Path(__file__).resolve().parents[1] / "data"
VIOLATIONS = DATA / "violations"
SETTLEMENT_LOGS = sorted(p.name for p in DATA.glob("*.json"))

Payment = tuple[int, int, int, str]


@cache
def _load(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def load(name: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(_load(name))
    return doc


def verify(name: str) -> Report:
    return verify_document(load(name))


def payments(report: Report, round_index: int = 0) -> list[Payment]:
    return sorted((p.payer, p.payee, p.amount, p.reason)
                  for p in report.rounds[round_index].settlement.payments)


def assert_settles(name: str, deltas: list[int], expected: list[Payment],
                   next_dealer: int | None) -> Report:
    report = verify(name)
    assert report.legal, [v.to_json() for v in report.violations]
    assert not report.rounds[0].incomplete
    settlement = report.rounds[0].settlement
    assert payments(report) == sorted(expected)
    assert list(settlement.deltas) == deltas
    assert sum(deltas) == 0
    assert settlement.next_dealer == next_dealer
    return report


# -- every settlement log: legal, complete, its recorded result matches ----------------


@pytest.mark.parametrize("name", SETTLEMENT_LOGS)
def test_each_settlement_log_is_legal_complete_and_matches_its_recorded_result(
        name: str) -> None:
    doc = load(name)
    report = verify_document(doc)
    assert report.legal, [v.to_json() for v in report.violations]
    assert all("result" in r for r in doc["rounds"])
    assert not any(r.incomplete for r in report.rounds)
    for round_doc, round_report in zip(doc["rounds"], report.rounds, strict=True):
        assert list(round_report.settlement.deltas) == round_doc["result"]["deltas"]


@pytest.mark.parametrize("name", SETTLEMENT_LOGS)
def test_each_settlement_log_is_a_well_formed_document(name: str) -> None:
    doc = load(name)
    assert list(doc)[:3] == ["format", "version", "ruleset"]
    for round_doc in doc["rounds"]:
        events = round_doc["events"]
        exchanges = doc["ruleset"] in ("chengdu", "online")
        assert (events[0]["type"] == "exchange") == exchanges
        assert (events[0]["type"] == "exchange" and "die" in events[0]) or not exchanges
        assert any(e["type"] == "dingque" for e in events)
        assert "dice" in round_doc


# -- 一炮多响 --------------------------------------------------------------------------


def test_one_discard_two_winners_each_paid_by_the_discarder_who_deals_next() -> None:
    # seat 3 discards 5s: seat 0 平胡 0 fan → 1, seat 1 对对胡 1 fan → 2; later seat 2
    # wins 清一色 (2 fan → 4) on seat 3's 5p, the third win. First win was a double: 3 deals.
    assert_settles("multiple_win_two_winners_chengdu.json", [1, 2, 4, -7], [
        (3, 0, 1, "win_discard"), (3, 1, 2, "win_discard"), (3, 2, 4, "win_discard")],
        next_dealer=3)


def test_three_winners_on_one_discard_end_the_round_and_the_discarder_deals() -> None:
    # base 2: 平胡 1 × 2, 对对胡 2 × 2, 七对 4 × 2, all from seat 3; the round is over at once
    report = assert_settles("multiple_win_three_winners_chengdu.json", [2, 4, 8, -14], [
        (3, 0, 2, "win_discard"), (3, 1, 4, "win_discard"), (3, 2, 8, "win_discard")],
        next_dealer=3)
    assert [s["win_order"] for s in report.rounds[0].seats] == [1, 2, 3, None]


# -- 抢杠胡 ----------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["chengdu", "online"])
def test_robbing_an_added_kong_is_paid_by_the_konger_and_earns_no_kong_money(
        preset: str) -> None:
    # seat 3 robs seat 1's 5p: 清一色 + 抢杠 (chengdu 2+1 = 3 fan, online 3+1 = 4 fan) → 8;
    # seat 0 self-draws 平胡 (1 each from seats 1, 2); seat 2 清七对 (16) on seat 1's 9m.
    name = f"rob_kong_{preset}.json"
    report = assert_settles(name, [2, -25, 15, 8], [
        (1, 3, 8, "win_rob_kong"), (1, 0, 1, "win_self_drawn"), (2, 0, 1, "win_self_drawn"),
        (1, 2, 16, "win_discard")], next_dealer=3)
    assert not any(p[3].startswith("kong_") for p in payments(report))


def test_a_robbed_added_kong_stays_a_peng() -> None:
    frames = replay_frames(load("rob_kong_chengdu.json"), 0)
    rob = next(i for i, f in enumerate(frames) if f["action"] and f["action"]["type"] == "hu")
    assert frames[rob]["melds"][1] == [{"kind": "peng", "tile": "5p", "from": 0}]
    assert frames[-1]["melds"][1] == [{"kind": "peng", "tile": "5p", "from": 0}]


# -- 杠上花 after a direct kong ------------------------------------------------------


def test_kong_bloom_after_a_direct_kong_is_paid_by_all_with_the_kongs_add_on_chengdu() -> None:
    # seat 2 kongs seat 1's 7s (1 pays 2), draws 9s and wins: 平胡 0 + 直杠 1 + 杠上花 1
    # = 2 fan → 4 from each of seats 0, 1, 3. The declared kong is no 根 (root: no_kongs).
    assert_settles("kong_bloom_direct_kong_chengdu.json", [-3, -5, 14, -6], [
        (1, 2, 2, "kong_direct"),
        (0, 2, 4, "win_self_drawn"), (1, 2, 4, "win_self_drawn"), (3, 2, 4, "win_self_drawn"),
        (3, 0, 1, "win_discard"), (3, 1, 1, "win_self_drawn")], next_dealer=2)


def test_kong_bloom_after_a_direct_kong_is_paid_by_the_kong_tile_discarder_online() -> None:
    # 点杠花: 平胡 1 + 根 1 (the kong counts, root: all) + 杠上花 1 = 3 fan → 4, seat 1 only
    assert_settles("kong_bloom_direct_kong_online.json", [1, -5, 6, -2], [
        (1, 2, 2, "kong_direct"), (1, 2, 4, "win_discard"),
        (3, 0, 1, "win_discard"), (3, 1, 1, "win_self_drawn")], next_dealer=2)


# -- 杠上炮 ----------------------------------------------------------------------------

_CONCEALED_KONG = [(0, 1, 2, "kong_concealed"), (2, 1, 2, "kong_concealed"),
                   (3, 1, 2, "kong_concealed")]


def test_call_transfer_hands_the_kong_income_to_the_winner_online() -> None:
    # seat 1's concealed 4m earns 6 (2 from each, seat 3 included); seat 1 then discards
    # 8s and seat 3 wins 对对胡 2 + 杠上炮 1 = 3 fan → 4, plus the whole 6 (呼叫转移)
    assert_settles("kong_discard_won_call_transfer_online.json", [-5, -5, 2, 8], [
        *_CONCEALED_KONG, (1, 3, 4, "win_discard"), (1, 3, 6, "call_transfer"),
        (0, 2, 4, "win_discard"), (1, 0, 1, "win_self_drawn")], next_dealer=3)


def test_call_transfer_pays_each_winner_the_kong_income_on_a_multiple_win_online() -> None:
    # seat 1's 8s after its concealed kong is won by seats 3 and 0: each gets the whole 6
    # (the online rules); seat 0's 平胡 1 + 杠上炮 1 = 2 fan → 2. Seat 1, the discarder of
    # the first (double) win, deals next.
    assert_settles("kong_discard_won_by_two_call_transfer_online.json", [6, -16, 2, 8], [
        *_CONCEALED_KONG, (1, 3, 4, "win_discard"), (1, 3, 6, "call_transfer"),
        (1, 0, 2, "win_discard"), (1, 0, 6, "call_transfer"), (1, 2, 4, "win_discard")],
        next_dealer=1)


def test_kong_income_is_kept_when_the_discard_after_the_kong_is_won_chengdu() -> None:
    # the same round under chengdu: 对对胡 1 + 杠上炮 1 = 2 fan → 4, no transfer
    assert_settles("kong_discard_won_keep_chengdu.json", [-5, 1, 2, 2], [
        *_CONCEALED_KONG, (1, 3, 4, "win_discard"),
        (0, 2, 4, "win_discard"), (1, 0, 1, "win_self_drawn")], next_dealer=3)


# -- a drawn round -----------------------------------------------------------------

_REFUND = [(0, 1, 2, "tax_refund"), (0, 2, 2, "tax_refund"), (0, 3, 2, "tax_refund")]
_DEALER_KONG = [(1, 0, 2, "kong_concealed"), (2, 0, 2, "kong_concealed"),
                (3, 0, 2, "kong_concealed")]


@pytest.mark.parametrize("preset", ["chengdu", "online"])
def test_the_drawn_round_draws_all_55_live_tiles_and_nobody_wins(preset: str) -> None:
    doc = load(f"drawn_round_pig_ting_check_refund_{preset}.json")
    round_doc = doc["rounds"][0]
    assert len(round_doc["wall"]) == 55
    draws = [e["tile"] for e in round_doc["events"] if e["type"] == "draw"]
    assert draws == round_doc["wall"]
    assert not any(e["type"] == "hu" for e in round_doc["events"])


def test_drawn_round_flower_pig_ting_check_price_difference_and_tax_refund_chengdu() -> None:
    # seat 0 (dealer): concealed kong of 5p (+6), not ready; seat 1: flower pig;
    # seat 2 ready for 平胡 (0 fan → 1); seat 3 ready for 清一色 (2 fan → 4).
    # pig pays 16 to each non-pig; 查叫: seats 0 and 1 (pig too) pay 1 and 4;
    # 补差价: 2 pays 3 the difference 4 − 1 = 3; 退税: seat 0 returns its 6. No win: 0 deals.
    report = assert_settles("drawn_round_pig_ting_check_refund_chengdu.json",
                            [11, -53, 15, 27], [
        *_DEALER_KONG,
        (1, 0, 16, "flower_pig"), (1, 2, 16, "flower_pig"), (1, 3, 16, "flower_pig"),
        (0, 2, 1, "ting_check"), (0, 3, 4, "ting_check"),
        (1, 2, 1, "ting_check"), (1, 3, 4, "ting_check"),
        (2, 3, 3, "price_difference"), *_REFUND], next_dealer=0)
    seats = report.rounds[0].seats
    assert [s["flower_pig"] for s in seats] == [False, True, False, False]
    assert [s["ready"] for s in seats] == [False, False, True, True]


def test_drawn_round_flower_pig_pays_only_the_cap_and_no_price_difference_online() -> None:
    # online: the pig pays the cap (7 fan → 64) to each non-pig and no ting check;
    # seat 0 pays 查叫 1 (平胡 1 fan) and 4 (清一色 3 fan); no 补差价; 退税 as before
    assert_settles("drawn_round_pig_ting_check_refund_online.json", [59, -192, 65, 68], [
        *_DEALER_KONG,
        (1, 0, 64, "flower_pig"), (1, 2, 64, "flower_pig"), (1, 3, 64, "flower_pig"),
        (0, 2, 1, "ting_check"), (0, 3, 4, "ting_check"), *_REFUND], next_dealer=0)


# -- the third win ends the round ----------------------------------------------------


def test_the_third_win_ends_the_round_and_winners_stop_paying() -> None:
    # three self-drawn wins: 平胡 1 from three payers, 对对胡 2 from two, 清一色 4 from one
    assert_settles("third_win_ends_round_chengdu.json", [3, 3, 1, -7], [
        (1, 0, 1, "win_self_drawn"), (2, 0, 1, "win_self_drawn"), (3, 0, 1, "win_self_drawn"),
        (2, 1, 2, "win_self_drawn"), (3, 1, 2, "win_self_drawn"),
        (3, 2, 4, "win_self_drawn")], next_dealer=0)


# -- one violation log per code ------------------------------------------------------

Where = tuple[str, int | None, int | None, int | None]  # code, round, event, seat

#: each log's violations, in order: (code, round, event index, seat)
EXPECTED_VIOLATIONS: dict[str, list[Where]] = {
    "schema": [("schema", 0, None, None)],
    "bad_ruleset": [("bad_ruleset", None, None, None)],
    "wrong_dealer": [("wrong_dealer", 1, None, 0)],
    "bad_deal": [("bad_deal", 0, None, 1)],
    "bad_wall": [("bad_wall", 0, None, None)],
    "fifth_copy": [("fifth_copy", 0, 4, 2)],
    "exchange_missing": [("exchange_missing", 0, 0, None)],
    "exchange_not_allowed": [("exchange_not_allowed", 0, 0, None)],
    "exchange_mixed_suits": [("exchange_mixed_suits", 0, 0, 0)],
    "exchange_receive_mismatch": [("exchange_receive_mismatch", 0, 0, 1)],
    # the exchange goes by the dice sum; the round has no dice and no `receive`
    "dice_missing": [("dice_missing", 0, 0, None)],
    "dingque_missing": [("dingque_missing", 0, 0, None)],
    "out_of_order": [("out_of_order", 0, 1, None)],
    "event_after_end": [("event_after_end", 0, 15, 3)],
    "action_by_winner": [("action_by_winner", 0, 10, 0)],
    "draw_out_of_turn": [("draw_out_of_turn", 0, 2, 2)],
    "draw_not_wall_tile": [("draw_not_wall_tile", 0, 2, 1)],
    # the wall can only be empty with the round still going after a kong on the last tile
    "draw_from_empty_wall": [("kong_with_empty_wall", 0, 111, 2),
                             ("draw_from_empty_wall", 0, 112, 2)],
    "discard_out_of_turn": [("discard_out_of_turn", 0, 1, 1)],
    "tile_not_in_hand": [("tile_not_in_hand", 0, 1, 0)],
    "void_first": [("void_first", 0, 1, 0)],
    "claim_not_last_discard": [("claim_not_last_discard", 0, 6, 1)],
    "claim_own_discard": [("claim_own_discard", 0, 4, 1)],
    "claim_on_won_discard": [("claim_on_won_discard", 0, 9, 1)],
    "claim_void_tile": [("claim_void_tile", 0, 2, 1)],
    "claim_after_wall_empty": [("claim_after_wall_empty", 0, 112, 3)],
    "kong_out_of_turn": [("kong_out_of_turn", 0, 5, 1)],
    "kong_with_empty_wall": [("kong_with_empty_wall", 0, 111, 2)],
    "kong_without_peng": [("kong_without_peng", 0, 3, 1)],
    "kong_after_peng": [("kong_after_peng", 0, 3, 1)],
    "win_out_of_turn": [("win_out_of_turn", 0, 3, 0)],
    "win_wrong_tile": [("win_wrong_tile", 0, 8, 2)],
    "win_not_winning_hand": [("win_not_winning_hand", 0, 8, 2)],
    "win_with_void_suit": [("win_with_void_suit", 0, 8, 0)],
    "win_below_min_fan": [("win_below_min_fan", 0, 8, 0)],
    "passed_win": [("passed_win", 0, 10, 1)],
    "last_four_not_won": [("last_four_not_won", 0, 105, 3)],
    # 101 repeated void declarations (one fault each); the replay stops after the 101st
    "too_many_violations": [("out_of_order", 0, i, None) for i in range(1, 102)]
    + [("too_many_violations", 0, 101, None)],
    "result_on_incomplete_round": [("result_on_incomplete_round", 0, None, None)],
    # seats 0 and 1 recorded swapped
    "result_mismatch": [("result_mismatch", 0, None, 0), ("result_mismatch", 0, None, 1)],
    # the right deltas, but seat 3's 4 to seat 2 recorded as two payments of 2
    "result_payment_mismatch": [("result_payment_mismatch", 0, None, 3),
                                ("result_payment_mismatch", 0, None, 3)],
}


def test_every_violation_code_has_a_log() -> None:
    logs = {p.stem for p in VIOLATIONS.glob("*.json")}
    assert logs == set(CODES) == set(EXPECTED_VIOLATIONS)


@pytest.mark.parametrize("code", sorted(EXPECTED_VIOLATIONS))
def test_each_violation_log_reports_its_code_where_it_happens(code: str) -> None:
    report = verify_document(json.loads((VIOLATIONS / f"{code}.json").read_text("utf-8")))
    found = [(v.code, v.round, v.event, v.seat) for v in report.violations]
    assert found == EXPECTED_VIOLATIONS[code]
    assert code in Counter(f[0] for f in found)


# -- the command line ----------------------------------------------------------------


def run_verify(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "xuezhan", "verify", str(path)],
                          capture_output=True, text=True, timeout=60, check=False)


def test_the_cli_exits_0_on_a_legal_log() -> None:
    out = run_verify(DATA / "rob_kong_chengdu.json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["legal"] is True


def test_the_cli_exits_1_on_an_illegal_log() -> None:
    out = run_verify(VIOLATIONS / "passed_win.json")
    assert out.returncode == 1, out.stderr
    assert [v["code"] for v in json.loads(out.stdout)["violations"]] == ["passed_win"]


def test_the_cli_exits_2_on_a_file_that_is_not_json(tmp_path: Path) -> None:
    bad = tmp_path / "round.json"
    bad.write_text('{"format": "xuezhan-log", "rounds": [', encoding="utf-8")
    out = run_verify(bad)
    assert out.returncode == 2
    assert "not valid JSON" in out.stderr


# -- more than one round; a draw after a win -----------------------------------------


def test_the_dealer_passes_to_the_discarder_of_each_multiple_win() -> None:
    # round 0: seat 3 feeds two winners, so seat 3 deals round 1; there seat 2 feeds
    # three (平胡 1, 对对胡 2, 七对 4), so seat 2 would deal next
    report = verify("match_two_rounds_dealer_passes_chengdu.json")
    assert report.legal, [v.to_json() for v in report.violations]
    assert [r.settlement.next_dealer for r in report.rounds] == [3, 2]
    assert list(report.rounds[1].settlement.deltas) == [2, 4, -7, 1]
    assert report.totals == [3, 6, -3, -6]


def test_a_flower_pig_pays_a_player_who_already_won_at_the_draw() -> None:
    # seat 3 self-draws 清一色 on its first draw (no 地胡: the dealer's kong came first),
    # 4 from each; at the draw the pig (seat 1) pays 16 to seats 0, 2 and the winner 3;
    # 查叫: seats 0 and 1 pay seat 2 (平胡, 1); one ready seat, so no 补差价; seat 0
    # returns its kong money to all three payers, the winner too.
    doc = load("drawn_round_after_a_win_pig_pays_the_winner_chengdu.json")
    assert [e["tile"] for e in doc["rounds"][0]["events"]
            if e["type"] == "draw"] == doc["rounds"][0]["wall"]
    assert_settles("drawn_round_after_a_win_pig_pays_the_winner_chengdu.json",
                   [11, -53, 14, 28], [
        *_DEALER_KONG,
        (0, 3, 4, "win_self_drawn"), (1, 3, 4, "win_self_drawn"), (2, 3, 4, "win_self_drawn"),
        (1, 0, 16, "flower_pig"), (1, 2, 16, "flower_pig"), (1, 3, 16, "flower_pig"),
        (0, 2, 1, "ting_check"), (1, 2, 1, "ting_check"), *_REFUND], next_dealer=3)
