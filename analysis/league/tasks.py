"""The club books' tasks: the ratings follow verdicts, corrections and deletions, and open
nights take in the matches that arrive.

The league listens; the verification does not know it exists: the verdicts reach it through
``analysis.signals.verdict_stored`` and a deleted match through ``post_delete``, both
connected in ``AnalysisConfig.ready``. The task keeps the name it had when it lived in
``analysis.tasks``, so that messages queued before an upgrade still find it.
"""

from __future__ import annotations

import contextlib
from typing import Any

from celery import shared_task
from django.core.cache import cache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from analysis.league import services
from analysis.league.nights import services as nights
from analysis.signals import in_chunks
from analysis.tasks import DURABLE

#: how long a queued recomputation stands for the verdicts after it (its key's lifetime):
#: a lost message delays a club's ratings at most this long, until its next verdict
RATINGS_QUEUED_SECONDS = 120


def _ratings_key(club_id: int) -> str:
    return f"analysis:ratings-queued:{club_id}"


# DURABLE: a deadlock or serialization failure (or the database away) is retried with
# backoff; a ratings recomputation was once lost to a deadlock with no retry, and the
# club's ratings stayed stale until its next verdict
@shared_task(name="analysis.tasks.recompute_ratings", **DURABLE)
def recompute_ratings(club_id: int) -> int:
    """Rate the club's matches again from scratch (after a match is added or corrected)."""
    # verdicts from now on queue another run; the cache away, they queue one anyway
    with contextlib.suppress(RedisConnectionError, RedisTimeoutError):
        cache.delete(_ratings_key(club_id))
    return services.recompute_ratings(club_id=club_id)


def rate_club_soon(club_id: int) -> None:
    """Queue one recomputation of the club's ratings, unless one is queued and not started.

    Every verdict asks for the club's ratings again, and each recomputation rates the whole
    club: one per verdict would cost the square of the club's matches. The task clears the
    key before it reads, so a verdict committed after that queues another.
    """
    key = _ratings_key(club_id)
    try:
        fresh = cache.add(key, 1, RATINGS_QUEUED_SECONDS)
    except (RedisConnectionError, RedisTimeoutError):
        fresh = True  # the cache is away: queue it anyway (a duplicate costs one more run)
    if not fresh:
        return
    try:
        recompute_ratings.delay(club_id)
    except Exception:
        cache.delete(key)
        raise


def rate_after_verdicts(sender: Any, *, club_ids: list[int], **kwargs: Any) -> None:
    """The receiver of ``verdict_stored``: a new verdict can change every later rating."""
    for club_id in sorted(set(club_ids)):
        rate_club_soon(club_id)


@shared_task(name="analysis.league.tasks.attach_to_nights", **DURABLE)
def attach_to_nights(match_ids: list[int]) -> int:
    """Put matches with a new verdict into their club's open night (safe to run twice)."""
    return nights.attach_matches(match_ids)


def attach_after_verdicts(sender: Any, *, match_ids: list[int], **kwargs: Any) -> None:
    """The receiver of ``verdict_stored``: an open night shows its matches as they arrive."""
    for chunk in in_chunks(match_ids):
        attach_to_nights.delay(chunk)


def rate_again_after_delete(sender: Any, *, instance: Any, **kwargs: Any) -> None:
    """The receiver of Match's post_delete: rate the club again once the delete commits."""
    recompute_ratings.delay_on_commit(instance.club_id)
