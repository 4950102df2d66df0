from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import xuezhan
from analysis import leases, services
from analysis.models import NET_FROM, RoundSettlement, SeatResult, Verification, Violation
from records.models import Match
from tests.records.documents import illegal_document, make_document, simulated

pytestmark = pytest.mark.django_db


def snapshot(match: Match) -> dict[str, Any]:
    """Every derived fact of a match, without row ids."""
    verification = Verification.objects.get(match=match)
    return {
        "status": Match.objects.get(pk=match.pk).status,
        "verification": (verification.legal, verification.totals, verification.report),
        "violations": list(
            Violation.objects.filter(verification__match=match).values_list(
                "ordinal", "round_index", "event_index", "seat", "code", "message"
            )
        ),
        "settlements": list(
            RoundSettlement.objects.filter(round__match=match)
            .order_by("round__index")
            .values_list("round__index", "incomplete", "next_dealer", "deltas")
        ),
        "payments": [
            (s.round.index, p.payer, p.payee, p.amount, p.reason, p.stored_detail, p.params)
            for s in RoundSettlement.objects.filter(round__match=match)
            .select_related("round").order_by("round__index")
            for p in s.payments
        ],
        "seats": list(
            SeatResult.objects.filter(round__match=match)
            .order_by("round__index", "seat")
            .values_list("round__index", "seat", "player__handle", "won", "delta", "fan")
        ),
    }


def test_a_legal_match_is_verified_with_its_settlement(upload: Any) -> None:
    doc = simulated(1, rounds=3)
    match = upload(doc)
    assert leases.claim(match_id=match.pk, owner="task-1")
    match = services.verify_match(match_id=match.pk)
    assert match.status == "verified" and match.attempts == 1 and match.last_error == ""
    verification = match.verification
    assert verification.legal and verification.engine_version == xuezhan.__version__
    from xuezhan.replay import verify_document

    report = verify_document(doc).to_dict()
    assert verification.report == report and verification.totals == report["totals"]
    facts = snapshot(match)
    assert [s[3] for s in facts["settlements"]] == [r["deltas"] for r in report["rounds"]]
    assert len(facts["seats"]) == 4 * 3
    assert [p[1:4] for p in facts["payments"]] == [
        (p["payer"], p["payee"], p["amount"]) for r in report["rounds"] for p in r["payments"]
    ]
    for round_index, seat, handle, _won, delta, _fan in facts["seats"]:
        assert handle == doc["players"][seat]
        assert delta == report["rounds"][round_index]["seats"][seat]["delta"]
    # the money between seats, on the seat rows: the sum of the stored lines between them
    for row in SeatResult.objects.filter(round__match=match).select_related("round__settlement"):
        lines = row.round.settlement.payments
        assert [getattr(row, column) for column in NET_FROM] == [
            sum(p.amount for p in lines if (p.payer, p.payee) == (other, row.seat))
            - sum(p.amount for p in lines if (p.payer, p.payee) == (row.seat, other))
            for other in range(4)
        ]
    assert sum(sum(s[3]) for s in facts["settlements"]) == 0  # money is conserved


def test_each_payment_is_stored_with_its_reason_params(upload: Any) -> None:
    doc = simulated(1, rounds=3)
    match = services.verify_match(match_id=upload(doc).pk)
    from xuezhan.replay import verify_document

    report = verify_document(doc).to_dict()
    stored = [(p.reason, p.detail, p.params) for s in
              RoundSettlement.objects.filter(round__match=match).order_by("round__index")
              for p in s.payments]
    assert stored == [
        (p["reason"], p["detail"], p["params"]) for r in report["rounds"] for p in r["payments"]
    ]
    assert stored and all(params["amount"] > 0 for _reason, _detail, params in stored)


def test_an_illegal_match_keeps_every_violation_with_its_locators(upload: Any) -> None:
    match = upload(illegal_document(2))
    match = services.verify_match(match_id=match.pk)
    assert match.status == "illegal"
    violations = list(match.verification.violations.all())
    assert violations and not match.verification.legal
    first = violations[0]
    assert first.round_index == 0 and first.event_index == 2 and first.seat == 0 and first.code


def test_an_incomplete_round_is_legal_not_illegal(upload: Any) -> None:
    match = services.verify_match(match_id=upload(make_document(3)).pk)
    assert match.status == "verified"
    assert RoundSettlement.objects.get(round__match=match).incomplete


def test_verifying_twice_changes_nothing(upload: Any) -> None:
    match = upload(simulated(4))
    services.verify_match(match_id=match.pk)
    before, pk = snapshot(match), Verification.objects.get(match=match).pk
    services.verify_match(match_id=match.pk)  # terminal: left alone
    assert snapshot(match) == before and Verification.objects.get(match=match).pk == pk
    services.verify_match(match_id=match.pk, force=True)  # rewritten: the same facts
    assert snapshot(match) == before
    assert Verification.objects.count() == 1


def test_an_engine_crash_is_recorded_as_failed(upload: Any, monkeypatch: Any) -> None:
    def crash(document: Any) -> Any:
        raise KeyError("rounds")

    monkeypatch.setattr(services, "_engine_report", crash)
    match = services.verify_match(match_id=upload(make_document(5)).pk)
    assert match.status == "failed" and match.last_error == "KeyError: 'rounds'"
    assert not Verification.objects.exists()


def test_rows_the_database_refuses_fail_the_match_not_the_worker(
    upload: Any, monkeypatch: Any
) -> None:
    report = {
        "legal": True, "ruleset": {}, "violations": [], "totals": [0, 0, 0, 0],
        "rounds": [{"deltas": [0, 0, 0, 0], "next_dealer": 9, "incomplete": True,
                    "payments": [], "seats": []}],
    }  # fmt: skip
    monkeypatch.setattr(services, "_engine_report", lambda document: report)
    match = services.verify_match(match_id=upload(make_document(5)).pk)
    assert match.status == "failed" and "IntegrityError" in match.last_error
    assert not Verification.objects.exists()  # nothing half-written


def test_a_batch_stores_for_each_match_what_verifying_it_alone_stores(upload: Any) -> None:
    matches = [upload(simulated(30 + k)) for k in range(3)] + [upload(illegal_document(31))]
    stored = services.verify_matches(match_ids=[m.pk for m in reversed(matches)])
    assert [m.pk for m in stored] == [m.pk for m in reversed(matches)]  # in the order asked
    assert [m.status for m in stored] == ["illegal", "verified", "verified", "verified"]
    batched = [snapshot(m) for m in matches]
    for match in matches:
        services.verify_match(match_id=match.pk, force=True)  # alone, its rows replaced
    assert [snapshot(m) for m in matches] == batched


def test_rows_refused_in_a_batch_fail_their_match_alone(upload: Any, monkeypatch: Any) -> None:
    matches = [upload(simulated(40 + k)) for k in range(3)]
    bad = {
        "legal": True, "ruleset": {}, "violations": [], "totals": [0, 0, 0, 0],
        "rounds": [{"deltas": [0, 0, 0, 0], "next_dealer": 9, "incomplete": True,
                    "payments": [], "seats": []}],
    }  # fmt: skip
    real = services._engine_report
    refused = matches[1].document["match_id"]
    monkeypatch.setattr(
        services, "_engine_report",
        lambda document: bad if document["match_id"] == refused else real(document),
    )  # fmt: skip
    stored = services.verify_matches(match_ids=[m.pk for m in matches])
    assert [m.status for m in stored] == ["verified", "failed", "verified"]
    assert "IntegrityError" in stored[1].last_error
    assert set(Verification.objects.values_list("match_id", flat=True)) == {
        matches[0].pk, matches[2].pk
    }
    assert SeatResult.objects.filter(match_id=matches[0].pk).exists()


def test_a_batch_skips_missing_and_finished_matches(upload: Any) -> None:
    match, done = upload(simulated(50)), upload(simulated(51))
    services.verify_match(match_id=done.pk)
    stored = services.verify_matches(match_ids=[match.pk, 10**9, done.pk])
    assert [m.pk for m in stored] == [match.pk, done.pk]
    assert Verification.objects.filter(match=done).count() == 1


def test_reverify_runs_again_whatever_the_status(upload: Any) -> None:
    match = upload(simulated(12))
    services.verify_match(match_id=match.pk)
    again = services.reverify_match(match_id=match.pk)
    assert again.status == "verified" and again.attempts == 1
    assert Verification.objects.filter(match=match).count() == 1


def test_a_first_verification_deletes_nothing_and_a_forced_one_replaces_the_rows(
        upload: Any) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    match = upload(simulated(5))
    assert leases.claim(match_id=match.pk, owner="task-1")
    with CaptureQueriesContext(connection) as first:
        services.verify_match(match_id=match.pk)
    # the materialised statistics only add the match's sums (analysis.stats.aggregates)
    assert not [q for q in first.captured_queries if q["sql"].startswith("DELETE")]
    before = snapshot(match)
    with CaptureQueriesContext(connection) as again:
        services.verify_match(match_id=match.pk, force=True)
    assert [q for q in again.captured_queries if q["sql"].startswith("DELETE")]
    assert snapshot(match) == before


def test_stored_json_is_read_and_written_alike_past_64_bit_integers() -> None:
    """The verification reads documents and writes jsonb values with orjson, and with the
    standard library where orjson refuses: an integer past 64 bits reads and writes the same."""
    import json

    value = {"big": 10**30, "small": 1e-07, "text": "中\u0000", 3: [True, None]}
    for text in (json.dumps(value), services._json_text(value)):
        assert services._parse(text) == json.loads(json.dumps(value))
    assert json.loads(services._json_text({"n": 2**64})) == {"n": 2**64}


@settings(max_examples=300)
@given(st.recursive(
    st.none() | st.booleans() | st.text() | st.integers(min_value=-(10**25), max_value=10**25)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
    max_leaves=30,
))
def test_stored_json_reads_as_the_standard_library_reads_it(value: Any) -> None:
    import json

    for text in (json.dumps(value), json.dumps(value, ensure_ascii=False, indent=1)):
        assert services._parse(text) == json.loads(text)
    assert json.loads(services._json_text(value)) == json.loads(json.dumps(value))
