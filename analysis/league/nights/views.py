"""The API of club nights and seatings.

Members read a club's nights and compute seatings; admins start, change, seat, settle,
close and delete nights. Non-members get 404 (records.permissions.ClubMixin).
"""
# ruff: noqa: RUF012  (Django and DRF declare options as mutable class attributes)

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, status
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from analysis.league import seating
from analysis.league.nights import selectors, services
from analysis.league.nights.serializers import (
    CloseSerializer,
    NightDetailSerializer,
    NightInputSerializer,
    NightSerializer,
    PaymentInputSerializer,
    ProposalSerializer,
    SeatingInputSerializer,
    SeatingSerializer,
)
from analysis.league.params import league_errors
from analysis.league.serializers import SettleUpSerializer
from analysis.models import Night, NightMatch
from records.models import Membership, Player
from records.permissions import ClubMixin, signed_in
from records.schema import bounded_int

ADMIN = Membership.Role.ADMIN


def _start(data: dict[str, Any]) -> dict[str, Any]:
    """The serializer's fields as ``create_night`` names them (``date`` is ``day``)."""
    out = dict(data)
    if "date" in out:
        out["day"] = out.pop("date")
    return out


class NightMixin(ClubMixin):
    def night(self) -> Night:
        night = selectors.night_of(self.club, int(self.kwargs["night_id"]))
        if night is None:
            raise Http404("No such night.")
        return night


class NightList(ClubMixin, generics.ListCreateAPIView[Night]):
    """A club's nights, newest first; admins start one (``matches``, ``players``, ``name``,
    ``date``, ``point_value``, all optional) and get it back whole (201)."""

    queryset = Night.objects.none()  # for the schema; get_queryset() scopes it
    serializer_class = NightSerializer
    roles = {"POST": ADMIN}

    def get_queryset(self) -> QuerySet[Night]:
        entries = Prefetch("entries", queryset=NightMatch.objects.only("night_id", "match_id"))
        return selectors.club_nights(self.club).prefetch_related(entries)

    @extend_schema(request=NightInputSerializer, responses={201: NightDetailSerializer})
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        body = NightInputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        night = league_errors(services.create_night, club=self.club, by=signed_in(request),
                              **_start(body.validated_data))
        book = selectors.night_book(night)
        return Response(NightDetailSerializer(book).data, status=status.HTTP_201_CREATED)


class NightDetail(NightMixin, generics.GenericAPIView[Night]):
    """One night: its matches (and the seating's table each was played at), standings,
    ``balances`` (per player: ``played`` tonight, ``settled`` in its payments, ``points``
    and ``money`` still outstanding), the fewest ``transfers`` that settle what is left,
    the payments recorded (``settle_ups``) and the seating. Admins change it (PATCH: any
    field of the start; ``matches`` and ``players`` replace the lists) or delete it (its
    matches and payments stay)."""

    queryset = Night.objects.none()
    serializer_class = NightDetailSerializer
    roles = {"PATCH": ADMIN, "DELETE": ADMIN}

    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return Response(NightDetailSerializer(selectors.night_book(self.night())).data)

    @extend_schema(request=NightInputSerializer, responses={200: NightDetailSerializer})
    def patch(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        night = self.night()
        body = NightInputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        night = league_errors(services.change_night, night=night, by=signed_in(request),
                              **body.validated_data)
        return Response(NightDetailSerializer(selectors.night_book(night)).data)

    @extend_schema(responses={204: None})
    def delete(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        services.delete_night(self.night())
        return Response(status=status.HTTP_204_NO_CONTENT)


class NightClose(NightMixin, generics.GenericAPIView[Night]):
    """Close the night (admins): it takes in no more matches by itself. With
    ``{"mark_paid": true}`` every transfer left is first recorded paid. Tells the club's
    listeners (``night_closed``)."""

    queryset = Night.objects.none()
    serializer_class = CloseSerializer
    roles = {"POST": ADMIN}

    @extend_schema(request=CloseSerializer, responses={200: NightDetailSerializer})
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        body = CloseSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        night = league_errors(services.close_night, night=self.night(), by=signed_in(request),
                              mark_all_paid=body.validated_data["mark_paid"])
        return Response(NightDetailSerializer(selectors.night_book(night)).data)


class NightReopen(NightMixin, generics.GenericAPIView[Night]):
    """Open a closed night again (admins)."""

    queryset = Night.objects.none()
    serializer_class = NightDetailSerializer
    roles = {"POST": ADMIN}

    @extend_schema(request=None, responses={200: NightDetailSerializer})
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        night = services.reopen_night(self.night())
        return Response(NightDetailSerializer(selectors.night_book(night)).data)


class NightPayments(NightMixin, generics.GenericAPIView[Night]):
    """The payments recorded against the night's settle-up; admins mark a transfer paid
    (``{"from", "to"}``, and ``points`` for part of it): a settle-up the ledger carries."""

    queryset = Night.objects.none()
    serializer_class = PaymentInputSerializer
    roles = {"POST": ADMIN}
    pagination_class = None

    @extend_schema(responses={200: SettleUpSerializer(many=True)})
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        book = selectors.night_book(self.night())
        return Response(SettleUpSerializer(book.settle_ups, many=True).data)

    @extend_schema(request=PaymentInputSerializer, responses={201: SettleUpSerializer})
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        night = self.night()
        body = PaymentInputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        people = {p.pk: p for p in Player.objects.filter(club=self.club,
                                                       pk__in=[data["from"], data["to"]])}
        for side in ("from", "to"):
            if data[side] not in people:
                raise ValidationError({side: [_("not a player of this club")]})
        points = data.get("points")
        if points is None:
            left = next((t for t in services.night_ledger(night).transfers
                         if t.payer == data["from"] and t.payee == data["to"]), None)
            if left is None:
                raise ValidationError({"points": [
                    _("no transfer between them is left to pay: give the points")]})
            points = left.points
        settle_up = league_errors(
            services.mark_paid, night=night, payer=people[data["from"]],
            payee=people[data["to"]], points=points, by=signed_in(request),
            note=data.get("note", ""))
        return Response(SettleUpSerializer(settle_up).data, status=status.HTTP_201_CREATED)


class NightSeating(NightMixin, generics.GenericAPIView[Night]):
    """The night's seating; admins make it (``players`` present, ``rounds``, ``seed``): the
    players become the night's people present, and its matches are then expected per
    table."""

    queryset = Night.objects.none()
    serializer_class = SeatingInputSerializer
    roles = {"POST": ADMIN}

    @extend_schema(responses={200: SeatingSerializer})
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        night = self.night()
        if not night.seating:
            raise Http404("This night has no seating.")
        return Response(SeatingSerializer(night.seating).data)

    @extend_schema(request=SeatingInputSerializer, responses={200: SeatingSerializer})
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        body = SeatingInputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        night = league_errors(services.seat_night, night=self.night(), by=signed_in(request),
                              **body.validated_data)
        return Response(SeatingSerializer(night.seating).data)


class NightProposals(ClubMixin, generics.GenericAPIView[Night]):
    """Nights the club's matches suggest: those no night holds, of the last ``days`` days,
    grouped where consecutive matches are at most ``hours`` apart; newest first."""

    queryset = Night.objects.none()
    serializer_class = ProposalSerializer
    pagination_class = None

    @extend_schema(
        parameters=[
            OpenApiParameter("hours", bounded_int(1, 12), description="Gap between matches "
                             "of one night, 1–12 (default 3)."),
            OpenApiParameter("days", bounded_int(1, 366), description="How far back, 1–366 "
                             "(default 60)."),
        ],
        responses={200: ProposalSerializer(many=True)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        hours = _bounded(request.query_params, "hours", selectors.PROPOSAL_GAP_HOURS, 1, 12)
        days = _bounded(request.query_params, "days", selectors.PROPOSAL_DAYS, 1, 366)
        found = selectors.proposals(self.club, gap_hours=hours, days=days)
        return Response(ProposalSerializer(found, many=True).data)


def _bounded(params: Any, name: str, default: int, low: int, high: int) -> int:
    value = params.get(name)
    if value in (None, ""):
        return default
    try:
        number = int(value)
    except ValueError:
        number = low - 1
    if not low <= number <= high:
        raise ValidationError({name: [_("a whole number from %(low)s to %(high)s") % {
            "low": low, "high": high}]})
    return number


class ClubSeating(ClubMixin, generics.GenericAPIView[Player]):
    """A seating for the club's players (nothing is stored): per round, tables of four by
    seat (east first), who sits out, and its quality — ``repeated_pairs`` against the
    ``lower_bound`` no seating can beat, and the winds' ``seat_spread``."""

    queryset = Player.objects.none()
    serializer_class = SeatingInputSerializer

    @extend_schema(request=SeatingInputSerializer, responses={200: SeatingSerializer})
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        body = SeatingInputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        known = set(Player.objects.filter(club=self.club, pk__in=data["players"])
                    .values_list("pk", flat=True))
        if known != set(data["players"]):
            raise ValidationError({"players": [_("not a player of this club: %(ids)s") % {
                "ids": ", ".join(str(i) for i in sorted(set(data["players"]) - known))}]})
        plan = seating.seat(data["players"], data["rounds"], data["seed"])
        return Response(SeatingSerializer(plan.to_json()).data)
