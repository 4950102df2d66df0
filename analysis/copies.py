"""Copies of a stored, verified match: every row the upload and the verification would
write for a document that differs from the match's own only in who sat where, its
``match_id`` and ``played_at`` (``manage.py load_simulated --bulk --distinct``,
docs/scaling.md).

The engine's report, its review, the settlements, payments and per-seat facts depend on
none of those: a copy's rows are its template's rows as stored, read once, with the ids,
the players and the dates remapped (``_plan``: by the models' fields, so that a change of
a field's format flows through). On PostgreSQL a table's copies are made in SQL from the
template rows (``_from_templates``: one COPY of what is a copy's own, one ``INSERT …
SELECT``); elsewhere the remapped rows are inserted (``analysis.services._insert_rows``).
The statistics' and books' day rows of a batch are
the templates' own sums, by the very functions that sum them for the verification
(``analysis.stats.aggregates``, ``analysis.books``), remapped and added in one upsert per
table. tests/analysis/league/test_books.py checks the rows against uploads one by one.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from django.db import connection, models, transaction
from django.db.models.functions import TruncDate
from django.utils import timezone

from analysis import books
from analysis.models import (
    BookDay,
    BookMatch,
    PairDay,
    PlayerDay,
    PlayerDayPattern,
    PlayerMatch,
    RoundSettlement,
    SeatResult,
    Verification,
    Violation,
)
from analysis.services import FACT_STATUSES, _insert_rows, _json_text
from analysis.signals import publish_verdicts_stored
from analysis.stats import aggregates, figures
from records.fields import compress
from records.models import Club, Match, Player, Round, Seat
from records.services import _club_players, parse_played_at
from xuezhan.schema import canonical_bytes

#: the document keys a copy has of its own; everything else is its template's
OWN_KEYS = ("players", "match_id", "played_at")
#: the tables copied row by row, in the order they are written (foreign keys first), and
#: each one's rows of a match: by the ids of the match, of its rounds or its verification
#: (not through a join, which the planner may answer by reading the whole table)
COPIED: tuple[tuple[type[models.Model], str, type[models.Model]], ...] = (
    (Seat, "match_id", Match),
    (Round, "match_id", Match),
    (Verification, "match_id", Match),
    (Violation, "verification_id", Verification),
    (RoundSettlement, "round_id", Round),
    (SeatResult, "round_id", Round),
    (PlayerMatch, "match_id", Match),
    (BookMatch, "match_id", Match),
)
#: the rows other rows point at: a copy's are given their ids beforehand
REFERENCED = (Match, Round, Verification)
#: the day rows: a match's sums (aggregates' functions), added to the rows of their keys
SUMMED: tuple[tuple[type[models.Model], Callable[[Any], Any]], ...] = (
    (PlayerDay, aggregates._days),
    (PlayerDayPattern, aggregates._patterns),
    (PairDay, aggregates._pairs),
)


@dataclass(frozen=True)
class Copy:
    """A copy of the match ``template_id`` (of the same club) with its own seating,
    ``match_id`` and ``played_at``."""

    template_id: int
    players: list[str]
    match_id: str
    played_at: str


@dataclass
class Template:
    """What a copy takes of its template: the rows as {attname: value}, the document's
    texts cut where a copy's own values go, the players by seat and the day rows' sums."""

    match: dict[str, Any]
    document: dict[str, Any]
    raw: tuple[list[str], list[str]]
    canonical: tuple[list[str], list[str]]
    players: list[int]
    day: date | None
    rows: dict[type[models.Model], list[dict[str, Any]]] = field(default_factory=dict)
    sums: dict[type[models.Model], list[dict[str, Any]]] = field(default_factory=dict)


def store_copies(club: Club, copies: list[Copy], templates: dict[int, Template]) -> dict[int, str]:
    """Write the copies (none of which the club has) as uploads and their verification
    would, in one transaction; ``templates`` caches what was read of the templates.
    Returns the copies' match ids and statuses, for :func:`announce` once the caller's
    batches are all written."""
    club_id = club.pk
    with transaction.atomic():
        for pk in sorted({c.template_id for c in copies} - set(templates)):
            templates[pk] = read_template(pk)
        handles = sorted({h for c in copies for h in c.players})
        players = {h: p.pk for h, p in _club_players(club, handles).items()}
        with aggregates.club_days(club_id):
            statuses = _write(copies, templates, players)
        figures.facts_changed(club_id)
    return statuses


def announce(club_id: int, statuses: dict[int, str]) -> None:
    """Send the copies' verdicts as the verification does (``verdict_stored``: their
    reviews, the club's ratings, nights, webhooks). Once for a whole load: each sending
    rates the whole club again."""
    if statuses:
        publish_verdicts_stored(
            [pk for pk, s in statuses.items() if s in FACT_STATUSES], club_ids=[club_id],
            failed_ids=[pk for pk, s in statuses.items() if s == Match.Status.FAILED],
        )  # fmt: skip


def read_template(match_id: int) -> Template:
    """Read a stored match's rows once, for its copies (in the club's time zone)."""
    fields = [f.attname for f in Match._meta.concrete_fields]
    match = Match.objects.values(*fields).get(pk=match_id)
    raw = bytes(match.pop("raw"))  # the upload's bytes (records.fields: read decompressed)
    document = json.loads(raw)  # in the order the uploaded bytes have its keys
    skeleton = _skeleton(document, _dumps), _skeleton(document, _canonical)
    if (
        len(skeleton[0][0]) != len(OWN_KEYS)
        or _join(skeleton[0], document, _dumps) != raw.decode()
        or _join(skeleton[1], document, _canonical) != _canonical(document)
    ):  # a copy's texts are made from the template's: they must be its own
        raise ValueError(f"match {match_id}: its bytes are not json.dumps' of {OWN_KEYS}")
    seats = dict(Seat.objects.filter(match_id=match_id).values_list("seat", "player_id"))
    with aggregates.club_days(match["club_id"]):
        played = match["played_at"]
        template = Template(
            match=match, document=document, raw=skeleton[0], canonical=skeleton[1],
            players=[seats[s] for s in sorted(seats)],
            day=timezone.localtime(played).date() if played else None,
        )  # fmt: skip
        for model, scope, source in COPIED:
            names = [f.attname for f in model._meta.concrete_fields]
            ids = [match_id] if source is Match else [r["id"] for r in template.rows[source]]
            query = model._default_manager.filter(**{f"{scope}__in": ids}).order_by("pk")
            template.rows[model] = list(query.values(*names))
        seat_rows = SeatResult.objects.filter(match_id=match_id, complete=True)
        seat_rows = seat_rows.annotate(day=TruncDate("played_at"))
        for model, summed in SUMMED:
            names = [f.attname for f in model._meta.concrete_fields if not f.primary_key]
            template.sums[model] = [{n: getattr(o, n) for n in names} for o in summed(seat_rows)]
    return template


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)  # what load_simulated uploads


def _canonical(value: Any) -> str:
    return canonical_bytes(value).decode()


_MARK = "\x1fcopy:{}\x1f"


def _skeleton(document: dict[str, Any], dump: Callable[[Any], str]) -> tuple[list[str], list[str]]:
    """The document's text by ``dump`` cut where the copies' own values go: the keys in
    the order of the text, and the pieces around them (a JSON object's text is its keys'
    and values' texts, in order: the copy's text is the pieces and its values')."""
    keys = [k for k in OWN_KEYS if k in document]
    text = dump({**document, **{k: _MARK.format(k) for k in keys}})
    keys.sort(key=lambda k: text.index(dump(_MARK.format(k))))
    pieces = []
    for k in keys:
        before, text = text.split(dump(_MARK.format(k)), 1)
        pieces.append(before)
    return keys, [*pieces, text]


def _join(skeleton: tuple[list[str], list[str]], values: dict[str, Any], dump: Any) -> str:
    keys, pieces = skeleton
    parts = [pieces[0]]
    for k, piece in zip(keys, pieces[1:], strict=True):
        parts += (dump(values[k]), piece)
    return "".join(parts)


def _ids(model: type[models.Model], n: int) -> list[int]:
    """``n`` new primary keys of the model's table, taken now (its sequence on PostgreSQL;
    SQLite writes one transaction at a time)."""
    if n == 0:
        return []
    table = model._meta.db_table
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)",
                [table, n],
            )
            return [pk for (pk,) in cursor.fetchall()]
        cursor.execute(f"SELECT COALESCE(MAX(id), 0) FROM {connection.ops.quote_name(table)}")
        (top,) = cursor.fetchone()
    return list(range(top + 1, top + 1 + n))


def _write(
    copies: list[Copy], templates: dict[int, Template], players: dict[str, int]
) -> dict[int, str]:
    """The copies' rows, table by table, the day rows' sums added last; returns the
    copies' match ids and statuses."""
    now = timezone.now()
    new = {m: iter(_ids(m, sum(len(_rows(templates[c.template_id], m)) for c in copies)))
           for m in REFERENCED}  # fmt: skip
    out: dict[type[models.Model], list[dict[str, Any]]] = {Match: []}
    out.update((m, []) for m, *_ in COPIED)
    sums: dict[type[models.Model], dict[tuple[Any, ...], dict[str, Any]]] = {
        m: {} for m, _ in SUMMED
    }
    # PostgreSQL: the rows made in SQL from the templates' (but the books', summed here)
    in_sql: set[type[models.Model]] = set()
    if connection.vendor == "postgresql":
        in_sql = {m for m, *_ in COPIED if m is not BookMatch}
    changed: dict[type[models.Model], list[list[Any]]] = {m: [] for m in in_sql}
    for copy in copies:
        t = templates[copy.template_id]
        maps = _maps(t, copy, players, new, now)
        out[Match].append(_match_row(t, copy, maps, now))
        for model, *_ in COPIED:
            if model in in_sql:
                changed[model].extend(_changed(model, row, maps) for row in t.rows[model])
            else:
                out[model].extend(_remap(model, row, maps) for row in t.rows[model])
        for model, _ in SUMMED:
            _add(model, sums[model], (_remap(model, row, maps) for row in t.sums[model]))
    # the bytes compressed on the other core (zstd lets go of the GIL) while the database
    # writes the other tables; the matches go last (their foreign keys are checked at
    # commit): ~0.6 ms of a copy's ~5
    with ThreadPoolExecutor(max_workers=1) as pool:
        packed = pool.submit(_compress_all, [row["raw"] for row in out[Match]])
        for model, *_ in COPIED:
            if model in in_sql:
                _from_templates(model, _columns(model), changed[model])
            else:
                _insert_rows(model, out[model])
        for row, raw in zip(out[Match], packed.result(), strict=True):
            row["raw"] = raw
    if not in_sql:
        _insert_rows(Match, out[Match])
    else:
        columns = [*_columns(Match), *OWN_COLUMNS]
        _from_templates(Match, columns, [
            [c.template_id, *(row[name] for name in columns)]
            for c, row in zip(copies, out[Match], strict=True)
        ])  # fmt: skip
    _add_days(sums)
    book_rows = [BookMatch(**row) for row in out[BookMatch]]
    if connection.vendor == "postgresql":  # books._add_days, its upsert by COPY
        days = books._days(books._values(r) for r in book_rows)
        books._lock({(d.club_id, d.day) for d in days})
        names = [f.attname for f in BookDay._meta.concrete_fields if not f.primary_key]
        key = ("club_id", "ruleset_key", "day", "kind", "dated", "player_id")
        rows = sorted(({n: getattr(d, n) for n in names} for d in days),
                      key=lambda row: tuple(row[k] for k in key))  # fmt: skip
        _upsert_copied(BookDay, rows, key, books.SUMS)
    else:
        books.rebuild_days({(r.club_id, r.day) for r in book_rows})
    return {row["id"]: row["status"] for row in out[Match]}


def _rows(t: Template, model: type[models.Model]) -> list[dict[str, Any]]:
    return [t.match] if model is Match else t.rows[model]


def _maps(
    t: Template, copy: Copy, players: dict[str, int], new: dict[Any, Any], now: datetime
) -> dict[Any, Any]:
    """What each of the template's values becomes in the copy: ids by the table they
    point at, players by seat, the match's date and day; other dates are now."""
    played_at = parse_played_at(copy.played_at)
    maps: dict[Any, Any] = {m: {row["id"]: next(new[m]) for row in _rows(t, m)} for m in REFERENCED}
    maps[Player] = {old: players[h] for old, h in zip(t.players, copy.players, strict=True)}
    maps[datetime] = {t.match["played_at"]: played_at}
    maps[date] = {t.day: timezone.localtime(played_at).date()}
    maps["now"] = now
    return maps


def _match_row(t: Template, copy: Copy, maps: dict[Any, Any], now: datetime) -> dict[str, Any]:
    """The copy's Match row: the upload's bytes (not yet compressed: ``_compress_all``)
    and hashes, the verdict's."""
    own = _own(copy)
    raw = _join(t.raw, own, _dumps).encode()
    canonical = _join(t.canonical, own, _canonical).encode()
    row = _remap(Match, t.match, maps)
    row.update(
        raw=raw, raw_sha256=hashlib.sha256(raw).hexdigest(),
        content_sha256=hashlib.sha256(canonical).hexdigest(), source_match_id=copy.match_id,
    )  # fmt: skip
    return row


def _compress_all(raws: list[bytes]) -> list[bytes]:
    """The copies' bytes as ``records.fields`` stores an upload's (COPY takes them as
    given)."""
    return [compress(raw) for raw in raws]


def _plan(model: type[models.Model]) -> list[tuple[str, Any]]:
    """The fields of a copied row that change: (attname, what maps its value)."""
    found = _plans.get(model)
    if found is not None:
        return found
    plan: list[tuple[str, Any]] = []
    for f in model._meta.concrete_fields:
        if f.primary_key:
            plan.append((f.attname, model if model in REFERENCED else None))
        elif f.is_relation and f.related_model in (*REFERENCED, Player):
            plan.append((f.attname, f.related_model))
        elif isinstance(f, models.DateTimeField):
            plan.append((f.attname, datetime))
        elif isinstance(f, models.DateField):
            plan.append((f.attname, date))
    _plans[model] = plan
    return plan


_plans: dict[type[models.Model], list[tuple[str, Any]]] = {}


#: the Match columns a copy has of its own, besides the remapped ones (``_match_row``)
OWN_COLUMNS = ("raw", "raw_sha256", "content_sha256", "source_match_id")


def _columns(model: type[models.Model]) -> list[str]:
    """The columns a copy of the model's rows does not take from its template's row."""
    return [name for name, kind in _plan(model) if kind is not None]


def _changed(model: type[models.Model], row: dict[str, Any], maps: dict[Any, Any]) -> list[Any]:
    """The template row's key (its id, or its fields' values where it has no id:
    ``SeatResult``), then the copy's values of ``_columns(model)``."""
    values = [row[f.attname] for f in model._meta.pk_fields]
    for name, kind in _plan(model):
        if kind is not None:
            value = row[name]
            values.append(None if value is None else _mapped(kind, value, maps))
    return values


def _mapped(kind: Any, value: Any, maps: dict[Any, Any]) -> Any:
    if kind is datetime:
        return maps[datetime].get(value, maps["now"])
    return maps[kind][value]


def _own(copy: Copy) -> dict[str, Any]:
    """The document's keys a copy has of its own, with its values."""
    return {"players": copy.players, "match_id": copy.match_id, "played_at": copy.played_at}


def _from_templates(
    model: type[models.Model], columns: list[str], rows: list[list[Any]]
) -> None:
    """Insert rows made of template rows of the same table (PostgreSQL): each of ``rows``
    gives its template row's key, then its values of ``columns``, the others are the
    template's. One COPY of those values into a table of the transaction's, then one
    ``INSERT … SELECT``: a copy's large values (reports, reviews) never leave the database
    nor are parsed again."""
    if not rows:
        return
    q = connection.ops.quote_name
    meta = model._meta
    fields = {f.attname: f for f in meta.concrete_fields}
    mine = [q(str(fields[c].column)) for c in columns]
    kept = [q(str(f.column)) for f in meta.concrete_fields
            if not f.primary_key and f.attname not in columns]  # fmt: skip
    table = q(meta.db_table)
    # the template's key, each column of it named apart from the copy's own values
    key = [(q(str(f.column)), q(f"template_{i}")) for i, f in enumerate(meta.pk_fields)]
    picked = [f"c.{c}" for c in mine]
    json_at = [len(key) + i for i, c in enumerate(columns)
               if isinstance(fields[c], models.JSONField)]  # fmt: skip
    with connection.cursor() as cursor:
        cursor.execute("DROP TABLE IF EXISTS copied_rows")
        cursor.execute(
            f"CREATE TEMPORARY TABLE copied_rows ON COMMIT DROP AS SELECT"
            f" {', '.join(f'{c} AS {t}' for c, t in key)}, {', '.join(mine)}"
            f" FROM {table} WITH NO DATA"
        )
        named = ", ".join([*(t for _, t in key), *mine])
        sql = f"COPY copied_rows ({named}) FROM STDIN"
        with cursor.cursor.copy(sql) as copy:
            for row in rows:
                for i in json_at:
                    if row[i] is not None:
                        row[i] = _json_text(row[i])
                copy.write_row(row)
        # never analysed by itself: unknown, its join reads the whole table (O(the club)
        # a batch); known, it looks the templates' rows up by their key (O(the batch)):
        # the join's columns alone
        cursor.execute(f"ANALYZE copied_rows ({', '.join(t for _, t in key)})")
        cursor.execute(
            f"INSERT INTO {table} ({', '.join([*mine, *kept])})"
            f" SELECT {', '.join([*picked, *(f's.{c}' for c in kept)])}"
            f" FROM copied_rows AS c JOIN {table} AS s"
            f" ON {' AND '.join(f's.{c} = c.{t}' for c, t in key)}"
        )


def _remap(model: type[models.Model], row: dict[str, Any], maps: dict[Any, Any]) -> dict[str, Any]:
    """A template's row as its copy's: ids and players mapped (a row's own id is new, or
    the table's default), the match's date and day the copy's, other times now."""
    out = dict(row)
    for name, kind in _plan(model):
        value = out.get(name)
        if kind is None:
            out.pop(name, None)
        elif value is not None:
            out[name] = _mapped(kind, value, maps)
    return out


def _add(model: type[models.Model], into: dict[tuple[Any, ...], dict[str, Any]], rows: Any) -> None:
    """Add day rows' sums into those of the same key (``aggregates._ADDED``)."""
    key, summed = aggregates._ADDED[model]
    for row in rows:
        k = tuple(row[n] for n in ("club_id", *key))
        found = into.get(k)
        if found is None:
            into[k] = row
        else:
            for n in summed:
                found[n] += row[n]


def _add_days(sums: dict[type[models.Model], dict[tuple[Any, ...], dict[str, Any]]]) -> None:
    """Add the batch's sums to the statistics' day rows, their keys locked first, as
    ``aggregates.add_matches`` does."""
    keys = {(row["player_id"], row["day"]) for row in sums[PlayerDay].values()}
    if not keys:
        return
    aggregates._lock(keys)
    for model, _ in SUMMED:
        key = aggregates._ADDED[model][0]
        rows = sorted(sums[model].values(), key=lambda row: tuple(row[k] for k in key))
        if connection.vendor == "postgresql":
            _upsert_copied(model, rows, *aggregates._ADDED[model])
            continue
        size = 65_535 // len(model._meta.concrete_fields)  # the statement's parameters
        for start in range(0, len(rows), size):
            aggregates._upsert_add(model, [model(**row) for row in rows[start : start + size]])


def _upsert_copied(
    model: type[models.Model], rows: list[dict[str, Any]], key: Any, summed: Any
) -> None:
    """Add the sums of many rows (their ``key`` unique) to the rows there, creating those
    missing, on PostgreSQL (``aggregates._upsert_add``, ``books._add_days``): by COPY into a
    table of the transaction's, then one ``INSERT … SELECT … ON CONFLICT … DO UPDATE``
    in key order (tens of thousands of parameters cost psycopg more than the rows)."""
    if not rows:
        return
    q = connection.ops.quote_name
    table = q(model._meta.db_table)
    names = [q(str(f.column)) for f in model._meta.concrete_fields if not f.primary_key]
    columns = ", ".join(names)
    with connection.cursor() as cursor:
        cursor.execute("DROP TABLE IF EXISTS copied_sums")
        cursor.execute(
            f"CREATE TEMPORARY TABLE copied_sums ON COMMIT DROP AS"
            f" SELECT {columns} FROM {table} WITH NO DATA"
        )
        _insert_rows(model, rows, table="copied_sums")
        add = ", ".join(f"{q(c)} = {table}.{q(c)} + excluded.{q(c)}" for c in summed)
        cursor.execute(
            f"INSERT INTO {table} ({columns}) SELECT {columns} FROM copied_sums"
            f" ORDER BY {', '.join(map(q, key))}"  # one lock order, as _upsert_add's
            f" ON CONFLICT ({', '.join(map(q, key))}) DO UPDATE SET {add}"
        )
