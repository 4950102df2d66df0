"""Properties of the decision API: Table.legal_actions agrees with Table.play."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xuezhan.actions import DingQue, Exchange, action_from_json
from xuezhan.replay import table_for_round
from xuezhan.rules import Rules
from xuezhan.sim.simulate import simulate_match
from xuezhan.table import Table

RULESETS: list[dict[str, Any]] = [
    {"preset": "chengdu"},
    {"preset": "online"},
    {"preset": "chengdu", "kong_after_peng": True, "kong_draw": "back"},
    {"preset": "chengdu", "void_first": True, "no_claim_void": True, "passed_win": "strict"},
    {"preset": "online", "last_four": "must_win_all", "passed_win": "strict", "min_fan": 2},
    {"preset": "chengdu", "exchange": "off", "heaven_earth": False},
]


def assert_every_legal_action_plays_cleanly(table: Table) -> None:
    for seat in range(4):
        for action in table.legal_actions(seat):
            trial = table.copy()
            assert trial.play(action) == [], (seat, action)


@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), ruleset=st.sampled_from(RULESETS),
       chaos=st.sampled_from([0.0, 0.3]))
def test_every_bot_action_is_legal_and_every_legal_action_plays_without_a_problem(
        seed: int, ruleset: dict[str, Any], chaos: float) -> None:
    doc = simulate_match(seed, 1, ruleset, chaos=chaos)
    round_doc = doc["rounds"][0]
    table = table_for_round(round_doc, Rules.from_json(ruleset))
    for event in round_doc["events"]:
        action = action_from_json(event)
        if not isinstance(action, Exchange | DingQue):  # events of all four seats at once
            assert action in table.legal_actions(action.actor), event
            assert_every_legal_action_plays_cleanly(table)
        assert table.play(action) == []
    assert table.finish() == []
    assert table.over and not any(table.legal_actions(seat) for seat in range(4))


def _state(table: Table) -> tuple[object, ...]:
    """Everything a copy might share with its original, as plain values."""
    return ([list(h) for h in table.hands], [list(m) for m in table.melds],
            [list(d) for d in table.discards], list(table.voids), table.wall_left,
            list(table.won), table.outcome(), list(table.passed), table.expect)


def test_a_copy_is_independent_of_its_original() -> None:
    doc = simulate_match(5, 1)
    round_doc = doc["rounds"][0]
    table = table_for_round(round_doc, Rules.preset("chengdu"))
    events = [action_from_json(e) for e in round_doc["events"]]
    for action in events[:20]:
        table.play(action)
    before = _state(table)
    trial = table.copy()
    for action in events[20:]:
        trial.play(action)
    assert _state(table) == before
    assert trial.over
