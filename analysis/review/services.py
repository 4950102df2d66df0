"""Writes of the match review: asking for a review the verification has not stored yet."""

from __future__ import annotations

from django.core.cache import cache

from analysis.tasks import review_match

#: a reader waiting for a review asks the worker at most once in this many seconds (the
#: page refreshes itself every few seconds; the task is safe to run twice anyway)
ASK_EVERY_SECONDS = 300


def ask_for_review(*, match_id: int) -> bool:
    """Queue the review of a verified match whose review is missing (e.g. its task was
    lost with a worker); returns whether a task was queued."""
    if not cache.add(f"review:asked:{match_id}", 1, ASK_EVERY_SECONDS):
        return False
    review_match.delay(match_id)
    return True
