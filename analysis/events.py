"""What the verification tells apps: the receivers that turn ``verdict_stored`` into the
webhook events ``match.verified``, ``match.illegal`` and ``match.failed``
(records/webhooks; connected in AnalysisConfig.ready). The verification never calls them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.db.models import Count, Prefetch
from django.urls import reverse

from analysis.signals import in_chunks
from records.models import Match, Seat, WebhookEndpoint
from records.serializers import iso
from records.webhooks import tasks as webhooks

MATCH_EVENTS = {
    Match.Status.VERIFIED: "match.verified",
    Match.Status.ILLEGAL: "match.illegal",
    Match.Status.FAILED: "match.failed",
}


def wanting(club_ids: list[int], events: set[str]) -> set[int]:
    """The clubs (of ``club_ids``) with an enabled endpoint that wants one of ``events``: one
    query, so that a verification of a club without webhooks pays almost nothing."""
    rows = WebhookEndpoint.objects.filter(club_id__in=club_ids, enabled=True).values_list(
        "club_id", "events"
    )
    return {club for club, wanted in rows if events & set(wanted)}


def link(name: str, **kwargs: Any) -> str:
    return settings.PUBLIC_URL + reverse(name, kwargs=kwargs)


def match_data(match: Match) -> dict[str, Any]:
    """A match in an event: its id, status, totals (null unless verified or illegal),
    players by seat, violations counted, and links to it."""
    verification = getattr(match, "verification", None)
    ids = {"club_id": match.club_id, "match_id": match.pk}
    return {
        "match": match.pk,
        "club": match.club_id,
        "status": match.status,
        "source_match_id": match.source_match_id,
        "played_at": iso(match.played_at),
        "ruleset": match.ruleset_name,
        "players": [s.player.handle for s in match.seats.all()],
        "totals": verification.totals if verification is not None else None,
        "violations": getattr(match, "violation_count", 0),
        "error": match.last_error or None,
        "links": {
            "api": link("api:match-detail", **ids),
            "page": link("pages:match-detail", **ids),
            "document": link("api:match-document", **ids),
        },
    }


def announce_verdicts(
    sender: Any, *, match_ids: list[int], club_ids: list[int], failed_ids: Sequence[int] = (),
    **kwargs: Any,
) -> None:  # fmt: skip
    """The receiver of ``verdict_stored``: one event per match, to the endpoints that want it."""
    clubs = wanting(club_ids, set(MATCH_EVENTS.values()))
    if not clubs:
        return
    for chunk in in_chunks([*match_ids, *failed_ids]):
        matches = (
            Match.objects.filter(pk__in=chunk, club_id__in=clubs)
            .defer("raw")
            .select_related("verification")
            .annotate(violation_count=Count("verification__violations"))
            .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player")))
            .order_by("pk")
        )
        for match in matches:
            event = MATCH_EVENTS.get(Match.Status(match.status))
            if event is not None:
                webhooks.announce(club_id=match.club_id, event=event, data=match_data(match))
