"""API shapes of verification results and settlements."""
# ruff: noqa: RUF012  (Django and DRF declare options as mutable class attributes)

from __future__ import annotations

import types
from functools import cache
from typing import (
    Any,
    NotRequired,
    Union,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)

from django.db import connection
from rest_framework import serializers

from analysis.models import (
    Payment,
    RoundSettlement,
    SeatResult,
    Verification,
    Violation,
    payments_of,
)
from records.models import Match, Round
from records.serializers import MatchSerializer
from xuezhan.frames import Frame
from xuezhan.replay import SeatFacts
from xuezhan.review import KINDS as REVIEW_KINDS
from xuezhan.review import VERDICTS as REVIEW_VERDICTS


class ViolationSerializer(serializers.ModelSerializer[Violation]):
    class Meta:
        model = Violation
        fields = ["round_index", "event_index", "seat", "code", "message"]


class VerificationSerializer(serializers.ModelSerializer[Verification]):
    violations = ViolationSerializer(many=True, read_only=True)
    # the model's field refers to the stored ruleset (records.Ruleset): shown as its rules
    ruleset = serializers.JSONField(
        help_text=Verification._meta.get_field("stored_ruleset").help_text
    )

    class Meta:
        model = Verification
        fields = ["legal", "engine_version", "verified_at", "ruleset", "totals", "violations"]


def _stored_int(internal_type: str) -> serializers.IntegerField:
    """An integer as a model field of ``internal_type`` bounds it on this database: the
    bounds the schema gave the line's columns when it was a row."""
    low, high = connection.ops.integer_field_range(internal_type)
    return serializers.IntegerField(min_value=low, max_value=high)


class _RoundPayments(serializers.ListSerializer[Any]):
    """A round's lines: read from its settlement (``analysis.models.payments_of``)."""

    def get_attribute(self, instance: Any) -> list[Payment]:
        round_: Round = instance
        return payments_of(round_)


class PaymentSerializer(serializers.Serializer[Payment]):
    """One payment line: the reason code, its ``params`` as data (documented per reason in
    ``xuezhan.settlement.describe``) and the English ``detail`` rendered from them."""

    # the fields and bounds the line had as a row (analysis.models.Payment): clients
    # depend on the schema
    payer = _stored_int("PositiveSmallIntegerField")
    payee = _stored_int("PositiveSmallIntegerField")
    amount = _stored_int("PositiveIntegerField")
    reason = serializers.CharField(max_length=32, help_text="A stable reason code.")
    params = serializers.JSONField(
        required=False,
        help_text="What explains the line, as data (per reason: xuezhan.settlement.describe).",
    )
    detail = serializers.CharField(required=False, help_text="The line, explained.")

    class Meta:
        list_serializer_class = _RoundPayments


class SeatResultSerializer(serializers.ModelSerializer[SeatResult]):
    handle = serializers.CharField(source="player.handle", read_only=True)

    class Meta:
        model = SeatResult
        # the engine's per-seat facts (xuezhan.replay.SeatFacts), with who sat there
        fields = ["seat", "player", "handle", *(k for k in SeatFacts.__annotations__
                                                 if k != "seat")]


class RoundSettlementSerializer(serializers.ModelSerializer[RoundSettlement]):
    class Meta:
        model = RoundSettlement
        fields = ["incomplete", "next_dealer", "deltas"]


class RoundSerializer(serializers.ModelSerializer[Round]):
    """A round with its settlement: payment lines and per-seat facts (empty until verified)."""

    settlement = RoundSettlementSerializer(read_only=True, allow_null=True, default=None)
    payments = PaymentSerializer(many=True, read_only=True)
    seats = SeatResultSerializer(source="seat_results", many=True, read_only=True)

    class Meta:
        model = Round
        fields = ["index", "dealer", "event_count", "settlement", "payments", "seats"]


class MatchDetailSerializer(MatchSerializer):
    """A match with its resolved ruleset, the verification report and the settlement."""

    verification = VerificationSerializer(read_only=True, allow_null=True, default=None)
    rounds = RoundSerializer(many=True, read_only=True)
    # the model's field refers to the stored ruleset (records.Ruleset): shown as its rules
    ruleset = serializers.JSONField(
        read_only=True, help_text=Match._meta.get_field("stored_ruleset").help_text
    )

    class Meta(MatchSerializer.Meta):
        fields = [*MatchSerializer.Meta.fields, "ruleset", "verification", "rounds"]
        read_only_fields = fields


@cache
def shape_serializer(shape: type) -> type[serializers.Serializer[Any]]:
    """A serializer with one field per key of the engine's TypedDict ``shape``, so that the
    API serves what the engine produces, key for key (nested shapes become nested
    serializers, keys the shape marks NotRequired are left out when absent)."""
    required: frozenset[str] = getattr(shape, "__required_keys__", frozenset())
    attrs: dict[str, Any] = {}
    for key, hint in get_type_hints(shape, include_extras=True).items():
        # a NotRequired written in a string annotation escapes __required_keys__
        optional = get_origin(hint) is NotRequired
        attrs[key] = _shape_field(get_args(hint)[0] if optional else hint,
                                  required=key in required and not optional)
    attrs["__doc__"] = shape.__doc__
    return type(f"{shape.__name__}Serializer", (serializers.Serializer,), attrs)


def _shape_field(hint: Any, *, required: bool = True) -> serializers.Field[Any, Any, Any, Any]:
    options: dict[str, Any] = {"required": required}
    args = get_args(hint)
    if get_origin(hint) in (Union, types.UnionType) and type(None) in args:
        options["allow_null"] = True
        (hint,) = (a for a in args if a is not type(None))
    if get_origin(hint) is list:
        (item,) = get_args(hint)
        if is_typeddict(item):
            return shape_serializer(item)(many=True, **options)
        return serializers.ListField(child=_shape_field(item), **options)
    if is_typeddict(hint):
        return shape_serializer(hint)(**options)
    if hint is bool:
        return serializers.BooleanField(**options)
    if hint is int:
        return serializers.IntegerField(**options)
    if hint is str:
        return serializers.CharField(trim_whitespace=False, **options)
    raise TypeError(f"no API field for {hint!r}")


FrameSerializer = shape_serializer(Frame)


class ReplaySerializer(serializers.Serializer[Any]):
    match = serializers.IntegerField()
    round = serializers.IntegerField()
    players = serializers.ListField(child=serializers.CharField())
    frames = FrameSerializer(many=True)


class UkeireSerializer(serializers.Serializer[Any]):
    tile = serializers.CharField()
    unseen = serializers.IntegerField(help_text="Copies not yet seen by the player.")


class ReviewOptionSerializer(serializers.Serializer[Any]):
    chosen = serializers.CharField()
    verdict = serializers.ChoiceField(choices=["best", "equal", "worse"])
    shanten_before = serializers.IntegerField()
    shanten_after = serializers.IntegerField()
    unseen = serializers.IntegerField(help_text="The 进张's unseen copies, summed.")
    ukeire = UkeireSerializer(many=True)


class DecisionSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    event = serializers.IntegerField(help_text="Index into the round's events.")
    seat = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=list(REVIEW_KINDS))
    chosen = serializers.CharField()
    verdict = serializers.ChoiceField(choices=list(REVIEW_VERDICTS))
    shanten_before = serializers.IntegerField()
    shanten_after = serializers.IntegerField()
    ukeire = UkeireSerializer(many=True)
    alternatives = ReviewOptionSerializer(many=True, help_text="Every option, best first.")
    loss = serializers.IntegerField(help_text="进张 given up against the best option.")
    detail = serializers.DictField(help_text="What the kind adds (kong money, waits, fan...).")


class SeatReviewSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    decisions = serializers.IntegerField()
    share_best = serializers.FloatField(allow_null=True)
    share_equal = serializers.FloatField(allow_null=True)
    share_best_or_equal = serializers.FloatField(allow_null=True)
    discards = serializers.IntegerField()
    ukeire_lost = serializers.IntegerField()
    ukeire_lost_per_discard = serializers.FloatField(allow_null=True)
    mistakes = serializers.DictField(child=serializers.IntegerField())
    passed_wins = serializers.IntegerField()
    first_ready = serializers.DictField(allow_null=True)


class RoundReviewSerializer(serializers.Serializer[Any]):
    """The shape of a round's review (the view serves the engine's JSON as it is)."""

    match = serializers.IntegerField()
    round = serializers.IntegerField()
    players = serializers.ListField(child=serializers.CharField())
    decisions = DecisionSerializer(many=True)
    summary = SeatReviewSerializer(many=True)


def match_detail_data(match: Match) -> dict[str, Any]:
    return dict(MatchDetailSerializer(match).data)
