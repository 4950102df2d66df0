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
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from analysis import books
from analysis.league.services import LeagueError, resolve_ruleset
from analysis.league.signals import counted_matches_changed, match_corrected, publish
from analysis.models import MatchAcceptance, MatchDocumentVersion, MatchVoid
from records.errors import DocumentError
from records.models import Club, Match, Player, Round, Seat, store_ruleset
from records.names import INVISIBLE_MESSAGE, has_unsafe
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
        raise LeagueError("reason", _("say why the match is corrected"))
    if players is None and ruleset is None and document is None and void is None:
        raise LeagueError("reason",
                          _("nothing to correct: give players, ruleset, document or void"))
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
        books.refresh_matches([match.pk])  # in the queue or voided: it counts nowhere now
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
        raise LeagueError("document", _("four different players"))
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
    match.remember_document(doc)
    match.content_sha256 = hashlib.sha256(canonical_bytes(doc)).hexdigest()
    match.stored_ruleset_id = store_ruleset(rules.to_json())
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
        raise LeagueError("players", _("four different handles, by seat"))
    if any(has_unsafe(handle) for handle in handles):
        raise LeagueError("players", str(INVISIBLE_MESSAGE))
    seats = list(Seat.objects.filter(match=match).select_related("player").order_by("seat"))
    if [s.player.handle for s in seats] == handles:
        return
    for seat in seats:  # freed first: a player may move to another seat of the match
        seat._history_user = by  # type: ignore[attr-defined]
        seat._change_reason = reason  # type: ignore[attr-defined]
        seat.delete()
    for index, handle in enumerate(handles):
        player, _new = Player.objects.get_or_create(club=match.club, handle=handle)
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


# -- the history: one row per change a person made ---------------------------------------

#: history rows of one person, with one reason, this close in time are one change (a
#: correction writes all its rows in one transaction, within milliseconds)
SAME_CHANGE = timedelta(seconds=5)
#: fields of a match that change by themselves with its verification, never by a person
_BOOKKEEPING = {"status", "status_changed_at", "attempts", "last_error", "uploaded_at"}
_DOCUMENT = {"raw_sha256", "content_sha256", "source_match_id"}


@dataclass(frozen=True)
class Item:
    """One thing a change did: ``field`` went from ``before`` to ``after`` (codes and
    names, worded in the page language by :func:`item_text`)."""

    field: str  # seat, ruleset, played_at, document, void, acceptance, upload, link
    before: str | None = None
    after: str | None = None
    seat: int | None = None


@dataclass
class Change:
    """One change a person made: who, when, what, why."""

    when: datetime
    who: str | None
    items: list[Item]
    reason: str
    user_id: int | None = field(default=None, repr=False)
    subject: str = ""  # what was changed when it is not the match (a handle)

    @property
    def texts(self) -> list[str]:
        """Each item in words, in the page language."""
        return [item_text(i) for i in self.items]

    @property
    def what(self) -> str:
        return "; ".join(self.texts)

    @property
    def changes(self) -> list[dict[str, Any]]:
        return [{"field": i.field, "seat": i.seat, "from": i.before, "to": i.after}
                for i in self.items]


def wind(seat: int) -> str:
    return [pgettext("wind", "East"), pgettext("wind", "South"), pgettext("wind", "West"),
            pgettext("wind", "North")][seat]


def ruleset_name(code: str | None) -> str:
    """A preset's name in the page language (a ruleset built on it shows its preset's)."""
    names = {"chengdu": _("Chengdu rules"), "online": _("Online rules")}
    return names.get(code or "", code or "")


def item_text(item: Item) -> str:
    """One item of a change, in the page language."""
    none = pgettext("nobody or nothing", "none")
    values = {"before": item.before or none, "after": item.after or none}
    if item.field == "seat" and item.seat is not None:
        return _("%(seat)s: %(before)s → %(after)s") % {**values, "seat": wind(item.seat)}
    if item.field == "ruleset":
        return _("Ruleset: %(before)s → %(after)s") % {
            "before": ruleset_name(item.before), "after": ruleset_name(item.after)}
    if item.field == "played_at":
        return _("Played at: %(before)s → %(after)s") % values
    if item.field == "link":
        return _("Linked account: %(before)s → %(after)s") % values
    if item.field == "document":
        return _("Document replaced (the old one is kept)")
    if item.field == "upload":
        return pgettext("history", "Uploaded")
    if item.field == "void":
        return _("Voided: counted nowhere") if item.after else _("Counted again")
    if item.field == "acceptance":
        return _("Accepted as played") if item.after is not None else _(
            "Acceptance as played withdrawn")
    return item.field


@dataclass
class _Row:
    when: datetime
    user_id: int | None
    user: str | None
    reason: str
    items: list[Item]


def match_history(match: Match) -> list[Change]:
    """The match's history, oldest first: its upload and each change a person made (its
    seats, ruleset, document, voiding, acceptance: the database rows of one correction as
    one change). The verification's own bookkeeping (status, attempts) is no change of
    anyone's, and the verdicts are written without history rows."""
    rows: list[_Row] = []
    for row in _history(Match.history.filter(id=match.pk)):  # type: ignore[attr-defined]
        rows.extend(_match_rows(row, match))
    for row in _history(Seat.history.filter(match_id=match.pk)):  # type: ignore[attr-defined]
        handle = _handle(row.player_id)
        item = (Item("seat", before=handle, seat=row.seat) if row.history_type == "-"
                else Item("seat", after=handle, seat=row.seat))
        rows.append(_person(row, [item]))
    for row in _history(MatchAcceptance.history.filter(match_id=match.pk)):
        accepted = None if row.history_type == "-" else (row.reason or "")
        rows.append(_person(row, [Item("acceptance", after=accepted)]))
    for row in _history(MatchVoid.history.filter(match_id=match.pk)):
        rows.append(_person(row, [Item("void", after=None if row.history_type == "-" else "1")]))
    return _grouped(rows)


def _history(rows: Any) -> Any:
    return rows.select_related("history_user").order_by("history_date", "history_id")


def _person(row: Any, items: list[Item]) -> _Row:
    user = row.history_user
    return _Row(row.history_date, user.pk if user else None, user.username if user else None,
                row.history_change_reason or "", items)


def _match_rows(row: Any, match: Match) -> list[_Row]:
    if row.history_type == "+":
        uploader = match.uploaded_by
        return [_Row(row.history_date, uploader.pk if uploader else None,
                     uploader.username if uploader else None, "", [Item("upload")])]
    previous = row.prev_record
    if previous is None or row.history_type != "~":
        return []
    delta = {c.field: c for c in row.diff_against(previous).changes}
    out = []
    items: list[Item] = []
    if "ruleset_name" in delta or "stored_ruleset" in delta:
        items.append(Item("ruleset", before=previous.ruleset_name, after=row.ruleset_name))
    if _DOCUMENT & set(delta):
        items.append(Item("document"))
    if "played_at" in delta:
        items.append(Item("played_at", before=_moment(previous.played_at, match),
                          after=_moment(row.played_at, match)))
    if items:
        out.append(_person(row, items))
    return out


def _moment(value: datetime | None, match: Match) -> str | None:
    if value is None:
        return None
    return timezone.localtime(value, ZoneInfo(match.club.time_zone)).strftime("%Y-%m-%d %H:%M")


def _handle(player_id: int | None) -> str | None:
    if player_id is None:
        return None
    return Player.objects.filter(pk=player_id).values_list("handle", flat=True).first()


def _grouped(rows: list[_Row]) -> list[Change]:
    """Rows of one person with one reason, close in time, as one change; a seat emptied
    and filled in one change reads as one item, and one that ends as it began, as none."""
    rows.sort(key=lambda r: r.when)
    changes: list[Change] = []
    last: _Row | None = None
    for row in rows:
        current = changes[-1] if changes else None
        if (current is not None and last is not None and row.user_id == current.user_id
                and row.reason == current.reason and row.when - last.when <= SAME_CHANGE):
            current.items.extend(row.items)
        else:
            changes.append(Change(row.when, row.user, list(row.items), row.reason,
                                  user_id=row.user_id))
        last = row
    for change in changes:
        change.items = _merged(change.items)
    return [c for c in changes if c.items]


def _merged(items: list[Item]) -> list[Item]:
    seats: dict[int, Item] = {}
    others = []
    for item in items:
        if item.field == "seat" and item.seat is not None:
            had = seats.get(item.seat)
            before = had.before if had and had.before is not None else item.before
            after = item.after if item.after is not None else (had.after if had else None)
            seats[item.seat] = Item("seat", before=before, after=after, seat=item.seat)
        elif item not in others:
            others.append(item)
    moved = [seats[s] for s in sorted(seats) if seats[s].before != seats[s].after]
    return moved + others


# -- handles linked to members' accounts --------------------------------------------------


def link_handle(*, player: Player, user: User | None, by: User, reason: str = "") -> Player:
    """Link a handle to a member's account (``user``) or unlink it (None), with who and
    why in the handle's history.

    :raises LeagueError: ``user``: not a member of the club, or already linked to another
        handle of the club.
    """
    if user is not None:
        if not player.club.memberships.filter(user=user).exists():
            raise LeagueError("user", _("not a member of this club"))
        other = Player.objects.filter(club=player.club_id, user=user).exclude(pk=player.pk)
        if other.exists():
            raise LeagueError("user", _("already linked to the handle %(handle)s") % {
                "handle": other.first().handle})  # type: ignore[union-attr]
    history = Player.history  # type: ignore[attr-defined]
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        if player.user_id == (user.pk if user else None):
            return player
        if not history.filter(id=player.pk).exists():  # what it was before anyone changed it
            history.model.objects.create(
                id=player.pk, club_id=player.club_id, handle=player.handle,
                user_id=player.user_id, history_date=player.created_at, history_type="+",
                history_user=None, history_change_reason=None)
        player.user = user
        _save(player, by, reason.strip())
    return player


def handle_history(club: Club) -> list[Change]:
    """Every link or unlink of the club's handles, newest first."""
    rows = Player.history.filter(club_id=club.pk)  # type: ignore[attr-defined]
    changes = []
    for row in _history(rows):
        previous = row.prev_record
        if row.history_type != "~" or previous is None or previous.user_id == row.user_id:
            continue
        user = row.history_user
        item = Item("link", before=_username(previous.user_id), after=_username(row.user_id))
        changes.append(Change(row.history_date, user.username if user else None, [item],
                              row.history_change_reason or "",
                              user_id=user.pk if user else None, subject=row.handle))
    return changes[::-1]


def _username(user_id: int | None) -> str | None:
    if user_id is None:
        return None
    return User.objects.filter(pk=user_id).values_list("username", flat=True).first()
