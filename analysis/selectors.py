"""Reads of verification results."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.core.cache import cache
from django.db.models import Prefetch, QuerySet

import xuezhan
from analysis.models import SeatResult, Violation
from records.models import Club, Match, Round, Seat
from xuezhan.replay import replay_frames as engine_replay_frames
from xuezhan.review import review_round

if TYPE_CHECKING:
    from xuezhan.frames import Frame


def rounds_with_settlement(match: Match) -> QuerySet[Round]:
    return rounds_with_settlement_all().filter(match=match)


def club_matches_with_results(club: Club) -> QuerySet[Match]:
    """A club's matches with everything the detail view shows, in few queries."""
    return (
        Match.objects.filter(club=club)
        .defer("raw")
        .select_related("uploaded_by", "stored_ruleset", "verification__stored_ruleset")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player")),
            Prefetch("verification__violations", queryset=Violation.objects.order_by("ordinal")),
            Prefetch("rounds", queryset=rounds_with_settlement_all()),
        )
    )


def rounds_with_settlement_all() -> QuerySet[Round]:
    return (
        Round.objects.select_related("settlement")
        .prefetch_related(
            Prefetch("seat_results", queryset=SeatResult.objects.select_related("player")),
        )
        .order_by("index")
    )


def replay_frames(match: Match, round_index: int) -> list[Frame]:
    """The table after each event of one round, for a viewer.

    :raises xuezhan.errors.XuezhanError: for a round the engine cannot replay.
    """
    return engine_replay_frames(match.document, round_index)


#: how long a computed round review stays cached (the document never changes; the key
#: names the engine version, so an upgrade computes afresh)
REVIEW_CACHE_SECONDS = 7 * 24 * 3600


def round_review(match: Match, round_index: int) -> dict[str, Any]:
    """The full decision review of one round (every seat), as ``xuezhan review`` prints a
    round: computed on the first request, then served from the cache.

    :raises xuezhan.errors.XuezhanError: for a document the engine cannot review.
    """
    key = f"analysis:review:{match.content_sha256}:{xuezhan.__version__}:{round_index}"
    found: dict[str, Any] | None = cache.get(key)
    if found is None:
        found = review_round(match.document, round_index).to_json()
        cache.set(key, found, REVIEW_CACHE_SECONDS)
    return found
