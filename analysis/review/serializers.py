"""The shapes of the match review report (the views serve stored and cached JSON as it is:
these publish its shape in the OpenAPI schema and let tests hold the body to it)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from analysis.serializers import SeatReviewSerializer
from xuezhan.review import KINDS, MISTAKES

STATUSES = ("ready", "pending", "reviewing", "unavailable")


class WorstDecisionSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField(help_text="The round's index in the match, from 0.")
    event = serializers.IntegerField(help_text="Index into the round's events, from 0; the "
                                     "viewer shows it at step event + 1.")
    seat = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=list(KINDS))
    verdict = serializers.ChoiceField(choices=list(MISTAKES))
    loss = serializers.IntegerField(help_text="Unseen 进张 given up against the best option.")
    chosen = serializers.CharField(help_text="What was done: a tile, three tiles, a suit, "
                                   "'peng 5m', 'gang 5m' or 'pass'.")
    best = serializers.CharField(help_text="The option ranked first, in the same words.")
    shanten_before = serializers.IntegerField()
    shanten_after = serializers.IntegerField()
    unseen = serializers.IntegerField(help_text="The chosen option's unseen 进张.")
    best_shanten_after = serializers.IntegerField()
    best_unseen = serializers.IntegerField(help_text="The best option's unseen 进张.")


class MatchReviewSerializer(serializers.Serializer[Any]):
    match = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["ready"])
    players = serializers.ListField(child=serializers.CharField())
    seats = SeatReviewSerializer(many=True, help_text="Each seat over the match (4).")
    rounds = serializers.ListField(
        child=SeatReviewSerializer(many=True), help_text="Per round, each seat's summary (4).")
    worst = WorstDecisionSerializer(many=True, help_text="Every mistake, largest loss first.")


class ReviewStatusSerializer(serializers.Serializer[Any]):
    """A review that is not there: not verified yet or being reviewed (202, ask again), or
    a score sheet, which has no tiles to review (422)."""

    match = serializers.IntegerField()
    status = serializers.ChoiceField(choices=list(STATUSES[1:]))
    detail = serializers.CharField()
