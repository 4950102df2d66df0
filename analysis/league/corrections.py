"""Corrections of a match by club admins, each with a reason, each kept in the history.

A correction changes the player at a seat, the ruleset, or the whole document (a
corrected version), or voids the match (or un-voids it). The match's and the seats' rows
carry their history (django-simple-history, with who and why); a replaced document is
kept verbatim in ``MatchDocumentVersion``. Anything that changes what the engine sees
re-queues the match for verification; the caller enqueues it after commit, and a
verification recomputes the club's ratings. Standings and ledgers are read fresh.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from analysis.league.services import LeagueError, resolve_ruleset
from analysis.league.signals import counted_matches_changed, match_corrected, publish
from analysis.models import MatchAcceptance, MatchDocumentVersion, MatchVoid
from records.errors import DocumentError
from records.models import Match, Player, Round, Seat
from records.services import check_document, parse_document
from xuezhan.schema import canonical_bytes


@dataclass
class Outcome:
    match: Match
    reverify: bool  # the caller enqueues verification after commit
    ratings: bool  # the caller enqueues a ratings recompute after commit


def correct_match(
    *,
    match: Match,
    by: User,
    reason: str,
    players: list[str] | None = None,
    ruleset: Any = None,
    document: bytes | None = None,
    void: bool | None = None,
) -> Outcome:
    """Apply one correction (any of its parts) in one transaction.

    :raises LeagueError: naming the field: no reason, nothing to change, a bad document.
    """
    reason = reason.strip()
    if not reason:
        raise LeagueError("reason", "say why the match is corrected")
    if players is None and ruleset is None and document is None and void is None:
        raise LeagueError("reason", "nothing to correct: give players, ruleset, document or void")
    reverify = ratings = False
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match.pk)
        if document is not None or ruleset is not None:
            raw = document if document is not None else _with_ruleset(match, ruleset)
            _replace_document(match, raw, by, reason)
            reverify = True
        if players is not None:
            _reseat(match, players, by, reason)
            reverify = True
        if void is not None:
            ratings = _set_void(match, void, by, reason)
        if reverify:
            match.status = Match.Status.QUEUED
            match.status_changed_at = timezone.now()
            _save(match, by, reason)
        publish(match_corrected, match_id=match.pk, club_id=match.club_id, reverify=reverify)
        if void is not None:
            publish(counted_matches_changed, club_id=match.club_id, match_ids=[match.pk])
    return Outcome(match, reverify=reverify, ratings=ratings and not reverify)


def _save(row: Any, by: User, reason: str, **kwargs: Any) -> None:
    row._history_user = by
    row._change_reason = reason
    row.save(**kwargs)


def _with_ruleset(match: Match, ruleset: Any) -> bytes:
    rules = resolve_ruleset(ruleset)
    doc = dict(match.document)
    doc["ruleset"] = rules.to_json()
    return canonical_bytes(doc)


def _replace_document(match: Match, raw: bytes, by: User, reason: str) -> None:
    try:
        doc = parse_document(raw)
        rules, played_at = check_document(doc)
    except DocumentError as exc:
        first = exc.errors[0] if exc.errors else {"path": "$", "message": exc.detail}
        raise LeagueError("document", f"{first['path']}: {first['message']}") from None
    if len(set(doc["players"])) != 4:
        raise LeagueError("document", "four different players")
    MatchDocumentVersion.objects.create(
        match=match,
        raw=bytes(match.raw),
        document=match.document,
        content_sha256=match.content_sha256,
        replaced_by=by,
        reason=reason,
    )
    match.raw = raw
    match.raw_sha256 = hashlib.sha256(raw).hexdigest()
    match.document = doc
    match.content_sha256 = hashlib.sha256(canonical_bytes(doc)).hexdigest()
    match.ruleset = rules.to_json()
    match.ruleset_name = rules.preset_name
    match.played_at = played_at if played_at is not None else match.played_at
    if [s.player.handle for s in match.seats.select_related("player")] != doc["players"]:
        _reseat(match, list(doc["players"]), by, reason)
    _rebuild_rounds(match, doc)


def _rebuild_rounds(match: Match, doc: dict[str, Any]) -> None:
    Round.objects.filter(match=match).delete()  # derived rows go with them
    Round.objects.bulk_create(
        Round(match=match, index=i, dealer=r["dealer"], event_count=len(r["events"]))
        for i, r in enumerate(doc["rounds"])
    )


def _reseat(match: Match, handles: list[str], by: User, reason: str) -> None:
    """Seat these players (by handle, new handles become players), keeping the history."""
    if len(handles) != 4 or len(set(handles)) != 4 or not all(handles):
        raise LeagueError("players", "four different handles, by seat")
    seats = list(Seat.objects.filter(match=match).select_related("player").order_by("seat"))
    if [s.player.handle for s in seats] == handles:
        return
    for seat in seats:  # freed first: a player may move to another seat of the match
        seat._history_user = by  # type: ignore[attr-defined]
        seat._change_reason = reason  # type: ignore[attr-defined]
        seat.delete()
    for index, handle in enumerate(handles):
        player, _ = Player.objects.get_or_create(club=match.club, handle=handle)
        _save(Seat(match=match, seat=index, player=player), by, reason)


def _set_void(match: Match, void: bool, by: User, reason: str) -> bool:
    existing = MatchVoid.objects.filter(match=match).first()
    if void and existing is None:
        _save(MatchVoid(match=match, voided_by=by, reason=reason), by, reason)
        return True
    if not void and existing is not None:
        existing._history_user = by  # type: ignore[attr-defined]
        existing._change_reason = reason  # type: ignore[attr-defined]
        existing.delete()
        return True
    return False


@dataclass
class Change:
    when: datetime
    who: str | None
    what: str
    reason: str


def match_history(match: Match) -> list[Change]:
    """Every recorded change to the match, its seats, its acceptance and its voiding,
    oldest first."""
    changes: list[Change] = []
    kinds = {"+": "created", "~": "changed", "-": "removed"}
    sources: list[tuple[Any, Any]] = [
        (Match.history.filter(id=match.pk), _match_what),  # type: ignore[attr-defined]
        (Seat.history.filter(match_id=match.pk), _seat_what),  # type: ignore[attr-defined]
        (MatchAcceptance.history.filter(match_id=match.pk), _named("acceptance")),
        (MatchVoid.history.filter(match_id=match.pk), _named("void")),
    ]
    for rows, describe in sources:
        for row in rows.select_related("history_user").order_by("history_date", "history_id"):
            user = row.history_user.username if row.history_user else None
            what = describe(row, kinds[row.history_type])
            changes.append(Change(row.history_date, user, what, row.history_change_reason or ""))
    return sorted(changes, key=lambda c: c.when)


def _match_what(row: Any, kind: str) -> str:
    if kind != "changed":
        return f"match {kind}"
    previous = row.prev_record
    if previous is None:
        return "match changed"
    delta = row.diff_against(previous)
    fields = sorted(c.field for c in delta.changes if c.field not in ("status_changed_at",))
    return "match changed: " + (", ".join(fields) or "no field")


def _seat_what(row: Any, kind: str) -> str:
    handle = Player.objects.filter(pk=row.player_id).values_list("handle", flat=True).first()
    return f"seat {row.seat}: {handle} {kind}"


def _named(name: str) -> Any:
    return lambda row, kind: f"{name} {kind}"
