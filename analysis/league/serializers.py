"""API shapes of the club's books: seasons, standings, the ledger, settle-ups."""
# ruff: noqa: RUF012  (Django and DRF declare options as mutable class attributes)

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from analysis.league import services
from analysis.league.selectors import TIE_BREAK_NAMES, Balance, LedgerTransfer, Row
from analysis.models import MatchAcceptance, Season, SettleUp
from records.models import Match, Player
from records.names import refuse_unsafe

HUNDREDTH = Decimal("0.01")


def decimal_of(value: Fraction) -> Decimal:
    """A ratio for display, to two places (the ranking itself uses the exact ratio)."""
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return exact.quantize(HUNDREDTH, rounding=ROUND_HALF_EVEN)


class SeasonSerializer(serializers.ModelSerializer[Season]):
    ruleset = serializers.JSONField(
        help_text='A preset name (e.g. "chengdu") or a ruleset object, as in a log; '
        "read back resolved, every option."
    )
    tie_breaks = serializers.JSONField(
        required=False,
        help_text="Tie-break codes in order, from: " + ", ".join(TIE_BREAK_NAMES) + ".",
    )
    placement_points = serializers.JSONField(
        required=False, help_text="Points for 1st–4th by match net, e.g. [4, 2, 1, 0]."
    )

    class Meta:
        model = Season
        fields = [
            "id", "name", "starts_on", "ends_on", "ruleset", "ruleset_name", "point_value",
            "method", "placement_points", "tie_breaks", "min_matches", "include_accepted",
            "created_at",
        ]  # fmt: skip
        read_only_fields = ["id", "ruleset_name", "created_at"]

    def validate_name(self, name: str) -> str:
        return refuse_unsafe(name)

    def validate_ruleset(self, value: Any) -> Any:
        return _checked(services.resolve_ruleset, "ruleset", value).to_json()

    def validate_tie_breaks(self, value: Any) -> Any:
        return _checked(services.check_tie_breaks, "tie_breaks", value)

    def validate_placement_points(self, value: Any) -> Any:
        return _checked(services.check_placement_points, "placement_points", value)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        starts = attrs.get("starts_on", getattr(self.instance, "starts_on", None))
        ends = attrs.get("ends_on", getattr(self.instance, "ends_on", None))
        if starts and ends and ends < starts:
            raise serializers.ValidationError({"ends_on": [_("the season ends before it starts")]})
        return attrs


def _checked(check: Any, field: str, value: Any) -> Any:
    try:
        return check(value)
    except services.LeagueError as exc:
        raise serializers.ValidationError(exc.message) from None


class StandingsRowSerializer(serializers.Serializer[Row]):
    rank = serializers.IntegerField(
        allow_null=True, help_text="null: below the season's minimum number of matches."
    )
    player = serializers.IntegerField()
    handle = serializers.CharField()
    matches = serializers.IntegerField()
    rounds = serializers.IntegerField()
    net = serializers.IntegerField()
    placement_points = serializers.SerializerMethodField()
    placements = serializers.ListField(
        child=serializers.IntegerField(), help_text="Matches placed 1st, 2nd, 3rd, 4th."
    )
    wins = serializers.IntegerField()
    net_per_round = serializers.SerializerMethodField()
    deal_ins = serializers.IntegerField()
    deal_ins_per_round = serializers.SerializerMethodField()
    head_to_head = serializers.IntegerField(
        allow_null=True, help_text="Net against the players tied with this one, when used."
    )
    previous_rank = serializers.IntegerField(allow_null=True)
    movement = serializers.IntegerField(
        allow_null=True, help_text="Places gained since the previous match day."
    )

    @extend_schema_field(OpenApiTypes.DECIMAL)
    def get_placement_points(self, row: Row) -> str:
        return str(decimal_of(row.placement_points))

    @extend_schema_field(OpenApiTypes.DECIMAL)
    def get_net_per_round(self, row: Row) -> str:
        return str(decimal_of(row.net_per_round))

    @extend_schema_field(OpenApiTypes.DECIMAL)
    def get_deal_ins_per_round(self, row: Row) -> str:
        return str(decimal_of(row.deal_ins_per_round))


class StandingsSerializer(serializers.Serializer[Any]):
    season = SeasonSerializer()
    tie_breaks = serializers.ListField(child=serializers.CharField())
    match_days = serializers.ListField(child=serializers.DateField())
    match_count = serializers.IntegerField()
    rows = StandingsRowSerializer(many=True)


class MoneySerializer(serializers.Serializer[Any]):
    exact = serializers.DecimalField(max_digits=24, decimal_places=8, coerce_to_string=True)
    rounded = serializers.DecimalField(max_digits=24, decimal_places=2, coerce_to_string=True)
    rounding = serializers.DecimalField(max_digits=24, decimal_places=8, coerce_to_string=True)


class BalanceSerializer(serializers.Serializer[Balance]):
    player = serializers.IntegerField()
    handle = serializers.CharField()
    points = serializers.IntegerField(
        help_text="Outstanding: positive is owed to the player, negative the player owes."
    )
    opening = serializers.IntegerField(help_text="Carried over from before the period.")
    played = serializers.IntegerField(help_text="Won or lost in the period.")
    settled = serializers.IntegerField(help_text="Paid (+) or received (−) in settle-ups.")
    money = serializers.SerializerMethodField()
    money_detail = MoneySerializer(source="money", allow_null=True)

    # null without a point value (the ledger then counts points only)
    @extend_schema_field(
        serializers.DecimalField(max_digits=24, decimal_places=2, allow_null=True)
    )
    def get_money(self, balance: Balance) -> str | None:
        return None if balance.money is None else str(balance.money.rounded)


class TransferSerializer(serializers.Serializer[LedgerTransfer]):
    """``from`` pays ``to``: fields named as the API promises (``from`` is a keyword)."""

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return {
            "from": serializers.IntegerField(source="payer"),
            "from_handle": serializers.CharField(source="payer_handle"),
            "to": serializers.IntegerField(source="payee"),
            "to_handle": serializers.CharField(source="payee_handle"),
            "points": serializers.IntegerField(),
            "money": serializers.DecimalField(
                source="money.rounded", max_digits=24, decimal_places=2, allow_null=True
            ),
            "money_detail": MoneySerializer(source="money", allow_null=True),
        }

    def to_representation(self, instance: LedgerTransfer) -> dict[str, Any]:
        data: dict[str, Any] = super().to_representation(instance)
        if instance.money is None:
            data["money"] = data["money_detail"] = None
        return data


class LedgerSerializer(serializers.Serializer[Any]):
    point_value = serializers.DecimalField(max_digits=12, decimal_places=4, allow_null=True)
    exact = serializers.BooleanField(
        help_text="true: the transfers are the proven fewest; false: the greedy bound "
        "(more than 20 players with a balance)."
    )
    rounding = serializers.DecimalField(
        max_digits=24,
        decimal_places=8,
        allow_null=True,
        help_text="Sum of the rounded balances: what rounding to the cent left over.",
    )
    balances = BalanceSerializer(many=True)
    transfers = TransferSerializer(many=True)


class SettleUpSerializer(serializers.ModelSerializer[SettleUp]):
    payer_handle = serializers.CharField(source="payer.handle", read_only=True)
    payee_handle = serializers.CharField(source="payee.handle", read_only=True)
    recorded_by = serializers.CharField(source="recorded_by.username", read_only=True)
    paid_at = serializers.DateTimeField(required=False, help_text="Default: now.")

    class Meta:
        model = SettleUp
        fields = [
            "id", "payer", "payer_handle", "payee", "payee_handle", "points", "season",
            "paid_at", "note", "recorded_by", "recorded_at",
        ]  # fmt: skip
        read_only_fields = ["id", "recorded_at"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        club = self.context.get("club")
        if club is not None:
            for name in ("payer", "payee"):
                self.fields[name].queryset = Player.objects.filter(club=club)  # type: ignore[attr-defined]
            self.fields["season"].queryset = Season.objects.filter(club=club)  # type: ignore[attr-defined]


class AcceptanceSerializer(serializers.ModelSerializer[MatchAcceptance]):
    accepted_by = serializers.CharField(source="accepted_by.username", read_only=True)

    class Meta:
        model = MatchAcceptance
        fields = ["reason", "accepted_by", "accepted_at"]
        read_only_fields = ["accepted_at"]


class SeasonMatchSerializer(serializers.ModelSerializer[Match]):
    players = serializers.SerializerMethodField()

    class Meta:
        model = Match
        fields = ["id", "status", "ruleset_name", "played_at", "players"]

    def get_players(self, match: Match) -> list[str]:
        return [seat.player.handle for seat in match.seats.all()]


class SeasonMatchesSerializer(serializers.Serializer[Any]):
    counted = SeasonMatchSerializer(many=True)
    other_ruleset = SeasonMatchSerializer(
        many=True, help_text="In the season's dates under another ruleset: not counted."
    )


class AssignSerializer(serializers.Serializer[Any]):
    match = serializers.IntegerField()


class RatingModelSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    version = serializers.CharField()
    parameters = serializers.DictField()


class RatingRowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    handle = serializers.CharField(source="player.handle")
    ordinal = serializers.FloatField(help_text="The rating: mu − 3·sigma.")
    mu = serializers.FloatField()
    sigma = serializers.FloatField(help_text="The uncertainty: one standard deviation.")
    matches = serializers.IntegerField()
    model_version = serializers.CharField()


class LeaderboardSerializer(serializers.Serializer[Any]):
    model = RatingModelSerializer()
    rows = RatingRowSerializer(many=True)


class RatingStepSerializer(serializers.Serializer[Any]):
    match = serializers.IntegerField(source="match_id")
    position = serializers.IntegerField()
    played_at = serializers.SerializerMethodField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()

    @extend_schema_field(OpenApiTypes.DATETIME)
    def get_played_at(self, step: Any) -> str:
        return str((step.match.played_at or step.match.uploaded_at).isoformat())


class RatingHistorySerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField()
    handle = serializers.CharField()
    rating = RatingRowSerializer(allow_null=True)
    history = RatingStepSerializer(many=True)


class WhatIfRowSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField()
    handle = serializers.CharField()
    net_a = serializers.IntegerField(help_text="Net under the season's ruleset.")
    net_b = serializers.IntegerField(help_text="Net under the ruleset asked about.")
    difference = serializers.IntegerField(help_text="net_b − net_a")


class WhatIfRoundSerializer(serializers.Serializer[Any]):
    match = serializers.IntegerField()
    round = serializers.IntegerField()
    violations = serializers.ListField(child=serializers.DictField())


class WhatIfSerializer(serializers.Serializer[Any]):
    season = SeasonSerializer()
    ruleset = serializers.DictField(help_text="The ruleset asked about, resolved.")
    match_count = serializers.IntegerField()
    rows = WhatIfRowSerializer(many=True)
    illegal_rounds = WhatIfRoundSerializer(
        many=True, help_text="Rounds that would break the other ruleset, with the violations."
    )


class CorrectionSerializer(serializers.Serializer[Any]):
    reason = serializers.CharField(help_text="Why: kept with every change it makes.")
    players = serializers.ListField(
        child=serializers.CharField(max_length=64),
        required=False,
        min_length=4,
        max_length=4,
        help_text="The handle at each seat, 0–3.",
    )
    ruleset = serializers.JSONField(
        required=False, help_text="The ruleset the match was really played under."
    )
    document = serializers.JSONField(
        required=False, help_text="A corrected document (the old one is kept)."
    )
    void = serializers.BooleanField(
        required=False, allow_null=True, help_text="true: void; false: count it again."
    )


class ChangeItemSerializer(serializers.Serializer[Any]):
    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return {
            "field": serializers.CharField(help_text="seat, ruleset, played_at, document, "
                                           "void, acceptance, upload or link"),
            "seat": serializers.IntegerField(allow_null=True, help_text="For a seat, 0–3."),
            "from": serializers.CharField(allow_null=True),
            "to": serializers.CharField(allow_null=True),
        }


class ChangeSerializer(serializers.Serializer[Any]):
    """One change a person made (its database rows together)."""

    when = serializers.DateTimeField()
    who = serializers.CharField(allow_null=True, help_text="null: nobody signed in (a "
                                "change made before who made it was recorded).")
    what = serializers.CharField(help_text="The change in words, in the request's language.")
    changes = ChangeItemSerializer(many=True)
    reason = serializers.CharField()
