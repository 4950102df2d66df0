"""Celery tasks: thin adapters over analysis.services and analysis.leases, taking ids."""

from __future__ import annotations

import logging
import time
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.utils import timezone

from analysis import broker, leases, services
from analysis.metrics import TASK_SECONDS, UPLOAD_TO_VERDICT_SECONDS, VERIFICATIONS
from analysis.models import Verification
from analysis.signals import in_chunks
from records.logs import request_id

log = logging.getLogger(__name__)


#: a task that survives its worker (acknowledged after it ran, sent back if its process
#: died) and retries, with backoff, while the database is away and after a deadlock or a
#: serialization failure (Django raises psycopg's DeadlockDetected and SerializationFailure
#: as its OperationalError; the transaction was rolled back whole, so running it again is
#: safe). Every task that writes takes it: verifications, reviews, the club's ratings and
#: nights (analysis.league.tasks).
DURABLE: dict[str, Any] = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "autoretry_for": (OperationalError, InterfaceError),
    "retry_backoff": 2,
    "retry_backoff_max": 60,  # below the broker's visibility timeout: no early redelivery
    "retry_jitter": True,
    "max_retries": 6,
}


@shared_task(bind=True, **DURABLE)
def verify_match(self: Any, match_id: int, request: str = "") -> str:
    """Claim the match and verify it, with the queued matches it takes into its batch
    (analysis.leases.claim_batch); a match no longer pending, or leased to another live
    task, is left alone. ``request``: the id of the request that queued it, for the logs."""
    token = request_id.set(request or request_id.get())
    started = time.perf_counter()
    try:
        outcome = _verify(match_id, owner=self.request.id or "eager")
    except (OperationalError, InterfaceError):
        VERIFICATIONS.labels("retried").inc()
        raise
    finally:
        TASK_SECONDS.observe(time.perf_counter() - started)
        request_id.reset(token)
    return outcome


def _verify(match_id: int, *, owner: str) -> str:
    batch, given_back = leases.claim_batch(
        match_id=match_id, owner=owner, size=settings.VERIFY_BATCH_SIZE
    )
    for other in given_back:  # their messages were spent: each is verified alone now
        broker.send(verify_match, other)
    if not batch:
        VERIFICATIONS.labels("skipped").inc()
        log.info("verification skipped", extra={"match": match_id})
        return "skipped"
    matches = services.verify_matches(match_ids=batch)
    now = timezone.now()
    for match in matches:
        VERIFICATIONS.labels(match.status).inc()
        UPLOAD_TO_VERDICT_SECONDS.observe((now - match.uploaded_at).total_seconds())
        log.info("verified", extra={"match": match.pk, "status": match.status,
                                    "batch": match_id})  # fmt: skip
    own = next((m for m in matches if m.pk == match_id), None)
    return str(own.status) if own is not None else "skipped"


#: the review (and the club's ratings, analysis.league.tasks) are derived from verdicts:
#: they wait in their own queue, so that no verification waits behind them
#: (settings.CELERY_TASK_ROUTES, docs/deploy.md)
REVIEW_QUEUE = "review"


@shared_task(**DURABLE)
def review_match(match_id: int) -> str:
    """Store the decision review of a match that has a verdict (services.store_review)."""
    return "stored" if services.store_review(match_id=match_id) else "skipped"


@shared_task(**DURABLE)
def review_matches(match_ids: list[int]) -> int:
    """Store the decision reviews of matches that have a verdict, in turn: one message for
    a verification's batch (a message costs the worker ~2 ms; a review ~150). Run again,
    it skips those stored. Returns how many it stored."""
    # those reviewed already skipped in one query (a bulk load copies reviews: analysis.copies)
    pending = set(
        Verification.objects.filter(match_id__in=match_ids, review__isnull=True).values_list(
            "match_id", flat=True
        )
    )
    return sum(services.store_review(match_id=pk) for pk in match_ids if pk in pending)


def queue_review(sender: Any, *, match_ids: list[int], **kwargs: Any) -> None:
    """The receiver of analysis.signals ``verdict_stored`` (sent after commit)."""
    for chunk in in_chunks(match_ids):
        review_matches.delay(chunk)


def queue_verification(sender: Any, *, match_id: int, **kwargs: Any) -> None:
    """The receiver of records' ``match_needs_verifying`` (sent after commit)."""
    verify_match.delay(match_id, request=request_id.get())


def sweep_and_requeue() -> int:
    """Re-queue stuck matches (analysis.leases.sweep, which commits), then send their tasks.

    The broker's verification queue is looked at first: empty, a match queued for more
    than VERIFY_LOST_AFTER_SECONDS has lost its message and is sent again at once; not
    empty (or unknown), its message may still be waiting, and the longer
    VERIFY_STUCK_AFTER_SECONDS applies. A message that cannot be sent (the broker is
    away) leaves its match queued for the next sweep."""
    depth = broker.queue_depth(broker.verification_queue())
    ids = leases.sweep(queue_empty=depth == 0)
    sent = sum(broker.send(verify_match, match_id) for match_id in ids)
    if ids:
        log.warning("re-queued stuck matches",
                    extra={"matches": ids, "sent": sent, "queue_depth": depth})
    return len(ids)


@shared_task(acks_late=True)
def sweep_stuck_matches() -> int:
    """Run periodically by celery beat (CELERY_BEAT_SCHEDULE); also `manage.py sweep_matches`."""
    return sweep_and_requeue()
