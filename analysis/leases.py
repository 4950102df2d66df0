"""Who verifies a match, and until when: a lease per match, so that a match left by a dead
worker is taken up again within minutes and no match is ever verified twice at once.

Timings (settings; docs/deploy.md): a verification is killed at CELERY_TASK_TIME_LIMIT,
which is below VERIFY_LEASE_SECONDS, so a lease outlives its live holder; the periodic
sweep (every VERIFY_SWEEP_INTERVAL_SECONDS) re-queues matches whose lease ran out.
The verification itself also holds the match's row lock (analysis.services.verify_match).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from records.models import Match


def claim(*, match_id: int, owner: str) -> bool:
    """Take the match for ``owner`` (a task id) if it is queued, or verifying under a lease
    that ran out or is ``owner``'s own (its message redelivered); False otherwise.

    One conditional UPDATE: two claimers of one row take turns on its lock, and the second
    sees the first's lease.
    """
    now = timezone.now()
    claimable = Q(status=Match.Status.QUEUED) | Q(status=Match.Status.VERIFYING) & (
        Q(lease_until__isnull=True) | Q(lease_until__lt=now) | Q(lease_owner=owner)
    )
    claimed = (
        Match.objects.filter(claimable, pk=match_id).update(
            status=Match.Status.VERIFYING,
            attempts=F("attempts") + 1,
            status_changed_at=now,
            lease_until=now + timedelta(seconds=settings.VERIFY_LEASE_SECONDS),
            lease_owner=owner[:64],
        )
    )
    return claimed == 1


def sweep(*, now: datetime | None = None) -> list[int]:
    """Re-queue matches whose lease ran out, and queued ones whose message seems lost.

    Returns the ids to enqueue again (the caller enqueues them after commit); matches
    claimed VERIFY_MAX_ATTEMPTS times are given up on (``failed``). Rows being verified
    right now are locked and skipped.
    """
    now = now or timezone.now()
    lost = now - timedelta(seconds=settings.VERIFY_STUCK_AFTER_SECONDS)
    stuck = Q(status=Match.Status.QUEUED, status_changed_at__lt=lost) | Q(
        status=Match.Status.VERIFYING
    ) & (Q(lease_until__lt=now) | Q(lease_until__isnull=True, status_changed_at__lt=lost))
    limit = settings.VERIFY_MAX_ATTEMPTS
    with transaction.atomic():
        rows = list(
            Match.objects.filter(stuck)
            .select_for_update(skip_locked=True)
            .order_by("pk")
            .values_list("pk", "attempts")
        )
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
    return again
