"""API shapes of club nights and seatings."""
# ruff: noqa: RUF012  (Django and DRF declare options as mutable class attributes)

from __future__ import annotations

import random
from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers

from analysis.league import seating, services
from analysis.league.nights.selectors import Entry, NightBook
from analysis.league.serializers import (
    BalanceSerializer,
    SettleUpSerializer,
    StandingsRowSerializer,
    TransferSerializer,
)
from analysis.models import Night

MAX_SEED = 2**31 - 1


class NightInputSerializer(serializers.Serializer[Any]):
    """What starts or changes a night (every field optional)."""

    matches = serializers.ListField(
        child=serializers.IntegerField(min_value=1), required=False, max_length=200,
        help_text="The ids of the night's matches (the whole list, when changing it).")
    players = serializers.ListField(
        child=serializers.IntegerField(min_value=1), required=False, max_length=64,
        help_text="The ids of the players present.")
    name = serializers.CharField(required=False, allow_blank=True, max_length=100)
    date = serializers.DateField(
        required=False, help_text="The evening's date in the club's time zone (default: the "
        "day of the first match, or today).")
    point_value = serializers.CharField(
        required=False, allow_null=True, allow_blank=True,
        help_text="Money per point, a decimal (default: the season's that holds the date).")

    def validate_point_value(self, value: Any) -> Any:
        try:
            return services.money_value(value)
        except services.LeagueError as exc:
            raise serializers.ValidationError(exc.message) from None


class NightSerializer(serializers.ModelSerializer[Night]):
    """A night as the list shows it."""

    match_count = serializers.SerializerMethodField()
    created_by = serializers.CharField(source="created_by.username", default=None)
    closed_by = serializers.CharField(source="closed_by.username", default=None)

    class Meta:
        model = Night
        fields = ["id", "name", "date", "status", "point_value", "match_count",
                  "created_by", "created_at", "closed_by", "closed_at"]
        read_only_fields = fields

    def get_match_count(self, night: Night) -> int:
        return len(night.entries.all())


class PlayerRefSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    handle = serializers.CharField()


class NightMatchSerializer(serializers.Serializer[Entry]):
    id = serializers.IntegerField(source="match.pk")
    status = serializers.CharField(source="match.status")
    counted = serializers.BooleanField(
        help_text="Counts in the night's standings and settle-up (verified, or accepted).")
    played_at = serializers.DateTimeField(source="when")
    players = serializers.ListField(child=serializers.CharField(), source="handles",
                                    help_text="Handles by seat, 0–3.")
    totals = serializers.ListField(child=serializers.IntegerField(), allow_null=True,
                                   help_text="Each seat's total, once verified.")
    table = serializers.SerializerMethodField(
        help_text="The seating's table it was played at: {round, table}, from 0; or null.")

    def get_table(self, entry: Entry) -> dict[str, int] | None:
        return None if entry.table is None else {"round": entry.table[0], "table": entry.table[1]}


class TableSerializer(serializers.Serializer[Any]):
    players = serializers.SerializerMethodField(help_text="Player ids by seat: east first.")
    match = serializers.SerializerMethodField(help_text="The match played there, or null.")

    def get_players(self, table: Any) -> list[int]:
        return [p.pk for p in table.players]

    def get_match(self, table: Any) -> int | None:
        return None if table.match is None else int(table.match.pk)


def _many(serializer: Any, items: Any) -> Any:
    """``items`` through ``serializer``, as a list."""
    return serializer(items, many=True).data


class NightDetailSerializer(serializers.Serializer[NightBook]):
    """A night: its matches, standings, balances and the transfers left to settle."""

    def to_representation(self, book: NightBook) -> dict[str, Any]:
        night = book.night
        data: dict[str, Any] = dict(NightSerializer(night).data)
        data.update({
            "players": PlayerRefSerializer(
                [{"id": p.pk, "handle": p.handle} for p in book.players], many=True).data,
            "matches": _many(NightMatchSerializer, book.entries),
            "standings": _many(StandingsRowSerializer, book.rows),
            "balances": _many(BalanceSerializer, book.ledger.balances),
            "transfers": _many(TransferSerializer, book.ledger.transfers),
            "exact": book.ledger.exact,
            "settle_ups": _many(SettleUpSerializer, book.settle_ups),
            "seating": night.seating,
            "tables": [_many(TableSerializer, r) for r in book.tables],
        })
        return data


class SeatingInputSerializer(serializers.Serializer[Any]):
    players = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        help_text=f"The ids of the players present ({seating.MIN_PLAYERS}–"
        f"{seating.MAX_PLAYERS}).")
    rounds = serializers.IntegerField(help_text=f"Rounds of tables, 1–{seating.MAX_ROUNDS}.")
    seed = serializers.IntegerField(
        required=False, min_value=0, max_value=MAX_SEED,
        help_text="The same seed gives the same seating (default: a new one, returned).")

    def validate_players(self, value: list[int]) -> list[int]:
        if len(set(value)) != len(value):
            raise serializers.ValidationError(_("a player is listed twice"))
        if not seating.MIN_PLAYERS <= len(value) <= seating.MAX_PLAYERS:
            raise serializers.ValidationError(_("from %(low)s to %(high)s players") % {
                "low": seating.MIN_PLAYERS, "high": seating.MAX_PLAYERS})
        return value

    def validate_rounds(self, value: int) -> int:
        if not 1 <= value <= seating.MAX_ROUNDS:
            raise serializers.ValidationError(
                _("from 1 to %(n)s rounds") % {"n": seating.MAX_ROUNDS})
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "seed" not in attrs:
            attrs["seed"] = random.SystemRandom().randrange(MAX_SEED)
        return attrs


class SeatingSerializer(serializers.Serializer[Any]):
    rounds = serializers.ListField(
        child=serializers.ListField(child=serializers.ListField(child=serializers.IntegerField())),
        help_text="Per round, per table, the four player ids by seat: east (deals first), "
        "south, west, north.")
    sitting_out = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text="Per round, who sits out.")
    repeated_pairs = serializers.IntegerField(
        help_text="Over all pairs of players, their meetings beyond the first.")
    lower_bound = serializers.IntegerField(
        help_text="No seating of this many players and rounds has fewer repeated pairs.")
    seat_spread = serializers.IntegerField(
        help_text="The largest difference, over players, between their most and least "
        "frequent wind (at most 1).")
    seed = serializers.IntegerField()


class PaymentInputSerializer(serializers.Serializer[Any]):
    """One transfer of the night's settle-up, paid (in full unless ``points`` says less)."""

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return {
            "from": serializers.IntegerField(help_text="The payer's player id."),
            "to": serializers.IntegerField(help_text="The payee's player id."),
            "points": serializers.IntegerField(
                required=False, min_value=1,
                help_text="Default: the whole transfer between them that is left."),
            "note": serializers.CharField(required=False, allow_blank=True, max_length=500),
        }


class CloseSerializer(serializers.Serializer[Any]):
    mark_paid = serializers.BooleanField(
        default=False, help_text="Record every transfer left as paid before closing.")


class ProposalSerializer(serializers.Serializer[Any]):
    date = serializers.DateField(source="day")
    first = serializers.DateTimeField()
    last = serializers.DateTimeField()
    matches = serializers.ListField(child=serializers.IntegerField())
    players = serializers.ListField(child=serializers.CharField(), source="handles")
