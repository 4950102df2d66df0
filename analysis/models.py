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
    # the players behind the seats, for head-to-head statistics (docs/statistics.md)
    payer_player = models.ForeignKey(
        Player, null=True, on_delete=models.CASCADE, related_name="+"
    )
    payee_player = models.ForeignKey(
        Player, null=True, on_delete=models.CASCADE, related_name="+"
    )

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

    # Facts for statistics (docs/statistics.md): written with the rest by the verification,
    # and copied from the match so that a player's statistics read one table.
    match = models.ForeignKey(Match, null=True, on_delete=models.CASCADE, related_name="+")
    club = models.ForeignKey(
        "records.Club", null=True, on_delete=models.CASCADE, related_name="+"
    )
    played_at = models.DateTimeField(null=True, help_text="The match's played_at (or upload).")
    ruleset_name = models.CharField(max_length=64, default="")
    legal = models.BooleanField(default=True, help_text="The match was found legal.")
    complete = models.BooleanField(default=True, help_text="The round reached its end.")
    dealer = models.BooleanField(default=False)
    active_turns = models.PositiveSmallIntegerField(default=0)
    pengs = models.PositiveSmallIntegerField(default=0)
    kongs_direct = models.PositiveSmallIntegerField(default=0)
    kongs_added = models.PositiveSmallIntegerField(default=0)
    kongs_concealed = models.PositiveSmallIntegerField(default=0)
    robbed_kongs = models.PositiveSmallIntegerField(default=0)
    deal_ins = models.PositiveSmallIntegerField(default=0)
    deal_in_amount = models.IntegerField(default=0)
    big_deal_ins = models.PositiveSmallIntegerField(default=0)
    paid_self_draws = models.PositiveSmallIntegerField(default=0)
    paid_self_draw_amount = models.IntegerField(default=0)
    win_received = models.IntegerField(default=0, help_text="Win payments received.")
    win_paid = models.IntegerField(default=0, help_text="Win payments paid.")
    kong_paid = models.IntegerField(default=0, help_text="Kong money paid to kongers.")
    kong_net = models.IntegerField(default=0, help_text="Every kong-money line, net.")
    call_transfer_in = models.PositiveSmallIntegerField(default=0)
    call_transfer_in_amount = models.IntegerField(default=0)
    call_transfer_out = models.PositiveSmallIntegerField(default=0)
    call_transfer_out_amount = models.IntegerField(default=0)
    tax_refunds = models.PositiveSmallIntegerField(default=0, help_text="退税 lines paid.")
    pig_paid = models.IntegerField(default=0)
    pig_net = models.IntegerField(default=0)
    ting_net = models.IntegerField(default=0)
    roots = models.PositiveSmallIntegerField(default=0, help_text="根 in the winning hand.")
    kong_bloom = models.BooleanField(default=False, help_text="Won 杠上花 (点杠花 too).")
    kong_discard_win = models.BooleanField(default=False, help_text="Won 杠上炮.")
    rob_kong_win = models.BooleanField(default=False, help_text="Won by 抢杠.")
    last_tile_win = models.BooleanField(default=False, help_text="海底捞月 or 海底炮.")
    heaven_earth = models.BooleanField(default=False, help_text="天胡 or 地胡.")
    capped = models.BooleanField(default=False, help_text="The win reached the fan cap.")
    drawn_in = models.BooleanField(default=False, help_text="Still in at a drawn round.")
    last_standing = models.BooleanField(default=False, help_text="Left when three had won.")
    exchange_shortest = models.BooleanField(null=True)
    void_is_given = models.BooleanField(null=True)
    void_fewest = models.BooleanField(null=True)
    void_cleared_turn = models.PositiveSmallIntegerField(null=True)
    starting_shanten = models.SmallIntegerField(null=True)

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
        indexes = [
            models.Index(fields=["player", "round"], name="seatresult_player_round"),
            models.Index(fields=["player", "played_at"], name="seatresult_player_played"),
            models.Index(fields=["club", "played_at"], name="seatresult_club_played"),
        ]

    def __str__(self) -> str:
        return f"seat {self.seat} of {self.round}: {self.delta:+d}"
