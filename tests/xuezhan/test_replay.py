"""Replaying logs: every rule of docs/rules.md §2-§3 checked, every violation of §6 reported."""

from __future__ import annotations

import copy
import gc
import json
from pathlib import Path
from typing import Any

import pytest

from tests.xuezhan.logs import match_doc, round_doc
from xuezhan.replay import CODES, replay_frames, verify_document

DATA = Path(__file__).parent.parent / "data"
NO_EXCHANGE = {"preset": "chengdu", "exchange": "off"}

# Dealer 0 holds a nine-gates shape plus 5s; seat 1 holds a lone 5m of its void suit.
HANDS = ["1112345678999m5s", "5m1234567p123s99p", "2345678p456789s", "112233p667788s9s"]


def codes(doc: dict[str, Any]) -> list[str]:
    return [v.code for v in verify_document(doc).violations]


def simple(events: list[str], hands: list[str] | None = None, ruleset: Any = None,
           **extra: Any) -> dict[str, Any]:
    return match_doc(round_doc(hands or HANDS, events, **extra),
                     ruleset=ruleset or NO_EXCHANGE)


def test_a_discard_win_is_paid_by_the_discarder() -> None:
    report = verify_document(simple(["dq smmm", "0-5s", "1+4p", "1-5m", "0hu1 5m"]))
    assert report.legal, report.violations
    payments = report.rounds[0].settlement.payments
    assert [(p.payer, p.payee, p.amount, p.reason) for p in payments] == [
        (1, 0, 4, "win_discard")]
    assert report.rounds[0].incomplete


def test_a_log_that_stops_early_is_incomplete_not_illegal() -> None:
    report = verify_document(simple(["dq smmm", "0-5s", "1+4p"]))
    assert report.legal
    assert report.rounds[0].incomplete
    assert report.rounds[0].settlement.next_dealer is None


def test_a_result_on_an_incomplete_round_is_a_violation() -> None:
    doc = simple(["dq smmm", "0-5s"], result={"deltas": [0, 0, 0, 0]})
    assert codes(doc) == ["result_on_incomplete_round"]


@pytest.mark.parametrize("events, code", [
    (["dq smmm", "0-4s"], "tile_not_in_hand"),
    (["dq smmm", "1-5m"], "discard_out_of_turn"),
    (["dq smmm", "0-5s", "2+4p"], "draw_out_of_turn"),
    (["dq smmm", "0-5s", "1+4p", "1-5m", "0hu1 6m"], "win_wrong_tile"),
    (["dq smmm", "0-5s", "1+4p", "1-4p", "0hu1 4p"], "win_not_winning_hand"),
    (["dq smmm", "0-5s", "1+4p", "1-5m", "0hu1 5m", "0-1m"], "action_by_winner"),
    (["dq smmm", "0-5s", "1+4p", "1-5m", "0hu1 5m", "2peng1 5m"], "claim_on_won_discard"),
    (["dq smmm", "0-5s", "3peng0 5s"], "tile_not_in_hand"),
    (["dq smmm", "0-5s", "1peng2 5s"], "claim_not_last_discard"),
    (["0-5s"], "dingque_missing"),
    (["dq smmm", "dq smmm"], "out_of_order"),
    (["dq smmm", "0an 1m"], "tile_not_in_hand"),
    (["dq smmm", "0jia 1m"], "kong_without_peng"),
])
def test_each_violation_is_reported_with_its_code(events: list[str], code: str) -> None:
    assert code in codes(simple(events))


def test_a_win_while_holding_the_void_suit_is_reported() -> None:
    # seat 0 declares m void but wins an all-m hand
    doc = simple(["dq mmmm", "0-5s", "1+4p", "1-5m", "0hu1 5m"])
    assert "win_with_void_suit" in codes(doc)


def test_violations_carry_round_event_and_seat() -> None:
    v = verify_document(simple(["dq smmm", "0-5s", "2+4p"])).violations[0]
    assert (v.round, v.event, v.seat, v.code) == (0, 2, 2, "draw_out_of_turn")


def test_replay_goes_on_after_a_fault() -> None:
    doc = simple(["dq smmm", "0-4s", "1+4p", "1-9p", "2+8p", "2-3m"])
    assert codes(doc) == ["tile_not_in_hand", "tile_not_in_hand"]


def test_a_self_drawn_win_is_paid_by_every_player_still_in_the_round() -> None:
    report = verify_document(simple(["dq smmm", "0-5s", "1+4p", "1-4p", "2+4p", "2-4p",
                                     "3+9s", "3-9s", "0+5m", "0hu 5m"]))
    assert report.legal, report.violations
    assert report.rounds[0].settlement.deltas == (12, -4, -4, -4)


def test_the_schema_errors_come_back_with_their_paths() -> None:
    doc = simple(["dq smmm", "0-5s"])
    doc["rounds"][0]["events"][1]["tile"] = "0z"
    report = verify_document(doc)
    assert [(v.code, v.round, v.event) for v in report.violations] == [("schema", 0, 1)]
    assert "$.rounds[0].events[1].tile" in report.violations[0].message


def test_a_bad_ruleset_is_one_violation_naming_the_option() -> None:
    report = verify_document(simple(["dq smmm"], ruleset={"colour": "red"}))
    assert [v.code for v in report.violations] == ["bad_ruleset"]
    assert "colour" in report.violations[0].message


def test_replaying_twice_gives_the_same_report() -> None:
    doc = simple(["dq smmm", "0-5s", "1+4p", "1-5m", "0hu1 5m"])
    assert verify_document(doc).to_dict() == verify_document(copy.deepcopy(doc)).to_dict()


@pytest.mark.parametrize("fastpath", [True, False])
def test_verifying_leaves_no_reference_cycle_for_the_collector(fastpath: bool) -> None:
    # a cycle (a table holding its own bound methods, say) keeps every table, hand and
    # score of a match alive until a collection, which then walks them all
    docs = [json.loads(path.read_text()) for path in sorted(DATA.glob("*.json"))]
    for doc in docs:  # the first use builds the validators and the win tables
        verify_document(doc, fastpath=fastpath)
    gc.collect()
    gc.disable()
    try:
        for doc in docs:
            verify_document(doc, fastpath=fastpath).to_dict()
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_report_keys_are_the_contract() -> None:
    out = verify_document(simple(["dq smmm", "0-5s", "1+4p", "1-5m", "0hu1 5m"])).to_dict()
    assert {"legal", "ruleset", "violations", "rounds", "totals"} <= set(out)
    assert set(out["rounds"][0]) >= {"deltas", "payments", "next_dealer", "incomplete"}
    assert set(out["rounds"][0]["payments"][0]) == {"payer", "payee", "amount", "reason",
                                                     "detail", "params"}
    assert out["totals"] == [4, -4, 0, 0]


def test_frames_show_the_state_after_each_event() -> None:
    doc = simple(["dq smmm", "0-5s", "1+4p", "1-5m", "0hu1 5m"])
    frames = replay_frames(doc, 0)
    assert len(frames) == 6
    assert frames[2]["discards"][0] == ["5s"]
    assert frames[-1]["won"] == [True, False, False, False]
    assert frames[-1]["scores"] == [4, -4, 0, 0]


def test_every_code_is_documented() -> None:
    assert all(CODES.values())


def test_a_recorded_payment_of_nothing_is_not_a_mismatch() -> None:
    doc = json.loads((DATA / "rob_kong_chengdu.json").read_text("utf-8"))
    doc["rounds"][0]["result"]["payments"].append([0, 3, 0, "nothing"])
    assert verify_document(doc).legal
