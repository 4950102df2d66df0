"""The export API: ``matches/export/`` (ndjson, streamed, the match list's filters and
``season``) and ``matches/{m}/document/`` (the stored bytes)."""


from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import orjson
from django.db.models import Prefetch, QuerySet
from django.http import Http404, HttpResponse, StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics
from rest_framework.request import Request

from analysis.league.params import season_param
from analysis.league.selectors import season_match_ids
from analysis.models import Violation
from records import selectors
from records.models import Match, Round, Seat
from records.permissions import ClubMixin
from records.serializers import iso
from records.tables import MEDIA_TYPES, TableNegotiation, asked_format, attachment
from records.views import MatchFilter

#: how many matches are read from the database at a time while the export streams
CHUNK = 100


class MatchExport(ClubMixin, generics.GenericAPIView[Match]):
    """Every match of the club the filters select, oldest first, as JSON lines: the
    original document (its line breaks, whitespace between tokens, turned into spaces so
    that it fits on one line; byte for byte: ``document/``, SHA-256 ``raw_sha256``), the verdict,
    totals and each round's settlement. Re-imported through ``matches/bulk/`` (one
    ``document`` a line), it reproduces the club's statistics and standings."""

    queryset = Match.objects.none()
    filterset_class = MatchFilter
    content_negotiation_class = TableNegotiation
    pagination_class = None

    def get_queryset(self) -> QuerySet[Match]:
        return Match.objects.filter(club=self.club)

    @extend_schema(
        parameters=[
            OpenApiParameter("format", OpenApiTypes.STR, enum=["ndjson"],
                             description="ndjson (the default and only format)."),
            OpenApiParameter("season", OpenApiTypes.INT,
                             description="Only the matches this season counts."),
        ],
        responses={
            (200, "application/x-ndjson"): OpenApiResponse(
                OpenApiTypes.STR, "One match per line (docs/apps.md, Export)."
            ),
        },
    )  # fmt: skip
    def get(self, request: Request, *args: Any, **kwargs: Any) -> StreamingHttpResponse:
        asked_format(request, ("ndjson",))
        matches = self.filter_queryset(self.get_queryset())
        name = f"club-{self.club.pk}-matches"
        season = season_param(self.club, request.query_params)
        if season is not None:
            matches = matches.filter(pk__in=season_match_ids(season))
            name = f"club-{self.club.pk}-season-{season.pk}-matches"
        response = StreamingHttpResponse(
            export_lines(matches.distinct()), content_type=MEDIA_TYPES["ndjson"]
        )
        attachment(response, name, "ndjson")
        return response


def export_lines(matches: QuerySet[Match]) -> Iterator[bytes]:
    rows = (
        matches.select_related("verification", "uploaded_by")
        # the raw bytes are the document; the review would only be decoded for nothing
        .defer("verification__review")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player")),
            Prefetch("rounds", queryset=Round.objects.select_related("settlement")
                     .order_by("index")),
            Prefetch("verification__violations",
                     queryset=Violation.objects.order_by("ordinal")),
        )
        .order_by("played_at", "uploaded_at", "pk")
    )
    for match in rows.iterator(chunk_size=CHUNK):
        yield export_line(match)


def export_line(match: Match) -> bytes:
    verification = getattr(match, "verification", None)
    meta = {
        "id": match.pk,
        "source_match_id": match.source_match_id,
        "status": match.status,
        "ruleset_name": match.ruleset_name,
        "played_at": iso(match.played_at),
        "uploaded_at": iso(match.uploaded_at),
        "uploaded_by": match.uploaded_by.username if match.uploaded_by else None,
        "players": [s.player.handle for s in match.seats.all()],
        "raw_sha256": match.raw_sha256,
        "content_sha256": match.content_sha256,
        "verdict": None if verification is None else {
            "legal": verification.legal,
            "engine_version": verification.engine_version,
            "verified_at": iso(verification.verified_at),
            "violations": [
                {"round": v.round_index, "event": v.event_index, "seat": v.seat,
                 "code": v.code, "message": v.message}
                for v in verification.violations.all()
            ],
        },
        "totals": None if verification is None else verification.totals,
        "settlement": [
            {"round": r.index, "deltas": s.deltas, "incomplete": s.incomplete,
             "next_dealer": s.next_dealer}
            for r in match.rounds.all() if (s := getattr(r, "settlement", None)) is not None
        ],
    }  # fmt: skip
    head = orjson.dumps(meta)
    # the document's own text, spliced in: JSON strings hold no raw line break, so the
    # breaks are whitespace between tokens, and a space does as well
    document = bytes(match.raw).replace(b"\r", b" ").replace(b"\n", b" ")
    return head[:-1] + b',"document":' + document + b"}\n"


class MatchDocument(ClubMixin, generics.GenericAPIView[Match]):
    """The match's document exactly as uploaded (or as last corrected), byte for byte."""

    queryset = Match.objects.none()
    pagination_class = None

    @extend_schema(
        responses={
            (200, "application/json"): OpenApiResponse(
                OpenApiTypes.OBJECT, "The stored bytes (SHA-256: the match's raw_sha256)."
            ),
        }
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponse:
        row = (
            selectors.club_matches(self.club)
            .filter(pk=self.kwargs["match_id"])
            .values_list("raw")
            .first()
        )
        if row is None:
            raise Http404("No such match.")
        response = HttpResponse(bytes(row[0]), content_type="application/json")
        attachment(response, f"match-{self.kwargs['match_id']}", "json")
        return response
