"""Reads of club nights: a night's book (matches, tables, standings, settle-up), the nights
the club's unclaimed matches suggest, and the club's home page.

Standings and balances come from the books' own entry points over a set of matches
(``analysis.league.selectors.match_set_standings`` / ``match_set_ledger``), so a night
counts exactly what a season or the ledger would.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from django.db.models import Prefetch, Q, QuerySet
from django.db.models.functions import Coalesce
from django.utils import timezone

from analysis.league import selectors
from analysis.league.nights import services
from analysis.models import Night, NightMatch, Season, SettleUp, Verification
from records.models import Club, Match, Membership, Player, Seat

#: matches this close in time (or closer) are proposed as one night
PROPOSAL_GAP_HOURS = 3
#: how far back proposals look
PROPOSAL_DAYS = 60


@dataclass
class Entry:
    """A match of a night, as its page lists it."""

    match: Match
    handles: list[str]  # by seat
    totals: list[int] | None  # by seat, once verified
    counted: bool
    when: datetime
    table: tuple[int, int] | None = None  # (round, table) of the seating it played, from 0

    @property
    def seats(self) -> list[tuple[int, str, int | None]]:
        """Per seat: the player's id, handle and total (None until verified)."""
        ids = [s.player_id for s in self.match.seats.all()]
        totals: list[int | None] = list(self.totals) if self.totals else [None] * len(ids)
        return list(zip(ids, self.handles, totals, strict=False))


@dataclass
class Expected:
    """A table of the seating and the match played at it, once it arrives."""

    round: int
    table: int
    players: list[Player]  # by seat: east, south, west, north
    match: Match | None = None


@dataclass
class NightBook:
    night: Night
    entries: list[Entry]
    rows: list[selectors.Row]
    ledger: selectors.Ledger
    settle_ups: list[SettleUp]
    players: list[Player]
    tables: list[list[Expected]]  # per round of the seating
    sitting_out: list[list[Player]]
    pending: bool  # a match of the night is still being verified

    @property
    def counted(self) -> int:
        return sum(1 for e in self.entries if e.counted)


def club_nights(club: Club) -> QuerySet[Night]:
    return Night.objects.filter(club=club).select_related("created_by", "closed_by")


def night_of(club: Club, night_id: int) -> Night | None:
    return club_nights(club).filter(pk=night_id).first()


def _entries(night: Night) -> list[Entry]:
    seats = Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("seat"))
    matches = list(
        Match.objects.filter(night_entry__night=night).defer("raw")
        .prefetch_related(seats))
    ids = [m.pk for m in matches]
    totals = dict(Verification.objects.filter(match_id__in=ids)
                  .values_list("match_id", "totals"))
    counted = set(Match.objects.filter(pk__in=ids).filter(selectors.counted(True))
                  .values_list("pk", flat=True))
    entries = [
        Entry(m, [s.player.handle for s in m.seats.all()], totals.get(m.pk), m.pk in counted,
              m.played_at or m.uploaded_at)
        for m in matches
    ]
    return sorted(entries, key=lambda e: (e.when, e.match.pk))


def _tables(night: Night, entries: list[Entry]) -> tuple[list[list[Expected]], list[list[Player]]]:
    """The seating's tables, each with the first match of its four players (in any seats)
    not already matched to an earlier table, in the order the matches were played."""
    plan = night.seating or {}
    ids = {p for r in plan.get("rounds", []) for t in r for p in t}
    ids |= {p for out in plan.get("sitting_out", []) for p in out}
    people = {p.pk: p for p in Player.objects.filter(pk__in=ids)}
    free = [e for e in entries]
    tables: list[list[Expected]] = []
    for r, round_ in enumerate(plan.get("rounds", [])):
        row = []
        for t, seats in enumerate(round_):
            expected = Expected(r, t, [people[p] for p in seats if p in people])
            four = set(seats)
            for entry in free:
                if {s.player_id for s in entry.match.seats.all()} == four:
                    expected.match = entry.match
                    entry.table = (r, t)
                    free.remove(entry)
                    break
            row.append(expected)
        tables.append(row)
    out = [[people[p] for p in o if p in people] for o in plan.get("sitting_out", [])]
    return tables, out


def night_book(night: Night) -> NightBook:
    entries = _entries(night)
    ids = [e.match.pk for e in entries]
    tables, out = _tables(night, entries)
    return NightBook(
        night=night,
        entries=entries,
        rows=selectors.match_set_standings(ids),
        ledger=services.night_ledger(night),
        settle_ups=list(SettleUp.objects.filter(night=night)
                        .select_related("payer", "payee", "recorded_by").order_by("paid_at", "pk")),
        players=list(night.players.order_by("handle")),
        tables=tables,
        sitting_out=out,
        pending=any(e.match.status in Match.PENDING for e in entries),
    )


# -- proposals ------------------------------------------------------------------------


@dataclass
class Proposal:
    """Matches no night holds, played within a few hours of each other: one sitting."""

    day: date
    first: datetime
    last: datetime
    matches: list[int]
    handles: list[str]


def proposals(club: Club, *, gap_hours: int = PROPOSAL_GAP_HOURS,
              days: int = PROPOSAL_DAYS) -> list[Proposal]:
    """The club's matches of the last ``days`` days that no night holds, grouped so that
    consecutive matches of a group are at most ``gap_hours`` apart; newest group first.
    A group's day is the night's day (06:00 to 06:00, club time) of its first match."""
    since = timezone.now() - timedelta(days=days)
    recent = Q(played_at__gte=since) | Q(played_at__isnull=True, uploaded_at__gte=since)
    unclaimed = (Match.objects.filter(recent, club=club, night_entry__isnull=True)
                 .defer("raw")
                 .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related(
                     "player"))))
    rows = [(match.played_at or match.uploaded_at, match) for match in unclaimed]
    rows.sort(key=lambda row: (row[0], row[1].pk))
    groups: list[list[tuple[datetime, Match]]] = []
    for when, match in rows:
        if groups and when - groups[-1][-1][0] <= timedelta(hours=gap_hours):
            groups[-1].append((when, match))
        else:
            groups.append([(when, match)])
    out = []
    for group in groups:
        handles = sorted({s.player.handle for _, m in group for s in m.seats.all()})
        out.append(Proposal(services.night_day(club, group[0][0]), group[0][0], group[-1][0],
                            [m.pk for _, m in group], handles))
    return out[::-1]


# -- the club's home --------------------------------------------------------------------


@dataclass
class Home:
    club: Club
    membership: Membership
    mine: list[Player]  # the handles linked to the signed-in member
    season: Season | None
    top: list[selectors.Row]
    my_rows: list[selectors.Row]  # my place(s) in the season, if below the top
    latest: list[Entry]
    night: Night | None  # the open night, or the last one
    night_book: NightBook | None
    balances: list[selectors.Balance]  # mine, over all the club's books
    transfers: list[selectors.LedgerTransfer]  # the transfers that settle mine
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def mine_ids(self) -> set[int]:
        return {p.pk for p in self.mine}


TOP = 5
LATEST = 6


def current_season(club: Club) -> Season | None:
    """The season whose dates hold today (club time), else the one that ended last."""
    today = services.night_day(club, timezone.now())
    season = services.season_of(club, today)
    if season is None:
        season = Season.objects.filter(club=club, starts_on__lte=today).order_by(
            "-ends_on", "-id").first()
    return season


def latest_matches(club: Club, limit: int = LATEST) -> list[Entry]:
    seats = Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("seat"))
    when = Coalesce("played_at", "uploaded_at")
    matches = list(Match.objects.filter(club=club).defer("raw")
                   .prefetch_related(seats).order_by(when.desc(), "-pk")[:limit])
    totals = dict(Verification.objects.filter(match_id__in=[m.pk for m in matches])
                  .values_list("match_id", "totals"))
    return [Entry(m, [s.player.handle for s in m.seats.all()], totals.get(m.pk),
                  m.status == Match.Status.VERIFIED, m.played_at or m.uploaded_at)
            for m in matches]


def home(club: Club, membership: Membership) -> Home:
    mine = list(Player.objects.filter(club=club, user=membership.user))
    mine_ids = {p.pk for p in mine}
    season = current_season(club)
    top: list[selectors.Row] = []
    my_rows: list[selectors.Row] = []
    if season is not None:
        rows = selectors.standings(season).rows
        top = rows[:TOP]
        my_rows = [r for r in rows[TOP:] if r.player in mine_ids]
    night = (Night.objects.filter(club=club, status=Night.Status.OPEN).first()
             or Night.objects.filter(club=club).first())
    book = selectors.club_ledger(club)
    balances = [b for b in book.balances if b.player in mine_ids]
    transfers = [t for t in book.transfers if t.payer in mine_ids or t.payee in mine_ids]
    return Home(club, membership, mine, season, top, my_rows, latest_matches(club),
                night, night_book(night) if night else None, balances, transfers)


def nights_page(club: Club) -> QuerySet[Night]:
    """The club's nights, newest first, with how many matches each holds."""
    return club_nights(club).prefetch_related(
        Prefetch("entries", queryset=NightMatch.objects.only("night_id", "match_id")))
