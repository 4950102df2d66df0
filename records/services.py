"""Writes to the records: clubs, memberships, players, and match uploads.

Services never enqueue tasks: a new match is announced (records.signals) after commit,
and whoever listens (the analysis app) queues its verification.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from records import selectors, wording
from records.errors import DocumentError, MatchConflict, UploadTooLarge
from records.models import (
    AccessToken,
    Club,
    Invitation,
    Match,
    Membership,
    Player,
    Round,
    Seat,
    UserSettings,
    store_ruleset,
    validate_time_zone,
)
from records.names import INVISIBLE_MESSAGE, has_unsafe
from records.signals import publish_needs_verifying
from xuezhan import quickcheck
from xuezhan.errors import XuezhanError
from xuezhan.reader import ReadError, read_document
from xuezhan.rules import Rules
from xuezhan.schema import MAX_ISSUES, canonical_bytes, validate_document
from xuezhan.sheet import schema_issues


class RoleError(Exception):
    """A membership change that would break the club (e.g. removing its last owner)."""


class InvitationError(Exception):
    """An invitation that cannot be answered (already a member, no longer pending)."""


# -- clubs and members ---------------------------------------------------------------


@transaction.atomic
def create_club(*, name: str, owner: User) -> Club:
    club = Club.objects.create(name=name)
    Membership.objects.create(club=club, user=owner, role=Membership.Role.OWNER)
    return club


def set_club_time_zone(*, club: Club, time_zone: str) -> Club:
    """The club's zone (an IANA name: ``ValidationError`` otherwise); the caller checks that
    an admin asks. Its statistics' days follow (the analysis app sums them again)."""
    validate_time_zone(time_zone)
    club.time_zone = time_zone
    club.save(update_fields=["time_zone"])
    return club


def set_own_time_zone(*, user: User, time_zone: str) -> UserSettings:
    """A user's own zone for the pages ("": each club's own)."""
    if time_zone:
        validate_time_zone(time_zone)
    found, _ = UserSettings.objects.update_or_create(user=user,
                                                     defaults={"time_zone": time_zone})
    return found


def add_member(*, club: Club, user: User, role: str) -> Membership:
    membership, _ = Membership.objects.get_or_create(club=club, user=user, defaults={"role": role})
    if membership.role != role:
        membership = change_role(membership=membership, role=role)
    return membership


@transaction.atomic
def change_role(*, membership: Membership, role: str) -> Membership:
    if membership.role == Membership.Role.OWNER and role != Membership.Role.OWNER:
        _keep_an_owner(membership)
    membership.role = role
    membership.save(update_fields=["role"])
    return membership


@transaction.atomic
def remove_member(*, membership: Membership) -> None:
    if membership.role == Membership.Role.OWNER:
        _keep_an_owner(membership)
    membership.delete()


def _keep_an_owner(leaving: Membership) -> None:
    # Lock the club's owner rows so that two admins cannot demote the last two owners at once.
    owners = list(
        Membership.objects.select_for_update()
        .filter(club_id=leaving.club_id, role=Membership.Role.OWNER)
        .order_by("pk")
    )
    if [m.pk for m in owners] == [leaving.pk]:
        raise RoleError(_("a club must keep at least one owner"))


def create_player(*, club: Club, handle: str, user: User | None = None) -> Player:
    return Player.objects.create(club=club, handle=handle, user=user)


def link_player(*, player: Player, user: User | None) -> Player:
    player.user = user
    player.save(update_fields=["user"])
    return player


# -- API tokens ----------------------------------------------------------------------


@dataclass(frozen=True)
class IssuedToken:
    """A new token and its key: the key is known only here, never stored."""

    token: AccessToken
    key: str


def issue_token(*, user: User, name: str = "") -> IssuedToken:
    """A new API token for ``user``, expiring after TOKEN_TTL_SECONDS."""
    key = secrets.token_hex(20)
    token = AccessToken.objects.create(
        user=user,
        name=name,
        key_sha256=selectors.secret_sha256(key),
        prefix=key[:8],
        expires_at=timezone.now() + timedelta(seconds=settings.TOKEN_TTL_SECONDS),
    )
    return IssuedToken(token, key)


def revoke_token(*, token: AccessToken) -> None:
    token.delete()


# -- invitations ---------------------------------------------------------------------


@dataclass(frozen=True)
class IssuedInvitation:
    """A new invitation; ``link_secret`` is set for a link, and known only here."""

    invitation: Invitation
    link_secret: str | None


def invite(
    *, club: Club, invited_by: User, role: str, username: str | None = None
) -> IssuedInvitation:
    """Invite a user name, or (``username`` None) make a link any one user may redeem.

    The inviter learns nothing about the name: an invitation to a name nobody has is made
    and answered the same way, and simply never accepted (unless someone takes the name).

    :raises InvitationError: the name is already a member of the club.
    """
    if username is not None and club.memberships.filter(user__username=username).exists():
        raise InvitationError(_("already a member of this club"))
    secret = None if username is not None else secrets.token_urlsafe(24)
    invitation = Invitation.objects.create(
        club=club,
        role=role,
        invited_by=invited_by,
        username=username,
        link_sha256=None if secret is None else selectors.secret_sha256(secret),
        expires_at=timezone.now() + timedelta(seconds=settings.INVITATION_TTL_SECONDS),
    )
    return IssuedInvitation(invitation, secret)


@transaction.atomic
def accept_invitation(*, invitation: Invitation, user: User) -> Membership:
    """The user takes the offered role: the only way into a club but creating it.

    :raises InvitationError: no longer pending, or the user is already a member.
    """
    invitation = _lock_pending(invitation)
    if invitation.club.memberships.filter(user=user).exists():
        raise InvitationError(_("already a member of this club"))
    membership = Membership.objects.create(club=invitation.club, user=user, role=invitation.role)
    _answer(invitation, user, Invitation.Status.ACCEPTED)
    return membership


@transaction.atomic
def decline_invitation(*, invitation: Invitation, user: User) -> None:
    _answer(_lock_pending(invitation), user, Invitation.Status.DECLINED)


@transaction.atomic
def revoke_invitation(*, invitation: Invitation, user: User) -> None:
    _answer(_lock_pending(invitation), user, Invitation.Status.REVOKED)


def _lock_pending(invitation: Invitation) -> Invitation:
    # the row lock makes two answers to one invitation (a link redeemed twice) take turns
    locked = Invitation.objects.select_for_update().select_related("club").get(pk=invitation.pk)
    if locked.status != Invitation.Status.PENDING or locked.expires_at <= timezone.now():
        raise InvitationError(_("this invitation is no longer open"))
    return locked


def _answer(invitation: Invitation, user: User, status: str) -> None:
    invitation.status = status
    invitation.responded_by = user
    invitation.responded_at = timezone.now()
    invitation.save(update_fields=["status", "responded_by", "responded_at"])


# -- uploads -------------------------------------------------------------------------


@dataclass(frozen=True)
class Upload:
    """The outcome of an upload: the match, and whether this call created it."""

    match: Match
    created: bool


def parse_document(raw: bytes) -> Any:
    """Strict JSON from the uploaded bytes.

    :raises UploadTooLarge: over UPLOAD_MAX_BYTES.
    :raises DocumentError: not strict JSON (``type`` ``invalid_json``), or a whole float in
        an integer field of the format (``invalid_document``), naming the path.
    """
    if len(raw) > settings.UPLOAD_MAX_BYTES:
        raise UploadTooLarge()
    try:
        return read_document(raw, max_depth=settings.UPLOAD_MAX_DEPTH)
    except ReadError as exc:
        raise DocumentError.unreadable(exc) from None


def check_document(doc: Any) -> tuple[Rules, datetime | None]:
    """Everything checked before a document is stored: the schema, the ruleset, the seating.

    :raises DocumentError: with the problems found (the schema's first few) and their paths.
    """
    if isinstance(doc, dict) and doc.get("format") == "xuezhan-sheet":  # a score sheet
        issues = schema_issues(doc)[: MAX_ISSUES + 1]
    elif quickcheck.passes(doc):  # the usual upload: valid, known in a third of the time
        issues = []
    else:  # a bad document (or one the quick check is unsure of): name its problems
        issues = validate_document(doc, limit=MAX_ISSUES + 1)
    if issues:
        raise DocumentError.off_format(issues)
    errors: list[dict[str, str]] = []
    rules = Rules.preset("chengdu")
    try:
        rules = Rules.from_json(doc.get("ruleset", "chengdu"))
    except XuezhanError as exc:
        errors.append({"path": "$.ruleset", "message": wording.ruleset_problem(str(exc))})
    seen: dict[str, int] = {}
    for seat, handle in enumerate(doc["players"]):
        if has_unsafe(handle):  # a handle shown reversed or blank on every page
            errors.append({"path": f"$.players[{seat}]", "message": str(INVISIBLE_MESSAGE)})
        if handle in seen:
            errors.append(
                {
                    "path": f"$.players[{seat}]",
                    "message": _("%(player)s already sits at seat %(seat)s") % {
                        "player": handle, "seat": seen[handle] + 1},
                }
            )
        seen.setdefault(handle, seat)
    played_at = None
    if "played_at" in doc:
        try:
            played_at = parse_played_at(doc["played_at"])
        except (ValueError, OverflowError):
            played_at = None
            errors.append({"path": "$.played_at",
                           "message": _("not a date and time (ISO 8601, with its offset)")})
    if errors:
        raise DocumentError(
            "invalid_document",
            ngettext("The document cannot be accepted (%(count)d problem).",
                     "The document cannot be accepted (%(count)d problems).",
                     len(errors)) % {"count": len(errors)},
            errors,
        )
    return rules, played_at


def parse_played_at(value: Any) -> datetime:
    """A document's ``played_at`` as stored: ISO 8601, UTC where it names no offset.

    :raises ValueError, OverflowError: not a date and time.
    """
    played_at = datetime.fromisoformat(value)
    if played_at.tzinfo is None:
        played_at = played_at.replace(tzinfo=UTC)
    return played_at.astimezone(UTC)


def upload_match(*, club: Club, raw: bytes, uploaded_by: User | None) -> Upload:
    """Store a match document in ``club``, or find the copy already there.

    The same document (same canonical hash) uploaded twice gives the first match back,
    ``created=False``; the database's unique constraints make that hold under concurrent
    uploads too. The same source ``match_id`` with other content is a conflict.

    :raises UploadTooLarge, DocumentError: nothing is stored then.
    :raises MatchConflict: the club has this ``match_id`` with other content.
    """
    doc = parse_document(raw)
    rules, played_at = check_document(doc)
    canonical = canonical_bytes(doc)
    content_sha256 = hashlib.sha256(canonical).hexdigest()
    source_match_id = doc.get("match_id")

    # No look-up first: the unique constraints find a copy already there, at no cost to
    # the usual upload, which is new
    try:
        with transaction.atomic():
            match = Match.objects.create(
                club=club,
                uploaded_by=uploaded_by,
                raw=raw,
                raw_sha256=hashlib.sha256(raw).hexdigest(),
                content_sha256=content_sha256,
                source_match_id=source_match_id,
                stored_ruleset_id=store_ruleset(rules.to_json()),
                ruleset_name=rules.preset_name,
                played_at=played_at,
            )
            match.remember_document(doc)  # read from raw just now
            players = _club_players(club, doc["players"])
            seats = [Seat(match=match, seat=seat, player=players[handle])
                     for seat, handle in enumerate(doc["players"])]
            rounds = [Round(match=match, index=i, dealer=r["dealer"],
                            event_count=len(r["events"])) for i, r in enumerate(doc["rounds"])]
            _insert(Seat, SEAT_FIELDS, seats)
            _insert(Round, ROUND_FIELDS, rounds)
    except IntegrityError:
        # The club has this document or its match_id (uploaded earlier, or concurrently).
        existing = selectors.find_uploaded_match(
            club=club, content_sha256=content_sha256, source_match_id=source_match_id
        )
        if existing is None:
            raise
        return _same_upload(existing, content_sha256)
    publish_needs_verifying(match.pk)
    _prefetched(match, "seats", seats)
    return Upload(match, created=True)


def _prefetched(instance: Any, name: str, rows: list[Any]) -> None:
    """Give ``instance`` its related ``name`` rows as if prefetched: a serializer reading
    ``instance.<name>.all()`` then makes no query."""
    queryset = getattr(instance, name).all()
    queryset._result_cache = rows
    queryset._prefetch_done = True
    instance._prefetched_objects_cache = {name: queryset}


#: the fields an upload writes of its seat and round rows: all of them
#: (tests/records/test_services.py checks that against the models)
SEAT_FIELDS = ("match", "seat", "player")
ROUND_FIELDS = ("match", "index", "dealer", "event_count")


def _insert(model: type[Any], names: tuple[str, ...], rows: list[Any]) -> None:
    """One INSERT of ``rows`` (instances of ``model``), their ``names`` fields only, no ids
    read back: what ``bulk_create`` sends, without its per-call compilation (~0.5 ms a
    table an upload, more than the statement costs). For plain columns: ints, texts,
    foreign keys."""
    fields = [model._meta.get_field(name) for name in names]
    quote = connection.ops.quote_name
    columns = ", ".join(quote(f.column) for f in fields)
    values = ", ".join([f"({', '.join(['%s'] * len(fields))})"] * len(rows))
    params = [getattr(row, f.attname) for row in rows for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES {values}", params
        )


def _club_players(club: Club, handles: list[str]) -> dict[str, Player]:
    """The club's players of these handles, the missing ones created: one query when the
    club knows them all (the usual upload), three otherwise."""
    wanted = sorted(set(handles))
    players = {p.handle: p for p in Player.objects.raw(  # raw: the ORM's compilation cost
        f"SELECT * FROM {Player._meta.db_table} WHERE club_id = %s"  # more than the query
        f" AND handle IN ({', '.join(['%s'] * len(wanted))})", [club.pk, *wanted])}
    missing = [handle for handle in wanted if handle not in players]
    if missing:
        # a concurrent upload may create the same handles: theirs stand (the unique
        # constraint), and the rows are read back (sorted: one lock order for all)
        Player.objects.bulk_create(
            [Player(club=club, handle=handle) for handle in missing], ignore_conflicts=True
        )
        players.update(
            (p.handle, p) for p in Player.objects.filter(club=club, handle__in=missing)
        )
    return players


def _same_upload(existing: Match, content_sha256: str) -> Upload:
    if existing.content_sha256 != content_sha256:
        raise MatchConflict(existing.pk, existing.source_match_id or "")
    return Upload(existing, created=False)


def delete_match(*, match: Match) -> None:
    match.delete()
