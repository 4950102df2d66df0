"""The statistics API's query parameters, response shapes (for the schema) and CSV form."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers

from analysis.labels import label
from analysis.stats import figures
from records.schema import MAX_ID

#: the largest ``min_rounds`` (the schema states it: analysis/stats/views.py)
MAX_MIN_ROUNDS = 1_000_000_000


class StatsQuerySerializer(serializers.Serializer[Any]):
    """Which rounds count (docs/statistics.md); a bad value is a 400 naming the field."""

    ruleset = serializers.CharField(
        required=False, allow_blank=True, max_length=64, help_text="preset name (blank: any)"
    )
    include_illegal = serializers.BooleanField(required=False, default=False)
    period = serializers.ChoiceField(["week", "month"], required=False, default="week")

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        # the API's names from/to/with are Python keywords or builtins: declared here
        fields = super().get_fields()
        fields["from"] = serializers.DateField(
            required=False, source="start", help_text="first day (played_at), inclusive"
        )
        fields["to"] = serializers.DateField(
            required=False, source="end", help_text="last day (played_at), inclusive"
        )
        fields["with"] = serializers.IntegerField(
            required=False,
            min_value=1,
            max_value=MAX_ID,
            source="with_player",
            help_text="a co-player's id: only rounds they sat in",
        )
        return fields

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        start, end = attrs.get("start"), attrs.get("end")
        if start and end and end < start:
            raise serializers.ValidationError({"to": _(
                "The “%(to)s” date must not be before the “%(from)s” date.")
                % {"to": label("filter", "to"), "from": label("filter", "from")}})
        return attrs

    def filters(self) -> figures.Filters:
        data = self.validated_data
        return figures.Filters(
            start=data.get("start"),
            end=data.get("end"),
            ruleset=data.get("ruleset"),
            with_player=data.get("with_player"),
            include_illegal=data["include_illegal"],
        )


class LeaderboardQuerySerializer(StatsQuerySerializer):
    stat = serializers.ChoiceField(figures.stat_keys(), default="net_per_round")
    min_rounds = serializers.IntegerField(
        min_value=0, max_value=MAX_MIN_ROUNDS, default=figures.LOW_SAMPLE
    )
    order = serializers.ChoiceField(["desc", "asc"], default="desc")


class PlayerStatsSerializer(serializers.Serializer[Any]):
    """docs/statistics.md defines every key of ``stats``; rates are {value, numerator,
    denominator, low_sample}."""

    player = serializers.DictField()
    definitions_version = serializers.IntegerField()
    filters = serializers.DictField()
    stats = serializers.DictField()
    decomposition = serializers.DictField(child=serializers.IntegerField())
    head_to_head = serializers.ListField(child=serializers.DictField())
    records = serializers.DictField()
    trend = serializers.ListField(child=serializers.DictField())


class StatLeaderboardRowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    player = serializers.IntegerField()
    handle = serializers.CharField()
    rounds = serializers.IntegerField()
    value = serializers.FloatField(allow_null=True)
    percentile = serializers.FloatField(allow_null=True)


class StatLeaderboardSerializer(serializers.Serializer[Any]):
    definitions_version = serializers.IntegerField()
    stat = serializers.CharField()
    min_rounds = serializers.IntegerField()
    filters = serializers.DictField()
    players = StatLeaderboardRowSerializer(many=True)


def stats_rows(stats_json: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A player's statistics as flat CSV rows: key, value, numerator, denominator."""
    rows: list[dict[str, Any]] = []

    def add(key: str, value: Any) -> None:
        if isinstance(value, Mapping) and "value" in value:
            rows.append(
                {
                    "key": key,
                    "value": value["value"],
                    "numerator": value["numerator"],
                    "denominator": value["denominator"],
                }
            )
        elif isinstance(value, Mapping):
            for sub, inner in value.items():
                add(f"{key}.{sub}", inner)
        else:
            rows.append({"key": key, "value": value, "numerator": "", "denominator": ""})

    for key, value in stats_json["stats"].items():
        add(key, value)
    for part, amount in stats_json["decomposition"].items():
        add(f"decomposition.{part}", amount)
    return rows
