"""The books' own rows: ``BookMatch`` (a player's match) and ``BookDay`` (a player's day).

Standings, the ledger and ratings read these instead of the seat rows, so that a club's
books cost what a page shows, not what the club ever played (docs/scaling.md). They are
derived, kept exact in the caller's transaction by :func:`refresh_matches`, which every
change of what a match counts calls: a verdict stored (analysis.services), an acceptance
given or withdrawn, a void, a correction that sends the match back to the queue, a match
deleted (:func:`forget_match`). :func:`rebuild_club` makes a club's rows from scratch.

A match has rows while it counts in some book: verified, or illegal and accepted (the
seasons that do not count accepted matches filter them by ``kind``); never voided.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import date
from typing import Any
from zoneinfo import ZoneInfo

from django.db import connection
from django.db.models import Count, Q, Sum

from analysis.models import (
    NET_FROM,
    BookDay,
    BookMatch,
    MatchAcceptance,
    MatchVoid,
    SeatResult,
)
from records.models import Match, Seat

#: the advisory-lock namespace of the (club, day) keys of BookDay (PostgreSQL's two-int form)
LOCK_SPACE = 0x424B53  # "BKS"
#: in twelfths: the least common multiple of the sizes a tie can have (1 to 4)
TWELFTHS = 12
SUMS = ("matches", "east", "rounds", "net", "deal_ins", "first", "second", "third", "fourth",
        "share_1", "share_2", "share_3", "share_4")


def refresh_matches(match_ids: Iterable[int]) -> None:
    """Bring the rows of these matches, and the day rows they touch before and after, in
    step with the matches as they are now (in the caller's transaction)."""
    ids = sorted(set(match_ids))
    if not ids:
        return
    old = set(BookMatch.objects.filter(match_id__in=ids).values_list("club_id", "day"))
    if old:
        BookMatch.objects.filter(match_id__in=ids).delete()
    rows = match_rows(ids)
    BookMatch.objects.bulk_create(rows, batch_size=1000)
    if old:
        rebuild_days(old | {(r.club_id, r.day) for r in rows})
    else:  # counted nowhere yet: its sums only add (a first verification deletes nothing)
        _add_days(rows)


def _add_days(rows: list[BookMatch]) -> None:
    """Add these rows' sums to their day rows, creating those missing (an upsert: PostgreSQL,
    and SQLite since 3.24)."""
    days = _days(_values(r) for r in rows)
    if not days:
        return
    _lock({(d.club_id, d.day) for d in days})
    key = ("club_id", "ruleset_key", "day", "kind", "dated", "player_id")
    columns = (*key, *SUMS)
    table = BookDay._meta.db_table
    added = ", ".join(f"{c} = {table}.{c} + EXCLUDED.{c}" for c in SUMS)
    row = "(" + ", ".join(["%s"] * len(columns)) + ")"
    with connection.cursor() as cursor:
        for start in range(0, len(days), 500):  # within SQLite's 32,766 parameters too
            chunk = days[start : start + 500]
            values = ", ".join([row] * len(chunk))
            cursor.execute(
                f"INSERT INTO {table} ({', '.join(columns)}) VALUES {values} "
                f"ON CONFLICT ({', '.join(key)}) DO UPDATE SET {added}",
                [getattr(d, c) for d in chunk for c in columns],
            )


_FIELDS = ("club_id", "ruleset_key", "day", "kind", "played_at", "player_id", "seat", "rounds",
           "net", "deal_ins", "place", "span")


def _values(row: BookMatch) -> tuple[Any, ...]:
    return tuple(getattr(row, f) for f in _FIELDS)


def forget_match(sender: Any, instance: Match, **kwargs: Any) -> None:
    """Match's pre_delete: the match counts no more; its days are summed again without it."""
    old = set(BookMatch.objects.filter(match_id=instance.pk).values_list("club_id", "day"))
    BookMatch.objects.filter(match_id=instance.pk).delete()
    rebuild_days(old)


def rebuild_days(keys: set[tuple[int, date]]) -> None:
    """Delete the day rows of these (club, day) keys and sum them again from BookMatch."""
    if not keys:
        return
    _lock(keys)
    scope = Q(pk__in=[])
    for club_id, day in keys:
        scope |= Q(club_id=club_id, day=day)
    BookDay.objects.filter(scope).delete()
    found = BookMatch.objects.filter(scope).values_list(*_FIELDS)
    BookDay.objects.bulk_create(_days(found), batch_size=1000)


def rebuild_club(club_id: int) -> None:
    """Every book row of the club made again from its seat rows (a migration, a check)."""
    BookMatch.objects.filter(club_id=club_id).delete()
    BookDay.objects.filter(club_id=club_id).delete()
    ids = list(Match.objects.filter(club_id=club_id).order_by("pk").values_list("pk", flat=True))
    for start in range(0, len(ids), 500):  # a page of ids at a time
        BookMatch.objects.bulk_create(match_rows(ids[start : start + 500]), batch_size=1000)
    found = BookMatch.objects.filter(club_id=club_id).values_list(*_FIELDS).iterator(2000)
    BookDay.objects.bulk_create(_days(found), batch_size=1000)


def _lock(keys: set[tuple[int, date]]) -> None:
    """Hold each (club, day) until the transaction ends, taken in one order: two
    verifications of one club's day would otherwise each sum it without the other's match.
    SQLite writes one transaction at a time anyway."""
    if connection.vendor != "postgresql":
        return
    hashed = sorted({(club * 1_000_003 + day.toordinal()) % (1 << 31) for club, day in keys})
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_advisory_xact_lock(%s, k)) FROM unnest(%s::int[]) AS k",
            [LOCK_SPACE, hashed],
        )


def _kind(status: str, accepted: bool, voided: bool) -> str | None:
    if voided:
        return None
    if status == Match.Status.VERIFIED:
        return BookMatch.Kind.VERIFIED
    if status == Match.Status.ILLEGAL and accepted:
        return BookMatch.Kind.ACCEPTED
    return None


def match_rows(ids: list[int]) -> list[BookMatch]:
    """The BookMatch rows of these matches as they are now (none for those not counted)."""
    accepted = set(MatchAcceptance.objects.filter(match_id__in=ids).values_list("match_id",
                                                                               flat=True))
    voided = set(MatchVoid.objects.filter(match_id__in=ids).values_list("match_id", flat=True))
    matches = {}
    for m in Match.objects.filter(pk__in=ids).values(
        "pk", "club_id", "club__time_zone", "status", "played_at", "uploaded_at",
        "stored_ruleset_id",  # the ruleset's key (records.models.ruleset_key)
    ):
        kind = _kind(m["status"], m["pk"] in accepted, m["pk"] in voided)
        if kind is not None:
            matches[m["pk"]] = (m, kind)
    if not matches:
        return []
    counted = sorted(matches)
    seats: dict[int, dict[int, int]] = defaultdict(dict)  # match -> seat -> player
    for match_id, seat, player in Seat.objects.filter(match_id__in=counted).values_list(
        "match_id", "seat", "player_id"
    ):
        seats[match_id][seat] = player
    per_seat = _per_seat(counted)
    rows = []
    for match_id in counted:
        m, kind = matches[match_id]
        when = m["played_at"] or m["uploaded_at"]
        key = m["stored_ruleset_id"]
        net = {s: per_seat[match_id, s]["net"] for s in seats[match_id]}
        placed = _places({s: n for s, n in net.items() if per_seat[match_id, s]["rounds"]})
        for seat, player in sorted(seats[match_id].items()):
            facts = per_seat[match_id, seat]
            place, span = placed.get(seat, (None, None))
            rows.append(BookMatch(
                match_id=match_id, club_id=m["club_id"], player_id=player, seat=seat,
                kind=kind, ruleset_key=key, played_at=m["played_at"], when=when,
                day=when.astimezone(ZoneInfo(m["club__time_zone"])).date(),  # the club's day
                rounds=facts["rounds"], net=facts["net"],
                deal_ins=facts["deal_ins"], place=place, span=span, vs=facts["vs"],
            ))  # fmt: skip
    return rows


def _per_seat(ids: list[int]) -> dict[tuple[int, int], dict[str, Any]]:
    """Per (match, seat), over complete rounds: net, rounds, deal-ins and net per seat."""
    facts: dict[tuple[int, int], dict[str, Any]] = defaultdict(
        lambda: {"net": 0, "rounds": 0, "deal_ins": 0, "vs": [0, 0, 0, 0]}
    )
    complete = Q(round__match_id__in=ids, round__settlement__incomplete=False)
    # the money between two seats: the seat rows' money from each other seat
    vs = {f"vs_{column}": Sum(column) for column in NET_FROM}
    for match_id, seat, net, rounds, *nets in (
        SeatResult.objects.filter(complete).values("round__match_id", "seat")
        .annotate(net=Sum("delta"), rounds=Count("round"), **vs)
        .values_list("round__match_id", "seat", "net", "rounds", *vs)
    ):  # fmt: skip
        facts[match_id, seat]["net"], facts[match_id, seat]["rounds"] = net, rounds
        facts[match_id, seat]["vs"] = nets
    # a deal-in is a win off the player's discard: one per winner it paid
    for match_id, discarder, n in (
        SeatResult.objects.filter(complete, discarder__isnull=False)
        .values("round__match_id", "discarder").annotate(n=Count("round"))
        .values_list("round__match_id", "discarder", "n")
    ):  # fmt: skip
        facts[match_id, discarder or 0]["deal_ins"] += n  # not null: filtered above
    return facts


def _places(net: dict[int, int]) -> dict[int, tuple[int, int]]:
    """Each seat's place by net (ties share the better place) and how many share it."""
    order = sorted(net.values(), reverse=True)
    return {seat: (order.index(value) + 1, order.count(value)) for seat, value in net.items()}


def _days(rows: Iterable[tuple[Any, ...]]) -> list[BookDay]:
    """The day rows summing these BookMatch rows (as ``_FIELDS``)."""
    days: dict[tuple[Any, ...], dict[str, int]] = {}
    for r in rows:
        club, key, day, kind, played_at, player, seat, rounds, net, deal_ins, place, span = r
        sums = days.setdefault((club, key, day, kind, played_at is not None, player),
                               dict.fromkeys(SUMS, 0))
        add_match(sums, seat=seat, rounds=rounds, net=net, deal_ins=deal_ins, place=place,
                  span=span)
    return [
        BookDay(club_id=club, ruleset_key=key, day=day, kind=kind, dated=dated,
                player_id=player, **sums)
        for (club, key, day, kind, dated, player), sums in days.items()
    ]  # fmt: skip


def add_match(sums: dict[str, int], *, seat: int, rounds: int, net: int, deal_ins: int,
              place: int | None, span: int | None) -> None:
    """Add one player's match (a BookMatch row's values) to a player's sums (``SUMS``)."""
    sums["east"] += seat == 0
    if not rounds or place is None or span is None:
        return  # no complete round: the match counts for none of its players
    sums["matches"] += 1
    sums["rounds"] += rounds
    sums["net"] += net
    sums["deal_ins"] += deal_ins
    sums[("first", "second", "third", "fourth")[place - 1]] += 1
    for shared in range(place, place + span):
        sums[f"share_{shared}"] += TWELFTHS // span
