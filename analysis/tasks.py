"""Celery tasks: thin adapters over analysis.services, taking ids."""

from __future__ import annotations

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
    match = services.verify_match(match_id=match_id)
    recompute_ratings.delay(match.club_id)  # a new verdict can change every later rating
    return str(match.status)


@shared_task(acks_late=True)
def sweep_stuck_matches() -> int:
    """Re-queue matches stuck in queued/verifying (run periodically by celery beat)."""
    ids = services.sweep_stuck_matches()
    for match_id in ids:
        verify_match.delay(match_id)
    return len(ids)


@shared_task(acks_late=True)
def recompute_ratings(club_id: int) -> int:
    """Rate the club's matches again from scratch (after a match is added or corrected)."""
    from analysis.league_services import recompute_ratings as recompute

    return recompute(club_id=club_id)
