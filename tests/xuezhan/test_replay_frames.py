"""Replay frames: the deal, then the table after each event, in the shape xuezhan.frames defines."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from xuezhan.frames import Frame, FrameAction, RiverTile
from xuezhan.replay import replay_frames, verify_document
from xuezhan.sim.simulate import simulate_match
from xuezhan.table import CODES as TABLE_CODES

DATA = Path(__file__).parent.parent / "data"
LOGS = sorted(DATA.rglob("*.json"))
FRAME_KEYS = set(Frame.__annotations__)


def load(name: str) -> Any:
    return json.loads((DATA / name).read_text())


def replayable(path: Path) -> bool:
    return verify_document(json.loads(path.read_text())).rules is not None


@pytest.mark.parametrize("path", [p for p in LOGS if replayable(p)], ids=lambda p: p.stem)
def test_frames_are_the_deal_then_one_per_event_in_exactly_the_frame_shape(path: Path) -> None:
    doc = json.loads(path.read_text())
    for r, round_doc in enumerate(doc["rounds"]):
        frames = replay_frames(doc, r)
        assert [f["event"] for f in frames] == [None, *range(len(round_doc["events"]))]
        assert frames[0]["action"] == {"type": "deal", "actor": round_doc["dealer"],
                                       "tile": None, "target": None}
        assert [f["action"]["type"] for f in frames[1:]] == [
            e["type"] for e in round_doc["events"]]
        for frame in frames:
            assert set(frame) == FRAME_KEYS
            action = frame["action"]
            assert FrameAction.__required_keys__ <= set(action) <= set(
                FrameAction.__annotations__)
            for river in frame["rivers"]:
                assert all(set(t) == set(RiverTile.__annotations__) for t in river)


@pytest.mark.parametrize("seed", [5, 6])
def test_for_a_legal_round_the_discards_are_the_river_less_claimed_and_won_tiles(
        seed: int) -> None:
    doc = simulate_match(seed, 2, "online")
    for r in range(2):
        for frame in replay_frames(doc, r):
            assert frame["discards"] == [
                [t["tile"] for t in river if t["claimed_by"] is None and not t["won_by"]]
                for river in frame["rivers"]]
        wins = [e["actor"] for e in doc["rounds"][r]["events"] if e["type"] == "hu"]
        assert frame["win_order"] == wins
        assert frame["won"] == [seat in wins for seat in range(4)]


def test_the_exchange_is_a_step_that_shows_what_each_seat_gave_and_got() -> None:
    frames = replay_frames(load("multiple_win_two_winners_chengdu.json"), 0)
    deal, exchange = frames[0], frames[1]
    action = exchange["action"]
    assert action["type"] == "exchange" and action["die"] == 3
    for seat in range(4):
        want = (Counter(deal["hands"][seat]) - Counter(action["give"][seat])
                + Counter(action["receive"][seat]))
        assert Counter(exchange["hands"][seat]) == want
    assert action["receive"][1] == ["8m", "8m", "8m"]  # die 3: from the seat before


def test_the_void_declaration_is_a_step_that_sets_the_voids() -> None:
    frames = replay_frames(load("multiple_win_two_winners_chengdu.json"), 0)
    assert frames[1]["voids"] == [None] * 4
    assert frames[2]["action"]["suits"] == ["p", "p", "m", "m"]
    assert frames[2]["voids"] == ["p", "p", "m", "m"]


def test_a_discard_won_by_two_is_marked_won_by_both_in_the_discarders_river() -> None:
    frames = replay_frames(load("multiple_win_two_winners_chengdu.json"), 0)
    after = frames[1 + 10]  # event 10: the second win on seat 3's 5s
    assert after["action"] == {"type": "hu", "actor": 1, "tile": "5s", "target": 3,
                               "rob_kong": False}
    assert after["rivers"][3][-1] == {"tile": "5s", "claimed_by": None, "won_by": [0, 1]}
    assert after["win_order"] == [0, 1] and after["scores"] == [1, 2, 0, -3]


def test_a_direct_kong_is_marked_in_the_river_paid_at_once_and_its_draw_is_a_replacement(
        ) -> None:
    frames = replay_frames(load("kong_bloom_direct_kong_chengdu.json"), 0)
    kong, draw = frames[1 + 5], frames[1 + 6]
    assert kong["action"] == {"type": "gang", "actor": 2, "tile": "7s", "target": 1,
                              "kind": "ming"}
    assert kong["rivers"][1][-1] == {"tile": "7s", "claimed_by": 2, "won_by": []}
    assert kong["melds"][2] == [{"kind": "ming", "tile": "7s", "from": 1}]
    assert kong["scores"] == [0, -2, 2, 0]  # kong money as it is paid
    assert draw["action"]["replacement"] is True
    ordinary = [f for f in frames if f["action"]["type"] == "draw" and f is not draw]
    assert ordinary and not any(f["action"]["replacement"] for f in ordinary)


def test_robbing_an_added_kong_is_marked_and_leaves_no_river_tile() -> None:
    frames = replay_frames(load("rob_kong_chengdu.json"), 0)
    rob = frames[1 + 13]
    assert rob["action"] == {"type": "hu", "actor": 3, "tile": "5p", "target": 1,
                             "rob_kong": True}
    assert all(not t["won_by"] for t in rob["rivers"][1])
    peng = frames[1 + 3]
    assert peng["action"] == {"type": "peng", "actor": 1, "tile": "5p", "target": 0}
    assert peng["rivers"][0][-1]["claimed_by"] == 1


@pytest.mark.parametrize("path", sorted((DATA / "violations").glob("*.json")),
                         ids=lambda p: p.stem)
def test_each_frame_carries_the_violations_found_at_its_step(path: Path) -> None:
    doc = json.loads(path.read_text())
    report = verify_document(doc)
    if report.rules is None:
        return  # nothing to replay: the document itself is refused
    for r in range(len(doc["rounds"])):
        frames = replay_frames(doc, r)
        shown = [(f["event"], p["code"], p["seat"]) for f in frames for p in f["problems"]]
        found = [(v.event, v.code, v.seat) for v in report.violations if v.round == r
                 and v.code in {*TABLE_CODES, "too_many_violations"}]
        if any(code == "too_many_violations" for _, code, _ in found):
            continue  # the verifier stops there; the viewer shows the round to its end
        assert sorted(shown, key=str) == sorted(found, key=str)


def test_faults_found_when_the_log_ends_are_on_the_last_frame() -> None:
    doc = json.loads((Path(__file__).parent / "data" / "last_discard_not_won_online.json")
                     .read_text())
    frames = replay_frames(doc, 0)
    assert [p["code"] for p in frames[-1]["problems"]] == ["last_four_not_won"]
    assert frames[-1]["action"]["type"] == "discard" and frames[-1]["wall_remaining"] == 0
    assert not any(f["problems"] for f in frames[:-1])


def test_the_deal_frame_carries_the_deals_faults() -> None:
    doc = load("violations/bad_deal.json")
    assert [p["code"] for p in replay_frames(doc, 0)[0]["problems"]] == ["bad_deal"]

