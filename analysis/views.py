"""The verification API: match detail with verification and settlement, rounds, replay
frames and a round's decision review."""
# ruff: noqa: RUF012  (Django and DRF declare options as mutable class attributes)

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.request import Request
from rest_framework.response import Response

from analysis import selectors, services
from analysis.serializers import (
    MatchDetailSerializer,
    ReplaySerializer,
    RoundReviewSerializer,
    RoundSerializer,
)
from analysis.tasks import verify_match
from records.models import Match, Membership, Round
from records.permissions import ClubMixin
from records.serializers import MatchSerializer
from xuezhan.errors import XuezhanError


class MatchDetail(ClubMixin, generics.RetrieveDestroyAPIView[Match]):
    """A match: status, verification report (violations with locators) and settlement."""

    queryset = Match.objects.none()  # for the schema; get_queryset() scopes it
    serializer_class = MatchDetailSerializer
    roles = {"DELETE": Membership.Role.ADMIN}
    lookup_url_kwarg = "match_id"

    def get_queryset(self) -> QuerySet[Match]:
        return selectors.club_matches_with_results(self.club)


class MatchReverify(ClubMixin, generics.GenericAPIView[Match]):
    """Queue the match for verification again (admins), e.g. after an engine upgrade."""

    queryset = Match.objects.none()  # for the schema; get_queryset() scopes it
    serializer_class = MatchSerializer
    roles = {"POST": Membership.Role.ADMIN}
    lookup_url_kwarg = "match_id"

    def get_queryset(self) -> QuerySet[Match]:
        return Match.objects.filter(club=self.club).defer("raw")

    @extend_schema(request=None, responses={202: MatchSerializer})
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        match = services.requeue_match(match=self.get_object())
        verify_match.delay_on_commit(match.pk)
        match.refresh_from_db()
        return Response(MatchSerializer(match).data, status=status.HTTP_202_ACCEPTED)


class RoundMixin(ClubMixin):
    def match(self, *, with_document: bool = False) -> Match:
        matches = Match.objects.filter(club=self.club, pk=self.kwargs["match_id"]).defer("raw")
        if not with_document:
            matches = matches.defer("raw")
        match = matches.first()
        if match is None:
            raise Http404("No such match.")
        return match

    def round_of(self, match: Match) -> int:
        """The round index of the URL, a 404 if the match has no such round."""
        index = int(self.kwargs["index"])
        if not match.rounds.filter(index=index).exists():
            raise Http404("No such round.")
        return index

    @staticmethod
    def engine_failed(kind: str, exc: XuezhanError) -> Response:
        """The engine cannot replay or review a stored document (an older engine took it)."""
        return Response({"type": kind, "detail": str(exc)},
                        status=status.HTTP_422_UNPROCESSABLE_ENTITY)


class RoundList(RoundMixin, generics.ListAPIView[Round]):
    """The rounds of a match, each with its payment lines and per-seat facts."""

    queryset = Round.objects.none()  # for the schema; get_queryset() scopes it
    serializer_class = RoundSerializer

    def get_queryset(self) -> QuerySet[Round]:
        return selectors.rounds_with_settlement(self.match())


class RoundDetail(RoundMixin, generics.RetrieveAPIView[Round]):
    """One round (by its index in the match, from 0) with its settlement."""

    queryset = Round.objects.none()  # for the schema; get_queryset() scopes it
    serializer_class = RoundSerializer
    lookup_field = "index"
    lookup_url_kwarg = "index"

    def get_queryset(self) -> QuerySet[Round]:
        return selectors.rounds_with_settlement(self.match())


class RoundReplay(RoundMixin, generics.GenericAPIView[Round]):
    """The table after each step of a round: the deal, then each event (the exchange and
    定缺 included), as the engine's frames (``xuezhan.frames.Frame``): the action, hands,
    melds, rivers, voids, wins in order, wall count, running scores and the violations."""

    queryset = Round.objects.none()  # for the schema; get_queryset() scopes it
    serializer_class = ReplaySerializer

    def get_queryset(self) -> QuerySet[Round]:
        return Round.objects.filter(match__club=self.club)

    @extend_schema(
        responses={
            200: ReplaySerializer,
            404: OpenApiResponse(description="No such round"),
            422: OpenApiResponse(description="The engine cannot replay this round"),
        }
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        match = self.match(with_document=True)
        index = self.round_of(match)
        try:
            frames = selectors.replay_frames(match, index)
        except XuezhanError as exc:
            return self.engine_failed("replay_failed", exc)
        players = [seat.player.handle for seat in match.seats.select_related("player")]
        data = {"match": match.pk, "round": index, "players": players, "frames": frames}
        return Response(ReplaySerializer(data).data)


class RoundReviewView(RoundMixin, generics.GenericAPIView[Round]):
    """Every decision of a round graded by shanten and unseen 进张 (xuezhan.review), and
    each seat's summary; computed on the first request, then cached."""

    queryset = Round.objects.none()  # for the schema; get_queryset() scopes it
    serializer_class = RoundReviewSerializer

    def get_queryset(self) -> QuerySet[Round]:
        return Round.objects.filter(match__club=self.club)

    @extend_schema(
        responses={
            200: RoundReviewSerializer,
            404: OpenApiResponse(description="No such round"),
            422: OpenApiResponse(description="The engine cannot review this round"),
        }
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        match = self.match(with_document=True)
        index = self.round_of(match)
        try:
            review = selectors.round_review(match, index)
        except XuezhanError as exc:
            return self.engine_failed("review_failed", exc)
        players = [seat.player.handle for seat in match.seats.select_related("player")]
        # the engine's JSON has the serializer's shape already: served as it is (thousands
        # of small objects would take the serializer longer than the review itself)
        return Response({"match": match.pk, "round": index, "players": players,
                         "decisions": review["decisions"], "summary": review["summary"]})
