"""Celery tasks: thin adapters over analysis.services and analysis.leases, taking ids."""

from __future__ import annotations

import logging
import time
from typing import Any

from celery import shared_task
from django.db import InterfaceError, OperationalError
from django.utils import timezone

from analysis import leases, services
from analysis.metrics import TASK_SECONDS, UPLOAD_TO_VERDICT_SECONDS, VERIFICATIONS
from xuezhan.config.logs import request_id

log = logging.getLogger(__name__)


@shared_task(
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=2,
    retry_backoff_max=60,  # below the broker's visibility timeout: no early redelivery
    retry_jitter=True,
    max_retries=6,
)
def verify_match(self: Any, match_id: int, request: str = "") -> str:
    """Claim the match and verify it; a match no longer pending, or leased to another live
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
    if not leases.claim(match_id=match_id, owner=owner):
        VERIFICATIONS.labels("skipped").inc()
        log.info("verification skipped", extra={"match": match_id})
        return "skipped"
    match = services.verify_match(match_id=match_id)
    VERIFICATIONS.labels(match.status).inc()
    UPLOAD_TO_VERDICT_SECONDS.observe((timezone.now() - match.uploaded_at).total_seconds())
    log.info("verified", extra={"match": match_id, "status": match.status})
    recompute_ratings.delay(match.club_id)  # a new verdict can change every later rating
    return str(match.status)


def queue_verification(sender: Any, *, match_id: int, **kwargs: Any) -> None:
    """The receiver of records' ``match_needs_verifying`` (sent after commit)."""
    verify_match.delay(match_id, request=request_id.get())


def sweep_and_requeue() -> int:
    """Re-queue stuck matches (analysis.leases.sweep, which commits), then send their tasks."""
    ids = leases.sweep()
    for match_id in ids:
        verify_match.delay(match_id)
    if ids:
        log.warning("re-queued stuck matches", extra={"matches": ids})
    return len(ids)


@shared_task(acks_late=True)
def sweep_stuck_matches() -> int:
    """Run periodically by celery beat (CELERY_BEAT_SCHEDULE); also `manage.py sweep_matches`."""
    return sweep_and_requeue()


def rate_again_after_delete(sender: Any, *, instance: Any, **kwargs: Any) -> None:
    """The receiver of Match's post_delete: rate the club again once the delete commits."""
    recompute_ratings.delay_on_commit(instance.club_id)


@shared_task(acks_late=True)
def recompute_ratings(club_id: int) -> int:
    """Rate the club's matches again from scratch (after a match is added or corrected)."""
    from analysis.league_services import recompute_ratings as recompute

    return recompute(club_id=club_id)
