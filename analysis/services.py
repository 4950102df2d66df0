"""Verification: replay a match with the engine and write every result, in one transaction.

This module is the only place that turns engine output into rows. Tasks and commands
call it with ids; it never enqueues anything itself: a stored verdict is announced
(analysis.signals) after commit, and the tasks module queues the review it calls for.
"""

from __future__ import annotations

import json
import operator
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import orjson
from django.db import InterfaceError, OperationalError, connection, models, transaction
from django.db.models import Exists, F, OuterRef
from django.utils import timezone

import xuezhan
from analysis import books, compact
from analysis.facts import round_facts
from analysis.models import (
    RoundSettlement,
    SeatResult,
    Verification,
    Violation,
    engine_report,
    stored_detail,
)
from analysis.review.worst import page_worst, worst_entry, worst_first
from analysis.signals import publish_verdicts_stored
from analysis.stats import aggregates, figures
from records.models import Club, Match, Round, Seat, document_of, store_rulesets
from xuezhan.errors import XuezhanError
from xuezhan.playfacts import PlayFacts, play_facts
from xuezhan.review import MISTAKES, review_document, summarize
from xuezhan.rules import Rules


def verify_match(*, match_id: int, force: bool = False) -> Match:
    """Replay the match's document and store the verdict, violations and settlement
    (:func:`verify_matches` of one match); Match.DoesNotExist if there is none."""
    found = verify_matches(match_ids=[match_id], force=force)
    if not found:
        raise Match.DoesNotExist(f"no match {match_id}")
    return found[0]


def verify_matches(*, match_ids: Sequence[int], force: bool = False) -> list[Match]:
    """Replay each match's document and store its verdict, violations and settlement, all
    in one transaction; return the matches found, in ``match_ids``' order.

    Idempotent: a match already verified (or illegal, or failed) is left alone unless
    ``force``; a forced run replaces every derived row, so running it twice changes nothing.
    The engine runs before the match rows are locked, on the documents read once; the rows
    are written under the locks, after checking that each match still wants them and that
    its document is the one replayed (a correction may have replaced it meanwhile): two
    workers never interleave their writes, and the locks are held for the writes alone.
    Several matches share each statement (one COPY per table, one statement for the
    statistics' day rows): the pipeline's worker verifies the queued matches in batches
    (analysis.tasks, docs/deploy.md). What it stored sends ``verdict_stored`` once
    committed: the decision reviews of the verdicts (verified or illegal) follow in a task
    of their own, one for the batch (:func:`store_review`), and the club books follow.
    """
    # the documents as bytes, each read into objects in turn: a batch holds one at a time
    read: dict[int, Match] = {}
    raws: dict[int, bytes] = {}
    for row in Match.objects.filter(pk__in=match_ids):
        read[row.pk], raws[row.pk] = row, row.raw
        del row.raw  # not kept (deferred from here on): one document at a time in memory
    outcomes: dict[int, _Outcome] = {}
    for pk, match in read.items():
        if force or not match.is_terminal:
            outcomes[pk] = _run_engine(_parse(raws.pop(pk)))
    found = {pk: m for pk, m in read.items() if pk not in outcomes}
    stored: list[Match] = []
    if outcomes:
        with transaction.atomic():
            stored = _store_locked(read, outcomes, found, force=force)
    _announce_stored(stored)
    return [found[pk] for pk in match_ids if pk in found]


def store_verified(matches: list[Match], outcomes: dict[int, _Outcome]) -> list[Match]:
    """Store the engine's ``outcomes`` (of :func:`run_engine`) of matches just uploaded, as
    :func:`verify_matches` does once it has run the engine: for a bulk load, which runs the
    engine once per distinct document (``manage.py load_simulated --bulk``)."""
    with transaction.atomic():
        stored = _store_locked({m.pk: m for m in matches}, dict(outcomes), {}, force=False)
    _announce_stored(stored)
    return stored


def _announce_stored(stored: list[Match]) -> None:
    for club_id in sorted({m.club_id for m in stored}):
        figures.facts_changed(club_id)
    if stored:
        publish_verdicts_stored(
            [m.pk for m in stored if m.status in FACT_STATUSES],
            club_ids=sorted({m.club_id for m in stored}),
            failed_ids=[m.pk for m in stored if m.status == Match.Status.FAILED],
        )


def _store_locked(
    read: dict[int, Match], outcomes: dict[int, _Outcome], found: dict[int, Match], *,
    force: bool,
) -> list[Match]:
    """Lock the matches (in id order), and write the outcomes of those that still want
    them; ``found`` gets every locked match. Returns the matches written."""
    # NO KEY: another verification's rows that point at this match (the statistics'
    # day rows, analysis.stats.aggregates) must not wait on it at their commit;
    # rows exist only after a committed verification, which always writes its
    # Verification: without one, there is nothing to delete nor counted
    locked = (
        Match.objects.select_for_update(no_key=True)
        .defer("raw")
        .annotate(has_results=Exists(Verification.objects.filter(match=OuterRef("pk"))))
        .filter(pk__in=outcomes)
        .order_by("pk")
    )
    writing: list[Match] = []
    counted: set[int] = set()  # the matches with rows: cleared now, their day rows redone
    for match in locked:
        found[match.pk] = match
        if match.is_terminal and not force:
            continue  # another run got there first: its rows stand
        if match.content_sha256 != read[match.pk].content_sha256:  # corrected since read
            raw = Match.objects.values_list("raw", flat=True).get(pk=match.pk)
            outcomes[match.pk] = _run_engine(_parse(raw))
        if match.has_results:
            _clear_results(match)
            counted.add(match.pk)
        writing.append(match)
    keys = _store_outcomes(writing, outcomes)
    books.refresh_matches([m.pk for m in writing])  # the club's books follow the verdicts
    for pk in sorted(counted):  # the day rows follow the facts, cleared or new
        aggregates.refresh_match(pk)
    # nothing of the others counted yet: their sums only add (O(the matches))
    added = [m.pk for m in writing if m.pk not in counted]
    aggregates.add_matches(added, set().union(*(keys[pk] for pk in added)))
    return writing


@dataclass(frozen=True)
class _Outcome:
    """What the engine made of a document: the report and each round's play facts, or
    the error that stopped it."""

    report: dict[str, Any] | None = None
    plays: list[list[PlayFacts] | None] = field(default_factory=list)
    error: str = ""


def run_engine(document: Any) -> _Outcome:
    """The engine's outcome of a document (for :func:`store_verified`)."""
    return _run_engine(document)


def _run_engine(document: Any) -> _Outcome:
    try:
        report = _engine_report(document)
        return _Outcome(report=report, plays=_play_facts(document, report))
    except Exception as exc:  # an engine bug must not loop: the match is marked failed
        return _Outcome(error=f"{type(exc).__name__}: {exc}"[:2000])


def _store_outcomes(
    matches: list[Match], outcomes: dict[int, _Outcome]
) -> dict[int, set[tuple[int, date]]]:
    """Write the outcomes' rows and the matches' statuses (their rows are locked by the
    caller, and their old rows cleared); return each match's (player, day) keys of the
    seat rows written."""
    errors = {m.pk: outcomes[m.pk].error for m in matches}
    reported = [m for m in matches if outcomes[m.pk].report is not None]
    keys: dict[int, set[tuple[int, date]]] = {m.pk: set() for m in matches}
    keys.update(_write_checked(reported, outcomes, errors))
    now = timezone.now()
    changed: dict[tuple[str, str], list[int]] = defaultdict(list)
    for match in matches:
        report, error = outcomes[match.pk].report, errors[match.pk]
        if error or report is None:
            match.status = Match.Status.FAILED
        else:
            match.status = Match.Status.VERIFIED if report["legal"] else Match.Status.ILLEGAL
        match.last_error, match.status_changed_at = error, now
        changed[match.status, error].append(match.pk)
    # an UPDATE, not save(): the verdict is the pipeline's bookkeeping, as the claim is
    # (analysis.leases), not a change someone made; the match's history keeps those
    for (status, error), pks in changed.items():
        Match.objects.filter(pk__in=pks).update(
            status=status, last_error=error, status_changed_at=now
        )
    return keys


def _write_checked(
    matches: list[Match], outcomes: dict[int, _Outcome], errors: dict[int, str]
) -> dict[int, set[tuple[int, date]]]:
    """:func:`_write_results` in a savepoint: rows the database refuses are an error of
    their match, recorded in ``errors``. A batch refused is written again a match at a
    time, to find whose rows they were."""
    if not matches:
        return {}
    try:
        with transaction.atomic():
            return _write_results(matches, outcomes)
    except (OperationalError, InterfaceError):
        raise  # the database is away: the task retries with backoff
    except Exception as exc:  # refused rows must not loop: record it
        if len(matches) == 1:
            errors[matches[0].pk] = f"{type(exc).__name__}: {exc}"[:2000]
            return {}
    keys: dict[int, set[tuple[int, date]]] = {}
    for match in matches:
        keys.update(_write_checked([match], outcomes, errors))
    return keys


def store_review(*, match_id: int) -> bool:
    """Store the decision review's summaries on the match's verification (docs/review.md).

    Run after the verdict is committed (analysis.tasks.review_matches), apart from the
    verification: the review costs many times the replay. Idempotent: a verification that
    has its review is left alone, and a review is stored only on a verification of the
    document it was computed from (a correction may replace the document meanwhile).
    Returns whether it stored one.
    """
    pending = Verification.objects.filter(match_id=match_id, review__isnull=True)
    found = pending.values_list(
        "match__content_sha256", "match__club_id", "match__raw"
    ).first()
    if found is None:
        return False
    content_sha256, club_id, raw = found
    document = document_of(raw)
    review = _review_summary(document)
    if review is None:
        return False  # nothing to review: the verification keeps its null
    with transaction.atomic():
        stored = pending.filter(match__content_sha256=content_sha256).update(review=review)
        if stored:  # the statistics' rows copy the summaries (analysis.stats.aggregates)
            aggregates.add_review(match_id, review)
    if stored:
        figures.facts_changed(club_id)
    return bool(stored)


def reverify_match(*, match_id: int) -> Match:
    """Verify again now (e.g. after an engine upgrade), whatever the match's status."""
    Match.objects.filter(pk=match_id).update(
        status=Match.Status.VERIFYING,
        attempts=F("attempts") + 1,
        status_changed_at=timezone.now(),
    )
    return verify_match(match_id=match_id, force=True)


#: the matches that have facts: those the engine gave a verdict on
FACT_STATUSES = (Match.Status.VERIFIED, Match.Status.ILLEGAL)


def rebuild_facts(*, match_id: int) -> Match:
    """Replay a match that has a verdict and rewrite all its derived rows, facts included
    (docs/statistics.md: a change of definition rebuilds from the stored logs)."""
    return verify_match(match_id=match_id, force=True)


def requeue_match(*, match: Match) -> Match:
    """Put a match back in the queue; the caller enqueues the task after commit."""
    match.status = Match.Status.QUEUED
    match.status_changed_at = timezone.now()
    match.save(update_fields=["status", "status_changed_at"])
    books.refresh_matches([match.pk])  # a match in the queue counts nowhere
    return match


def _engine_report(document: Any) -> dict[str, Any]:
    return engine_report(document)


def _review_summary(document: Any) -> dict[str, Any] | None:
    """Each seat's decision review summary over the match and per round, for statistics
    (一致率, 进张 lost per discard, 定缺 and 换三张 mistakes); None for a document the
    engine cannot review (not schema-valid, or a bad ruleset)."""
    try:
        reviews = review_document(document)
    except XuezhanError:
        return None
    mistakes = sorted((d for r in reviews for d in r.decisions if d.verdict in MISTAKES),
                      key=worst_first)  # fmt: skip
    return {
        "seats": [s.to_json() for s in summarize(reviews)],
        "rounds": [[r.summary(seat).to_json() for seat in range(4)] for r in reviews],
        # what the match page shows of them, so that its first view replays nothing
        # (analysis.review.selectors.page_worst): the match's worst and each seat's
        "worst": [worst_entry(d) for d in page_worst(mistakes)],
        "mistakes": len(mistakes),
    }


def _clear_results(match: Match) -> None:
    # the cached club tables go now, and again once the new facts are committed
    # (verify_match): a reader between the two could cache the old ones
    figures.facts_changed(match.club_id)
    Verification.objects.filter(match=match).delete()
    RoundSettlement.objects.filter(round__match=match).delete()
    SeatResult.objects.filter(round__match=match).delete()


@dataclass
class _Rows:
    """The rows a verification inserts besides its Verification, as {attname: value}."""

    violations: list[dict[str, Any]] = field(default_factory=list)
    settlements: list[dict[str, Any]] = field(default_factory=list)
    seat_results: list[dict[str, Any]] = field(default_factory=list)


def _write_results(
    matches: list[Match], outcomes: dict[int, _Outcome]
) -> dict[int, set[tuple[int, date]]]:
    """Insert each match's verification, its violations, the rounds' settlements (with
    their payment lines) and seat facts, one statement per table; return each match's
    (player, day) keys of the seat rows (analysis.stats.aggregates)."""
    now = timezone.now()
    reports = {m.pk: outcomes[m.pk].report or {} for m in matches}
    ids = [m.pk for m in matches]
    rulesets = dict(zip(reports, store_rulesets([r["ruleset"] for r in reports.values()]),
                        strict=True))  # fmt: skip
    # COPY, as the other rows: bulk_create sends each column as one array, and psycopg
    # escapes each report's text into it character by character (~5 ms a match)
    _insert_rows(Verification, [
        {
            "match_id": pk,
            "legal": report["legal"],
            "engine_version": xuezhan.__version__,
            "verified_at": now,
            "stored_ruleset_id": rulesets[pk],
            "totals": report["totals"],
            "review": None,  # stored by store_review, in its own task
        }
        for pk, report in reports.items()
    ])  # fmt: skip
    verifications = dict(
        Verification.objects.filter(match_id__in=ids).values_list("match_id", "pk")
    )
    rounds = {(match_id, i): (pk, dealer) for match_id, i, pk, dealer in
              Round.objects.filter(match_id__in=ids).values_list("match_id", "index", "pk",
                                                                 "dealer")}  # fmt: skip
    players: dict[int, dict[int, int]] = defaultdict(dict)
    for match_id, seat, player_id in Seat.objects.filter(match_id__in=ids).values_list(
        "match_id", "seat", "player_id"
    ):
        players[match_id][seat] = player_id
    rows = _Rows()
    keys = {}
    for match in matches:
        rows.violations.extend(_violation_rows(verifications[match.pk], reports[match.pk]))
        keys[match.pk] = _round_rows(match, outcomes[match.pk], rounds, players[match.pk], rows)
    _insert_rows(Violation, rows.violations)
    _insert_rows(RoundSettlement, rows.settlements)
    _insert_rows(SeatResult, rows.seat_results)
    return keys


def _violation_rows(verification_id: int, report: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {
            "verification_id": verification_id,
            "ordinal": ordinal,
            "round_index": v.get("round"),
            "event_index": v.get("event"),
            "seat": v.get("seat"),
            "code": v["code"],
            "message": v["message"],
        }
        for ordinal, v in enumerate(report["violations"])
    ]


def _round_rows(
    match: Match,
    outcome: _Outcome,
    rounds: dict[tuple[int, int], tuple[int, int]],
    players: dict[int, int],
    rows: _Rows,
) -> set[tuple[int, date]]:
    """Add the match's settlement rows (with their payment lines) and seat rows to
    ``rows``; return the seat rows' (player, day) keys."""
    assert outcome.report is not None
    report, plays = outcome.report, outcome.plays
    common = _match_facts(match, report)
    seat_rows: list[dict[str, Any]] = []
    for index, result in enumerate(report["rounds"]):
        if (match.pk, index) not in rounds:
            continue
        round_id, dealer = rounds[match.pk, index]
        rows.settlements.append(
            {
                "round_id": round_id,
                "incomplete": result["incomplete"],
                "next_dealer": result["next_dealer"],
                "deltas": result["deltas"],
                "lines": _lines_text(result["payments"]),
            }
        )
        facts = round_facts(result, plays[index] if index < len(plays) else None, dealer)
        seat_rows.extend(
            {"round_id": round_id, "player_id": players[s["seat"]], **_seat_facts(s), **common,
             **f}
            for s, f in zip(result["seats"], facts, strict=True)
        )
    rows.seat_results.extend(seat_rows)
    # the statistics' day: TruncDate's, in the club's time zone (aggregates.club_days)
    with aggregates.club_days(match.club_id):
        day = timezone.localtime(common["played_at"]).date()
    return {(row["player_id"], day) for row in seat_rows}


def _lines_text(payments: list[dict[str, Any]]) -> str:
    """A reported round's payment lines as RoundSettlement.lines stores them."""
    return compact.dumps_lines([
        {
            "payer": p["payer"],
            "payee": p["payee"],
            "amount": p["amount"],
            "reason": p["reason"],
            "params": p.get("params", {}),
            "stored_detail": stored_detail(p["reason"], p.get("params"), p.get("detail", "")),
        }
        for p in payments
    ])  # fmt: skip


def _insert_rows(
    model: type[models.Model], rows: list[dict[str, Any]], *, table: str = ""
) -> None:
    """Insert new rows, given as {attname: value} (the fields left out take their default;
    the primary key too, unless the rows give it), whose ids nobody needs back: with COPY
    on PostgreSQL (into ``table`` if given, one of the model's columns), else
    ``bulk_create``.

    A verification writes about a hundred rows per match (violations, settlements, seat
    facts). Model instances and ``bulk_create``, which prepares and quotes each value in
    Python, cost more than the replay itself (docs/benchmarks.md, "Pipeline"); COPY takes
    the values as they are.
    """
    if not rows:
        return
    if connection.vendor != "postgresql":
        model._default_manager.bulk_create([model(**row) for row in rows])
        return
    # the primary key where the rows give it (ids made beforehand: analysis.copies)
    fields = [f for f in model._meta.concrete_fields
              if not f.primary_key or f.attname in rows[0]]  # fmt: skip
    names = [str(f.attname) for f in fields]
    unknown = set(rows[0]) - set(names)
    if unknown:  # what model(**row) would refuse
        raise TypeError(f"{model.__name__} has no field {sorted(unknown)[0]!r}")
    defaults = {name: f.get_default() for name, f in zip(names, fields, strict=True)}
    ordered = operator.itemgetter(*names)  # a row's values in the columns' order, in C
    json_fields = [i for i, f in enumerate(fields) if isinstance(f, models.JSONField)]
    quote = connection.ops.quote_name
    sql = (f"COPY {quote(table or model._meta.db_table)} "
           f"({', '.join(quote(str(f.column)) for f in fields)}) FROM STDIN")
    with (
        connection.cursor() as cursor,
        connection.wrap_database_errors,
        cursor.cursor.copy(sql) as copy,
    ):
        for row in rows:
            values = list(ordered({**defaults, **row}))
            for i in json_fields:
                if values[i] is not None:
                    values[i] = _json_text(values[i])
            copy.write_row(values)


def _parse(raw: bytes | memoryview | str) -> Any:
    """A stored document's bytes (accepted by the upload's strict reader, so plain JSON), by
    orjson: a third of the standard library's time for the same values, floats read alike.
    Not where 19 digits or more stand in a row: orjson reads an integer past 64 bits as a
    float, silently, so such a text (or one with a long number in a string) is the
    standard library's."""
    text = raw if isinstance(raw, str) else bytes(raw).decode("utf-8-sig")
    if _LONG_DIGITS.search(text):
        return json.loads(text)
    return orjson.loads(text)


_LONG_DIGITS = re.compile(r"[0-9]{19}")


def _json_text(value: Any) -> str:
    """A value for a ``jsonb`` column (formatting means nothing to ``jsonb``): orjson's
    text, the standard library's where orjson refuses (an integer past 64 bits)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # orjson.JSONEncodeError is one
        return json.dumps(value)


_SEAT_FIELDS = (
    "seat", "won", "win_order", "self_drawn", "discarder", "pattern", "fan", "points", "delta",
    "kong_income", "ready", "flower_pig", "ting_paid", "ting_received", "refunded", "transferred",
)  # fmt: skip


def _seat_facts(seat: dict[str, Any]) -> dict[str, Any]:
    return {name: seat[name] for name in _SEAT_FIELDS}


def _match_facts(match: Match, report: dict[str, Any]) -> dict[str, Any]:
    """What every seat row copies from its match, so statistics filter one table."""
    return {
        "match_id": match.pk,
        "club_id": match.club_id,
        "played_at": match.played_at or match.uploaded_at,
        "ruleset_name": match.ruleset_name,
        "legal": report["legal"],
    }


def _play_facts(document: Any, report: dict[str, Any]) -> list[list[PlayFacts] | None]:
    """The engine's play facts of each reported round (a round has them only when the
    document was schema-valid, which every reported round is)."""
    if not report["rounds"] or report["ruleset"] is None:
        return []
    rules = Rules.from_json(report["ruleset"])
    return [_play_facts_of_round(round_doc, rules) for round_doc in document["rounds"]]


def _play_facts_of_round(round_doc: dict[str, Any], rules: Rules) -> list[PlayFacts] | None:
    try:
        return play_facts(round_doc, rules)
    except (XuezhanError, LookupError, ValueError):  # a log too broken to read its play
        return None


def follow_zone_change(sender: Any, instance: Club, **kwargs: Any) -> None:
    """Before a club is saved with another time zone (API, page, admin): once that commits,
    its statistics' day rows (``aggregates.club_days``) and its books' rows are made again
    over the days of the new zone (a season's dates are the club's days)."""
    if instance.pk is None:
        return
    before = Club.objects.filter(pk=instance.pk).values_list("time_zone", flat=True).first()
    if before is None or before == instance.time_zone:
        return
    club_id = instance.pk

    def rebuild() -> None:
        with transaction.atomic():
            aggregates.rebuild_club(club_id)
            books.rebuild_club(club_id)
        figures.facts_changed(club_id)

    transaction.on_commit(rebuild)
