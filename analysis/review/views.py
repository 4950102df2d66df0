"""The match review API: ``GET …/matches/{m}/review/`` (docs/review.md)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.request import Request
from rest_framework.response import Response

from analysis.review import selectors, services
from analysis.review.serializers import MatchReviewSerializer, ReviewStatusSerializer
from records.models import Match
from records.permissions import ClubMixin
from xuezhan.errors import XuezhanError

#: what a missing review answers, by its status
WAITING = {
    selectors.PENDING: (status.HTTP_202_ACCEPTED, _("The match is not verified yet.")),
    selectors.REVIEWING: (status.HTTP_202_ACCEPTED, _("The review is being computed.")),
    selectors.UNAVAILABLE: (status.HTTP_422_UNPROCESSABLE_ENTITY,
                            _("A score sheet has no tiles to review.")),
}


class MatchReviewView(ClubMixin, generics.GenericAPIView[Match]):
    """A match's review report: each seat's summary over the match (``seats``) and per
    round (``rounds``), as the verification stored them, and every mistake, the largest
    进张 loss first (``worst``, computed from the document on demand, then cached).
    While the review is not there yet the answer is 202 with its ``status``: ask again."""

    queryset = Match.objects.none()  # for the schema; the view scopes it to the club
    serializer_class = MatchReviewSerializer

    def get_queryset(self) -> QuerySet[Match]:
        return Match.objects.filter(club=self.club)

    @extend_schema(
        responses={
            200: MatchReviewSerializer,
            202: ReviewStatusSerializer,
            404: OpenApiResponse(description="No such match (or not a member)"),
            422: ReviewStatusSerializer,
        }
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        match = selectors.club_match(self.club, int(self.kwargs["match_id"]))
        if match is None:
            raise Http404("No such match.")
        review = selectors.match_review(match)
        if review.status != selectors.READY or review.verification is None:
            if review.status == selectors.REVIEWING:
                services.ask_for_review(match_id=match.pk)
            code, detail = WAITING[review.status]
            return Response({"match": match.pk, "status": review.status, "detail": str(detail)},
                            status=code)
        try:
            worst = selectors.worst_decisions(match, review.verification)
        except XuezhanError as exc:
            return Response({"type": "review_failed", "detail": str(exc)},
                            status=status.HTTP_422_UNPROCESSABLE_ENTITY)
        # stored and cached JSON in the serializer's shape already: served as it is
        return Response({"match": match.pk, "status": review.status, "players": review.players,
                         "seats": review.seats, "rounds": review.rounds, "worst": worst})
