"""The replay walk: one step per event, the one loop behind verify_document and the frames."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.xuezhan.logs import match_doc, round_doc
from xuezhan.actions import action_from_json
from xuezhan.errors import XuezhanError
from xuezhan.replay import (
    MAX_VIOLATIONS_PER_ROUND,
    RoundWalk,
    play_round,
    table_for_round,
    verify_document,
)
from xuezhan.rules import Rules
from xuezhan.sim.corrupt import corrupt
from xuezhan.sim.simulate import simulate_match
from xuezhan.table import Problem

DATA = Path(__file__).parent.parent / "data"
LOGS = sorted(DATA.rglob("*.json"))
NO_EXCHANGE = {"preset": "chengdu", "exchange": "off"}
HANDS = ["1112345678999m5s", "5m1234567p123s99p", "2345678p456789s", "112233p667788s9s"]


def valid_rounds(doc: Any) -> list[tuple[dict[str, Any], Rules, int]]:
    """The rounds verify_document replays (none when the document fails its checks)."""
    rules = verify_document(doc).rules
    return [] if rules is None else [(r, rules, doc.get("base", 1)) for r in doc["rounds"]]


def reference_replay(round_doc: dict[str, Any], rules: Rules, base: int) -> tuple[
        Any, list[tuple[int | None, Problem]]]:
    """The replay loop as it was written before the walk: play each event, stop past the
    limit, close the table at the end."""
    table = table_for_round(round_doc, rules, base)
    problems: list[tuple[int | None, Problem]] = [(None, p) for p in table.deal_problems]
    for index, event in enumerate(round_doc["events"]):
        problems.extend((index, p) for p in table.play(action_from_json(event), index))
        if len(problems) > MAX_VIOLATIONS_PER_ROUND:
            problems.append((index, Problem("too_many_violations", f"more than "
                             f"{MAX_VIOLATIONS_PER_ROUND} faults; the replay of this round "
                             "stopped here")))
            return table, problems
    problems.extend((None, p) for p in table.finish())
    return table, problems


def assert_walk_is_the_reference(doc: Any) -> None:
    for round_doc_, rules, base in valid_rounds(doc):
        want_table, want = reference_replay(round_doc_, rules, base)
        got_table, got = play_round(round_doc_, rules, base)
        assert got == want
        assert got_table.outcome() == want_table.outcome()


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_the_walk_yields_one_step_per_event_in_order(path: Path) -> None:
    doc = json.loads(path.read_text())
    for round_doc_, rules, base in valid_rounds(doc):
        walk = RoundWalk(round_doc_, rules, base, limit=None)
        steps = [(index, action, table) for index, action, _, table in walk]
        events = round_doc_["events"]
        assert [i for i, _, _ in steps] == list(range(len(events)))
        assert [a for _, a, _ in steps] == [action_from_json(e) for e in events]
        assert all(t is walk.table for _, _, t in steps)


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_verify_reports_what_the_plain_replay_loop_finds_on_every_log(path: Path) -> None:
    assert_walk_is_the_reference(json.loads(path.read_text()))


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), preset=st.sampled_from(["chengdu", "online"]),
       mutation=st.integers(0, 1_000))
def test_verify_reports_what_the_plain_replay_loop_finds_on_simulated_and_corrupted_matches(
        seed: int, preset: str, mutation: int) -> None:
    doc = simulate_match(seed, 2, preset, chaos=0.3)
    assert_walk_is_the_reference(doc)
    try:
        bad, _ = corrupt(doc, mutation)
    except XuezhanError:
        return
    assert_walk_is_the_reference(bad)


def test_each_steps_problems_are_the_violations_verify_reports_at_that_event() -> None:
    doc = match_doc(round_doc(HANDS, ["dq smmm", "0-4s", "2+4p", "1-5m", "0-5s"]),
                    ruleset=NO_EXCHANGE)
    rules = Rules.from_json(NO_EXCHANGE)
    found = [(index, p.code) for index, _, problems, _ in RoundWalk(doc["rounds"][0], rules)
             for p in problems]
    assert found == [(v.event, v.code) for v in verify_document(doc).violations]
    assert found == [(1, "tile_not_in_hand"), (2, "draw_out_of_turn"),
                     (3, "discard_out_of_turn"), (4, "discard_out_of_turn")]


def test_past_the_limit_the_walk_stops_at_the_step_that_crossed_it_without_finishing() -> None:
    events = ["dq smmm"] + ["1-5m"] * 10
    walk = RoundWalk(round_doc(HANDS, events), Rules.from_json(NO_EXCHANGE), limit=3)
    steps = [[p.code for p in problems] for _, _, problems, _ in walk]
    faults = [code for codes in steps for code in codes]
    assert faults[-1] == "too_many_violations" and faults.count("too_many_violations") == 1
    assert sum(map(len, steps[:-1])) <= 3 < len(faults) - 1  # the last step crossed it
    assert len(steps) < len(events)
    assert walk.stopped and walk.end_problems == []


def test_a_log_that_ends_on_an_unwon_last_discard_is_faulted_when_the_walk_runs_out() -> None:
    doc = json.loads((Path(__file__).parent / "data" / "last_discard_not_won_online.json")
                     .read_text())
    (round_doc_, rules, base), = valid_rounds(doc)
    walk = RoundWalk(round_doc_, rules, base)
    for _ in walk:
        assert walk.end_problems == []
    assert [p.code for p in walk.end_problems] == ["last_four_not_won"]
    assert [(v.event, v.code) for v in verify_document(doc).violations] == [
        (None, "last_four_not_won")]


def test_a_walk_replays_its_round_only_once() -> None:
    walk = RoundWalk(round_doc(HANDS, ["dq smmm", "0-5s"]), Rules.from_json(NO_EXCHANGE))
    assert len(list(walk)) == 2
    with pytest.raises(RuntimeError):
        iter(walk)


def test_the_walk_does_not_change_the_document() -> None:
    doc = simulate_match(3, 1)
    before = copy.deepcopy(doc)
    for round_doc_, rules, base in valid_rounds(doc):
        list(RoundWalk(round_doc_, rules, base))
    assert doc == before


def test_coverage_reads_add_ons_and_dian_gang_hua_from_the_scores_and_payments() -> None:
    from xuezhan.sim.coverage import coverage

    chengdu = coverage([json.loads((DATA / "kong_bloom_direct_kong_chengdu.json").read_text())])
    online = coverage([json.loads((DATA / "kong_bloom_direct_kong_online.json").read_text())])
    # chengdu: 平胡 + 直杠 + 杠上花, everyone pays; online: 平胡 + 根 + 杠上花, 点杠花
    assert chengdu.counts["add_on:direct_kong"] == chengdu.counts["add_on:gang_shang_hua"] == 1
    assert chengdu.counts["add_on:gen"] == 0 and chengdu.counts["win:dian_gang_hua"] == 0
    assert online.counts["add_on:gen"] == online.counts["add_on:gang_shang_hua"] == 1
    assert online.counts["add_on:direct_kong"] == 0 and online.counts["win:dian_gang_hua"] == 1
