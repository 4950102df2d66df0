"""What the engine computed from the records: verdicts, settlements and per-seat facts.

All of it is derived: ``analysis.services.verify_match`` deletes and rewrites a match's
rows in one transaction, so these tables can always be rebuilt from ``records``.
"""
# ruff: noqa: RUF012  (Django and DRF declare options as mutable class attributes)

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.db import models
from django.db.models import F, Q
from simple_history import register as register_history
from simple_history.models import HistoricalRecords

from analysis import compact
from records.fields import CompressedJSONField
from records.models import Match, Player, Round, Ruleset, Seat, referred_rules
from xuezhan.replay import verify_document
from xuezhan.settlement import SettlementError, describe
from xuezhan.sheet import settle_sheet


def _seat_check(field: str, name: str, nullable: bool = False) -> models.CheckConstraint:
    condition = Q(**{f"{field}__gte": 0, f"{field}__lte": 3})
    if nullable:
        condition |= Q(**{f"{field}__isnull": True})
    return models.CheckConstraint(condition=condition, name=name)


def engine_report(document: Any) -> dict[str, Any]:
    """The engine's report on a document, exactly as ``xuezhan verify`` prints it (a score
    sheet's settlement for a sheet: no tiles, no replay)."""
    if isinstance(document, dict) and document.get("format") == "xuezhan-sheet":
        report: dict[str, Any] = settle_sheet(document).to_dict()
        return report
    report = verify_document(document).to_dict()
    return report


class Verification(models.Model):
    """The engine's verdict on one match: legal or not; its full report is rebuilt from the
    document on demand (:attr:`report`)."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="verification")
    legal = models.BooleanField()
    engine_version = models.CharField(max_length=32)
    verified_at = models.DateTimeField()
    # a reference (records.Ruleset), as the match's: read as :attr:`ruleset`
    stored_ruleset = models.ForeignKey(
        Ruleset, null=True, on_delete=models.PROTECT, related_name="+", db_index=False,
        help_text="The ruleset the engine resolved.",
    )
    totals = models.JSONField(help_text="Each seat's total over the match (4 integers).")
    # compressed (zstd): as jsonb, the largest value of a verification (~2.5 KB a match);
    # read only in Python, filtered only by whether it is there
    review = CompressedJSONField(
        null=True,
        blank=True,
        help_text="The decision review's summaries (xuezhan.review): `seats`, each seat over "
        "the match, and `rounds`, each round's four; null when the engine could not review.",
    )

    def __str__(self) -> str:
        return f"verification of match {self.match_id}: {'legal' if self.legal else 'illegal'}"

    @property
    def ruleset(self) -> Any:
        """The ruleset the engine resolved (None where it could not)."""
        return referred_rules(self, "stored_ruleset")

    @property
    def report(self) -> dict[str, Any]:
        """The engine's report, replayed from the match's document: not stored, as it was
        the largest part of a verification's rows (~7 KB a match compressed, docs/scaling.md,
        "Storage") and nothing reads it but this. The verdict, totals, violations and
        settlement it gave are stored; a replay by a later engine may word it differently."""
        return engine_report(self.match.document)


class Violation(models.Model):
    """One rule violation found in a match, with its locators (any may be absent)."""

    # no index of its own: violation_unique_ordinal leads with it
    verification = models.ForeignKey(
        Verification, on_delete=models.CASCADE, related_name="violations", db_index=False
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
    """Round-level facts of the settlement: whether it finished, who deals next, and its
    payment lines (:attr:`payments`)."""

    round = models.OneToOneField(Round, on_delete=models.CASCADE, related_name="settlement")
    incomplete = models.BooleanField()
    next_dealer = models.PositiveSmallIntegerField(null=True, blank=True)
    deltas = models.JSONField(help_text="Each seat's net change in the round (4 integers).")
    # one packed text, not a row per line: ~5 rows of ~218 B and two index entries a round
    # were a fifth of the database (analysis.compact, docs/scaling.md "Storage")
    lines = models.TextField(
        default=compact.NO_LINES,
        help_text="The round's payment lines, packed (analysis.compact.dumps_lines).",
    )

    class Meta:
        constraints = [_seat_check("next_dealer", "settlement_next_dealer_seat", nullable=True)]

    @cached_property
    def payments(self) -> list[Payment]:
        """The round's payment lines, in order."""
        return [Payment(ordinal=ordinal, **line)
                for ordinal, line in enumerate(compact.loads_lines(self.lines))]  # fmt: skip


def payments_of(round_: Round) -> list[Payment]:
    """A round's payment lines, in order; none before it is verified."""
    settlement: RoundSettlement | None = getattr(round_, "settlement", None)
    return [] if settlement is None else settlement.payments


@dataclass
class Payment:
    """One line of a round's settlement: ``payer`` pays ``payee`` ``amount`` for ``reason``.
    Not a row: read from its round's :attr:`RoundSettlement.payments`."""

    payer: int
    payee: int
    amount: int
    reason: str
    #: what explains the line, as data (per reason: xuezhan.settlement.describe)
    params: Any = field(default_factory=dict)
    #: the sentence where the params do not give it (written before params, or worded by
    #: another engine), else "": xuezhan.settlement.describe renders it from the params
    stored_detail: str = ""
    ordinal: int = 0

    def __str__(self) -> str:
        return f"seat {self.payer} pays seat {self.payee} {self.amount} ({self.reason})"

    @property
    def detail(self) -> str:
        """The line, explained: the English sentence of its reason and params."""
        return self.stored_detail or describe(self.reason, self.params)

    def to_line(self) -> dict[str, Any]:
        """The line as :func:`analysis.compact.dumps_lines` takes it."""
        return {"payer": self.payer, "payee": self.payee, "amount": self.amount,
                "reason": self.reason, "params": self.params,
                "stored_detail": self.stored_detail}  # fmt: skip


def stored_detail(reason: str, params: Any, detail: str) -> str:
    """What :attr:`Payment.stored_detail` keeps of a line's ``detail``: nothing when its
    params give the same sentence (every line of today's engine)."""
    try:
        return "" if params and describe(reason, params) == detail else detail
    except (SettlementError, KeyError, TypeError, ValueError):  # not this engine's params
        return detail


_NET_FROM = "Received from seat {seat} in the round's payment lines, less paid to it."
#: SeatResult's columns of the money from each seat, by seat
NET_FROM = ("net_from_0", "net_from_1", "net_from_2", "net_from_3")


class SeatResult(models.Model):
    """Per round, per seat: the facts statistics are made of."""

    # the round and seat are the key: a surrogate id was a column and an index more in
    # every row (~12 MB per 100k rounds, docs/scaling.md "Storage"); nothing points here
    pk = models.CompositePrimaryKey("round_id", "seat")
    # round, player and club have no index of their own: the key and the composite
    # indexes of Meta lead with them, and each index is written for every seat of every round
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="seat_results", db_index=False
    )
    seat = models.PositiveSmallIntegerField()
    # player, match and club are the round's match's, copied for the indexes: the database
    # checks each row's round (and through it the match) and not those three again, which
    # cost a third of a bulk load's commit (docs/scaling.md); Django still cascades them
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="seat_results", db_index=False,
        db_constraint=False,
    )
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
    match = models.ForeignKey(
        Match, null=True, on_delete=models.CASCADE, related_name="+", db_constraint=False
    )
    club = models.ForeignKey(
        "records.Club", null=True, on_delete=models.CASCADE, related_name="+", db_index=False,
        db_constraint=False,
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
    # from the decision review (Verification.review), written by analysis.stats.aggregates;
    # all 0 when the round has no review
    reviewed_discards = models.PositiveSmallIntegerField(default=0)
    best_discards = models.PositiveSmallIntegerField(
        default=0, help_text="Reviewed discards judged best or equal (一致)."
    )
    ukeire_lost = models.PositiveIntegerField(default=0, help_text="进张 lost over the discards.")
    # the money between this seat and each seat of the round, from its payment lines (not
    # the pot): what head-to-head figures sum, read with the seat rows they already read
    net_from_0 = models.IntegerField(default=0, help_text=_NET_FROM.format(seat=0))
    net_from_1 = models.IntegerField(default=0, help_text=_NET_FROM.format(seat=1))
    net_from_2 = models.IntegerField(default=0, help_text=_NET_FROM.format(seat=2))
    net_from_3 = models.IntegerField(default=0, help_text=_NET_FROM.format(seat=3))

    class Meta:
        ordering = ["round_id", "seat"]
        constraints = [
            _seat_check("seat", "seatresult_seat_in_range"),
            _seat_check("discarder", "seatresult_discarder_seat", nullable=True),
            models.CheckConstraint(
                condition=Q(won=True) | Q(win_order__isnull=True), name="seatresult_order_if_won"
            ),
        ]
        # no (player, round) index: the "with" filter (stats.figures.counted) reads the
        # co-player's rows through (player, played_at), as the planner did with it there
        indexes = [
            models.Index(fields=["player", "played_at"], name="seatresult_player_played"),
            models.Index(fields=["club", "played_at"], name="seatresult_club_played"),
        ]

    def __str__(self) -> str:
        return f"seat {self.seat} of {self.round}: {self.delta:+d}"


# --- Materialised statistics (analysis.stats.aggregates, docs/statistics.md "Scale") ---
# Derived from SeatResult and Seat by analysis.stats.aggregates.refresh_match for the
# (player, day) keys a match touches; never written anywhere else.


class _StatsKey(models.Model):
    """What the statistics filter on: the club, the player, the UTC day of ``played_at``,
    the ruleset and the verdict. Only complete rounds are ever counted into these rows."""

    club = models.ForeignKey("records.Club", on_delete=models.CASCADE, related_name="+")
    # no index of its own: each table's unique key leads with it
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+", db_index=False)
    day = models.DateField()
    ruleset_name = models.CharField(max_length=64, default="")
    legal = models.BooleanField()

    class Meta:
        abstract = True


class PlayerDay(_StatsKey):
    """A player's sums of one day (per ruleset and verdict): every sum of
    ``analysis.stats.figures.AGGREGATES``, under the same name, over that day's seat rows."""

    # keyed by what it sums over, as each of the day rows: no surrogate id (docs/scaling.md,
    # "Storage"); the key's index serves the (player, day) reads
    pk = models.CompositePrimaryKey("player_id", "day", "ruleset_name", "legal")
    # no index of its own: playerday_club_day leads with it
    club = models.ForeignKey(
        "records.Club", on_delete=models.CASCADE, related_name="+", db_index=False
    )

    rounds = models.IntegerField(default=0)
    matches = models.IntegerField(default=0)
    net = models.IntegerField(default=0)
    wins = models.IntegerField(default=0)
    self_draw_wins = models.IntegerField(default=0)
    win_received = models.IntegerField(default=0)
    win_paid = models.IntegerField(default=0)
    fan = models.IntegerField(default=0)
    deal_ins = models.IntegerField(default=0)
    deal_in_amount = models.IntegerField(default=0)
    big_deal_ins = models.IntegerField(default=0)
    active_turns = models.IntegerField(default=0)
    paid_self_draws = models.IntegerField(default=0)
    claim_rounds = models.IntegerField(default=0)
    drawn_in = models.IntegerField(default=0)
    ready_at_draw = models.IntegerField(default=0)
    dealer_rounds = models.IntegerField(default=0)
    first = models.IntegerField(default=0)
    second = models.IntegerField(default=0)
    third = models.IntegerField(default=0)
    last_standing = models.IntegerField(default=0)
    roots = models.IntegerField(default=0)
    kong_bloom = models.IntegerField(default=0)
    kong_discard_win = models.IntegerField(default=0)
    rob_kong_win = models.IntegerField(default=0)
    last_tile_win = models.IntegerField(default=0)
    heaven_earth = models.IntegerField(default=0)
    capped = models.IntegerField(default=0)
    kongs_direct = models.IntegerField(default=0)
    kongs_added = models.IntegerField(default=0)
    kongs_concealed = models.IntegerField(default=0)
    kong_income = models.IntegerField(default=0)
    kong_net = models.IntegerField(default=0)
    tax_refunds = models.IntegerField(default=0)
    refunded = models.IntegerField(default=0)
    call_transfer_in = models.IntegerField(default=0)
    call_transfer_in_amount = models.IntegerField(default=0)
    call_transfer_out = models.IntegerField(default=0)
    call_transfer_out_amount = models.IntegerField(default=0)
    robbed_kongs = models.IntegerField(default=0)
    pig_rounds = models.IntegerField(default=0)
    pig_paid = models.IntegerField(default=0)
    pig_net = models.IntegerField(default=0)
    ting_received_rounds = models.IntegerField(default=0)
    ting_received = models.IntegerField(default=0)
    ting_paid_rounds = models.IntegerField(default=0)
    ting_paid = models.IntegerField(default=0)
    ting_net = models.IntegerField(default=0)
    exchanges = models.IntegerField(default=0)
    exchange_shortest = models.IntegerField(default=0)
    void_given_of = models.IntegerField(default=0)
    void_is_given = models.IntegerField(default=0)
    voids = models.IntegerField(default=0)
    void_fewest = models.IntegerField(default=0)
    void_cleared_sum = models.IntegerField(default=0)
    void_cleared_of = models.IntegerField(default=0)
    shanten_sum = models.IntegerField(default=0)
    shanten_of = models.IntegerField(default=0)
    reviewed_discards = models.IntegerField(default=0)
    best_discards = models.IntegerField(default=0)
    ukeire_lost = models.IntegerField(default=0)

    class Meta:
        indexes = [models.Index(fields=["club", "day"], name="playerday_club_day")]


class PlayerDayPattern(_StatsKey):
    """A player's wins of one day with one top pattern."""

    # the key a first verification adds its wins to (analysis.stats.aggregates)
    pk = models.CompositePrimaryKey("player_id", "day", "ruleset_name", "legal", "pattern")
    pattern = models.CharField(max_length=64)
    wins = models.IntegerField()


class PairDay(_StatsKey):
    """Head-to-head of one day: rounds ``player`` and ``other`` sat at together, and what
    ``other`` paid ``player`` minus the reverse over those rounds' payment lines."""

    # the key a first verification adds its rounds and money to (analysis.stats.aggregates)
    pk = models.CompositePrimaryKey("player_id", "day", "ruleset_name", "legal", "other_id")
    # no index of its own: every read names the player first (the key), and a player is
    # deleted only with the club (a seated one cannot be: Seat.player)
    other = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+", db_index=False)
    rounds = models.IntegerField()
    net = models.IntegerField()


class PlayerMatch(_StatsKey):
    """A player's match: its net and records (the runs and record rounds read these; the
    record rounds' indexes are copied so that reading them needs no join)."""

    pk = models.CompositePrimaryKey("match_id", "player_id")
    # no index of its own: the key leads with it
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+", db_index=False)
    played_at = models.DateTimeField()
    rounds = models.IntegerField()
    net = models.IntegerField()
    best_win = models.IntegerField(null=True, help_text="The largest delta of a round won.")
    best_win_round = models.ForeignKey(
        Round, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    best_win_index = models.PositiveSmallIntegerField(null=True, help_text="Its round's index.")
    worst_loss = models.IntegerField(null=True, help_text="The most negative round delta.")
    worst_loss_round = models.ForeignKey(
        Round, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    worst_loss_index = models.PositiveSmallIntegerField(null=True)

    class Meta:
        indexes = [
            models.Index(fields=["player", "played_at"], name="playermatch_player_played")
        ]


# --- League bookkeeping: seasons, accepted matches, settle-ups ---


class Season(models.Model):
    """A club's season: which matches count, how standings are ranked, what a point is worth.

    The club's matches played between ``starts_on`` and ``ends_on`` (UTC dates, inclusive)
    under exactly the season's resolved ruleset belong to it; matches under another ruleset
    in those dates are listed apart, never mixed in. ``SeasonMatch`` adds others by hand.
    """

    class Method(models.TextChoices):
        NET = "net", "Net points"
        PLACEMENT = "placement", "Placement points"

    TIE_BREAKS = ("wins", "net_per_round", "deal_ins_per_round", "head_to_head")

    # no index of its own: an index or key of Meta leads with it
    club = models.ForeignKey(
        "records.Club", on_delete=models.CASCADE, related_name="seasons", db_index=False
    )
    name = models.CharField(max_length=100)
    starts_on = models.DateField()
    ends_on = models.DateField()
    ruleset = models.JSONField(help_text="The resolved ruleset its matches are played under.")
    ruleset_name = models.CharField(max_length=64, help_text="The preset the ruleset builds on.")
    point_value = models.DecimalField(
        max_digits=12, decimal_places=4, null=True, blank=True, help_text="Money per point."
    )
    method = models.CharField(max_length=10, choices=Method.choices, default=Method.NET)
    placement_points = models.JSONField(
        default=list, blank=True, help_text="Points for 1st–4th by match net (4 numbers)."
    )
    tie_breaks = models.JSONField(default=list, blank=True, help_text="Tie-break codes, in order.")
    min_matches = models.PositiveIntegerField(default=0)
    include_accepted = models.BooleanField(
        default=False, help_text="Count illegal matches the club accepted as played."
    )
    created_by = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_on", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="season_unique_name"),
            models.CheckConstraint(
                condition=Q(ends_on__gte=F("starts_on")), name="season_ends_after_start"
            ),
            models.CheckConstraint(
                condition=Q(method__in=["net", "placement"]), name="season_method_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.starts_on} – {self.ends_on})"


class SeasonMatch(models.Model):
    """A match assigned to a season by hand, whatever its date or ruleset."""

    # no index of its own: an index or key of Meta leads with it
    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="assignments", db_index=False
    )
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="season_assignments")
    assigned_by = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    assigned_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["season_id", "match_id"]
        constraints = [
            models.UniqueConstraint(fields=["season", "match"], name="seasonmatch_unique_match")
        ]


class MatchAcceptance(models.Model):
    """The club accepts an illegal match as played: who decided, when and why."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="acceptance")
    accepted_by = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    accepted_at = models.DateTimeField(auto_now_add=True)
    reason = models.TextField()
    history = HistoricalRecords(app="analysis")

    class Meta:
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="acceptance_reason_not_empty")
        ]


class SettleUp(models.Model):
    """``payer`` paid ``payee`` ``points`` (the whole of a transfer or part of it).

    Append-only: a mistake is corrected with a record the other way, so the books keep
    every change. What is not paid carries over into the next period's opening balance.
    """

    # no index of its own: an index or key of Meta leads with it
    club = models.ForeignKey(
        "records.Club", on_delete=models.CASCADE, related_name="settle_ups", db_index=False
    )
    season = models.ForeignKey(
        Season, null=True, blank=True, on_delete=models.SET_NULL, related_name="settle_ups"
    )
    night = models.ForeignKey(
        "Night",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="settle_ups",
        help_text="The night whose settle-up this pays (its page marks the transfer paid).",
    )
    payer = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="settle_ups_paid")
    payee = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="settle_ups_received")
    points = models.PositiveIntegerField()
    paid_at = models.DateTimeField()
    note = models.TextField(blank=True, default="")
    recorded_by = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-paid_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=~Q(payer=F("payee")), name="settleup_not_to_self"),
            models.CheckConstraint(condition=Q(points__gt=0), name="settleup_points_positive"),
        ]
        indexes = [models.Index(fields=["club", "paid_at"], name="settleup_club_paid")]

    def __str__(self) -> str:
        return f"{self.payer} paid {self.payee} {self.points}"


class PlayerRating(models.Model):
    """A player's current rating in a club (analysis.league.ratings), recomputed from scratch."""

    # no index of its own: an index or key of Meta leads with it
    club = models.ForeignKey(
        "records.Club", on_delete=models.CASCADE, related_name="ratings", db_index=False
    )
    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="rating")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(help_text="mu − 3·sigma: the rating shown and ranked by.")
    matches = models.PositiveIntegerField()
    model_version = models.CharField(max_length=200)
    computed_at = models.DateTimeField()

    class Meta:
        ordering = ["club_id", "-ordinal", "player_id"]
        indexes = [models.Index(fields=["club", "ordinal"], name="rating_club_ordinal")]

    @property
    def spread(self) -> float:
        """Three standard deviations: the rating is mu minus this."""
        return 3 * self.sigma


class RatingStep(models.Model):
    """A player's rating right after one match: the history a chart is drawn from."""

    # no index of its own: an index or key of Meta leads with it
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="rating_steps", db_index=False
    )
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rating_steps")
    position = models.PositiveIntegerField(help_text="The match's place in the club's order.")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()

    class Meta:
        ordering = ["player_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["player", "match"], name="ratingstep_unique_match")
        ]


# --- The books' own rows (analysis.books, docs/scaling.md) ---
# Derived from the seat rows, payment lines and the match's state (verdict, acceptance,
# void) by analysis.books.refresh_matches; never written anywhere else. A match has
# rows exactly while it counts in some book: verified, or illegal and accepted; not voided.


class BookMatch(models.Model):
    """A player's match as the books see it: net, complete rounds, deal-ins, the place by
    net and the net against each seat (head-to-head), over the match's complete rounds."""

    class Kind(models.TextChoices):
        VERIFIED = "v", "Verified"
        ACCEPTED = "a", "Illegal, accepted as played"

    pk = models.CompositePrimaryKey("match_id", "player_id")
    # no index of its own: the key leads with it
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+", db_index=False)
    # no index of its own: bookmatch_club_key leads with it
    club = models.ForeignKey(
        "records.Club", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=1, choices=Kind.choices)
    ruleset_key = models.CharField(max_length=16, help_text="analysis.books.ruleset_key")
    played_at = models.DateTimeField(null=True, help_text="The match's played_at, if any.")
    when = models.DateTimeField(help_text="played_at, else the upload: when it counts.")
    day = models.DateField(help_text="The UTC date of ``when``.")
    rounds = models.IntegerField(help_text="Complete rounds (0: the match counts no player).")
    net = models.IntegerField()
    deal_ins = models.IntegerField()
    place = models.PositiveSmallIntegerField(null=True, help_text="1–4 by net, ties share.")
    span = models.PositiveSmallIntegerField(null=True, help_text="Players sharing the place.")
    vs = models.JSONField(help_text="Net won from each seat (4 integers; 0 for its own).")

    class Meta:
        constraints = [_seat_check("seat", "bookmatch_seat_in_range")]
        indexes = [
            models.Index(fields=["club", "ruleset_key", "day"], name="bookmatch_club_key"),
            models.Index(fields=["club", "when"], name="bookmatch_club_when"),
        ]


class BookDay(models.Model):
    """A player's sums of one UTC day of a club, per kind (verified or accepted), per
    ruleset key and per whether the matches had a ``played_at`` (a season's dates need
    one): the sums of that day's ``BookMatch`` rows, which standings and ledger read."""

    pk = models.CompositePrimaryKey("club_id", "ruleset_key", "day", "kind", "dated", "player_id")
    # no index of its own: the key leads with it
    club = models.ForeignKey(
        "records.Club", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    # no index of its own: every read names the club first (the key), and a player is
    # deleted only with the club (a seated one cannot be: Seat.player)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+", db_index=False)
    day = models.DateField()
    kind = models.CharField(max_length=1, choices=BookMatch.Kind.choices)
    ruleset_key = models.CharField(max_length=16)
    dated = models.BooleanField(help_text="The matches had a played_at.")
    matches = models.IntegerField(help_text="Matches with complete rounds.")
    east = models.IntegerField(help_text="Matches sat at seat 0 (their count, summed).")
    rounds = models.IntegerField()
    net = models.IntegerField()
    deal_ins = models.IntegerField()
    first = models.IntegerField()
    second = models.IntegerField()
    third = models.IntegerField()
    fourth = models.IntegerField()
    # each place's share of placement points, in twelfths: a tie of n splits 12 into n
    share_1 = models.IntegerField()
    share_2 = models.IntegerField()
    share_3 = models.IntegerField()
    share_4 = models.IntegerField()


# --- Club nights (analysis.league.nights, docs/league.md "Nights") ---


class Night(models.Model):
    """One evening's sitting (牌局) of a club: its matches, the people present and their
    seating, its own standings and its own settle-up, which admins mark paid.

    ``date`` is the evening's date in the club's time zone; an open night takes in the
    club's matches played from 06:00 that day to 06:00 the next (analysis.league.nights).
    """

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        CLOSED = "closed", "Closed"

    # no index of its own: night_club_date leads with it
    club = models.ForeignKey(
        "records.Club", on_delete=models.CASCADE, related_name="nights", db_index=False
    )
    name = models.CharField(max_length=100, blank=True, default="")
    date = models.DateField(help_text="The evening's date, in the club's time zone.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    point_value = models.DecimalField(
        max_digits=12, decimal_places=4, null=True, blank=True, help_text="Money per point."
    )
    players = models.ManyToManyField(
        Player, through="NightPlayer", blank=True, related_name="nights",
        help_text="The people present.",
    )
    seating = models.JSONField(
        null=True, blank=True, help_text="The seating (analysis.league.seating), with its seed."
    )
    created_by = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    closed_by = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-date", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["open", "closed"]), name="night_status_valid"
            ),
        ]
        indexes = [models.Index(fields=["club", "date"], name="night_club_date")]

    def __str__(self) -> str:
        return f"night {self.pk} of {self.date}"

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN


class NightPlayer(models.Model):
    """A player present at a night (its seating seats them)."""

    # no index of its own: nightplayer_unique_player leads with it
    night = models.ForeignKey(
        Night, on_delete=models.CASCADE, related_name="presence", db_index=False
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["night", "player"], name="nightplayer_unique_player")
        ]


class NightMatch(models.Model):
    """A match played at a night (a match belongs to one night at most)."""

    # no index of its own: nightmatch_night leads with it
    night = models.ForeignKey(
        Night, on_delete=models.CASCADE, related_name="entries", db_index=False
    )
    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="night_entry")
    added_by = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["night_id", "match_id"]
        indexes = [models.Index(fields=["night", "match"], name="nightmatch_night")]


# --- Corrections: history of every change to a match (analysis.league.corrections) ---


class MatchVoid(models.Model):
    """A match the club voided: kept, but counted nowhere (standings, ledger, ratings)."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="void")
    voided_by = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    voided_at = models.DateTimeField(auto_now_add=True)
    reason = models.TextField()
    history = HistoricalRecords(app="analysis")


class MatchDocumentVersion(models.Model):
    """A document a correction replaced, kept verbatim with who replaced it and why."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="document_versions")
    raw = models.BinaryField()
    document = models.JSONField()
    content_sha256 = models.CharField(max_length=64)
    replaced_by = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    replaced_at = models.DateTimeField(auto_now_add=True)
    reason = models.TextField()

    class Meta:
        ordering = ["match_id", "replaced_at", "id"]


# The records' own tables stay as they are: their history lives here. The document itself
# is left out of Match's history (MatchDocumentVersion keeps each replaced one, once).
register_history(
    Match, app="analysis", excluded_fields=["raw", "lease_until", "lease_owner"]
)
register_history(Seat, app="analysis")
# a handle's link to a member's account: who linked or unlinked it, when and why
register_history(Player, app="analysis", excluded_fields=["created_at"])
