"""Properties of the verifier on legal logs and on logs with one mutated event."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xuezhan.replay import CODES, Report, verify_document
from xuezhan.sim.corrupt import corrupt
from xuezhan.sim.simulate import simulate_match

DOCS = [simulate_match(seed, 1) for seed in range(3)] + [simulate_match(9, 1, "online")]
SETTINGS = settings(max_examples=120, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])

# values an event field might be broken into: right and wrong types, edge numbers, tiles
VALUES = st.one_of(
    st.integers(min_value=-5, max_value=8),
    st.integers(min_value=-(10 ** 30), max_value=10 ** 30),
    st.sampled_from(["1m", "9s", "5p", "0m", "5z", "", "hu", "ming", "an", "jia", "m", "s"]),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.sampled_from([0.0, 1.0, 3.0]),
    st.none(), st.booleans(),
    st.lists(st.sampled_from(["1m", "2m", "3m", "p", 1]), max_size=4),
    st.dictionaries(st.sampled_from(["type", "actor", "tile"]), st.integers(0, 3), max_size=2),
)
KEYS = st.sampled_from(["type", "actor", "target", "tile", "kind", "die", "suits", "give"])


def assert_sound(report: Report) -> None:
    assert isinstance(report, Report)
    assert {v.code for v in report.violations} <= set(CODES)
    json.dumps(report.to_dict())


@pytest.mark.parametrize("doc", DOCS, ids=lambda d: d["match_id"])
def test_replaying_a_log_twice_gives_the_same_result(doc: dict[str, Any]) -> None:
    before = copy.deepcopy(doc)
    first, second = verify_document(doc).to_dict(), verify_document(doc).to_dict()
    assert first == second
    assert first["legal"]
    assert doc == before, "verify_document changed its input"


@SETTINGS
@given(doc=st.sampled_from(DOCS), where=st.integers(min_value=0), key=KEYS, value=VALUES)
def test_a_single_mutated_event_is_legal_or_reported_never_an_exception(
        doc: dict[str, Any], where: int, key: str, value: Any) -> None:
    events = doc["rounds"][0]["events"]
    index = where % len(events)
    mutated = copy.deepcopy(doc)
    mutated["rounds"][0]["events"][index][key] = value
    assert_sound(verify_document(mutated))


@SETTINGS
@given(doc=st.sampled_from(DOCS), where=st.integers(min_value=0),
       op=st.sampled_from(["delete", "duplicate", "move", "replace"]),
       other=st.integers(min_value=0))
def test_a_deleted_duplicated_or_moved_event_is_legal_or_reported(
        doc: dict[str, Any], where: int, op: str, other: int) -> None:
    mutated = copy.deepcopy(doc)
    events = mutated["rounds"][0]["events"]
    i, j = where % len(events), other % len(events)
    if op == "delete":
        del events[i]
    elif op == "duplicate":
        events.insert(i, copy.deepcopy(events[i]))
    elif op == "move":
        events.insert(j, events.pop(i))
    else:
        events[i] = copy.deepcopy(events[j])
    assert_sound(verify_document(mutated))


@SETTINGS
@given(seed=st.integers(min_value=0, max_value=2 ** 32))
def test_a_corrupted_log_verifies_the_same_way_twice(seed: int) -> None:
    bad, _ = corrupt(DOCS[seed % len(DOCS)], seed)
    snapshot = json.dumps(bad)
    first = verify_document(bad).to_dict()
    assert verify_document(bad).to_dict() == first
    assert json.dumps(bad) == snapshot
