"""The statistics API: a player's statistics and the club leaderboard (docs/statistics.md)."""


from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics
from rest_framework.request import Request
from rest_framework.response import Response

from analysis.stats import figures
from analysis.stats.serializers import (
    MAX_MIN_ROUNDS,
    LeaderboardQuerySerializer,
    PlayerStatsSerializer,
    StatLeaderboardSerializer,
    StatsQuerySerializer,
    stats_rows,
)
from records.models import Player
from records.permissions import ClubMixin
from records.schema import MAX_ID, bounded_int
from records.tables import (
    Table,
    TableNegotiation,
    asked_format,
    format_parameter,
    named_json,
    table_response,
    table_responses,
)

#: the tables' columns (docs/apps.md, Tables)
STATS_COLUMNS = ["key", "value", "numerator", "denominator"]
LEADERBOARD_COLUMNS = ["rank", "player", "handle", "rounds", "value", "percentile"]


class StatsMixin(ClubMixin):
    content_negotiation_class = TableNegotiation

    def query(self, serializer_class: type[StatsQuerySerializer]) -> StatsQuerySerializer:
        query = serializer_class(data=self.request.query_params.dict())
        query.is_valid(raise_exception=True)
        return query


_STATS_PARAMS = [
    OpenApiParameter("from", OpenApiTypes.DATE, description="first day, inclusive"),
    OpenApiParameter("to", OpenApiTypes.DATE, description="last day, inclusive"),
    OpenApiParameter("ruleset", OpenApiTypes.STR, description="ruleset preset name"),
    OpenApiParameter("with", bounded_int(1, MAX_ID), description="only rounds with this co-player"),
    OpenApiParameter("include_illegal", OpenApiTypes.BOOL, description="count illegal matches"),
    *format_parameter(),
]


class PlayerStats(StatsMixin, generics.GenericAPIView[Player]):
    """A player's statistics (docs/statistics.md): the stats, the net decomposition,
    head-to-head, records and trend. ``?format=csv|ndjson`` gives the stats as rows."""

    queryset = Player.objects.none()  # for the schema; the club scopes it
    serializer_class = PlayerStatsSerializer

    @extend_schema(
        parameters=[
            *_STATS_PARAMS,
            OpenApiParameter("period", OpenApiTypes.STR, enum=["week", "month"]),
        ],
        responses={
            **table_responses(PlayerStatsSerializer),
            404: OpenApiResponse(description="No such player"),
        },
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Any:
        fmt = asked_format(request)
        query = self.query(StatsQuerySerializer)
        player = Player.objects.filter(club=self.club, pk=self.kwargs["player_id"]).first()
        if player is None:
            raise Http404("No such player.")
        data = figures.player_stats(
            self.club, player, query.filters(), query.validated_data["period"]
        )
        name = f"stats-{player.pk}"
        if fmt in ("csv", "ndjson"):
            return table_response(Table(name, STATS_COLUMNS, stats_rows(data)), fmt, request)
        return named_json(Response(data), name, fmt, request)


class Leaderboard(StatsMixin, generics.GenericAPIView[Player]):
    """The club's players ranked by one statistic (``stat``, a key of the stats endpoint;
    nested ones as ``a.b``), with at least ``min_rounds`` counted rounds, and each one's
    percentile. ``?format=csv|ndjson`` gives the table."""

    queryset = Player.objects.none()  # for the schema; the club scopes it
    serializer_class = StatLeaderboardSerializer

    @extend_schema(
        parameters=[
            *_STATS_PARAMS,
            OpenApiParameter("stat", OpenApiTypes.STR, enum=figures.stat_keys()),
            OpenApiParameter("min_rounds", bounded_int(0, MAX_MIN_ROUNDS)),
            OpenApiParameter("order", OpenApiTypes.STR, enum=["desc", "asc"]),
        ],
        responses=table_responses(StatLeaderboardSerializer),
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Any:
        fmt = asked_format(request)
        query = self.query(LeaderboardQuerySerializer)
        data = query.validated_data
        filters = query.filters()
        rows = figures.leaderboard(
            self.club, data["stat"], data["min_rounds"], filters, data["order"]
        )
        name = f"leaderboard-{self.club.pk}-{data['stat']}"
        if fmt in ("csv", "ndjson"):
            return table_response(Table(name, LEADERBOARD_COLUMNS, rows), fmt, request)
        return named_json(Response(
            {
                "definitions_version": figures.DEFINITIONS_VERSION,
                "stat": data["stat"],
                "min_rounds": data["min_rounds"],
                "filters": filters.to_json(),
                "players": rows,
            }
        ), name, fmt, request)
