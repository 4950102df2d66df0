"""Celery tasks: thin adapters over analysis.services, taking ids."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.db import InterfaceError, OperationalError

from analysis import services


@shared_task(
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=2,
    retry_backoff_max=120,
    retry_jitter=True,
    max_retries=6,
)
def verify_match(match_id: int) -> str:
    """Claim the match and verify it; a match no longer pending is left alone."""
    if not services.claim_match(match_id=match_id):
        return "skipped"
    return str(services.verify_match(match_id=match_id).status)


def queue_verification(sender: Any, *, match_id: int, **kwargs: Any) -> None:
    """The receiver of records' ``match_needs_verifying`` (sent after commit)."""
    verify_match.delay(match_id)


@shared_task(acks_late=True)
def sweep_stuck_matches() -> int:
    """Re-queue matches stuck in queued/verifying (run periodically by celery beat)."""
    ids = services.sweep_stuck_matches()
    for match_id in ids:
        verify_match.delay(match_id)
    return len(ids)
