"""Illegal logs on purpose: every mutation is reported with its code and place, none raises."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from typing import Any

import pytest

from xuezhan.errors import XuezhanError
from xuezhan.replay import CODES, verify_document
from xuezhan.sim.corrupt import KINDS, Mutation, corrupt, detected
from xuezhan.sim.simulate import simulate_match

#: kinds whose expectation does not depend on the rest of the round being legal
STRUCTURAL = ("bad_tile", "wrong_type", "integral_float", "missing_field", "seat_4",
              "deep_nesting", "non_dict_event", "huge_number", "extra_field", "unknown_type",
              "not_a_match")
SEMANTIC = tuple(k for k in KINDS if k not in STRUCTURAL)
MUTATIONS = 2100


@pytest.fixture(scope="module")
def corpus() -> list[dict[str, Any]]:
    """Legal one-round matches of both presets (two-round ones test the round index)."""
    docs = [simulate_match(seed, 1) for seed in range(8)]
    docs += [simulate_match(seed, 1, "online") for seed in range(3)]
    docs += [simulate_match(100, 2)]
    for doc in docs:
        assert verify_document(doc).legal
    return docs


@pytest.fixture(scope="module")
def short_corpus(corpus: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Abandoned rounds (legal, a dozen events): the schema's slow path is cheaper on them."""
    short = []
    for doc in corpus[:4]:
        round_doc = {k: v for k, v in doc["rounds"][0].items() if k != "result"}
        round_doc["events"] = round_doc["events"][:12]
        short.append({**doc, "rounds": [round_doc]})
    for doc in short:
        assert verify_document(doc).legal
    return short


def check(doc: Any, mutation: Mutation) -> str | None:
    """What is wrong with the verifier's answer to a mutated document (None: all right)."""
    try:
        report = verify_document(doc)
    except Exception as exc:  # the point is that nothing escapes
        return f"{mutation}: raised {exc!r}"
    unknown = {v.code for v in report.violations} - set(CODES)
    if unknown:
        return f"{mutation}: unknown codes {unknown}"
    if mutation.codes and not detected(report, mutation):
        found = [(v.round, v.event, v.code) for v in report.violations[:6]]
        return f"{mutation}: not reported; found {found}"
    if mutation.expect_legal and not report.legal:
        return f"{mutation}: should stay legal; found {report.violations[:3]}"
    return None


def test_thousands_of_mutations_are_reported_with_code_and_place(
        corpus: list[dict[str, Any]], short_corpus: list[dict[str, Any]]) -> None:
    kinds = list(KINDS)
    applied: Counter[str] = Counter()
    failures = []
    for seed in range(MUTATIONS):
        kind = kinds[seed % len(kinds)]
        docs = short_corpus if kind in STRUCTURAL else corpus
        doc = docs[seed // len(kinds) % len(docs)]
        before = json.dumps(doc)
        try:
            bad, mutation = corrupt(doc, seed, kind)
        except XuezhanError:  # that kind does not apply to this document: any other does
            bad, mutation = corrupt(doc, seed)
        assert json.dumps(doc) == before, "corrupt changed its input"
        applied[mutation.kind] += 1
        problem = check(bad, mutation)
        if problem:
            failures.append(problem)
    assert not failures, "\n".join(failures[:20])
    assert sum(applied.values()) >= 2000
    assert set(applied) == set(KINDS)
    assert min(applied[k] for k in SEMANTIC) >= 40, applied


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_each_kind_names_its_place_and_expectation(corpus: list[dict[str, Any]],
                                                   kind: str) -> None:
    doc = corpus[-1]  # two rounds
    bad, mutation = corrupt(doc, 5, kind)
    assert mutation.kind == kind
    assert mutation.description
    assert check(bad, mutation) is None
    assert json.loads(json.dumps(mutation.to_json()))["kind"] == kind


def test_a_truncated_round_without_result_is_incomplete_not_illegal(
        corpus: list[dict[str, Any]]) -> None:
    bad, mutation = corrupt(corpus[0], 3, "abandoned_round")
    report = verify_document(bad)
    assert mutation.expect_legal and report.legal
    assert report.rounds[-1].incomplete


def test_the_same_seed_gives_the_same_mutation(corpus: list[dict[str, Any]]) -> None:
    assert corrupt(corpus[1], 42) == corrupt(corpus[1], 42)


def test_it_rejects_an_unknown_kind(corpus: list[dict[str, Any]]) -> None:
    with pytest.raises(XuezhanError, match="unknown mutation kind 'chi'"):
        corrupt(corpus[0], 1, "chi")


def test_it_still_corrupts_a_document_that_is_not_a_match() -> None:
    bad, mutation = corrupt([1, 2, 3], 7)
    assert mutation.kind == "not_a_match"
    assert check(bad, mutation) is None


def test_the_cli_prints_the_document_and_describes_the_mutation(
        corpus: list[dict[str, Any]], tmp_path: Any) -> None:
    path = tmp_path / "match.json"
    path.write_text(json.dumps(corpus[0]))
    run = subprocess.run([sys.executable, "-m", "xuezhan", "corrupt", str(path), "--seed", "9",
                          "--kind", "void_win"], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    assert run.stderr.startswith("void_win at round 0 event ")
    assert "win_with_void_suit" in run.stderr
    report = verify_document(json.loads(run.stdout))
    assert "win_with_void_suit" in {v.code for v in report.violations}
