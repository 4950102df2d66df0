"""Leases: one verifier per match at a time, and a dead worker's match taken up again."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from analysis import leases, services
from records.models import Match
from tests.conftest import needs_postgres
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
    from config import celery_app

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


def test_a_task_takes_queued_matches_never_claimed_into_its_batch_oldest_first(
    upload: Any,
) -> None:
    own, *others = [upload(make_document(20 + k)) for k in range(6)]
    assert leases.claim(match_id=others[0].pk, owner="another-task")  # being verified
    Match.objects.filter(pk=others[1].pk).update(attempts=1)  # queued again by the sweep
    batch, given_back = leases.claim_batch(match_id=own.pk, owner="task", size=3)
    assert batch == [own.pk, others[2].pk, others[3].pk] and given_back == []
    for match in Match.objects.filter(pk__in=batch):
        assert (match.status, match.lease_owner, match.attempts) == ("verifying", "task", 1)
    assert Match.objects.get(pk=others[4].pk).status == "queued"
    assert leases.claim_batch(match_id=others[4].pk, owner="solo", size=1) == (
        [others[4].pk], []
    )


def test_a_task_run_again_verifies_alone_and_gives_its_batch_back(upload: Any) -> None:
    own, *others = [upload(make_document(30 + k)) for k in range(3)]
    batch, _ = leases.claim_batch(match_id=own.pk, owner="task", size=8)
    assert batch == [own.pk, *(m.pk for m in others)]
    # redelivered (its worker died) or retried: the same task id claims again
    assert leases.claim_batch(match_id=own.pk, owner="task", size=8) == (
        [own.pk], [m.pk for m in others]
    )
    for match in Match.objects.filter(pk__in=[m.pk for m in others]):
        assert (match.status, match.lease_owner, match.attempts) == ("queued", "", 1)
    # given back, each is verified alone: never taken into a batch again
    assert leases.claim_batch(match_id=others[0].pk, owner="next", size=8) == (
        [others[0].pk], []
    )
    assert Match.objects.get(pk=others[1].pk).status == "queued"
    assert leases.claim_batch(match_id=own.pk, owner="other", size=8) == ([], [])


@needs_postgres
@pytest.mark.parametrize(
    ("statement", "types", "arguments", "index"),
    [
        (leases._queued_never_claimed_sql, "bigint, int", "1, 7", "match_queued"),
        (leases._stuck_sql, "timestamptz, timestamptz, timestamptz", "now(), now(), now()",
         "match_status_changed"),
    ],
    ids=["claim more", "sweep"],
)  # fmt: skip
def test_the_pending_matches_are_found_by_index_even_in_a_prepared_generic_plan(
    upload: Any, statement: Any, types: str, arguments: str, index: str
) -> None:
    """psycopg prepares a statement after 5 runs and PostgreSQL may then plan it once for
    any parameters: the statuses must not be parameters, or the plan walks every match
    ever uploaded to find the few pending ones."""
    from django.db import connection

    upload(make_document(40))
    count = types.count(",") + 1
    sql = statement() % tuple(f"${i}" for i in range(1, count + 1))
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL plan_cache_mode = force_generic_plan")
        cursor.execute("SET LOCAL enable_seqscan = off")  # a test table is tiny
        cursor.execute(f"PREPARE pending({types}) AS {sql}")
        cursor.execute(f"EXPLAIN EXECUTE pending({arguments})")
        plan = "\n".join(row for (row,) in cursor.fetchall())
        cursor.execute("DEALLOCATE pending")
    assert index in plan and "records_match_pkey" not in plan, plan
