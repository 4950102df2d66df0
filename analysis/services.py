"""Verification: replay a match with the engine and write every result, in one transaction.

This module is the only place that turns engine output into rows. Tasks and commands
call it with ids; it never enqueues anything itself.
"""

from __future__ import annotations

from typing import Any

from django.db import InterfaceError, OperationalError, transaction
from django.db.models import F
from django.utils import timezone

import xuezhan
from analysis import aggregates, stats
from analysis.facts import round_facts
from analysis.models import Payment, RoundSettlement, SeatResult, Verification, Violation
from records.models import Match, Round, Seat
from xuezhan.errors import XuezhanError
from xuezhan.playfacts import PlayFacts, play_facts
from xuezhan.rules import Rules


def verify_match(*, match_id: int, force: bool = False) -> Match:
    """Replay the match's document and store the verdict, violations and settlement.

    Idempotent: a match already verified (or illegal, or failed) is left alone unless
    ``force``; a forced run replaces every derived row, so running it twice changes nothing.
    The match row stays locked for the whole run, so two workers never interleave.
    """
    with transaction.atomic():
        # NO KEY: another verification's rows that point at this match (the statistics'
        # day rows, analysis.aggregates) must not wait on it at their commit
        match = Match.objects.select_for_update(no_key=True).get(pk=match_id)
        if match.is_terminal and not force:
            return match
        # rows exist only after a committed verification, which always writes its
        # Verification: a first verification has nothing to delete
        if Verification.objects.filter(match=match).exists():
            _clear_results(match)
        try:
            report = _engine_report(match.document)
            with transaction.atomic():  # a savepoint: rows the database refuses are an error too
                _write_results(match, report)
        except (OperationalError, InterfaceError):
            raise  # the database is away: the task retries with backoff
        except Exception as exc:  # an engine bug or refused rows must not loop: record it
            match.status = Match.Status.FAILED
            match.last_error = f"{type(exc).__name__}: {exc}"[:2000]
        else:
            match.status = Match.Status.VERIFIED if report["legal"] else Match.Status.ILLEGAL
            match.last_error = ""
        match.status_changed_at = timezone.now()
        match.save(update_fields=["status", "last_error", "status_changed_at"])
        aggregates.refresh_match(match.pk)  # the day rows follow the facts, cleared or new
    stats.facts_changed(match.club_id)
    return match


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
    return match


def _engine_report(document: Any) -> dict[str, Any]:
    from xuezhan.replay import verify_document
    from xuezhan.sheet import settle_sheet

    if isinstance(document, dict) and document.get("format") == "xuezhan-sheet":
        report: dict[str, Any] = settle_sheet(document).to_dict()  # no tiles: no replay
        return report
    report = verify_document(document).to_dict()
    return report


def _review_summary(document: Any) -> dict[str, Any] | None:
    """Each seat's decision review summary over the match and per round, for statistics
    (一致率, 进张 lost per discard, 定缺 and 换三张 mistakes); None for a document the
    engine cannot review (not schema-valid, or a bad ruleset)."""
    from xuezhan.errors import XuezhanError
    from xuezhan.review import review_document, summarize

    try:
        reviews = review_document(document)
    except XuezhanError:
        return None
    return {
        "seats": [s.to_json() for s in summarize(reviews)],
        "rounds": [[r.summary(seat).to_json() for seat in range(4)] for r in reviews],
    }


def _clear_results(match: Match) -> None:
    # the cached club tables go now, and again once the new facts are committed
    # (verify_match): a reader between the two could cache the old ones
    stats.facts_changed(match.club_id)
    Verification.objects.filter(match=match).delete()
    RoundSettlement.objects.filter(round__match=match).delete()
    Payment.objects.filter(round__match=match).delete()
    SeatResult.objects.filter(round__match=match).delete()


def _write_results(match: Match, report: dict[str, Any]) -> None:
    verification = Verification.objects.create(
        match=match,
        legal=report["legal"],
        engine_version=xuezhan.__version__,
        verified_at=timezone.now(),
        ruleset=report["ruleset"],
        totals=report["totals"],
        report=report,
        review=_review_summary(match.document),
    )
    Violation.objects.bulk_create(
        Violation(
            verification=verification,
            ordinal=ordinal,
            round_index=v.get("round"),
            event_index=v.get("event"),
            seat=v.get("seat"),
            code=v["code"],
            message=v["message"],
        )
        for ordinal, v in enumerate(report["violations"])
    )
    rounds = {r.index: r for r in Round.objects.filter(match=match)}
    players = dict(Seat.objects.filter(match=match).values_list("seat", "player_id"))
    common = _match_facts(match, report)
    plays = _play_facts(match.document, report)
    settlements: list[RoundSettlement] = []
    payments: list[Payment] = []
    seat_results: list[SeatResult] = []
    for index, result in enumerate(report["rounds"]):
        round_ = rounds.get(index)
        if round_ is None:
            continue
        settlements.append(
            RoundSettlement(
                round=round_,
                incomplete=result["incomplete"],
                next_dealer=result["next_dealer"],
                deltas=result["deltas"],
            )
        )
        payments.extend(
            Payment(
                round=round_,
                ordinal=ordinal,
                payer=p["payer"],
                payee=p["payee"],
                amount=p["amount"],
                reason=p["reason"],
                params=p.get("params", {}),
                detail=p.get("detail", ""),
                payer_player_id=players.get(p["payer"]),
                payee_player_id=players.get(p["payee"]),
            )
            for ordinal, p in enumerate(result["payments"])
        )
        facts = round_facts(result, plays[index] if index < len(plays) else None, round_.dealer)
        seat_results.extend(
            SeatResult(round=round_, player_id=players[s["seat"]], **_seat_facts(s), **common, **f)
            for s, f in zip(result["seats"], facts, strict=True)
        )
    RoundSettlement.objects.bulk_create(settlements)
    Payment.objects.bulk_create(payments)
    SeatResult.objects.bulk_create(seat_results)


_SEAT_FIELDS = (
    "seat", "won", "win_order", "self_drawn", "discarder", "pattern", "fan", "points", "delta",
    "kong_income", "ready", "flower_pig", "ting_paid", "ting_received", "refunded", "transferred",
)  # fmt: skip


def _seat_facts(seat: dict[str, Any]) -> dict[str, Any]:
    return {name: seat[name] for name in _SEAT_FIELDS}


def _match_facts(match: Match, report: dict[str, Any]) -> dict[str, Any]:
    """What every seat row copies from its match, so statistics filter one table."""
    return {
        "match": match,
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
