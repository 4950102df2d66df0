"""The league API: seasons, standings, matches of a season, accepted matches, ledger, settle-ups.

Members read, admins write, non-members get 404 (records.permissions.ClubMixin).
Standings, the ledger, settle-ups and ratings also answer ``?format=csv|ndjson``
(records.tables, the one export convention).
"""
# ruff: noqa: RUF012  (Django and DRF declare options as mutable class attributes)

from __future__ import annotations

import json
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import BaseSerializer

from analysis import sentences
from analysis.league import ratings, selectors, services
from analysis.league.corrections import correct_match, match_history
from analysis.league.params import league_errors, ledger_for, ruleset_param
from analysis.league.serializers import (
    AcceptanceSerializer,
    AssignSerializer,
    ChangeSerializer,
    CorrectionSerializer,
    LeaderboardSerializer,
    LedgerSerializer,
    RatingHistorySerializer,
    SeasonMatchesSerializer,
    SeasonSerializer,
    SettleUpSerializer,
    StandingsSerializer,
    WhatIfSerializer,
)
from analysis.league.tasks import recompute_ratings
from analysis.models import MatchAcceptance, PlayerRating, Season, SettleUp
from analysis.tasks import verify_match
from records import timezones
from records.idempotency import IDEMPOTENCY_PARAMETER, IDEMPOTENCY_RESPONSES, idempotent
from records.models import Match, Membership, Player, Seat
from records.permissions import ClubMixin, signed_in
from records.tables import (
    Table,
    TableNegotiation,
    asked_format,
    format_parameter,
    named_json,
    table_response,
    table_responses,
)
from xuezhan.sheet import settle_sheet

ADMIN = Membership.Role.ADMIN


#: the tables' columns (docs/apps.md, Tables)
LEDGER_COLUMNS = ["kind", "player", "to", "points", "money", "opening", "played", "settled"]
SETTLE_UP_COLUMNS = [
    "id", "paid_at", "payer", "payer_handle", "payee", "payee_handle", "points", "season",
    "note", "recorded_by", "recorded_at",
]  # fmt: skip
RATING_COLUMNS = ["rank", "player", "handle", "ordinal", "mu", "sigma", "matches",
                  "model_version"]


class SeasonMixin(ClubMixin):
    def season(self) -> Season:
        season = Season.objects.filter(club=self.club, pk=self.kwargs["season_id"]).first()
        if season is None:
            raise Http404("No such season.")
        return season


class SeasonList(ClubMixin, generics.ListCreateAPIView[Season]):
    """A club's seasons; admins create them."""

    queryset = Season.objects.none()  # for the schema; get_queryset() scopes it
    serializer_class = SeasonSerializer
    roles = {"POST": ADMIN}

    def get_queryset(self) -> QuerySet[Season]:
        return Season.objects.filter(club=self.club)

    def perform_create(self, serializer: BaseSerializer[Season]) -> None:
        data = dict(serializer.validated_data)
        serializer.instance = league_errors(
            services.save_season, club=self.club, by=signed_in(self.request), **data
        )


class SeasonDetail(ClubMixin, generics.RetrieveUpdateDestroyAPIView[Season]):
    """One season; admins change or delete it (its matches and settle-ups stay)."""

    queryset = Season.objects.none()  # for the schema; get_queryset() scopes it
    serializer_class = SeasonSerializer
    roles = {"PUT": ADMIN, "PATCH": ADMIN, "DELETE": ADMIN}
    lookup_url_kwarg = "season_id"

    def get_queryset(self) -> QuerySet[Season]:
        return Season.objects.filter(club=self.club)

    def perform_update(self, serializer: BaseSerializer[Season]) -> None:
        data = dict(serializer.validated_data)
        serializer.instance = league_errors(
            services.save_season,
            season=serializer.instance,
            club=self.club,
            by=signed_in(self.request),
            **data,
        )


def standings_data(standings: selectors.Standings) -> dict[str, Any]:
    return {
        "season": standings.season,
        "tie_breaks": list(standings.season.tie_breaks),
        "match_days": standings.match_days,
        "match_count": standings.match_count,
        "rows": standings.rows,
    }


def standings_table(standings: selectors.Standings) -> Table:
    """A row per player: the JSON's row, its placements as ``placed_1`` … ``placed_4``."""
    rows = StandingsSerializer(standings_data(standings)).data["rows"]
    fields = StandingsSerializer().fields["rows"].child.fields  # type: ignore[attr-defined]
    columns = [k for k in fields if k != "placements"] + [f"placed_{i}" for i in range(1, 5)]
    return Table(f"standings-{standings.season.pk}", columns, [
        {**{k: v for k, v in row.items() if k != "placements"}, **_placement_columns(row)}
        for row in rows
    ])


def _placement_columns(row: dict[str, Any]) -> dict[str, int]:
    return {f"placed_{i + 1}": n for i, n in enumerate(row["placements"])}


class SeasonStandings(SeasonMixin, generics.GenericAPIView[Season]):
    """The season's standings: rank, player, matches, rounds, net, placements, tie-break
    values and the movement since the previous match day. ``?format=csv|ndjson`` for a
    table."""

    queryset = Season.objects.none()
    serializer_class = StandingsSerializer
    content_negotiation_class = TableNegotiation

    @extend_schema(
        parameters=format_parameter(), responses=table_responses(StandingsSerializer)
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Any:
        fmt = asked_format(request)
        standings = selectors.standings(self.season())
        table = standings_table(standings)
        if fmt in ("csv", "ndjson"):
            return table_response(table, fmt, request)
        data = StandingsSerializer(standings_data(standings)).data
        return named_json(Response(data), table.name, fmt, request)


def _with_players(matches: QuerySet[Match]) -> QuerySet[Match]:
    seats = Prefetch("seats", queryset=Seat.objects.select_related("player"))
    return matches.defer("raw").prefetch_related(seats).order_by("played_at", "pk")


class SeasonMatches(SeasonMixin, generics.GenericAPIView[Season]):
    """The matches a season counts, and those in its dates under another ruleset (apart).
    Admins assign a match by hand (POST ``{"match": id}``)."""

    queryset = Season.objects.none()
    serializer_class = AssignSerializer
    roles = {"POST": ADMIN}

    @extend_schema(responses={200: SeasonMatchesSerializer})
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        season = self.season()
        counted = _with_players(selectors.season_matches(season))
        other = _with_players(selectors.season_other_ruleset_matches(season))
        return Response(SeasonMatchesSerializer({"counted": counted, "other_ruleset": other}).data)

    @extend_schema(request=AssignSerializer, responses={201: AssignSerializer})
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        season = self.season()
        body = AssignSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        match = Match.objects.filter(club=self.club, pk=body.validated_data["match"]).first()
        if match is None:
            raise ValidationError({"match": [_("no such match in this club")]})
        services.assign_match(season=season, match=match, by=signed_in(request))
        return Response({"match": match.pk}, status=status.HTTP_201_CREATED)


class SeasonMatchDetail(SeasonMixin, generics.GenericAPIView[Season]):
    """Undo a hand assignment (admins); the match still counts if its date and ruleset fit."""

    queryset = Season.objects.none()
    serializer_class = AssignSerializer
    roles = {"DELETE": ADMIN}

    @extend_schema(responses={204: None})
    def delete(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        season = self.season()
        match = Match.objects.filter(club=self.club, pk=self.kwargs["match_id"]).first()
        if match is None:
            raise Http404("No such match.")
        services.unassign_match(season=season, match=match)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MatchAcceptanceView(ClubMixin, generics.GenericAPIView[MatchAcceptance]):
    """Whether the club accepts an illegal match as played, who decided and why.
    Admins accept (PUT, with a reason) or withdraw (DELETE)."""

    queryset = MatchAcceptance.objects.none()
    serializer_class = AcceptanceSerializer
    roles = {"PUT": ADMIN, "DELETE": ADMIN}

    def match(self) -> Match:
        match = (
            Match.objects.filter(club=self.club, pk=self.kwargs["match_id"])
            .defer("raw")
            .first()
        )
        if match is None:
            raise Http404("No such match.")
        return match

    @extend_schema(responses={200: AcceptanceSerializer, 404: OpenApiResponse()})
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        acceptance = selectors.accepted(self.match())
        if acceptance is None:
            raise Http404("This match is not accepted.")
        return Response(AcceptanceSerializer(acceptance).data)

    def put(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        match = self.match()
        body = AcceptanceSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        acceptance = league_errors(
            services.accept_match,
            match=match,
            by=signed_in(request),
            reason=body.validated_data["reason"],
        )
        recompute_ratings.delay_on_commit(self.club.pk)
        return Response(AcceptanceSerializer(acceptance).data)

    @extend_schema(
        parameters=[OpenApiParameter("reason", OpenApiTypes.STR, description="Why (kept in the "
                                     "match's history).")],
        responses={204: None},
    )
    def delete(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        reason = str(request.query_params.get("reason", ""))[:1000]
        services.withdraw_acceptance(match=self.match(), by=signed_in(request), reason=reason)
        recompute_ratings.delay_on_commit(self.club.pk)
        return Response(status=status.HTTP_204_NO_CONTENT)


LEDGER_PARAMETERS = [
    OpenApiParameter("from", OpenApiTypes.DATE, description="First day (club's zone), inclusive."),
    OpenApiParameter("to", OpenApiTypes.DATE, description="Last day (the club's zone), inclusive."),
    OpenApiParameter("season", OpenApiTypes.INT, description="Only this season's matches."),
    OpenApiParameter(
        "point_value", OpenApiTypes.DECIMAL, description="Money per point (default: the season's)."
    ),
]


def ledger_table(book: selectors.Ledger) -> Table:
    """The balances, then the transfers that settle them."""
    data = LedgerSerializer(ledger_data(book)).data
    rows = [
        {"kind": "balance", "player": b["handle"], "to": "", "points": b["points"],
         "money": b["money"], "opening": b["opening"], "played": b["played"],
         "settled": b["settled"]}
        for b in data["balances"]
    ] + [
        {"kind": "transfer", "player": t["from_handle"], "to": t["to_handle"],
         "points": t["points"], "money": t["money"], "opening": "", "played": "", "settled": ""}
        for t in data["transfers"]
    ]  # fmt: skip
    return Table("ledger", LEDGER_COLUMNS, rows)


def ledger_data(book: selectors.Ledger) -> dict[str, Any]:
    rounding = None
    if book.point_value is not None:
        rounding = sum((b.money.rounded for b in book.balances if b.money), start=0)
    return {
        "point_value": book.point_value,
        "exact": book.exact,
        "rounding": rounding,
        "balances": book.balances,
        "transfers": book.transfers,
    }


class LedgerView(ClubMixin, generics.GenericAPIView[SettleUp]):
    """Who owes whom: each player's balance (opening, played, settled, outstanding; points
    and money) and the fewest transfers that settle it. ``?format=csv|ndjson`` for a
    table."""

    queryset = SettleUp.objects.none()
    serializer_class = LedgerSerializer
    content_negotiation_class = TableNegotiation

    @extend_schema(
        parameters=[*LEDGER_PARAMETERS, *format_parameter()],
        responses=table_responses(LedgerSerializer),
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Any:
        fmt = asked_format(request)
        book = ledger_for(self.club, request.query_params)
        if fmt in ("csv", "ndjson"):
            return table_response(ledger_table(book), fmt, request)
        return named_json(Response(LedgerSerializer(ledger_data(book)).data), "ledger", fmt,
                          request)


class SettleUpList(ClubMixin, generics.ListCreateAPIView[SettleUp]):
    """Settle-up records, newest first: admins record a payment of all or part of a transfer.
    Records are never edited: a mistake is undone by a record the other way."""

    queryset = SettleUp.objects.none()
    serializer_class = SettleUpSerializer
    roles = {"POST": ADMIN}
    content_negotiation_class = TableNegotiation

    def get_queryset(self) -> QuerySet[SettleUp]:
        return SettleUp.objects.filter(club=self.club).select_related(
            "payer", "payee", "recorded_by"
        )

    @extend_schema(
        parameters=format_parameter(),
        responses=table_responses(SettleUpSerializer(many=True)),
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Any:
        fmt = asked_format(request)
        name = f"settle-ups-{self.club.pk}"
        if fmt in ("csv", "ndjson"):
            rows = (SettleUpSerializer(s).data for s in self.get_queryset().iterator(500))
            return table_response(Table(name, SETTLE_UP_COLUMNS, rows), fmt, request)
        return named_json(super().get(request, *args, **kwargs), name, fmt, request)

    def get_serializer_context(self) -> dict[str, Any]:
        return {**super().get_serializer_context(), "club": self.club}

    @extend_schema(parameters=[IDEMPOTENCY_PARAMETER],
                   responses={201: SettleUpSerializer, **IDEMPOTENCY_RESPONSES})
    @idempotent()
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().post(request, *args, **kwargs)

    def perform_create(self, serializer: BaseSerializer[SettleUp]) -> None:
        data = serializer.validated_data
        serializer.instance = league_errors(
            services.record_settle_up,
            club=self.club,
            payer=data["payer"],
            payee=data["payee"],
            points=data["points"],
            paid_at=data.get("paid_at"),
            season=data.get("season"),
            note=data.get("note", ""),
            by=signed_in(self.request),
        )


def rating_model() -> dict[str, Any]:
    return {
        "name": ratings.MODEL_NAME,
        "version": ratings.MODEL_VERSION,
        "parameters": ratings.PARAMETERS,
    }


def ranked(ratings: Any) -> list[Any]:
    rows = list(ratings)
    for i, row in enumerate(rows):
        row.rank = i + 1
    return rows


class RatingList(ClubMixin, generics.GenericAPIView[PlayerRating]):
    """The club's rating leaderboard (Weng–Lin Plackett–Luce, openskill), with each
    player's uncertainty and the model, its version and parameters."""

    queryset = PlayerRating.objects.none()
    serializer_class = LeaderboardSerializer
    content_negotiation_class = TableNegotiation

    @extend_schema(
        operation_id="clubs_ratings_list",
        parameters=format_parameter(),
        responses=table_responses(LeaderboardSerializer),
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Any:
        fmt = asked_format(request)
        data = LeaderboardSerializer(
            {"model": rating_model(), "rows": ranked(selectors.leaderboard(self.club))}
        ).data
        name = f"ratings-{self.club.pk}"
        if fmt in ("csv", "ndjson"):
            return table_response(Table(name, RATING_COLUMNS, data["rows"]), fmt, request)
        return named_json(Response(data), name, fmt, request)


class RatingDetail(ClubMixin, generics.GenericAPIView[PlayerRating]):
    """One player's rating and its history, match by match."""

    queryset = PlayerRating.objects.none()
    serializer_class = RatingHistorySerializer

    @extend_schema(operation_id="clubs_ratings_player")
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        player = Player.objects.filter(club=self.club, pk=self.kwargs["player_id"]).first()
        if player is None:
            raise Http404("No such player.")
        board = ranked(selectors.leaderboard(self.club))
        data = {
            "player": player.pk,
            "handle": player.handle,
            "rating": next((r for r in board if r.player_id == player.pk), None),
            "history": selectors.rating_history(player),
        }
        return Response(RatingHistorySerializer(data).data)


class RatingRecompute(ClubMixin, generics.GenericAPIView[PlayerRating]):
    """Recompute the club's ratings from scratch (admins); it happens by itself whenever a
    match is verified or its acceptance changes."""

    queryset = PlayerRating.objects.none()
    serializer_class = LeaderboardSerializer
    roles = {"POST": ADMIN}

    @extend_schema(request=None, responses={202: None})
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        recompute_ratings.delay_on_commit(self.club.pk)
        return Response(status=status.HTTP_202_ACCEPTED)


class SeasonWhatIf(SeasonMixin, generics.GenericAPIView[Season]):
    """The season settled again under another ruleset: each player's net under both and the
    difference, and the rounds that would not have been legal under it."""

    queryset = Season.objects.none()
    serializer_class = WhatIfSerializer

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "ruleset", OpenApiTypes.STR, required=True,
                description="A preset name (e.g. online) or a ruleset object in JSON.",
            )
        ],
        responses={200: WhatIfSerializer},
    )  # fmt: skip
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        season = self.season()
        result = selectors.what_if(season, ruleset_param(request.query_params))
        return Response(WhatIfSerializer(result).data)


class MatchCorrections(ClubMixin, generics.GenericAPIView[Match]):
    """A match's history of changes (members); admins correct it (POST): the players by
    seat, the ruleset, a corrected document, or void — always with a reason."""

    queryset = Match.objects.none()
    serializer_class = CorrectionSerializer
    roles = {"POST": ADMIN}
    pagination_class = None

    def match(self) -> Match:
        match = Match.objects.filter(club=self.club, pk=self.kwargs["match_id"]).first()
        if match is None:
            raise Http404("No such match.")
        return match

    @extend_schema(responses={200: ChangeSerializer(many=True)})
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return Response(ChangeSerializer(match_history(self.match()), many=True).data)

    @extend_schema(
        request=CorrectionSerializer, parameters=[IDEMPOTENCY_PARAMETER],
        responses={200: ChangeSerializer(many=True), **IDEMPOTENCY_RESPONSES},
    )
    @idempotent()
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        body = CorrectionSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        document = data.get("document")
        outcome = league_errors(
            correct_match,
            match=self.match(),
            by=signed_in(request),
            reason=data["reason"],
            players=data.get("players"),
            ruleset=data.get("ruleset"),
            document=None if document is None else json.dumps(document).encode(),
            void=data.get("void"),
        )
        if outcome.reverify:
            verify_match.delay_on_commit(outcome.match.pk)
        if outcome.ratings:
            recompute_ratings.delay_on_commit(self.club.pk)
        return Response(ChangeSerializer(match_history(outcome.match), many=True).data)


class SheetPreview(ClubMixin, generics.GenericAPIView[Match]):
    """Settle a score sheet without storing it: the report (payments per round, totals,
    violations with locators) a form shows as the sheet is entered. Upload a sheet like a
    log, through ``matches/``."""

    queryset = Match.objects.none()
    serializer_class = None

    @extend_schema(
        request={"application/json": OpenApiTypes.OBJECT},
        responses={200: OpenApiTypes.OBJECT},
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        doc = request.data
        if isinstance(doc, dict) and isinstance(doc.get("played_at"), str):
            # a page's date-and-time picker gives the club's local time without an offset
            doc = {**doc, "played_at": timezones.entered(doc["played_at"]) or doc["played_at"]}
        # the site's own API: the violations and payments worded in the request's language
        return Response(sentences.sheet_report(settle_sheet(doc).to_dict(), doc))
