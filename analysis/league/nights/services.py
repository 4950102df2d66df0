"""Writes of club nights: start one, change it, seat it, take in its matches, mark its
settle-up paid, close it (docs/league.md, "Nights").

A night's day runs from 06:00 to 06:00 the next morning in the club's time zone: a sitting
that goes on past midnight stays one night. An open night takes in, as their verdicts
arrive, the club's matches of its day that no night holds yet (``attach_matches``, a task
after every verdict); admins add or remove matches by hand too.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from analysis.league import seating, selectors
from analysis.league.services import LeagueError, record_settle_up
from analysis.league.signals import night_closed, publish
from analysis.models import Night, NightMatch, Season, SettleUp
from records.models import Club, Match, Player
from records.names import INVISIBLE_MESSAGE, has_unsafe

#: a club's day (for its nights) starts at this hour, in its time zone
DAY_STARTS = time(6)
#: the most matches one night takes (a long evening of many tables)
MAX_MATCHES = 200


def club_zone(club: Club) -> ZoneInfo:
    return ZoneInfo(club.time_zone)


def night_day(club: Club, when: datetime) -> date:
    """The night a moment belongs to: its date in the club's zone, before 06:00 the day
    before."""
    local = timezone.localtime(when, club_zone(club))
    return (local - timedelta(hours=DAY_STARTS.hour)).date()


def day_window(club: Club, day: date) -> tuple[datetime, datetime]:
    """The moments of a night's day: from 06:00 on ``day`` to 06:00 the next day (local)."""
    zone = club_zone(club)
    start = datetime.combine(day, DAY_STARTS, zone)
    return start, datetime.combine(day + timedelta(days=1), DAY_STARTS, zone)


def season_of(club: Club, day: date) -> Season | None:
    """The club's season whose dates hold ``day`` (the most recently started, if several)."""
    return Season.objects.filter(club=club, starts_on__lte=day, ends_on__gte=day).first()


def _matches(club: Club, ids: Iterable[int], night: Night | None) -> list[Match]:
    wanted = sorted(set(ids))
    if len(wanted) > MAX_MATCHES:
        raise LeagueError("matches", _("at most %(n)s matches a night") % {"n": MAX_MATCHES})
    rows = Match.objects.filter(club=club, pk__in=wanted).defer("raw")
    found = {m.pk: m for m in rows}
    missing = [i for i in wanted if i not in found]
    if missing:
        raise LeagueError("matches", _("no such match in this club: %(ids)s") % {
            "ids": ", ".join(f"#{i}" for i in missing)})
    taken = NightMatch.objects.filter(match_id__in=wanted).exclude(
        night=night).select_related("night")
    for entry in taken:
        raise LeagueError("matches", _("match #%(id)s is already in the night of %(day)s") % {
            "id": entry.match_id, "day": entry.night.date.isoformat()})
    return [found[i] for i in wanted]


def _players(club: Club, ids: Iterable[int]) -> list[Player]:
    wanted = sorted(set(ids))
    found = list(Player.objects.filter(club=club, pk__in=wanted))
    if len(found) != len(wanted):
        raise LeagueError("players", _("not a player of this club"))
    return found


def _first_day(club: Club, matches: list[Match]) -> date:
    moments = [m.played_at or m.uploaded_at for m in matches]
    return night_day(club, min(moments) if moments else timezone.now())


def create_night(
    *,
    club: Club,
    by: User | None,
    matches: Iterable[int] = (),
    players: Iterable[int] = (),
    name: str = "",
    day: date | None = None,
    point_value: Decimal | None = None,
) -> Night:
    """Start a night: its matches (none yet, for an evening about to begin), the people
    present, a name and a date (default: the day of its first match, or today), money per
    point (default: the season's whose dates hold the day).

    :raises LeagueError: naming the field: a match of another club or of another night, a
        player of another club.
    """
    if has_unsafe(name):
        raise LeagueError("name", str(INVISIBLE_MESSAGE))
    with transaction.atomic():
        chosen = _matches(club, matches, None)
        present = _players(club, players)
        day = day or _first_day(club, chosen)
        if point_value is None:
            season = season_of(club, day)
            point_value = season.point_value if season else None
        night = Night.objects.create(club=club, name=name.strip(), date=day,
                                     point_value=point_value, created_by=by)
        night.players.set(present)
        _attach(night, chosen, by)
    return night


def change_night(night: Night, *, by: User | None, **fields: Any) -> Night:
    """Change a night's name, date, money per point, matches (the whole list) or people
    present; only the fields given."""
    if has_unsafe(fields.get("name", "")):
        raise LeagueError("name", str(INVISIBLE_MESSAGE))
    with transaction.atomic():
        night = Night.objects.select_for_update().get(pk=night.pk)
        if "matches" in fields:
            chosen = _matches(night.club, fields.pop("matches"), night)
            NightMatch.objects.filter(night=night).exclude(
                match_id__in=[m.pk for m in chosen]).delete()
            _attach(night, chosen, by)
        if "players" in fields:
            night.players.set(_players(night.club, fields.pop("players")))
        if "name" in fields:
            fields["name"] = fields["name"].strip()
        for name, value in fields.items():
            setattr(night, name, value)
        night.save()
    return night


def add_match(night: Night, *, match_id: int, by: User | None) -> NightMatch:
    with transaction.atomic():
        (match,) = _matches(night.club, [match_id], night)
        _attach(night, [match], by)
    return NightMatch.objects.get(match=match)


def remove_match(night: Night, *, match_id: int) -> None:
    NightMatch.objects.filter(night=night, match_id=match_id).delete()


def _attach(night: Night, matches: list[Match], by: User | None) -> None:
    have = set(NightMatch.objects.filter(night=night).values_list("match_id", flat=True))
    NightMatch.objects.bulk_create(
        [NightMatch(night=night, match=m, added_by=by) for m in matches if m.pk not in have])


def seat_night(night: Night, *, players: Iterable[int], rounds: int, seed: int,
               by: User | None) -> Night:
    """Seat the people present (they become the night's players) for ``rounds`` rounds.

    :raises LeagueError: naming ``players`` or ``rounds``.
    """
    present = _players(night.club, players)
    try:
        plan = seating.seat([p.pk for p in present], rounds, seed)
    except seating.SeatingError as exc:
        field = "rounds" if "round" in str(exc) else "players"
        raise LeagueError(field, seating_message(exc)) from None
    with transaction.atomic():
        night.players.set(present)
        night.seating = plan.to_json()
        night.save(update_fields=["seating"])
    return night


def seating_message(exc: seating.SeatingError) -> str:
    """The seating's refusal in the page language."""
    text = str(exc)
    if "twice" in text:
        return _("a player is listed twice")
    if "round" in text:
        return _("from 1 to %(n)s rounds") % {"n": seating.MAX_ROUNDS}
    return _("from %(low)s to %(high)s players") % {
        "low": seating.MIN_PLAYERS, "high": seating.MAX_PLAYERS}


def night_ledger(night: Night) -> selectors.Ledger:
    """The night's balances and what is left to settle (its own settle-ups deducted)."""
    ids = list(NightMatch.objects.filter(night=night).values_list("match_id", flat=True))
    return selectors.match_set_ledger(
        ids, settle_ups=SettleUp.objects.filter(night=night), point_value=night.point_value)


def mark_paid(night: Night, *, payer: Player, payee: Player, points: int,
              by: User | None, note: str = "") -> SettleUp:
    """Record that ``payer`` paid ``payee`` ``points`` of the night's settle-up: a settle-up
    of the club's books (so the ledger carries it) that names the night and its season."""
    return record_settle_up(
        club=night.club, payer=payer, payee=payee, points=points, by=by,
        season=season_of(night.club, night.date), night=night,
        note=note or _("Night of %(day)s") % {"day": night.date.isoformat()})


def close_night(night: Night, *, by: User | None, mark_all_paid: bool = False) -> Night:
    """Close the night (it takes in no more matches by itself); with ``mark_all_paid``
    every transfer left is recorded paid first. Sends ``night_closed`` after the commit."""
    with transaction.atomic():
        night = Night.objects.select_for_update().get(pk=night.pk)
        if mark_all_paid:
            book = night_ledger(night)
            players = {p.pk: p for p in Player.objects.filter(
                pk__in={t.payer for t in book.transfers} | {t.payee for t in book.transfers})}
            for t in book.transfers:
                if selectors.POT_PARTY in (t.payer, t.payee):
                    continue  # owed to the club's pot, paid outside the books' settle-ups
                mark_paid(night, payer=players[t.payer], payee=players[t.payee],
                          points=t.points, by=by)
        if night.status != Night.Status.CLOSED:
            night.status = Night.Status.CLOSED
            night.closed_by = by
            night.closed_at = timezone.now()
            night.save(update_fields=["status", "closed_by", "closed_at"])
            publish(night_closed, night_id=night.pk, club_id=night.club_id)
    return night


def reopen_night(night: Night) -> Night:
    night.status = Night.Status.OPEN
    night.closed_at = None
    night.closed_by = None
    night.save(update_fields=["status", "closed_by", "closed_at"])
    return night


def attach_matches(match_ids: list[int]) -> int:
    """Put each of these matches that no night holds into its club's open night of the
    match's day (the night listing more of its players first, then the newest). Safe to
    run twice. Returns how many were attached."""
    matches = list(Match.objects.filter(pk__in=match_ids, night_entry__isnull=True)
                   .select_related("club").prefetch_related("seats").defer("raw"))
    days = {m.pk: night_day(m.club, m.played_at or m.uploaded_at) for m in matches}
    # the open nights of those clubs and days in one read, not one per match: a bulk load
    # announces a whole club's matches, most of them on days no night is open
    open_nights: dict[tuple[int, date], list[Night]] = defaultdict(list)
    for night in (Night.objects.filter(club_id__in={m.club_id for m in matches},
                                       status=Night.Status.OPEN, date__in=set(days.values()))
                  .prefetch_related("players")):
        open_nights[night.club_id, night.date].append(night)
    attached = 0
    for match in matches:
        nights = open_nights.get((match.club_id, days[match.pk]))
        if not nights:
            continue
        night = _best_night(nights, {s.player_id for s in match.seats.all()})
        try:
            with transaction.atomic():
                NightMatch.objects.create(night=night, match=match)
            attached += 1
        except IntegrityError:  # another run attached it meanwhile
            continue
    return attached


def _best_night(nights: list[Night], seated: set[int]) -> Night:
    """The night listing most of these players present; the newest among equals."""
    return max(nights, key=lambda n: (len(seated & {p.pk for p in n.players.all()}), n.pk))


def delete_night(night: Night) -> None:
    """Delete a night; its matches stay, and so do the payments recorded (the ledger keeps
    them, without the night)."""
    night.delete()



def ensure_players(club: Club, handles: list[str]) -> list[Player]:
    """The club's players of these handles, the missing ones created (new people at the
    door: their matches will use the same handles)."""
    players = []
    for handle in dict.fromkeys(handles):
        player, _created = Player.objects.get_or_create(club=club, handle=handle)
        players.append(player)
    return players
