"""The engine's decision review against the slow reference it replaced
(tests/xuezhan/review_reference.py): the same JSON, decision for decision, on every log
in the test data and on simulated matches of both presets."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.xuezhan import review_reference as reference
from xuezhan.errors import XuezhanError
from xuezhan.review import review_document, summarize
from xuezhan.sim.simulate import simulate_match

DATA = Path(__file__).resolve().parent.parent / "data"


def both(document: dict[str, Any], seat: int | None = None) -> tuple[Any, Any]:
    fast = review_document(document, seat)
    slow = reference.review_document(document, seat)
    return (([r.to_json() for r in fast], [s.to_json() for s in summarize(fast)]),
            ([r.to_json() for r in slow], [s.to_json() for s in reference.summarize(slow)]))


@pytest.mark.parametrize("path", sorted(DATA.rglob("*.json")), ids=lambda p: p.name)
def test_the_review_of_every_test_log_is_the_references(path: Path) -> None:
    document = json.loads(path.read_text())
    try:
        fast, slow = both(document)
    except XuezhanError:
        with pytest.raises(XuezhanError):
            reference.review_document(document)
        return
    assert fast == slow


#: the presets, and the options that change what a seat may do on its turn
RULESETS: list[str | dict[str, Any]] = [
    "chengdu", "online", {"void_first": True, "kong_after_peng": True},
    {"preset": "online", "void_first": True, "last_four": "off"}]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**31), st.sampled_from(RULESETS), st.sampled_from([0.0, 0.05]),
       st.one_of(st.none(), st.integers(0, 3)))
def test_the_review_of_a_simulated_match_is_the_references(
        seed: int, rules: str | dict[str, Any], chaos: float, seat: int | None) -> None:
    # chaos: a share of faulty events, which the review must walk past as the reference
    fast, slow = both(simulate_match(seed, 2, rules, chaos), seat)
    assert fast == slow
