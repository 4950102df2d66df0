"""Materialised statistics: per-player-per-day sums kept in step with the facts
(docs/statistics.md, "Scale").

Every derived row a match touches — ``PlayerDay``, ``PlayerDayPattern``, ``PairDay`` and
``PlayerMatch`` — is kept in step in the caller's transaction, three ways:

- ``add_matches``: a first verification (nothing of the matches is counted yet) adds
  the matches' own sums to their keys' rows, in one statement on PostgreSQL;
- ``add_review``: a review stored later adds the difference of its review sums;
- ``refresh_match``: any other change (a forced verification, a cleared or deleted
  match, a moved day) deletes the (player, day) keys of its seats, before and after, and
  inserts them again from the seat rows; it also copies the decision review's per-round
  summaries (``Verification.review``) onto the seat rows first. ``rebuild_club`` does the
  same for a whole club at once.

The sums are the very aggregates the statistics define (``analysis.stats.figures.AGGREGATES``)
grouped by day, so a day row and the raw rows it replaces can never disagree.
"""

from __future__ import annotations

import functools
import zoneinfo
from collections import defaultdict
from collections.abc import Iterable, Iterator
from datetime import date, datetime, time, timedelta
from typing import Any

from django.db import connection
from django.db.models import Count, F, Min, Model, Q, QuerySet, Sum
from django.db.models.functions import TruncDate
from django.db.models.lookups import Lookup
from django.utils import timezone

from analysis.models import (
    NET_FROM,
    PairDay,
    PlayerDay,
    PlayerDayPattern,
    PlayerMatch,
    SeatResult,
    Verification,
)
from analysis.stats import figures
from records.models import DEFAULT_TIME_ZONE, Club, Match, Seat

_KEY = ("player_id", "day", "ruleset_name", "legal")
_REVIEW_FIELDS = ("reviewed_discards", "best_discards", "ukeire_lost")
#: per day table: its unique key (models' constraints) and the columns a match adds to
_ADDED: dict[type[Model], tuple[tuple[str, ...], tuple[str, ...]]] = {
    PlayerDay: (_KEY, tuple(figures.AGGREGATES)),
    PlayerDayPattern: ((*_KEY, "pattern"), ("wins",)),
    PairDay: ((*_KEY, "other_id"), ("rounds", "net")),
}


def refresh_match(match_id: int) -> None:
    """Bring the derived statistics rows of every (player, day) the match touches in step:
    where its seat rows are now and where its previous ``PlayerMatch`` rows said they were.

    In the caller's transaction; once it commits, the caller calls
    ``figures.facts_changed(club_id)`` so that cached club tables go (as ``verify_match``
    does)."""
    match = Match.objects.filter(pk=match_id).values("club_id").first()
    if match is None:
        return
    with club_days(match["club_id"]):
        _refresh(match_id, match["club_id"])


def _refresh(match_id: int, club_id: int) -> None:
    _copy_review(match_id)
    old = list(PlayerMatch.objects.filter(match_id=match_id).values_list("player_id", "day"))
    new = (
        SeatResult.objects.filter(match_id=match_id)
        .annotate(day=TruncDate("played_at"))
        .values_list("player_id", "day")
    )
    keys = set(old) | set(new)
    if not keys:
        return
    _lock(keys)
    if not old:
        # a match is counted in the day rows exactly when it has PlayerMatch rows (both
        # come from its complete seat rows): none, so its sums only add (O(the match))
        _add(SeatResult.objects.filter(match_id=match_id, complete=True))
        return
    rebuild_keys(club_id, keys)


def add_matches(match_ids: list[int], keys: set[tuple[int, date]]) -> None:
    """Count matches verified for the first time: add their complete seat rows' sums to
    the day rows of their (player, day) ``keys`` and insert their ``PlayerMatch`` rows.

    For the verification that has just written the seat rows (``analysis.services``), in
    its transaction: it knows the keys, and that nothing of the matches is counted yet (a
    match has ``PlayerMatch`` rows only once a verification of it committed) nor reviewed.
    On PostgreSQL one statement does it, whatever the number of matches
    (``_add_statement``), else ``_add`` does."""
    if not match_ids or not keys:
        return
    _lock(keys)
    zones: dict[str, list[int]] = defaultdict(list)
    for pk, name in (Match.objects.filter(pk__in=match_ids).order_by("pk")
                     .values_list("pk", "club__time_zone")):
        zones[name].append(pk)
    for name, ids in zones.items():  # each club's days are its own zone's (club_days)
        with timezone.override(zoneinfo.ZoneInfo(name)):
            if connection.vendor != "postgresql":
                _add(SeatResult.objects.filter(match_id__in=ids, complete=True))
                continue
            sql, positions, compiled = _add_statement(timezone.get_current_timezone_name())
            params = list(compiled)
            for i in positions:
                params[i] = list(ids)
            with connection.cursor() as cursor:
                cursor.execute(sql, params)


def club_days(club_id: int) -> Any:
    """The club's zone, activated (``with club_days(club_id): …``): a day of the statistics
    is a day of the club's time zone (records/timezones.py), in the rows written and in the
    date filters read."""
    name = Club.objects.filter(pk=club_id).values_list("time_zone", flat=True).first()
    return timezone.override(zoneinfo.ZoneInfo(name or DEFAULT_TIME_ZONE))


def rebuild_keys(club_id: int, keys: set[tuple[int, date]]) -> None:
    """Delete the day rows of these (player, day) keys and insert them again from all
    their seat rows (the caller holds the keys' locks: ``_lock``)."""
    players = {p for p, _ in keys}
    days = {d for _, d in keys}
    scope = Q(player_id__in=players, day__in=days)
    rows = SeatResult.objects.filter(
        Q(player_id__in=players) & _on_days(days), club_id=club_id, complete=True
    )
    _replace(scope & Q(club_id=club_id), rows)


#: the advisory-lock namespace of the (player, day) keys (PostgreSQL's two-int form)
LOCK_SPACE = 0x5A5354  # "ZST"


def _lock(keys: set[tuple[int, date]]) -> None:
    """Hold each (player, day) key until the transaction ends, taken in one order.

    Two verifications of matches that share a player and a day would otherwise both
    delete the key's rows and both insert them again, each missing the other's match or
    counting it twice: the second waits here and then reads the first's committed rows.
    SQLite writes one transaction at a time anyway."""
    if connection.vendor != "postgresql":
        return
    # hashed into PostgreSQL's int4 (a collision only waits), in the hashes' order
    hashed = sorted(
        {(player_id * 1_000_003 + day.toordinal()) % (1 << 31) for player_id, day in keys}
    )
    with connection.cursor() as cursor:  # one round trip, taken in the array's order
        cursor.execute(
            "SELECT count(pg_advisory_xact_lock(%s, k)) FROM unnest(%s::int[]) AS k",
            [LOCK_SPACE, hashed],
        )


def rebuild_club(club_id: int) -> None:
    """Rebuild every derived statistics row of a club from its seat rows (and the review
    summaries), e.g. after a migration or ``manage.py rebuild_facts --aggregates-only``;
    in a transaction (the tables stay locked against writers until it ends)."""
    with club_days(club_id):
        _rebuild_club(club_id)


def _rebuild_club(club_id: int) -> None:
    for match_id in (
        Verification.objects.filter(match__club_id=club_id, review__isnull=False)
        .values_list("match_id", flat=True)
        .iterator()
    ):
        _copy_review(match_id)
    if connection.vendor == "postgresql":
        # a verification meanwhile waits, then rebuilds its keys over these rows (in the
        # order refresh_match writes the tables, so neither waits on the other twice)
        tables = ", ".join(
            m._meta.db_table for m in (PlayerDay, PlayerDayPattern, PairDay, PlayerMatch)
        )
        with connection.cursor() as cursor:
            cursor.execute(f"LOCK TABLE {tables} IN SHARE ROW EXCLUSIVE MODE")
    _replace(Q(club_id=club_id), SeatResult.objects.filter(club_id=club_id, complete=True))


def _on_days(days: Iterable[date]) -> Q:
    """The seat rows played on these days (the club's midnights, as the date filters')."""
    condition = Q(pk__in=[])
    for day in days:
        condition |= Q(played_at__gte=_midnight(day), played_at__lt=_midnight(day) + timedelta(1))
    return condition


def _midnight(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))


def _replace(scope: Q, rows: QuerySet[SeatResult]) -> None:
    """Delete the derived rows in ``scope`` and insert them again from ``rows`` (the
    complete seat rows of exactly those keys)."""
    for model in (PlayerDay, PlayerDayPattern, PairDay, PlayerMatch):
        model.objects.filter(scope).delete()
    for table, objs in _derived(rows.annotate(day=TruncDate("played_at"))):
        table._default_manager.bulk_create(objs, batch_size=1000)


def _add(rows: QuerySet[SeatResult]) -> None:
    """Add the sums of ``rows`` (a match not counted yet) to the day rows of their keys,
    creating those missing, and insert its ``PlayerMatch`` rows."""
    for model, objs in _derived(rows.annotate(day=TruncDate("played_at"))):
        if model is PlayerMatch:
            PlayerMatch.objects.bulk_create(objs)  # none yet: a first verification
        else:
            _upsert_add(model, list(objs))


#: stands for the match ids while a statement is compiled (``_add_statement``)
_MATCHES = [-1_234_567_891]


class _AnyOf(Lookup):
    """``column = ANY(%s)`` with one parameter, an array: the statement compiled once
    (and prepared by PostgreSQL once) takes any number of ids."""

    lookup_name = "any_of"
    prepare_rhs = False

    def as_sql(self, compiler: Any, connection: Any) -> tuple[str, tuple[Any, ...]]:
        lhs, params = self.process_lhs(compiler, connection)
        return f"{lhs} = ANY(%s)", (*params, self.rhs)


@functools.cache
def _add_statement(time_zone: str) -> tuple[str, tuple[int, ...], tuple[Any, ...]]:
    """The one statement that counts first verifications on PostgreSQL, compiled once per
    process and time zone: its SQL, where the match ids go in its parameters, and them.

    The same sums as ``_add``: the day and pattern rows are the ORM's queries of
    ``_days`` and ``_patterns`` (``figures.AGGREGATES`` itself), upserted; the pairs and the
    match rows are what ``_pairs`` and ``_matches`` compute, in SQL (ties to the earliest
    round). Each insert is in key order, as ``_upsert_add`` writes (one lock order)."""
    rows = SeatResult.objects.filter(_AnyOf(F("match_id"), _MATCHES), complete=True).annotate(
        day=TruncDate("played_at")
    )
    parts: list[tuple[str, tuple[Any, ...]]] = []

    def table(model: type[Model]) -> str:
        return connection.ops.quote_name(model._meta.db_table)

    def upsert(model: type[Model], select: QuerySet[Any]) -> None:
        key, summed = _ADDED[model]
        q = connection.ops.quote_name
        inner, params = select.query.sql_with_params()
        names = [f"s.{q(c)}" for c in ("club_id", *key)]
        names += [f"COALESCE(s.{q('a_' + c)}, 0)" for c in summed]  # a sum of no row
        t = table(model)
        add = ", ".join(f"{q(c)} = {t}.{q(c)} + excluded.{q(c)}" for c in summed)
        parts.append((
            f"INSERT INTO {t} ({', '.join(q(c) for c in ('club_id', *key, *summed))})"
            f" SELECT {', '.join(names)} FROM ({inner}) AS s"
            f" ORDER BY {', '.join(f's.{q(c)}' for c in key)}"
            f" ON CONFLICT ({', '.join(q(c) for c in key)}) DO UPDATE SET {add}",
            params,
        ))

    grouped = rows.values("club_id", *_KEY).order_by()
    upsert(PlayerDay, grouped.annotate(**{f"a_{k}": v for k, v in figures.AGGREGATES.items()}))
    upsert(
        PlayerDayPattern,
        rows.filter(won=True, pattern__isnull=False)
        .values("club_id", *_KEY, "pattern")
        .annotate(a_wins=Count("round"))
        .order_by(),
    )
    source, source_params = (
        rows.annotate(round_index=F("round__index"))
        .values("club_id", "match_id", "round_id", "round_index", "delta", "won",
                "played_at", *NET_FROM, *_KEY)
        .order_by()
        .query.sql_with_params()
    )  # fmt: skip
    key = "r.player_id, r.day, r.ruleset_name, r.legal"
    # the money between two seats of a round is on the seat row itself (net_from_*, by the
    # other's seat): no read of the rounds' lines, each seat row joined to its match's
    # three other seats
    net = " ".join(f"WHEN {seat} THEN r.{column}" for seat, column in enumerate(NET_FROM))
    parts.append((
        f"INSERT INTO {table(PairDay)} (club_id, player_id, day, ruleset_name, legal, other_id,"
        f" rounds, net) SELECT r.club_id, {key}, s.player_id, count(*),"
        f" sum(CASE s.seat {net} END) FROM r JOIN {table(Seat)} AS s"
        f" ON s.match_id = r.match_id AND s.player_id <> r.player_id"
        f" GROUP BY r.club_id, {key}, s.player_id ORDER BY {key}, s.player_id"
        f" ON CONFLICT (player_id, day, ruleset_name, legal, other_id) DO UPDATE SET"
        f" rounds = {table(PairDay)}.rounds + excluded.rounds,"
        f" net = {table(PairDay)}.net + excluded.net",
        (),
    ))

    def record(column: str, order: str, condition: str) -> str:
        return f"(array_agg({column} ORDER BY {order}, r.round_id) FILTER (WHERE {condition}))[1]"

    best = ("r.delta DESC", "r.won")
    worst = ("r.delta", "r.delta < 0")
    parts.append((
        f"INSERT INTO {table(PlayerMatch)} (club_id, player_id, day, ruleset_name, legal,"
        f" match_id, played_at, rounds, net, best_win, best_win_round_id, best_win_index,"
        f" worst_loss, worst_loss_round_id, worst_loss_index)"
        f" SELECT r.club_id, {key}, r.match_id, min(r.played_at), count(*), sum(r.delta),"
        + ", ".join(
            record(column, *which)
            for which in (best, worst)
            for column in ("r.delta", "r.round_id", "r.round_index")
        )
        + f" FROM r GROUP BY r.club_id, {key}, r.match_id",
        (),
    ))
    *writes, last = parts
    sql = f"WITH r AS MATERIALIZED ({source}), " + ", ".join(
        f"w{i} AS ({part})" for i, (part, _) in enumerate(writes)
    ) + f" {last[0]}"
    params = (*source_params, *(p for _, ps in writes for p in ps), *last[1])
    positions = tuple(i for i, p in enumerate(params) if p is _MATCHES)
    assert positions, "the match ids are a parameter"
    return sql, positions, params


def _derived(rows: QuerySet[SeatResult]) -> Iterator[tuple[type[Model], Iterable[Any]]]:
    """Each derived table and its rows computed from ``rows`` (seat rows with ``day``),
    in the order the tables are written."""
    yield PlayerDay, _days(rows)
    yield PlayerDayPattern, _patterns(rows)
    yield PairDay, _pairs(rows)
    yield PlayerMatch, _matches(rows)


def _upsert_add(model: type[Model], objs: list[Any]) -> None:
    """Insert ``objs``; where a row of the same key is there, add their sums to it.

    ``INSERT … ON CONFLICT (key) DO UPDATE SET c = table.c + excluded.c`` (PostgreSQL,
    SQLite ≥ 3.24): one statement per batch, atomic per row."""
    if not objs:
        return
    key, summed = _ADDED[model]
    meta = model._meta
    fields = [f for f in meta.concrete_fields if not f.primary_key]
    q = connection.ops.quote_name
    table = q(meta.db_table)
    column = {f.attname: q(str(f.column)) for f in fields}
    columns = ", ".join(column.values())
    on = ", ".join(column[k] for k in key)
    add = ", ".join(f"{column[c]} = {table}.{column[c]} + excluded.{column[c]}" for c in summed)
    one = "(" + ", ".join(["%s"] * len(fields)) + ")"
    # in key order, so that two writers of the same rows lock them in one order
    objs.sort(key=lambda o: tuple(getattr(o, k) for k in key))
    size = max(1, connection.ops.bulk_batch_size(fields, objs))
    with connection.cursor() as cursor:
        for start in range(0, len(objs), size):
            batch = objs[start : start + size]
            cursor.execute(
                f"INSERT INTO {table} ({columns}) VALUES {', '.join([one] * len(batch))} "
                f"ON CONFLICT ({on}) DO UPDATE SET {add}",
                [
                    f.get_db_prep_save(getattr(o, f.attname), connection)
                    for o in batch
                    for f in fields
                ],
            )


def _days(rows: QuerySet[SeatResult]) -> Iterator[PlayerDay]:
    """The sums of the statistics (``figures.AGGREGATES``, under the same names) per key."""
    sums = figures.AGGREGATES
    grouped = rows.values("club_id", *_KEY).annotate(**{f"a_{k}": v for k, v in sums.items()})
    for g in grouped.order_by():
        yield PlayerDay(
            **{k: g[k] for k in ("club_id", *_KEY)},
            **{k: g[f"a_{k}"] or 0 for k in sums},
        )


def _patterns(rows: QuerySet[SeatResult]) -> Iterator[PlayerDayPattern]:
    grouped = (
        rows.filter(won=True, pattern__isnull=False)
        .values("club_id", *_KEY, "pattern")
        .annotate(wins=Count("round"))
        .order_by()
    )
    return (PlayerDayPattern(**g) for g in grouped)


def _matches(rows: QuerySet[SeatResult]) -> list[PlayerMatch]:
    """Per player and match: net and rounds in SQL, then the record rounds (the largest
    win, the worst loss; the earliest round on a tie) from the match's few rows."""
    per_match = {
        (g["match_id"], g["player_id"]): g
        for g in rows.values("club_id", "match_id", *_KEY)
        .annotate(rounds=Count("round"), net=Sum("delta"), played_at=Min("played_at"))
        .order_by()
    }
    best: dict[tuple[int, int], dict[str, Any]] = {}
    fields = ("match_id", "player_id", "round_id", "round__index", "delta", "won")
    for match_id, player_id, round_id, index, delta, won in rows.values_list(*fields).order_by(
        "round_id"
    ):
        found = best.setdefault((match_id, player_id), {})
        if won and ("best_win" not in found or delta > found["best_win"]):
            found.update(best_win=delta, best_win_round_id=round_id, best_win_index=index)
        if delta < 0 and ("worst_loss" not in found or delta < found["worst_loss"]):
            found.update(worst_loss=delta, worst_loss_round_id=round_id, worst_loss_index=index)
    return [PlayerMatch(**g, **best.get(key, {})) for key, g in per_match.items()]


def _pairs(rows: QuerySet[SeatResult]) -> list[PairDay]:
    """Rounds together and money between each seated pair, per match, summed per key.

    Seats are fixed for a match, so a player's counted rounds of a match are the rounds
    they sat with each of its three other players; the money is their seat rows' money
    from each other seat (``net_from_*``), summed per match in SQL."""
    counted = list(rows.values("club_id", "match_id", *_KEY).annotate(n=Count("round")).order_by())
    matches = rows.values("match_id")
    seated: dict[int, list[int]] = defaultdict(list)
    seat_players: dict[tuple[int, int], int] = {}
    for match_id, seat, player_id in Seat.objects.filter(match_id__in=matches).values_list(
        "match_id", "seat", "player_id"
    ):
        seated[match_id].append(player_id)
        seat_players[match_id, seat] = player_id
    money: dict[tuple[int, int, int], int] = {}
    sums = {f"s_{column}": Sum(column) for column in NET_FROM}
    for match_id, player_id, *nets in (
        rows.values("match_id", "player_id").annotate(**sums)
        .values_list("match_id", "player_id", *sums).order_by()
    ):  # fmt: skip
        for seat, amount in enumerate(nets):
            other = seat_players.get((match_id, seat))
            if other is not None:
                money[match_id, player_id, other] = amount
    pairs: dict[tuple[Any, ...], list[int]] = defaultdict(lambda: [0, 0])
    for g in counted:
        for other in seated[g["match_id"]]:
            if other == g["player_id"]:
                continue
            pair = pairs[(g["club_id"], *(g[k] for k in _KEY), other)]
            pair[0] += g["n"]
            pair[1] += money.get((g["match_id"], g["player_id"], other), 0)
    return [
        PairDay(
            club_id=key[0],
            **dict(zip(_KEY, key[1:5], strict=True)),
            other_id=key[5],
            rounds=n,
            net=net,
        )
        for key, (n, net) in pairs.items()
    ]


def _copy_review(match_id: int) -> None:
    """Copy each round's review summary onto its seat rows (all 0 without a review).

    Best-or-equal discards are the reviewed discards minus those judged a mistake
    (``worse`` or ``void_held``: xuezhan.review), as the summary counts mistakes by kind."""
    review = Verification.objects.filter(match_id=match_id).values_list("review", flat=True)
    summary = review.first()
    per_round = (summary or {}).get("rounds") or []
    changed = []
    for row in SeatResult.objects.filter(match_id=match_id).select_related("round"):
        values = _review_facts(per_round, row.round.index, row.seat)
        if any(getattr(row, name) != values[name] for name in _REVIEW_FIELDS):
            for name, value in values.items():
                setattr(row, name, value)
            changed.append(row)
    SeatResult.objects.bulk_update(changed, _REVIEW_FIELDS)


def add_review(match_id: int, review: dict[str, Any] | None) -> None:
    """The review just stored on a counted match's verification: copy its per-round
    summaries onto the seat rows and add what changed to the day rows' review sums.

    O(the match), whatever the days hold (``refresh_match`` would rebuild the keys: the
    match is counted already). In the caller's transaction, which holds the verification's
    row (it stored the review): no verification of the match rewrites its seat rows
    meanwhile. The keys are locked before the day rows change, as ``refresh_match`` does."""
    club_id = Match.objects.filter(pk=match_id).values_list("club_id", flat=True).first()
    if club_id is None:
        return
    with club_days(club_id):
        _add_review(match_id, review)


def _add_review(match_id: int, review: dict[str, Any] | None) -> None:
    per_round = (review or {}).get("rounds") or []
    changed: list[SeatResult] = []
    added: dict[tuple[Any, ...], dict[str, int]] = {}
    keys: set[tuple[int, date]] = set()
    fields = ("round_id", "seat", "club_id", *_KEY, "round__index", "complete", *_REVIEW_FIELDS)
    for row in (
        SeatResult.objects.filter(match_id=match_id)
        .annotate(day=TruncDate("played_at"))
        .values(*fields)
        .order_by()
    ):
        keys.add((row["player_id"], row["day"]))
        values = _review_facts(per_round, row["round__index"], row["seat"])
        if all(row[name] == values[name] for name in _REVIEW_FIELDS):
            continue
        changed.append(SeatResult(round_id=row["round_id"], seat=row["seat"], **values))
        if row["complete"]:  # only complete rounds are counted in the day rows
            sums = added.setdefault(
                (row["club_id"], *(row[k] for k in _KEY)), dict.fromkeys(_REVIEW_FIELDS, 0)
            )
            for name in _REVIEW_FIELDS:
                sums[name] += values[name] - row[name]
    if not changed:
        return
    _lock(keys)
    _set_review_facts(changed)
    # a delta of the review sums alone, added to the rows there (the other sums add 0)
    _upsert_add(
        PlayerDay,
        [
            PlayerDay(club_id=key[0], **dict(zip(_KEY, key[1:], strict=True)), **sums)
            for key, sums in added.items()
        ],
    )


def _set_review_facts(rows: list[SeatResult]) -> None:
    """Write the review columns of these seat rows: one ``UPDATE … FROM (VALUES …)`` on
    PostgreSQL (``bulk_update``'s ``CASE`` per column costs more than the rest of the
    review task: benchmarks/profile_verify.py), ``bulk_update`` elsewhere."""
    if connection.vendor != "postgresql":
        SeatResult.objects.bulk_update(rows, _REVIEW_FIELDS)
        return
    q = connection.ops.quote_name
    table = q(SeatResult._meta.db_table)
    values = ", ".join(["(%s::bigint, %s::int, %s::int, %s::int, %s::int)"] * len(rows))
    sets = ", ".join(f"{q(name)} = v.{q(name)}" for name in _REVIEW_FIELDS)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} AS t SET {sets} FROM (VALUES {values}) AS v"
            f" (round_id, seat, {', '.join(q(name) for name in _REVIEW_FIELDS)})"
            f" WHERE t.round_id = v.round_id AND t.seat = v.seat",
            [x for row in rows for x in (*row.pk, *(getattr(row, n) for n in _REVIEW_FIELDS))],
        )


def _review_facts(per_round: list[Any], index: int, seat: int) -> dict[str, int]:
    try:
        s = per_round[index][seat]
    except (IndexError, TypeError, KeyError):
        return dict.fromkeys(_REVIEW_FIELDS, 0)
    discards = int(s.get("discards") or 0)
    mistakes = int((s.get("mistakes") or {}).get("discard", 0))
    return {
        "reviewed_discards": discards,
        "best_discards": discards - mistakes,
        "ukeire_lost": int(s.get("ukeire_lost") or 0),
    }


def forget_match(sender: Any, instance: Match, **kwargs: Any) -> None:
    """Before a match is deleted (API, page, admin, its club): take its rounds out of the
    day rows; its own ``PlayerMatch`` rows go with it."""
    SeatResult.objects.filter(match_id=instance.pk).delete()
    refresh_match(instance.pk)
    figures.facts_changed(instance.club_id)
