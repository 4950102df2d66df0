"""The quick check passes only documents the schema passes: never a bad one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.records.documents import make_document
from tests.xuezhan.test_fastpath import JSON_VALUES, legal_corpus, put_anywhere
from xuezhan.quickcheck import passes
from xuezhan.schema import validate_document
from xuezhan.sim.corrupt import KINDS, corrupt

DATA = Path(__file__).resolve().parents[1] / "data"


def test_legal_simulated_matches_and_test_documents_pass() -> None:
    docs = [*legal_corpus(), *(make_document(n, rounds=2) for n in range(5))]
    assert all(not validate_document(doc) for doc in docs)
    assert all(passes(doc) for doc in docs)


@pytest.mark.parametrize("path", sorted(DATA.glob("**/*.json")), ids=lambda p: p.name)
def test_it_agrees_with_the_schema_on_every_file_of_tests_data(path: Path) -> None:
    doc = json.loads(path.read_text(encoding="utf-8"))
    if passes(doc):
        assert validate_document(doc) == []


def test_it_never_passes_a_document_the_schema_refuses_whatever_the_corruption() -> None:
    doc = legal_corpus()[0]
    for kind in KINDS:
        for seed in range(3):
            bad, _mutation = corrupt(doc, seed, kind)
            if passes(bad):
                assert validate_document(bad) == [], kind


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), value=JSON_VALUES)
def test_it_never_passes_a_document_the_schema_refuses_any_value_anywhere(
        data: st.DataObject, value: Any) -> None:
    # floats for integers, bools for seats, unknown tiles, events of the wrong shape, ...
    doc = json.loads(json.dumps(legal_corpus()[data.draw(st.integers(0, 7))]))
    put_anywhere(data, doc, value)
    if passes(doc):
        assert validate_document(doc) == []


@pytest.mark.parametrize("value", [1.0, True, 4, -1, "1m"])
def test_a_draw_with_a_bad_actor_is_left_to_the_schema(value: Any) -> None:
    doc = json.loads(json.dumps(legal_corpus()[0]))
    draw = next(e for e in doc["rounds"][0]["events"] if e["type"] == "draw")
    draw["actor"] = value
    assert not passes(doc)
    assert validate_document(doc)


def test_a_score_sheet_is_not_its_to_pass() -> None:
    assert not passes({"format": "xuezhan-sheet", "version": 1})
