"""The statistics API: a player's statistics and the club leaderboard (docs/statistics.md)."""


from __future__ import annotations

from typing import Any

from django.http import Http404, HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics
from rest_framework.request import Request
from rest_framework.response import Response

from analysis.stats import figures
from analysis.stats.serializers import (
    LeaderboardQuerySerializer,
    PlayerStatsSerializer,
    StatLeaderboardSerializer,
    StatsQuerySerializer,
    render_csv,
    stats_rows,
)
from records.models import Player
from records.permissions import ClubMixin


class StatsMixin(ClubMixin):
    def query(self, serializer_class: type[StatsQuerySerializer]) -> StatsQuerySerializer:
        query = serializer_class(data=self.request.query_params.dict())
        query.is_valid(raise_exception=True)
        return query

    def csv_wanted(self) -> bool:
        return self.request.query_params.get("export") == "csv"

    @staticmethod
    def csv_response(rows: list[dict[str, Any]]) -> HttpResponse:
        return HttpResponse(render_csv(rows), content_type="text/csv; charset=utf-8")


_STATS_PARAMS = [
    OpenApiParameter("from", OpenApiTypes.DATE, description="first day, inclusive"),
    OpenApiParameter("to", OpenApiTypes.DATE, description="last day, inclusive"),
    OpenApiParameter("ruleset", OpenApiTypes.STR, description="ruleset preset name"),
    OpenApiParameter("with", OpenApiTypes.INT, description="only rounds with this co-player"),
    OpenApiParameter("include_illegal", OpenApiTypes.BOOL, description="count illegal matches"),
    OpenApiParameter("export", OpenApiTypes.STR, enum=["csv"], description="csv: a CSV table"),
]


class PlayerStats(StatsMixin, generics.GenericAPIView[Player]):
    """A player's statistics (docs/statistics.md): the stats, the net decomposition,
    head-to-head, records and trend. ``?export=csv`` gives the stats as rows."""

    queryset = Player.objects.none()  # for the schema; the club scopes it
    serializer_class = PlayerStatsSerializer

    @extend_schema(
        parameters=[
            *_STATS_PARAMS,
            OpenApiParameter("period", OpenApiTypes.STR, enum=["week", "month"]),
        ],
        responses={
            (200, "application/json"): PlayerStatsSerializer,
            (200, "text/csv"): OpenApiTypes.STR,
            404: OpenApiResponse(description="No such player"),
        },
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response | HttpResponse:
        query = self.query(StatsQuerySerializer)
        player = Player.objects.filter(club=self.club, pk=self.kwargs["player_id"]).first()
        if player is None:
            raise Http404("No such player.")
        data = figures.player_stats(
            self.club, player, query.filters(), query.validated_data["period"]
        )
        if self.csv_wanted():
            return self.csv_response(stats_rows(data))
        return Response(data)


class Leaderboard(StatsMixin, generics.GenericAPIView[Player]):
    """The club's players ranked by one statistic (``stat``, a key of the stats endpoint;
    nested ones as ``a.b``), with at least ``min_rounds`` counted rounds, and each one's
    percentile. ``?export=csv`` gives the table."""

    queryset = Player.objects.none()  # for the schema; the club scopes it
    serializer_class = StatLeaderboardSerializer

    @extend_schema(
        parameters=[
            *_STATS_PARAMS,
            OpenApiParameter("stat", OpenApiTypes.STR, enum=figures.stat_keys()),
            OpenApiParameter("min_rounds", OpenApiTypes.INT),
            OpenApiParameter("order", OpenApiTypes.STR, enum=["desc", "asc"]),
        ],
        responses={
            (200, "application/json"): StatLeaderboardSerializer,
            (200, "text/csv"): OpenApiTypes.STR,
        },
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response | HttpResponse:
        query = self.query(LeaderboardQuerySerializer)
        data = query.validated_data
        filters = query.filters()
        rows = figures.leaderboard(
            self.club, data["stat"], data["min_rounds"], filters, data["order"]
        )
        if self.csv_wanted():
            return self.csv_response(rows)
        return Response(
            {
                "definitions_version": figures.DEFINITIONS_VERSION,
                "stat": data["stat"],
                "min_rounds": data["min_rounds"],
                "filters": filters.to_json(),
                "players": rows,
            }
        )
