"""What the engine computed from the records: verdicts, settlements and per-seat facts.

All of it is derived: ``analysis.services.verify_match`` deletes and rewrites a match's
rows in one transaction, so these tables can always be rebuilt from ``records``.
"""
# ruff: noqa: RUF012  (Django and DRF declare options as mutable class attributes)

from __future__ import annotations

from django.db import models
from django.db.models import F, Q

from records.models import Match, Player, Round


def _seat_check(field: str, name: str, nullable: bool = False) -> models.CheckConstraint:
    condition = Q(**{f"{field}__gte": 0, f"{field}__lte": 3})
    if nullable:
        condition |= Q(**{f"{field}__isnull": True})
    return models.CheckConstraint(condition=condition, name=name)


class Verification(models.Model):
    """The engine's verdict on one match: legal or not, and the full report it produced."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="verification")
    legal = models.BooleanField()
    engine_version = models.CharField(max_length=32)
    verified_at = models.DateTimeField()
    ruleset = models.JSONField(help_text="The ruleset the engine resolved.")
    totals = models.JSONField(help_text="Each seat's total over the match (4 integers).")
    report = models.JSONField(help_text="The engine's report, exactly as `xuezhan verify` prints.")
    review = models.JSONField(
        null=True,
        blank=True,
        help_text="The decision review's summaries (xuezhan.review): `seats`, each seat over "
        "the match, and `rounds`, each round's four; null when the engine could not review.",
    )

    def __str__(self) -> str:
        return f"verification of match {self.match_id}: {'legal' if self.legal else 'illegal'}"


class Violation(models.Model):
    """One rule violation found in a match, with its locators (any may be absent)."""

    verification = models.ForeignKey(
        Verification, on_delete=models.CASCADE, related_name="violations"
    )
    ordinal = models.PositiveIntegerField()
    round_index = models.PositiveSmallIntegerField(null=True, blank=True)
    event_index = models.PositiveIntegerField(null=True, blank=True)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    code = models.CharField(max_length=64)
    message = models.TextField()

    class Meta:
        ordering = ["verification_id", "ordinal"]
        constraints = [
            models.UniqueConstraint(
                fields=["verification", "ordinal"], name="violation_unique_ordinal"
            ),
            _seat_check("seat", "violation_seat_in_range", nullable=True),
        ]

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


class RoundSettlement(models.Model):
    """Round-level facts of the settlement: whether it finished, and who deals next."""

    round = models.OneToOneField(Round, on_delete=models.CASCADE, related_name="settlement")
    incomplete = models.BooleanField()
    next_dealer = models.PositiveSmallIntegerField(null=True, blank=True)
    deltas = models.JSONField(help_text="Each seat's net change in the round (4 integers).")

    class Meta:
        constraints = [_seat_check("next_dealer", "settlement_next_dealer_seat", nullable=True)]


class Payment(models.Model):
    """One line of a round's settlement: ``payer`` pays ``payee`` ``amount`` for ``reason``."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="payments")
    ordinal = models.PositiveIntegerField()
    payer = models.PositiveSmallIntegerField()
    payee = models.PositiveSmallIntegerField()
    amount = models.PositiveIntegerField()
    reason = models.CharField(max_length=32, help_text="A stable reason code.")
    params = models.JSONField(
        default=dict,
        blank=True,
        help_text="What explains the line, as data (per reason: xuezhan.settlement.describe).",
    )
    detail = models.TextField(blank=True, default="", help_text="The line, explained.")

    class Meta:
        ordering = ["round_id", "ordinal"]
        constraints = [
            models.UniqueConstraint(fields=["round", "ordinal"], name="payment_unique_ordinal"),
            _seat_check("payer", "payment_payer_seat"),
            _seat_check("payee", "payment_payee_seat"),
            models.CheckConstraint(condition=~Q(payer=F("payee")), name="payment_not_to_self"),
            models.CheckConstraint(condition=Q(amount__gt=0), name="payment_amount_positive"),
        ]

    def __str__(self) -> str:
        return f"seat {self.payer} pays seat {self.payee} {self.amount} ({self.reason})"


class SeatResult(models.Model):
    """Per round, per seat: the facts statistics are made of."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seat_results")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="seat_results")
    won = models.BooleanField()
    win_order = models.PositiveSmallIntegerField(null=True, blank=True)
    self_drawn = models.BooleanField()
    discarder = models.PositiveSmallIntegerField(null=True, blank=True)
    pattern = models.CharField(max_length=64, null=True, blank=True)
    fan = models.IntegerField(null=True, blank=True)
    points = models.IntegerField(null=True, blank=True)
    delta = models.IntegerField()
    kong_income = models.IntegerField()
    ready = models.BooleanField(null=True, blank=True, help_text="Ready (听牌) at a draw.")
    flower_pig = models.BooleanField(help_text="花猪: still held three suits at a draw.")
    ting_paid = models.IntegerField(help_text="查叫 paid.")
    ting_received = models.IntegerField(help_text="查叫 received.")
    refunded = models.IntegerField(help_text="Kong money refunded (退税).")
    transferred = models.IntegerField(help_text="Kong money transferred (呼叫转移).")

    class Meta:
        ordering = ["round_id", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["round", "seat"], name="seatresult_unique_seat"),
            _seat_check("seat", "seatresult_seat_in_range"),
            _seat_check("discarder", "seatresult_discarder_seat", nullable=True),
            models.CheckConstraint(
                condition=Q(won=True) | Q(win_order__isnull=True), name="seatresult_order_if_won"
            ),
        ]
        indexes = [models.Index(fields=["player", "round"], name="seatresult_player_round")]

    def __str__(self) -> str:
        return f"seat {self.seat} of {self.round}: {self.delta:+d}"
