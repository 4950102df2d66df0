"""Leases: one verifier per match at a time, and a dead worker's match taken up again."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from analysis import leases, services
from records.models import Match
from tests.records.documents import make_document

pytestmark = pytest.mark.django_db


def test_a_leased_match_cannot_be_claimed_by_another_task(upload: Any) -> None:
    match = upload(make_document(6))
    assert leases.claim(match_id=match.pk, owner="task-a")
    assert not leases.claim(match_id=match.pk, owner="task-b")  # a duplicate message
    assert leases.claim(match_id=match.pk, owner="task-a")  # its own message, redelivered
    services.verify_match(match_id=match.pk)
    assert not leases.claim(match_id=match.pk, owner="task-a")  # no longer pending
    assert Match.objects.get(pk=match.pk).attempts == 2


def test_a_lease_that_ran_out_may_be_claimed_again(upload: Any, settings: Any) -> None:
    match = upload(make_document(7))
    assert leases.claim(match_id=match.pk, owner="dead-task")
    lease = Match.objects.get(pk=match.pk).lease_until
    assert lease is not None
    assert abs(lease - timezone.now() - timedelta(seconds=settings.VERIFY_LEASE_SECONDS)) < (
        timedelta(seconds=5)
    )
    Match.objects.filter(pk=match.pk).update(lease_until=timezone.now() - timedelta(seconds=1))
    assert leases.claim(match_id=match.pk, owner="new-task")
    assert Match.objects.get(pk=match.pk).lease_owner == "new-task"


def test_the_lease_outlives_the_task_time_limit(settings: Any) -> None:
    from xuezhan.config import celery_app

    assert celery_app.conf.task_time_limit < settings.VERIFY_LEASE_SECONDS
    assert celery_app.conf.task_soft_time_limit < celery_app.conf.task_time_limit
    visibility = celery_app.conf.broker_transport_options["visibility_timeout"]
    assert visibility > celery_app.conf.task_time_limit
    # a dead worker's match is taken up within two minutes
    assert settings.VERIFY_LEASE_SECONDS + settings.VERIFY_SWEEP_INTERVAL_SECONDS < 120
    schedule = celery_app.conf.beat_schedule["sweep-stuck-matches"]
    assert schedule["schedule"] == settings.VERIFY_SWEEP_INTERVAL_SECONDS


def test_the_sweep_requeues_expired_leases_and_lost_messages_and_gives_up_eventually(
    upload: Any, settings: Any
) -> None:
    settings.VERIFY_STUCK_AFTER_SECONDS = 600
    settings.VERIFY_MAX_ATTEMPTS = 3
    now = timezone.now()
    long_ago = now - timedelta(hours=1)
    fresh = upload(make_document(7))
    lost = upload(make_document(8))
    expired = upload(make_document(9))
    leased = upload(make_document(10))
    hopeless = upload(make_document(11))
    done = upload(make_document(12))
    Match.objects.filter(pk=lost.pk).update(status_changed_at=long_ago)
    Match.objects.filter(pk=expired.pk).update(
        status="verifying", attempts=1, lease_until=now - timedelta(seconds=1)
    )
    Match.objects.filter(pk=leased.pk).update(
        status="verifying", attempts=1, status_changed_at=long_ago,
        lease_until=now + timedelta(seconds=30),
    )  # fmt: skip
    Match.objects.filter(pk=hopeless.pk).update(
        status="verifying", attempts=3, lease_until=now - timedelta(seconds=1)
    )
    Match.objects.filter(pk=done.pk).update(status="verified", status_changed_at=long_ago)

    assert leases.sweep() == [lost.pk, expired.pk]
    status = dict(Match.objects.values_list("pk", "status"))
    assert status[fresh.pk] == "queued" and status[expired.pk] == "queued"
    assert status[leased.pk] == "verifying"  # its worker is alive: its lease runs
    assert status[hopeless.pk] == "failed" and status[done.pk] == "verified"
    assert Match.objects.get(pk=hopeless.pk).last_error == "gave up after 3 attempts"
    assert leases.sweep() == []  # their clocks restarted
