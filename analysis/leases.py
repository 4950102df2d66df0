"""Who verifies a match, and until when: a lease per match, so that a match left by a dead
worker is taken up again within minutes and no match is ever verified twice at once.

Timings (settings; docs/deploy.md): a verification is killed at CELERY_TASK_TIME_LIMIT,
which is below VERIFY_LEASE_SECONDS, so a lease outlives its live holder; the periodic
sweep (every VERIFY_SWEEP_INTERVAL_SECONDS) re-queues matches whose lease ran out.
The verification itself also holds the match's row lock (analysis.services.verify_matches).
A task may take several queued matches at once (:func:`claim_batch`): they share its lease
owner, and so its fate.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from analysis.signals import publish_verdicts_stored
from records.models import Match


def claim(*, match_id: int, owner: str) -> bool:
    """Take the match for ``owner`` (a task id) if it is queued, or verifying under a lease
    that ran out or is ``owner``'s own (its message redelivered); False otherwise.

    One conditional UPDATE: two claimers of one row take turns on its lock, and the second
    sees the first's lease.
    """
    return _claim(match_id, owner) is not None


def _claim(match_id: int, owner: str) -> int | None:
    """:func:`claim`, returning the match's claims so far with this one (None: not taken).

    Written out rather than through the ORM: under load most verification messages find
    their match taken by another's batch, and compiling the filter cost the worker about
    twice what the statement itself did (~0.8 of a skipped message's ~1.4 ms)."""
    now = timezone.now()
    adapt = connection.ops.adapt_datetimefield_value
    queued, verifying = Match.Status.QUEUED.value, Match.Status.VERIFYING.value
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {_table()} SET status = '{verifying}', attempts = attempts + 1,"
            f" status_changed_at = %s, lease_until = %s, lease_owner = %s"
            f" WHERE id = %s AND (status = '{queued}' OR status = '{verifying}'"
            f" AND (lease_until IS NULL OR lease_until < %s OR lease_owner = %s))"
            f" RETURNING attempts",
            [adapt(now), adapt(now + timedelta(seconds=settings.VERIFY_LEASE_SECONDS)),
             owner[:64], match_id, adapt(now), owner[:64]],
        )
        row = cursor.fetchone()
    return None if row is None else int(row[0])


def claim_batch(*, match_id: int, owner: str, size: int) -> tuple[list[int], list[int]]:
    """Claim the match for ``owner`` (:func:`claim`), then up to ``size`` - 1 more matches
    queued and never claimed, oldest first, skipping rows locked by others: return the
    batch to verify, the match first ([] if it could not be claimed), and the matches
    given back, which the caller enqueues again.

    Only a first attempt takes others. A task run again (retried, or redelivered after its
    worker died) verifies its match alone and gives back the others it had taken (queued
    again, their attempt counted, so that none is taken into a batch again): a match that
    kills its worker takes the others down with it once, not until they are given up on.
    """
    attempts = _claim(match_id, owner)
    if attempts is None:
        return [], []
    if size <= 1:
        return [match_id], []
    if attempts != 1:
        return [match_id], _give_back(owner=owner, keep=match_id)
    now = timezone.now()
    # the ids first: as a subquery of the UPDATE, PostgreSQL may scan it again for each
    # row and, the first rows now taken, lock more than ``size`` - 1
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(_queued_never_claimed_sql(), [match_id, size - 1])
        taken = [pk for (pk,) in cursor.fetchall()]
        Match.objects.filter(pk__in=taken).update(
            status=Match.Status.VERIFYING,
            attempts=F("attempts") + 1,
            status_changed_at=now,
            lease_until=now + timedelta(seconds=settings.VERIFY_LEASE_SECONDS),
            lease_owner=owner[:64],
        )
    return [match_id, *taken], []


# The statuses in these statements are literals, not parameters: psycopg prepares a
# statement run five times, and PostgreSQL may then plan it once for any parameters, not
# knowing that few matches are pending; such a generic plan walked the primary key from
# the first match ever uploaded (20–35 ms on 200,000 matches, O(the history)). With the
# literals they read the indexes of the pending matches (records.models), in 0.05–0.5 ms.


def _queued_never_claimed_sql() -> str:
    """The oldest queued matches never claimed but one (parameters: its id, how many),
    locked, skipping rows locked by others: the ``match_queued`` partial index, in order."""
    return (f"SELECT id FROM {_table()} WHERE status = '{Match.Status.QUEUED.value}'"
            f" AND attempts = 0 AND id <> %s ORDER BY id LIMIT %s{_skip_locked()}")


def _stuck_sql() -> str:
    """The ids and attempts of matches queued since before a time, or verifying past
    their lease or, without one, since before that time (parameters: that time, now, that
    time), locked, skipping rows locked by others."""
    queued, verifying = Match.Status.QUEUED.value, Match.Status.VERIFYING.value
    return (f"SELECT id, attempts FROM {_table()} WHERE status IN ('{queued}', '{verifying}')"
            f" AND (status = '{queued}' AND status_changed_at < %s OR status = '{verifying}'"
            f" AND (lease_until < %s OR lease_until IS NULL AND status_changed_at < %s))"
            f" ORDER BY id{_skip_locked()}")


def _table() -> str:
    return str(connection.ops.quote_name(Match._meta.db_table))


def _skip_locked() -> str:
    skip_locked = connection.features.has_select_for_update_skip_locked  # SQLite: no need
    return " FOR UPDATE SKIP LOCKED" if skip_locked else ""


def _give_back(*, owner: str, keep: int) -> list[int]:
    """Queue again the matches ``owner`` holds besides ``keep``; return their ids."""
    held = (
        Match.objects.filter(status=Match.Status.VERIFYING, lease_owner=owner[:64])
        .exclude(pk=keep)
        .order_by("pk")
        .select_for_update()
    )
    with transaction.atomic():
        ids = list(held.values_list("pk", flat=True))
        Match.objects.filter(pk__in=ids).update(
            status=Match.Status.QUEUED,
            status_changed_at=timezone.now(),
            lease_until=None,
            lease_owner="",
        )
    return ids


def sweep(*, now: datetime | None = None, queue_empty: bool = False) -> list[int]:
    """Re-queue matches whose lease ran out, and queued ones whose message seems lost:
    queued for VERIFY_STUCK_AFTER_SECONDS, or only VERIFY_LOST_AFTER_SECONDS when
    ``queue_empty`` (the broker's verification queue holds no message, so theirs is gone:
    Redis restarted empty, or was away when they were stored).

    Returns the ids to enqueue again (the caller enqueues them after commit); matches
    claimed VERIFY_MAX_ATTEMPTS times are given up on (``failed``). Rows being verified
    right now are locked and skipped.
    """
    now = now or timezone.now()
    stuck = settings.VERIFY_STUCK_AFTER_SECONDS
    wait = min(settings.VERIFY_LOST_AFTER_SECONDS, stuck) if queue_empty else stuck
    lost = now - timedelta(seconds=wait)
    limit = settings.VERIFY_MAX_ATTEMPTS
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(_stuck_sql(), [lost, now, lost])
        rows = cursor.fetchall()
        spent = [pk for pk, attempts in rows if attempts >= limit]
        again = [pk for pk, attempts in rows if attempts < limit]
        Match.objects.filter(pk__in=spent).update(
            status=Match.Status.FAILED,
            last_error=f"gave up after {limit} attempts",
            status_changed_at=now,
            lease_until=None,
        )
        Match.objects.filter(pk__in=again).update(
            status=Match.Status.QUEUED, status_changed_at=now, lease_until=None, lease_owner=""
        )
        if spent:  # given up on: announced as failed, as a verification's failure is
            clubs = Match.objects.filter(pk__in=spent).values_list("club_id", flat=True)
            publish_verdicts_stored([], club_ids=sorted(set(clubs)), failed_ids=spent)
    return again
