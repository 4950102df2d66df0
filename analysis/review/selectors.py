"""Reads of the match review: the summaries the verification stored, the worst decisions
(computed from the document on demand, then cached), a player's reviewed matches."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db.models import Max, Min, QuerySet, Sum

import xuezhan
from analysis.models import RoundSettlement, SeatResult, Verification
from analysis.review import worst
from analysis.review.worst import worst_entry, worst_first
from records.models import Club, Match, Player, Seat, document_of
from xuezhan.review import MISTAKES, review_document

#: how long a match's worst decisions stay cached: the key names the verification, the
#: document's hash and the engine version, so a new verdict or engine computes afresh
WORST_CACHE_SECONDS = 7 * 24 * 3600

#: the review's states, as the API's ``status`` names them
READY, PENDING, REVIEWING, UNAVAILABLE = "ready", "pending", "reviewing", "unavailable"


@dataclass(frozen=True)
class MatchReview:
    """A match's review as far as it exists: ``status`` and, once ``ready``, the stored
    ``seats`` and ``rounds`` summaries (``verification`` names where they came from)."""

    status: str
    players: list[str]
    verification: Verification | None = None

    @property
    def seats(self) -> list[dict[str, Any]]:
        seats: list[dict[str, Any]] = self._stored("seats")
        return seats

    @property
    def rounds(self) -> list[list[dict[str, Any]]]:
        rounds: list[list[dict[str, Any]]] = self._stored("rounds")
        return rounds

    def _stored(self, key: str) -> Any:
        review = self.verification.review if self.verification else None
        return review[key] if review else []


def club_match(club: Club, match_id: int) -> Match | None:
    """The club's match with its verification, the document left in the database."""
    return (Match.objects.filter(club=club, pk=match_id).defer("raw")
            .select_related("verification").first())


def is_sheet(match: Match) -> bool:
    """A score sheet has no tiles: nothing to review."""
    document = document_of(Match.objects.values_list("raw", flat=True).get(pk=match.pk))
    return isinstance(document, dict) and document.get("format") == "xuezhan-sheet"


def players(match: Match) -> list[str]:
    return list(Seat.objects.filter(match=match).order_by("seat")
                .values_list("player__handle", flat=True))


def match_review(match: Match) -> MatchReview:
    """What the match's review is now: ``pending`` (not verified yet), ``reviewing`` (a
    verdict without its stored review), ``unavailable`` (a score sheet) or ``ready``."""
    names = players(match)
    verification: Verification | None = getattr(match, "verification", None)
    if match.status in Match.PENDING or verification is None:
        return MatchReview(PENDING, names)
    if verification.review is None:
        return MatchReview(UNAVAILABLE if is_sheet(match) else REVIEWING, names, verification)
    return MatchReview(READY, names, verification)


def page_worst_decisions(
    match: Match, verification: Verification, shown: int
) -> tuple[list[dict[str, Any]], int]:
    """The match page's worst decisions (``analysis.review.worst.page_worst``: the
    ``shown`` worst and each seat's worst, worst first) and how many mistakes there are:
    as stored with the review, or, for a review stored before those were, computed."""
    review = verification.review or {}
    if "worst" in review and shown <= worst.ON_MATCH_PAGE:
        return list(review["worst"]), int(review["mistakes"])
    found = worst_decisions(match, verification)
    return found, len(found)


def worst_decisions(match: Match, verification: Verification) -> list[dict[str, Any]]:
    """Every decision judged a mistake (``worse`` or ``void_held``), the largest loss
    first, then in the order they were played. The verification stores only summaries, so
    the decisions come from the engine's review of the stored document, cached.

    :raises xuezhan.errors.XuezhanError: for a document the engine cannot review.
    """
    key = (f"review:worst:{verification.pk}:{match.content_sha256}:"
           f"{xuezhan.__version__}")
    found: list[dict[str, Any]] | None = cache.get(key)
    if found is None:
        document = document_of(Match.objects.values_list("raw", flat=True).get(pk=match.pk))
        mistakes = [d for r in review_document(document) for d in r.decisions
                    if d.verdict in MISTAKES]
        mistakes.sort(key=worst_first)
        found = [worst_entry(d) for d in mistakes]
        cache.set(key, found, WORST_CACHE_SECONDS)
    return found


def score_lines(match: Match) -> list[list[int]]:
    """Each seat's running total after each round (a line per seat, from 0), from the
    stored settlements; a round without one adds nothing."""
    running = [0, 0, 0, 0]
    lines: list[list[int]] = [[0] for _ in range(4)]
    deltas = (RoundSettlement.objects.filter(round__match=match).order_by("round__index")
              .values_list("deltas", flat=True))
    for delta in deltas:
        for seat in range(4):
            running[seat] += int(delta[seat]) if seat < len(delta) else 0
            lines[seat].append(running[seat])
    return lines


def player_matches(club: Club, player: Player) -> QuerySet[Any]:
    """The player's reviewed matches in the club, the most 进张 lost first: one row per
    match with the seat, its reviewed discards, those judged best or equal, and the loss
    (summed from the per-round review columns of the seat facts)."""
    return (
        SeatResult.objects.filter(club=club, player=player,
                                  match__verification__review__isnull=False)
        .values("match")
        .annotate(seat=Min("seat"), lost=Sum("ukeire_lost"), discards=Sum("reviewed_discards"),
                  best=Sum("best_discards"), played_at=Max("played_at"))
        .order_by("-lost", "-match")
    )


def stored_seat_summaries(match_ids: list[int]) -> dict[int, list[dict[str, Any]]]:
    """The stored per-seat match summaries of these matches, by match id."""
    rows = Verification.objects.filter(match_id__in=match_ids, review__isnull=False)
    return {m: review["seats"] for m, review in rows.values_list("match_id", "review")
            if review is not None}
