"""Score sheets: settled by the same code as logs, checked for what can be checked."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from xuezhan.cli import main
from xuezhan.replay import verify_document
from xuezhan.settlement import KongEvent, RoundRecord, WinEvent
from xuezhan.sheet import CODES, settle_sheet
from xuezhan.tiles import TILES

DATA = Path(__file__).resolve().parents[1] / "data"
LOGS = sorted(p.name for p in DATA.glob("*.json"))


def sheet(*rounds: dict[str, Any], ruleset: Any = "chengdu") -> dict[str, Any]:
    return {
        "format": "xuezhan-sheet",
        "version": 1,
        "ruleset": ruleset,
        "players": ["ann", "ben", "cai", "dan"],
        "rounds": list(rounds),
    }


def codes(doc: dict[str, Any]) -> list[str]:
    return [v.code for v in settle_sheet(doc).violations]


# --- a sheet transcribed from each hand-made log settles like the log ---


def transcribe_round(record: RoundRecord, round_doc: dict[str, Any]) -> dict[str, Any]:
    """What a scorer at the table writes down: the kongs and wins in order, each win's
    pattern and fan, and at a draw who was ready for what and who was a flower pig."""
    events: list[dict[str, Any]] = []
    previous_group = None
    for e in record.events:
        if isinstance(e, KongEvent):
            kong = {"type": "kong", "seat": e.seat, "kind": e.kind, "tile": str(TILES[e.tile])}
            if e.kind == "direct":
                kong["from"] = e.discarder
            events.append(kong)
            previous_group = None
            continue
        assert isinstance(e, WinEvent)
        win: dict[str, Any] = {"type": "win", "seat": e.seat, "tile": str(TILES[e.tile])}
        if e.discarder is not None:
            win["from"] = e.discarder
        win.update({"pattern": e.pattern, "fan": e.fan})
        flags = {
            "rob_kong": e.rob_kong,
            "after_kong": e.after_kong is not None,
            "kong_discard": e.kong_before_discard is not None,
            "with_previous": previous_group == e.group,
        }
        win.update({k: True for k, v in flags.items() if v})
        events.append(win)
        previous_group = e.group
    out: dict[str, Any] = {"dealer": round_doc["dealer"], "events": events}
    if record.drawn:
        out["drawn"] = True
        out["ready"] = [
            {"seat": c.seat, "fan": c.ready_fan}
            | ({} if c.ready_fan_no_kong is None else {"fan_no_kong": c.ready_fan_no_kong})
            for c in record.checks
            if c.ready_fan is not None
        ]
        out["flower_pigs"] = [c.seat for c in record.checks if c.flower_pig]
    if not record.complete:
        out["incomplete"] = True
    if "result" in round_doc:
        out["totals"] = round_doc["result"]["deltas"]
    return out


@pytest.mark.parametrize("name", LOGS)
def test_a_sheet_transcribed_from_a_hand_made_log_settles_to_the_logs_deltas(name: str) -> None:
    doc = json.loads((DATA / name).read_text(encoding="utf-8"))
    log = verify_document(doc)
    assert log.legal, name
    transcribed = {
        "format": "xuezhan-sheet",
        "version": 1,
        "ruleset": doc.get("ruleset", "chengdu"),
        "base": doc.get("base", 1),
        "players": doc["players"],
        "rounds": [
            transcribe_round(r.record, round_doc)
            for r, round_doc in zip(log.rounds, doc["rounds"], strict=True)
        ],
    }
    report = settle_sheet(transcribed)
    assert report.violations == [], report.violations
    for got, want in zip(report.rounds, log.rounds, strict=True):
        assert got.settlement.deltas == want.settlement.deltas
        assert [(p.payer, p.payee, p.amount, p.reason) for p in got.settlement.payments] == [
            (p.payer, p.payee, p.amount, p.reason) for p in want.settlement.payments
        ]
        assert got.settlement.next_dealer == want.settlement.next_dealer
    assert report.totals == log.totals


# --- sheets written by hand, worked out by hand ---


def test_a_discard_win_pays_pattern_plus_add_ons_from_the_discarder() -> None:
    # 清一色 2 + 根 1 = 3 fan -> 8 points, all from dan, who discarded
    doc = sheet({"dealer": 0, "events": [
        {"type": "win", "seat": 1, "from": 3, "tile": "9m", "pattern": "qing_yi_se",
         "add_ons": {"gen": 1}, "fan": 3},
    ]})  # fmt: skip
    report = settle_sheet(doc)
    assert report.legal and report.rounds[0].settlement.deltas == (0, 8, 0, -8)
    assert report.rounds[0].settlement.next_dealer == 1
    assert "清一色 2 + 根 ×1 = 3 fan" in report.rounds[0].settlement.payments[0].detail


def test_a_kong_bloom_self_draw_adds_the_kong_and_its_bloom_fan() -> None:
    # cai's concealed kong: 2 from each of three; then 杠上花: 平胡 0 + 暗杠 2 + 杠上花 1 = 3 fan
    doc = sheet({"dealer": 0, "events": [
        {"type": "kong", "seat": 2, "kind": "concealed", "tile": "5p"},
        {"type": "win", "seat": 2, "tile": "7p", "after_kong": True, "pattern": "ping_hu",
         "add_ons": {"kong_concealed": 1}},
    ]})  # fmt: skip
    report = settle_sheet(doc)
    assert report.legal, report.violations
    assert report.rounds[0].settlement.deltas == (-10, -10, 30, -10)


def test_one_discard_won_twice_then_a_draw_with_a_flower_pig_and_a_ready_player() -> None:
    # ann deals in to ben (对对胡 1 fan: 2) and cai (平胡: 1); at the draw ann is a flower
    # pig (16 to each non-pig) and unready: she pays dan, ready for 2 fan (4), too.
    doc = sheet({"dealer": 0, "events": [
        {"type": "win", "seat": 1, "from": 0, "tile": "3s", "pattern": "dui_dui_hu"},
        {"type": "win", "seat": 2, "from": 0, "tile": "3s", "pattern": "ping_hu",
         "with_previous": True},
    ], "drawn": True, "ready": [{"seat": 3, "fan": 2}], "flower_pigs": [0],
       "totals": [-55, 18, 17, 20]})  # fmt: skip
    report = settle_sheet(doc)
    assert report.legal, report.violations
    assert report.rounds[0].settlement.deltas == (-55, 18, 17, 20)
    assert report.rounds[0].settlement.next_dealer == 0  # 一炮多响: the discarder deals


# --- what a sheet cannot get past ---


def test_a_fourth_win_in_a_round_is_reported() -> None:
    wins = [{"type": "win", "seat": s, "tile": "1m", "pattern": "ping_hu"} for s in range(4)]
    assert "too_many_winners" in codes(sheet({"dealer": 0, "events": wins}))


def test_a_player_who_has_won_does_not_act_again() -> None:
    doc = sheet({"dealer": 0, "events": [
        {"type": "win", "seat": 1, "tile": "1m", "pattern": "ping_hu"},
        {"type": "kong", "seat": 1, "kind": "concealed", "tile": "2m"},
        {"type": "win", "seat": 2, "from": 1, "tile": "3m", "pattern": "ping_hu"},
    ]})  # fmt: skip
    violations = settle_sheet(doc).violations
    assert [(v.code, v.round, v.event, v.seat) for v in violations] == [
        ("winner_acts_again", 0, 1, 1), ("winner_acts_again", 0, 2, 1),
    ]  # fmt: skip


def test_a_fan_that_does_not_match_the_pattern_and_add_ons_is_reported() -> None:
    doc = sheet({"dealer": 0, "events": [
        {"type": "win", "seat": 1, "from": 0, "tile": "1m", "pattern": "qing_yi_se",
         "add_ons": {"gen": 1}, "fan": 5},
    ]})  # fmt: skip
    assert codes(doc) == ["fan_mismatch"]


def test_a_pattern_the_ruleset_does_not_have_is_reported() -> None:
    doc = sheet({"dealer": 0, "events": [
        {"type": "win", "seat": 1, "from": 0, "tile": "1m", "pattern": "thirteen_orphans"},
    ]})  # fmt: skip
    assert codes(doc) == ["unknown_pattern"]


def test_situational_add_ons_follow_from_the_flags_and_are_not_listed() -> None:
    doc = sheet({"dealer": 0, "events": [
        {"type": "win", "seat": 1, "from": 0, "tile": "1m", "pattern": "ping_hu",
         "add_ons": {"qiang_gang": 1}},
    ]})  # fmt: skip
    assert codes(doc) == ["implied_add_on"]


def test_a_kong_bloom_without_a_kong_is_reported() -> None:
    doc = sheet({"dealer": 0, "events": [
        {"type": "win", "seat": 1, "tile": "1m", "pattern": "ping_hu", "after_kong": True},
    ]})  # fmt: skip
    assert codes(doc) == ["no_such_kong"]


def test_the_clubs_totals_are_checked_against_the_settlement() -> None:
    doc = sheet({"dealer": 0, "totals": [0, 4, 0, -3], "events": [
        {"type": "win", "seat": 1, "from": 3, "tile": "9m", "pattern": "qing_yi_se"},
    ]})  # fmt: skip
    violations = settle_sheet(doc).violations
    assert [(v.code, v.round) for v in violations] == [("totals_mismatch", 0)]


def test_draw_checks_are_only_for_players_still_in_a_drawn_round() -> None:
    win = {"type": "win", "seat": 1, "tile": "1m", "pattern": "ping_hu"}
    assert codes(sheet({"dealer": 0, "events": [win], "flower_pigs": [2]})) == [
        "draw_check_not_drawn"
    ]
    assert codes(sheet({"dealer": 0, "events": [win], "drawn": True, "flower_pigs": [1]})) == [
        "draw_check_of_winner"
    ]


def test_a_sheet_off_the_format_is_reported_with_the_json_path() -> None:
    doc = sheet({"dealer": 0, "events": [{"type": "win", "seat": 7, "tile": "1m", "fan": 1}]})
    violations = settle_sheet(doc).violations
    assert violations and violations[0].code == "schema"
    assert "$.rounds[0].events[0]" in violations[0].message


def test_every_code_reported_is_documented() -> None:
    assert {"too_many_winners", "fan_mismatch", "totals_mismatch"} <= set(CODES)


def test_settle_sheet_on_the_command_line_prints_the_report_and_exits_by_legality(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "good.json"
    win = {"type": "win", "seat": 1, "from": 3, "tile": "9m", "pattern": "qing_yi_se"}
    good.write_text(json.dumps(sheet({"dealer": 0, "events": [win]})))
    assert main(["settle-sheet", str(good)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["legal"] and report["totals"] == [0, 4, 0, -4]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(sheet({"dealer": 0, "totals": [1, 1, 1, 1], "events": []})))
    assert main(["settle-sheet", str(bad)]) == 1
    assert main(["settle-sheet", str(tmp_path / "missing.json")]) == 2
