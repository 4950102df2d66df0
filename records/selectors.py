"""Reads of the records, each scoped so that a user only ever sees their clubs."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, Prefetch, Q, QuerySet

from records.models import Club, Match, Membership, Player, Seat


def clubs_for_user(user: User | AnonymousUser) -> QuerySet[Club]:
    """The clubs ``user`` belongs to."""
    if not user.is_authenticated:
        return Club.objects.none()
    return Club.objects.filter(memberships__user=user).annotate(
        match_count=Count("matches", distinct=True)
    )


def membership_for(*, user: User | AnonymousUser, club_id: int) -> Membership | None:
    """The user's membership of the club, or None (for a non-member or a missing club)."""
    if not user.is_authenticated:
        return None
    return Membership.objects.select_related("club").filter(user=user, club_id=club_id).first()


def club_memberships(club: Club) -> QuerySet[Membership]:
    return Membership.objects.filter(club=club).select_related("user").order_by("pk")


def club_players(club: Club) -> QuerySet[Player]:
    return Player.objects.filter(club=club).select_related("user").order_by("handle")


def club_matches(club: Club) -> QuerySet[Match]:
    """A club's matches, newest first, without the heavy document columns."""
    return (
        Match.objects.filter(club=club)
        .defer("raw", "document")
        .select_related("uploaded_by")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player")))
        .order_by("-uploaded_at", "-pk")
    )


def find_uploaded_match(
    *, club: Club, content_sha256: str, source_match_id: str | None
) -> Match | None:
    """The match of ``club`` with the same content, or else the same source match_id."""
    condition = Q(content_sha256=content_sha256)
    if source_match_id is not None:
        condition |= Q(source_match_id=source_match_id)
    matches = list(Match.objects.filter(club=club).filter(condition).defer("raw", "document"))
    matches.sort(key=lambda m: m.content_sha256 != content_sha256)  # the same content first
    return matches[0] if matches else None
