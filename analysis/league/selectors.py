"""Reads of the club's books: a season's matches, its standings, the ledger.

Standings, the ledger and the what-if read the books' own rows (``BookMatch``, a player's
match; ``BookDay``, a player's day: analysis.books), keyed by club, ruleset key and
day, so that they cost what the page shows, not what the club ever played. Only complete
rounds count. A match counts when it is verified legal, or illegal but accepted as played
where the season says so; a voided match nowhere. A night's books (``match_set_*``) still
read the settlements of their few matches.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from fractions import Fraction
from typing import Any, Protocol
from zoneinfo import ZoneInfo

from django.db.models import Count, Exists, OuterRef, Q, QuerySet, Subquery, Sum
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from analysis import books
from analysis.league import ledger
from analysis.models import (
    NET_FROM,
    BookDay,
    BookMatch,
    MatchAcceptance,
    PlayerRating,
    RatingStep,
    Season,
    SeasonMatch,
    SeatResult,
    SettleUp,
)
from records.models import Club, Match, Player, Seat, document_of, ruleset_key
from xuezhan.replay import verify_document
from xuezhan.sheet import settle_sheet

DEFAULT_PLACEMENT_POINTS = (4, 2, 1, 0)
TIE_BREAK_NAMES: dict[str, Promise] = {
    "wins": _("more matches won (placed 1st)"),
    "net_per_round": _("higher net per round"),
    "deal_ins_per_round": _("fewer deal-ins per round"),
    "head_to_head": _("head-to-head net among the tied players"),
}


def counted(include_accepted: bool) -> Q:
    """The matches that count: verified legal, or illegal and accepted where that is asked."""
    counted = Q(status=Match.Status.VERIFIED)
    if include_accepted:
        counted |= Q(status=Match.Status.ILLEGAL, acceptance__isnull=False)
    return counted & Q(void__isnull=True)  # a voided match counts nowhere


def _in_dates(season: Season) -> QuerySet[Match]:
    """The club's matches played in the season's dates (days of the club's time zone, as
    the books' rows)."""
    zone = ZoneInfo(season.club.time_zone)
    first = datetime.combine(season.starts_on, time.min, tzinfo=zone)
    after = datetime.combine(season.ends_on + timedelta(days=1), time.min, tzinfo=zone)
    return Match.objects.filter(club=season.club, played_at__gte=first, played_at__lt=after)


@dataclass(frozen=True)
class _Scope:
    """Which book rows a book reads: a club's, of some kinds; for a season, those dated in
    its days under its ruleset (by stored key), and those assigned to it by hand."""

    club_id: int
    kinds: tuple[str, ...]
    season: Season | None = None

    @property
    def key(self) -> str:
        return ruleset_key(self.season.ruleset) if self.season else ""

    def _dated(self) -> Q:
        where = Q(club_id=self.club_id, kind__in=self.kinds)
        if self.season is not None:
            where &= Q(ruleset_key=self.key, day__gte=self.season.starts_on,
                       day__lte=self.season.ends_on)
        return where

    def days(self) -> QuerySet[BookDay]:
        """The day rows of the dated matches (all the club's without a season)."""
        rows = BookDay.objects.filter(self._dated())
        return rows.filter(dated=True) if self.season is not None else rows

    def dated(self) -> Q:
        """The match rows the day rows sum."""
        if self.season is None:
            return self._dated()
        return self._dated() & Q(played_at__isnull=False)

    def assigned(self) -> Q:
        """The rows of matches assigned by hand (none without a season)."""
        if self.season is None:
            return Q(pk__in=[])
        by_hand = SeasonMatch.objects.filter(season=self.season, match_id=OuterRef("match_id"))
        return Q(Exists(by_hand), club_id=self.club_id, kind__in=self.kinds)

    def extras(self) -> QuerySet[BookMatch]:
        """Rows of matches assigned by hand and not already dated in."""
        return BookMatch.objects.filter(self.assigned() & ~self.dated())

    def matches(self) -> QuerySet[BookMatch]:
        """Every match row of the scope (dated or assigned)."""
        return BookMatch.objects.filter(self.dated() | self.assigned())


def _kinds(include_accepted: bool) -> tuple[str, ...]:
    if include_accepted:
        return (BookMatch.Kind.VERIFIED, BookMatch.Kind.ACCEPTED)
    return (BookMatch.Kind.VERIFIED,)


def season_scope(season: Season) -> _Scope:
    return _Scope(season.club_id, _kinds(season.include_accepted), season)


def season_matches(season: Season) -> QuerySet[Match]:
    """The season's matches that count: in its dates (the club's days) under its ruleset,
    or assigned by hand; a subquery, not a list of ids."""
    ids = season_scope(season).matches().filter(seat=0).values("match_id")
    return Match.objects.filter(pk__in=Subquery(ids))


def season_match_ids(season: Season) -> list[int]:
    """The ids of :func:`season_matches`, in order (for callers that want a list)."""
    return sorted(season_matches(season).values_list("pk", flat=True))


def season_other_ruleset_matches(season: Season) -> QuerySet[Match]:
    """Matches in the season's dates under another ruleset: listed apart, not counted.
    The rulesets are compared by their keys (records.models.ruleset_key: the order of the
    options means nothing to it)."""
    in_dates = _in_dates(season)
    assigned = SeasonMatch.objects.filter(season=season).values("match_id")
    other = in_dates.exclude(stored_ruleset_id=ruleset_key(season.ruleset))
    return (other.exclude(pk__in=Subquery(assigned)).defer("raw")
            .select_related("stored_ruleset"))  # the page shows each one's ruleset


def _complete_rounds(match_ids: Iterable[int]) -> Q:
    return Q(round__match_id__in=list(match_ids), round__settlement__incomplete=False)


# --- standings ---


@dataclass
class MatchResult:
    """One match as standings see it: each player's net over its complete rounds."""

    match_id: int
    day: date
    net: dict[int, int]  # player id -> net
    rounds: dict[int, int]  # player id -> complete rounds
    deal_ins: dict[int, int] = field(default_factory=dict)
    seat_players: dict[int, int] = field(default_factory=dict)  # seat -> player id


@dataclass
class Row:
    player: int
    handle: str
    matches: int = 0
    rounds: int = 0
    net: int = 0
    placement_points: Fraction = Fraction(0)
    placements: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    deal_ins: int = 0
    head_to_head: int | None = None
    rank: int | None = None
    previous_rank: int | None = None

    @property
    def wins(self) -> int:
        return self.placements[0]

    @property
    def net_per_round(self) -> Fraction:
        return Fraction(self.net, self.rounds) if self.rounds else Fraction(0)

    @property
    def deal_ins_per_round(self) -> Fraction:
        return Fraction(self.deal_ins, self.rounds) if self.rounds else Fraction(0)

    @property
    def movement(self) -> int | None:
        """Places gained since the previous match day (negative: lost); None if new."""
        if self.rank is None or self.previous_rank is None:
            return None
        return self.previous_rank - self.rank


@dataclass
class Standings:
    season: Season
    rows: list[Row]
    match_days: list[date]
    match_count: int


def match_results(match_ids: list[int]) -> list[MatchResult]:
    """Per match and player: net, complete rounds and deal-ins, from three aggregates."""
    days = {  # the club's days, as the books' rows
        pk: (played or uploaded).astimezone(ZoneInfo(zone)).date()
        for pk, played, uploaded, zone in Match.objects.filter(pk__in=match_ids).values_list(
            "pk", "played_at", "uploaded_at", "club__time_zone"
        )
    }
    results = {pk: MatchResult(pk, days[pk], {}, {}) for pk in match_ids}
    per_player = (
        SeatResult.objects.filter(_complete_rounds(match_ids))
        .values("round__match_id", "player_id")
        .annotate(net=Sum("delta"), rounds=Count("round"))
    )
    for row in per_player:
        result = results[row["round__match_id"]]
        result.net[row["player_id"]] = row["net"]
        result.rounds[row["player_id"]] = row["rounds"]
    for match_id, seat, player_id in Seat.objects.filter(match_id__in=match_ids).values_list(
        "match_id", "seat", "player_id"
    ):
        results[match_id].seat_players[seat] = player_id
    # A deal-in is a win off the player's discard: counted on the winner's row, per winner.
    deal_ins = (
        SeatResult.objects.filter(_complete_rounds(match_ids), discarder__isnull=False)
        .values("round__match_id", "discarder")
        .annotate(n=Count("round"))
    )
    for claim in deal_ins:
        result = results[claim["round__match_id"]]
        player = result.seat_players[claim["discarder"] or 0]  # not null: filtered above
        result.deal_ins[player] = result.deal_ins.get(player, 0) + claim["n"]
    return sorted(results.values(), key=lambda r: (r.day, r.match_id))


def placements(
    net: dict[int, int], points: tuple[Fraction, ...]
) -> dict[int, tuple[int, Fraction]]:
    """Each player's place (1–4, ties share the better place) and placement points (ties
    share the points of the places they span, evenly)."""
    order = sorted(net.values(), reverse=True)
    placed = {}
    for player, value in net.items():
        first = order.index(value)
        span = order.count(value)
        share = sum(points[first : first + span], Fraction(0)) / span
        placed[player] = (first + 1, share)
    return placed


class _HeadToHead:
    """Net between the players of a tie, from the payment lines of complete rounds (their
    seat rows' money from each other seat)."""

    def __init__(self, results: list[MatchResult]) -> None:
        # (player, other) -> points the player received from the other, less paid to them
        self._net: dict[tuple[int, int], int] = defaultdict(int)
        seats = {r.match_id: r.seat_players for r in results}
        sums = {f"s_{column}": Sum(column) for column in NET_FROM}
        for match_id, seat, *nets in (
            SeatResult.objects.filter(_complete_rounds(seats))
            .values("round__match_id", "seat")
            .annotate(**sums)
            .values_list("round__match_id", "seat", *sums)
        ):
            players = seats[match_id]
            for other, amount in enumerate(nets):
                if other != seat and amount:
                    self._net[players[seat], players[other]] += amount

    def net(self, player: int, group: Iterable[int]) -> int:
        return sum(self._net[player, o] for o in group if o != player)


def compute_rows(season: Season, results: list[MatchResult], handles: dict[int, str]) -> list[Row]:
    """The ranked rows over ``results`` (the season's rules: method, tie-breaks, minimum)."""
    points = tuple(Fraction(p) for p in (season.placement_points or DEFAULT_PLACEMENT_POINTS))
    rows: dict[int, Row] = {}
    for result in results:
        if not result.net:
            continue
        for player, (place, share) in placements(result.net, points).items():
            row = rows.setdefault(player, Row(player=player, handle=handles.get(player, "?")))
            row.matches += 1
            row.rounds += result.rounds[player]
            row.net += result.net[player]
            row.placement_points += share
            row.placements[place - 1] += 1
            row.deal_ins += result.deal_ins.get(player, 0)
    h2h = _HeadToHead(results) if "head_to_head" in season.tie_breaks else None
    return rank_rows(season, list(rows.values()), h2h)


class HeadToHead(Protocol):
    def net(self, player: int, group: Iterable[int]) -> int: ...


def rank_rows(season: Season, rows: list[Row], h2h: HeadToHead | None) -> list[Row]:
    """Rank ``rows`` by the season's method, tie-breaks and minimum of matches."""

    def primary(row: Row) -> Fraction:
        return (
            row.placement_points if season.method == Season.Method.PLACEMENT else Fraction(row.net)
        )

    ranked = [r for r in rows if r.matches >= season.min_matches]
    unranked = [r for r in rows if r.matches < season.min_matches]
    ordered: list[Row] = []
    for group in _by_key(ranked, primary):
        for tied in _break_ties(group, list(season.tie_breaks), h2h):
            rank = len(ordered) + 1
            for row in sorted(tied, key=lambda r: r.handle):
                row.rank = rank
                ordered.append(row)
    leftovers = sorted(unranked, key=lambda r: (-primary(r), r.handle))
    return ordered + leftovers


def _by_key(rows: list[Row], key: Callable[[Row], Any]) -> list[list[Row]]:
    """Rows grouped by ``key``, best (highest) first."""
    groups: dict[Any, list[Row]] = defaultdict(list)
    for row in rows:
        groups[key(row)].append(row)
    return [groups[k] for k in sorted(groups, reverse=True)]


def _break_ties(group: list[Row], breaks: list[str], h2h: HeadToHead | None) -> list[list[Row]]:
    """Split a tie by the tie-breaks in order; what no tie-break separates stays tied."""
    if len(group) < 2 or not breaks:
        return [group]
    first, rest = breaks[0], breaks[1:]
    if first == "head_to_head" and h2h is not None:
        players = [r.player for r in group]
        for row in group:
            row.head_to_head = h2h.net(row.player, players)
    out: list[list[Row]] = []
    for sub in _by_key(group, _TIE_KEYS[first]):
        out.extend(_break_ties(sub, rest, h2h))
    return out


_TIE_KEYS: dict[str, Callable[[Row], Any]] = {
    "wins": lambda r: r.wins,
    "net_per_round": lambda r: r.net_per_round,
    "deal_ins_per_round": lambda r: -r.deal_ins_per_round,  # fewer is better
    "head_to_head": lambda r: r.head_to_head or 0,
}


def _new_sums() -> dict[str, int]:
    return dict.fromkeys(books.SUMS, 0)


def _season_sums(
    scope: _Scope, last: date | None
) -> tuple[dict[int, dict[str, int]], dict[int, dict[str, int]]]:
    """Each player's sums (``books.SUMS``) over the scope, and over its days before
    ``last``: one aggregate of the day rows, plus the few matches assigned by hand."""
    totals: dict[int, dict[str, int]] = defaultdict(_new_sums)
    before: dict[int, dict[str, int]] = defaultdict(_new_sums)
    early = Q(day__lt=last) if last else Q(pk__in=[])
    sums: dict[str, Any] = {f"all_{name}": Sum(name) for name in books.SUMS}
    sums |= {f"early_{name}": Sum(name, filter=early, default=0) for name in books.SUMS}
    for row in scope.days().values("player_id").annotate(**sums).order_by():
        found: dict[str, Any] = dict(row)  # the names are made above
        for name in books.SUMS:
            totals[found["player_id"]][name] += found[f"all_{name}"]
            before[found["player_id"]][name] += found[f"early_{name}"]
    fields = ("seat", "rounds", "net", "deal_ins", "place", "span")
    for row in scope.extras().values("player_id", "day", *fields):
        facts = {name: row[name] for name in fields}
        books.add_match(totals[row["player_id"]], **facts)
        if last and row["day"] < last:
            books.add_match(before[row["player_id"]], **facts)
    return totals, before


def _rows(season: Season, sums: dict[int, dict[str, int]], handles: dict[int, str]) -> list[Row]:
    """A row per player with a match of complete rounds, from the player's sums."""
    points = tuple(Fraction(p) for p in (season.placement_points or DEFAULT_PLACEMENT_POINTS))
    rows = []
    for player, s in sums.items():
        if not s["matches"]:
            continue
        # each place's points times its share, in twelfths (books.TWELFTHS): exact
        shares = sum((points[k] * s[f"share_{k + 1}"] for k in range(4)), Fraction(0))
        rows.append(Row(
            player=player, handle=handles.get(player, "?"), matches=s["matches"],
            rounds=s["rounds"], net=s["net"], placement_points=shares / books.TWELFTHS,
            placements=[s["first"], s["second"], s["third"], s["fourth"]],
            deal_ins=s["deal_ins"],
        ))  # fmt: skip
    return rows


class _BookHeadToHead:
    """Net between the players of a tie, from their match rows' net against each seat
    (read only when a tie asks, for the tied players alone)."""

    def __init__(self, scope: _Scope, before: date | None) -> None:
        self._scope, self._before = scope, before
        self._nets: dict[frozenset[int], dict[int, int]] = {}

    def net(self, player: int, group: Iterable[int]) -> int:
        players = frozenset(group)
        if players not in self._nets:
            self._nets[players] = self._among(players)
        return self._nets[players].get(player, 0)

    def _among(self, players: frozenset[int]) -> dict[int, int]:
        rows = self._scope.matches().filter(player_id__in=players, rounds__gt=0)
        if self._before is not None:
            rows = rows.filter(day__lt=self._before)
        present: dict[int, dict[int, tuple[int, list[int]]]] = defaultdict(dict)
        for match_id, player, seat, vs in rows.values_list("match_id", "player_id", "seat", "vs"):
            present[match_id][player] = (seat, vs)
        nets: dict[int, int] = defaultdict(int)
        for seated in present.values():
            for player, (_seat, vs) in seated.items():
                nets[player] += sum(vs[seat] for other, (seat, _vs) in seated.items()
                                    if other != player)
        return nets


def standings(season: Season) -> Standings:
    """The season's standings, each row with its movement since the previous match day:
    both from one read of the season's day rows (``BookDay``)."""
    scope = season_scope(season)
    days = sorted(
        set(scope.days().values_list("day", flat=True).distinct())
        | set(scope.extras().values_list("day", flat=True).distinct())
    )
    last = days[-1] if len(days) > 1 else None
    totals, before = _season_sums(scope, last)
    handles = dict(Player.objects.filter(pk__in=list(totals)).values_list("pk", "handle"))
    h2h = "head_to_head" in season.tie_breaks
    rows = rank_rows(season, _rows(season, totals, handles),
                     _BookHeadToHead(scope, None) if h2h else None)
    if last is not None:
        earlier = rank_rows(season, _rows(season, before, handles),
                            _BookHeadToHead(scope, last) if h2h else None)
        previous = {row.player: row.rank for row in earlier}
        for row in rows:
            row.previous_rank = previous.get(row.player)
    match_count = sum(s["east"] for s in totals.values())
    return Standings(season=season, rows=rows, match_days=days, match_count=match_count)


# --- ledger ---


@dataclass
class Balance:
    player: int
    handle: str
    opening: int  # carried over from before the period
    played: int  # won or lost in the period
    settled: int  # paid (+) or received (-) in settle-ups in the period
    money: ledger.Money | None

    @property
    def points(self) -> int:
        """Outstanding: positive is owed to the player, negative the player owes."""
        return self.opening + self.played + self.settled


@dataclass
class LedgerTransfer:
    payer: int
    payer_handle: str
    payee: int
    payee_handle: str
    points: int
    money: ledger.Money | None


@dataclass
class Ledger:
    balances: list[Balance]
    transfers: list[LedgerTransfer]
    point_value: Decimal | None
    exact: bool  # the transfers are the proven minimum (not the greedy bound)
    #: what the rounds paid into the pot (the club's kitty: docs/rules.md §5), owed to
    #: the club and never to a player; its transfers name :data:`POT_PARTY`
    pot: int = 0


#: the payee id of a transfer into the pot: no player has it (player ids start at 1)
POT_PARTY = 0


def _transfers(outstanding: dict[int, int], handles: dict[int, str],
               money: Callable[[int], ledger.Money | None]) -> tuple[list[LedgerTransfer], int]:
    """The fewest transfers that settle the balances, and the pot: balances that sum to
    minus the pot (penalties paid into it) settle with the pot as one more party."""
    pot = -sum(outstanding.values())
    if pot:
        outstanding = {**outstanding, POT_PARTY: pot}
        handles = {**handles, POT_PARTY: str(_("the club's pot"))}
    transfers = [
        LedgerTransfer(
            t.payer, handles[t.payer], t.payee, handles[t.payee], t.points, money(t.points)
        )
        for t in ledger.fewest_transfers(outstanding)
    ]
    return transfers, pot


def _net_until(scope: _Scope, moment: datetime | None) -> dict[int, int]:
    """Each player's net over the scope's matches that count before ``moment`` (a match
    without played_at counts from its upload); only players with complete rounds. Whole
    days from the day rows, the day of ``moment`` from its match rows."""
    days = scope.days().filter(matches__gt=0)
    edge = BookMatch.objects.none()
    extras = scope.extras().filter(rounds__gt=0)
    if moment is not None:
        zone = Club.objects.values_list("time_zone", flat=True).get(pk=scope.club_id)
        cut = moment.astimezone(ZoneInfo(zone)).date()  # the books' days are the club's
        days = days.filter(day__lt=cut)
        edge = BookMatch.objects.filter(scope.dated(), day=cut, when__lt=moment, rounds__gt=0)
        extras = extras.filter(when__lt=moment)
    net: dict[int, int] = defaultdict(int)
    for rows in (days, edge, extras):
        for player, total in rows.values("player_id").annotate(n=Sum("net")).order_by(
        ).values_list("player_id", "n"):
            net[player] += total
    return net


def club_ledger(
    club: Club,
    *,
    start: datetime | None = None,
    end: datetime | None = None,
    season: Season | None = None,
    point_value: Decimal | None = None,
) -> Ledger:
    """Balances and the fewest transfers over ``[start, end)`` (either open).

    Without a season: every counted match of the club (verified, or illegal and accepted)
    and every settle-up; with one: its matches and the settle-ups recorded against it.
    What happened before ``start`` is carried over as the opening balance.
    """
    if season is not None:
        scope = season_scope(season)
        settle_ups = SettleUp.objects.filter(club=club, season=season)
        point_value = point_value if point_value is not None else season.point_value
    else:
        scope = _Scope(club.pk, _kinds(True))
        settle_ups = SettleUp.objects.filter(club=club)
    if end is not None:
        settle_ups = settle_ups.filter(paid_at__lt=end)
    until_end = _net_until(scope, end)
    cut = start if end is None or start is None else min(start, end)
    until_start = _net_until(scope, cut) if start is not None else {}
    opening: dict[int, int] = defaultdict(int)
    period: dict[int, int] = defaultdict(int)
    settled: dict[int, int] = defaultdict(int)
    for player, net in until_end.items():
        opening[player] += until_start.get(player, 0)
        period[player] += net - until_start.get(player, 0)
    paid_before = Q(paid_at__lt=start) if start else Q(pk__in=[])
    for side, sign in (("payer_id", 1), ("payee_id", -1)):
        for row in settle_ups.values(side).annotate(
            before=Sum("points", filter=paid_before, default=0), total=Sum("points")
        ):
            opening[row[side]] += sign * row["before"]
            settled[row[side]] += sign * (row["total"] - row["before"])
    players = sorted(set(opening) | set(period) | set(settled))
    handles = dict(Player.objects.filter(pk__in=players).values_list("pk", "handle"))

    def money(points: int) -> ledger.Money | None:
        return None if point_value is None else ledger.to_money(points, point_value)

    players.sort(key=lambda p: handles[p])
    balances = [Balance(p, handles[p], opening[p], period[p], settled[p], None) for p in players]
    for b in balances:
        b.money = money(b.points)
    outstanding = {b.player: b.points for b in balances}
    transfers, pot = _transfers(outstanding, handles, money)
    nonzero = sum(1 for v in outstanding.values() if v) + bool(pot)
    return Ledger(balances, transfers, point_value, exact=nonzero <= ledger.EXACT_LIMIT,
                  pot=pot)


def accepted(match: Match) -> MatchAcceptance | None:
    return MatchAcceptance.objects.filter(match=match).select_related("accepted_by").first()


# --- ratings ---


def leaderboard(club: Club) -> QuerySet[PlayerRating]:
    return (
        PlayerRating.objects.filter(club=club)
        .select_related("player")
        .order_by("-ordinal", "player__handle")
    )


def rating_history(player: Player) -> QuerySet[RatingStep]:
    return (
        RatingStep.objects.filter(player=player)
        .select_related("match")
        .only("match__played_at", "match__uploaded_at", "position", "mu", "sigma", "ordinal")
        .order_by("position")
    )


# --- what if: the season under another ruleset ---


@dataclass
class WhatIfRow:
    player: int
    handle: str
    net_a: int
    net_b: int

    @property
    def difference(self) -> int:
        return self.net_b - self.net_a


@dataclass
class WhatIfRound:
    match: int
    round: int
    violations: list[dict[str, Any]]


@dataclass
class WhatIf:
    season: Season
    ruleset: dict[str, Any]
    rows: list[WhatIfRow]
    illegal_rounds: list[WhatIfRound]
    match_count: int


def _under(document: dict[str, Any], ruleset: dict[str, Any]) -> dict[str, Any]:
    """The document under another ruleset, without the results recorded under its own
    (they were right for that ruleset; comparing them would flag every changed payment)."""
    recorded = ("result", "totals")
    rounds = [{k: v for k, v in r.items() if k not in recorded} for r in document.get("rounds", [])]
    return {**document, "ruleset": ruleset, "rounds": rounds}


def what_if(season: Season, ruleset: dict[str, Any]) -> WhatIf:
    """Every counted match of the season settled again under ``ruleset`` (resolved): each
    player's net under the season's ruleset (A) and under it (B), only complete rounds, and
    the rounds that would not have been legal under B with their violations. Those rounds
    are still settled and counted in B: the table played them."""
    seats: dict[int, dict[int, int]] = defaultdict(dict)  # match -> seat -> player
    net_a: dict[int, int] = defaultdict(int)
    net_b: dict[int, int] = defaultdict(int)
    for match_id, seat, player, net, rounds in season_scope(season).matches().values_list(
        "match_id", "seat", "player_id", "net", "rounds"
    ):
        seats[match_id][seat] = player
        if rounds:
            net_a[player] += net
    illegal: list[WhatIfRound] = []
    documents = season_matches(season).order_by("pk").values_list("pk", "raw")
    for match_id, raw in documents.iterator(chunk_size=100):
        doc = _under(document_of(raw), ruleset)
        is_sheet = doc.get("format") == "xuezhan-sheet"
        report = (settle_sheet(doc) if is_sheet else verify_document(doc)).to_dict()
        for index, round_ in enumerate(report["rounds"]):
            if round_["incomplete"]:
                continue
            for seat, delta in enumerate(round_["deltas"]):
                net_b[seats[match_id][seat]] += delta
            found = [v for v in report["violations"] if v["round"] == index]
            if found:
                illegal.append(WhatIfRound(match_id, index, found))
    players = sorted(set(net_a) | set(net_b))
    handles = dict(Player.objects.filter(pk__in=players).values_list("pk", "handle"))
    rows = [WhatIfRow(p, handles[p], net_a[p], net_b[p]) for p in players]
    rows.sort(key=lambda r: (-r.net_b, r.handle))
    return WhatIf(season, ruleset, rows, illegal, len(seats))


# --- a set of matches (a night): standings and balances over exactly these ---
# Entry points of their own, so that the books' storage can change beneath them
# (docs/league.md, "Nights"): they read through match_results, as the season does.


def match_set_standings(match_ids: list[int], *, rules: Season | None = None) -> list[Row]:
    """The ranked rows over exactly these matches (those that count: see ``counted``):
    by net, ties split by matches won then net per round, everyone ranked, unless ``rules``
    (a season's method, tie-breaks and minimum) says otherwise."""
    ids = list(Match.objects.filter(pk__in=match_ids).filter(counted(True))
               .values_list("pk", flat=True))
    results = match_results(sorted(ids))
    players = {p for r in results for p in r.net}
    handles = dict(Player.objects.filter(pk__in=players).values_list("pk", "handle"))
    rules = rules or Season(method=Season.Method.NET, tie_breaks=["wins", "net_per_round"])
    return compute_rows(rules, results, handles)


def match_set_ledger(
    match_ids: list[int], *, settle_ups: QuerySet[SettleUp], point_value: Decimal | None
) -> Ledger:
    """Balances over exactly these matches (those that count, complete rounds) less the
    given settle-ups, and the fewest transfers that settle what is left: a night's
    settle-up. Nothing is carried over (``opening`` is 0)."""
    ids = list(Match.objects.filter(pk__in=match_ids).filter(counted(True))
               .values_list("pk", flat=True))
    played: dict[int, int] = defaultdict(int)
    for result in match_results(sorted(ids)):
        for player, net in result.net.items():
            played[player] += net
    settled: dict[int, int] = defaultdict(int)
    for payer, payee, points in settle_ups.values_list("payer_id", "payee_id", "points"):
        settled[payer] += points
        settled[payee] -= points
    players = sorted(set(played) | set(settled))
    handles = dict(Player.objects.filter(pk__in=players).values_list("pk", "handle"))

    def money(points: int) -> ledger.Money | None:
        return None if point_value is None else ledger.to_money(points, point_value)

    players.sort(key=lambda p: handles[p])
    balances = [Balance(p, handles[p], 0, played[p], settled[p], None) for p in players]
    for b in balances:
        b.money = money(b.points)
    outstanding = {b.player: b.points for b in balances}
    transfers, pot = _transfers(outstanding, handles, money)
    nonzero = sum(1 for v in outstanding.values() if v) + bool(pot)
    return Ledger(balances, transfers, point_value, exact=nonzero <= ledger.EXACT_LIMIT,
                  pot=pot)
