"""The decision review after the verdict (analysis.tasks.review_match, services.store_review),
and the verification's engine run before the row lock (services.verify_match)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import OperationalError

from analysis import services, tasks
from analysis.models import Verification
from records.models import Match
from tests.records.documents import make_document, simulated

pytestmark = pytest.mark.django_db


def expected_review(doc: dict[str, Any]) -> dict[str, Any]:
    """The summaries, and what the match page shows of the mistakes: the 3 largest losses
    (then in the order played) and each seat's largest, with how many there are."""
    from analysis.review.worst import worst_entry
    from xuezhan.review import MISTAKES, review_document, summarize

    reviews = review_document(doc)
    mistakes = sorted((d for r in reviews for d in r.decisions if d.verdict in MISTAKES),
                      key=lambda d: (-d.loss, d.round, d.event, d.seat))  # fmt: skip
    firsts = {d.seat: d for d in reversed(mistakes)}.values()  # each seat's largest
    shown = [d for d in mistakes if d in mistakes[:3] or d in firsts]
    return {
        "seats": [s.to_json() for s in summarize(reviews)],
        "rounds": [[r.summary(seat).to_json() for seat in range(4)] for r in reviews],
        "worst": [worst_entry(d) for d in shown],
        "mistakes": len(mistakes),
    }


@pytest.fixture
def queued_reviews(monkeypatch: Any) -> list[int]:
    """The match ids whose review task was sent (not run)."""
    sent: list[int] = []
    monkeypatch.setattr(tasks.review_matches, "delay", lambda match_ids: sent.extend(match_ids))
    return sent


def test_a_verdict_queues_the_review_only_once_the_verification_commits(
    upload: Any, queued_reviews: list[int], django_capture_on_commit_callbacks: Any
) -> None:
    match = upload(simulated(41))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.verify_match(match_id=match.pk)
    assert queued_reviews == []  # not before the commit
    assert Verification.objects.get(match=match).review is None  # the verdict is stored alone
    for callback in callbacks:
        callback()
    assert queued_reviews == [match.pk]


def test_an_illegal_verdict_is_reviewed_too(
    upload: Any, queued_reviews: list[int], django_capture_on_commit_callbacks: Any
) -> None:
    from tests.records.documents import illegal_document

    match = upload(illegal_document())
    with django_capture_on_commit_callbacks(execute=True):
        assert services.verify_match(match_id=match.pk).status == "illegal"
    assert queued_reviews == [match.pk]


def test_a_failed_verification_queues_no_review(
    upload: Any, queued_reviews: list[int], monkeypatch: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    def crash(document: Any) -> Any:
        raise KeyError("rounds")

    monkeypatch.setattr(services, "_engine_report", crash)
    match = upload(make_document(5))
    with django_capture_on_commit_callbacks(execute=True):
        assert services.verify_match(match_id=match.pk).status == "failed"
    assert queued_reviews == []


def test_a_verification_left_alone_queues_no_review(
    upload: Any, queued_reviews: list[int], django_capture_on_commit_callbacks: Any
) -> None:
    match = upload(simulated(42))
    services.verify_match(match_id=match.pk)
    with django_capture_on_commit_callbacks(execute=True):
        services.verify_match(match_id=match.pk)  # terminal: nothing new to review
    assert queued_reviews == []


def test_the_review_task_stores_the_summaries_once_and_is_safe_to_run_twice(upload: Any) -> None:
    doc = simulated(43)
    match = upload(doc)
    services.verify_match(match_id=match.pk)
    assert tasks.review_match.delay(match.pk).get() == "stored"
    stored = Verification.objects.get(match=match).review
    assert stored == expected_review(doc)
    assert tasks.review_match.delay(match.pk).get() == "skipped"
    assert Verification.objects.get(match=match).review == stored


def test_a_batch_of_verdicts_is_reviewed_by_one_task_safe_to_run_twice(
    upload: Any, monkeypatch: Any, django_capture_on_commit_callbacks: Any
) -> None:
    docs = [simulated(46 + k) for k in range(3)]
    ids = [upload(doc).pk for doc in docs]
    sent: list[list[int]] = []
    monkeypatch.setattr(tasks.review_matches, "delay", sent.append)
    with django_capture_on_commit_callbacks(execute=True):
        services.verify_matches(match_ids=ids)
    assert sent == [ids]  # one message for the batch
    assert tasks.review_matches.apply(args=[ids]).get() == 3
    for match_id, doc in zip(ids, docs, strict=True):
        assert Verification.objects.get(match_id=match_id).review == expected_review(doc)
    assert tasks.review_matches.apply(args=[ids]).get() == 0


def test_the_review_task_skips_a_match_without_a_verdict(upload: Any) -> None:
    match = upload(simulated(44))
    assert tasks.review_match.delay(match.pk).get() == "skipped"
    assert not Verification.objects.filter(match=match).exists()


def test_the_review_task_retries_when_the_database_is_away(upload: Any, monkeypatch: Any) -> None:
    match = upload(simulated(45))
    services.verify_match(match_id=match.pk)
    real, calls = services.store_review, []

    def flaky(**kwargs: Any) -> bool:
        calls.append(kwargs)
        if len(calls) == 1:
            raise OperationalError("server closed the connection unexpectedly")
        return real(**kwargs)

    monkeypatch.setattr(services, "store_review", flaky)
    assert tasks.review_match.apply(args=[match.pk]).get() == "stored"
    assert len(calls) == 2


def test_a_review_of_a_document_replaced_meanwhile_is_not_stored(
    upload: Any, monkeypatch: Any
) -> None:
    match = upload(simulated(46))
    services.verify_match(match_id=match.pk)
    real = services._review_summary

    def corrected_during_the_review(document: Any) -> Any:
        Match.objects.filter(pk=match.pk).update(content_sha256="0" * 64)
        return real(document)

    monkeypatch.setattr(services, "_review_summary", corrected_during_the_review)
    assert services.store_review(match_id=match.pk) is False
    assert Verification.objects.get(match=match).review is None


def test_a_forced_verification_clears_the_review_and_queues_it_again(
    upload: Any, queued_reviews: list[int], django_capture_on_commit_callbacks: Any
) -> None:
    match = upload(simulated(47))
    services.verify_match(match_id=match.pk)
    services.store_review(match_id=match.pk)
    with django_capture_on_commit_callbacks(execute=True):
        services.verify_match(match_id=match.pk, force=True)
    assert Verification.objects.get(match=match).review is None
    assert queued_reviews == [match.pk]


def test_the_review_task_survives_dead_workers_in_a_queue_of_its_own() -> None:
    from django.conf import settings

    from config import celery_app

    task = tasks.review_match
    assert task.acks_late and task.reject_on_worker_lost
    assert OperationalError in task.autoretry_for and task.retry_backoff
    for name in ("analysis.tasks.review_match", "analysis.tasks.review_matches"):
        route = celery_app.conf.task_routes[name]
        assert route["queue"] == settings.CELERY_REVIEW_QUEUE != settings.CELERY_TASK_DEFAULT_QUEUE
    assert tasks.review_matches.acks_late and tasks.review_matches.reject_on_worker_lost
    # a worker of both queues polls the verifications first
    assert next(iter(celery_app.conf.task_queues)) == settings.CELERY_TASK_DEFAULT_QUEUE
    assert celery_app.conf.broker_transport_options["queue_order_strategy"] == "priority"


# -- the engine before the lock -------------------------------------------------------


def test_a_match_verified_while_the_engine_ran_keeps_the_first_rows(
    upload: Any, monkeypatch: Any
) -> None:
    match = upload(simulated(48))
    real, first = services._run_engine, []

    def another_worker_first(document: Any) -> Any:
        outcome = real(document)
        monkeypatch.setattr(services, "_run_engine", real)
        services.verify_match(match_id=match.pk)  # commits its verdict meanwhile
        first.append(Verification.objects.get(match=match).pk)
        return outcome

    monkeypatch.setattr(services, "_run_engine", another_worker_first)
    assert services.verify_match(match_id=match.pk).status == "verified"
    assert list(Verification.objects.filter(match=match).values_list("pk", flat=True)) == first


def test_a_document_replaced_while_the_engine_ran_is_replayed_again_under_the_lock(
    upload: Any, monkeypatch: Any
) -> None:
    import hashlib

    from xuezhan.replay import verify_document
    from xuezhan.schema import canonical_bytes

    match = upload(simulated(49))
    other = simulated(50)
    other["players"] = Match.objects.get(pk=match.pk).document["players"]
    real = services._run_engine

    def corrected_meanwhile(document: Any) -> Any:
        monkeypatch.setattr(services, "_run_engine", real)
        Match.objects.filter(pk=match.pk).update(
            raw=json.dumps(other).encode(),
            content_sha256=hashlib.sha256(canonical_bytes(other)).hexdigest(),
        )
        return real(document)

    monkeypatch.setattr(services, "_run_engine", corrected_meanwhile)
    services.verify_match(match_id=match.pk)
    assert Verification.objects.get(match=match).report == verify_document(other).to_dict()
