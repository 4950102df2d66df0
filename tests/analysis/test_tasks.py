from __future__ import annotations

from typing import Any

import pytest
from django.db import OperationalError

from analysis import services, tasks
from records.models import Match
from tests.records.documents import make_document

pytestmark = pytest.mark.django_db


def test_the_task_is_configured_to_survive_dead_workers() -> None:
    task = tasks.verify_match
    assert task.acks_late and task.reject_on_worker_lost
    assert OperationalError in task.autoretry_for and task.retry_backoff
    from config import celery_app

    assert celery_app.conf.worker_prefetch_multiplier == 1
    assert celery_app.conf.task_acks_late


def test_the_task_claims_and_verifies_once(upload: Any) -> None:
    match = upload(make_document(1))
    assert tasks.verify_match.delay(match.pk).get() == "verified"
    assert tasks.verify_match.delay(match.pk).get() == "skipped"
    assert Match.objects.get(pk=match.pk).attempts == 1


def test_the_task_retries_when_the_database_is_away(upload: Any, monkeypatch: Any) -> None:
    match = upload(make_document(2))
    real = services.verify_matches
    calls = []

    def flaky(**kwargs: Any) -> Any:
        calls.append(kwargs)
        if len(calls) == 1:
            raise OperationalError("server closed the connection unexpectedly")
        return real(**kwargs)

    monkeypatch.setattr(services, "verify_matches", flaky)
    assert tasks.verify_match.apply(args=[match.pk]).get() == "verified"
    assert len(calls) == 2


def test_the_periodic_sweeper_requeues_and_runs(upload: Any, settings: Any) -> None:
    from datetime import timedelta

    from django.utils import timezone

    match = upload(make_document(3))
    ran_out = timezone.now() - timedelta(seconds=1)
    Match.objects.filter(pk=match.pk).update(status="verifying", lease_until=ran_out)
    assert tasks.sweep_stuck_matches.delay().get() == 1
    assert Match.objects.get(pk=match.pk).status == "verified"


def test_an_upload_is_verified_through_the_signal_analysis_listens_to(
    club: Any, cast: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from records import services as records_services
    from tests.records.documents import dumps

    with django_capture_on_commit_callbacks(execute=True):
        upload = records_services.upload_match(
            club=club, raw=dumps(make_document(4)), uploaded_by=cast["mia"]
        )
    assert Match.objects.get(pk=upload.match.pk).status == "verified"


def test_a_task_run_again_verifies_alone_and_sends_its_batch_back_to_the_queue(
    upload: Any,
) -> None:
    from analysis import leases

    own, *_ = [upload(make_document(10 + k)) for k in range(3)]
    batch, _ = leases.claim_batch(match_id=own.pk, owner="task-1", size=8)
    assert len(batch) == 3  # the first run took them all, then died
    assert tasks._verify(own.pk, owner="task-1") == "verified"  # its message redelivered
    matches = Match.objects.filter(pk__in=batch)
    # the others were queued again with a message each (run eagerly here), each alone
    assert {(m.status, m.attempts) for m in matches} == {("verified", 2)}


def test_a_task_verifies_the_queued_matches_with_its_own_and_their_messages_skip(
    upload: Any, settings: Any
) -> None:
    settings.VERIFY_BATCH_SIZE = 2
    first, second, third = [upload(make_document(20 + k)) for k in range(3)]
    assert tasks.verify_match.delay(first.pk).get() == "verified"
    assert Match.objects.get(pk=second.pk).status == "verified"  # taken with it
    assert Match.objects.get(pk=third.pk).status == "queued"  # beyond the batch
    assert tasks.verify_match.delay(second.pk).get() == "skipped"
    assert tasks.verify_match.delay(third.pk).get() == "verified"
    assert set(Match.objects.values_list("attempts", flat=True)) == {1}
