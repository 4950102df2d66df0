"""Reads of the records, each scoped so that a user only ever sees their clubs."""

from __future__ import annotations

import hashlib
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db import connection
from django.db.models import Count, Prefetch, Q, QuerySet
from django.utils import timezone

from records.models import AccessToken, Club, Invitation, Match, Membership, Player, Seat


def secret_sha256(secret: str) -> str:
    """What is stored of a token or an invitation link: its SHA-256, never the secret."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def clubs_for_user(user: User | AnonymousUser) -> QuerySet[Club]:
    """The clubs ``user`` belongs to."""
    if not user.is_authenticated:
        return Club.objects.none()
    return Club.objects.filter(memberships__user=user).annotate(
        match_count=Count("matches", distinct=True)
    )


def membership_for(*, user: User | AnonymousUser, club_id: int) -> Membership | None:
    """The user's membership of the club, with the club, or None (for a non-member or a
    missing club). Every club-scoped request asks: one raw query (the ORM's compilation of
    the same join cost ~6 times the query), the membership's ``created_at`` left deferred."""
    if not user.is_authenticated:
        return None
    club_table, table = Club._meta.db_table, Membership._meta.db_table
    rows = list(Club.objects.raw(
        f"SELECT c.*, m.id AS _m_id, m.role AS _m_role FROM {club_table} c"
        f" JOIN {table} m ON m.club_id = c.id WHERE m.user_id = %s AND c.id = %s",
        [user.pk, club_id],
    ))
    if not rows:
        return None
    club: Any = rows[0]  # with the membership's columns as attributes
    membership: Membership = _partial(Membership, club._state.db, {
        "id": club._m_id, "club_id": club.pk, "user_id": user.pk, "role": club._m_role})
    membership.club = club
    return membership


def club_memberships(club: Club) -> QuerySet[Membership]:
    return Membership.objects.filter(club=club).select_related("user").order_by("pk")


def club_players(club: Club) -> QuerySet[Player]:
    return Player.objects.filter(club=club).select_related("user").order_by("handle")


def club_matches(club: Club) -> QuerySet[Match]:
    """A club's matches, newest first, without the heavy document columns."""
    return (
        Match.objects.filter(club=club)
        .defer("raw")
        .select_related("uploaded_by")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player")))
        .order_by("-uploaded_at", "-pk")
    )


def club_rulesets(club: Club) -> list[str]:
    """The names of the rulesets the club's matches are played under, in order: on
    PostgreSQL a skip scan of the index match_club_ruleset (one probe per name, however
    many matches: docs/scaling.md), elsewhere a plain DISTINCT."""
    if connection.vendor != "postgresql":
        names = Match.objects.filter(club=club).order_by("ruleset_name")
        return list(names.values_list("ruleset_name", flat=True).distinct())
    table = connection.ops.quote_name(Match._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"WITH RECURSIVE names(name) AS ("
            f" (SELECT ruleset_name FROM {table} WHERE club_id = %s"
            f" ORDER BY ruleset_name LIMIT 1)"
            f" UNION ALL SELECT (SELECT ruleset_name FROM {table} WHERE club_id = %s"
            f" AND ruleset_name > names.name ORDER BY ruleset_name LIMIT 1)"
            f" FROM names WHERE names.name IS NOT NULL)"
            f" SELECT name FROM names WHERE name IS NOT NULL",
            [club.pk, club.pk],
        )
        return [name for (name,) in cursor.fetchall()]


def find_uploaded_match(
    *, club: Club, content_sha256: str, source_match_id: str | None
) -> Match | None:
    """The match of ``club`` with the same content, or else the same source match_id."""
    condition = Q(content_sha256=content_sha256)
    if source_match_id is not None:
        condition |= Q(source_match_id=source_match_id)
    matches = list(Match.objects.filter(club=club).filter(condition).defer("raw"))
    matches.sort(key=lambda m: m.content_sha256 != content_sha256)  # the same content first
    return matches[0] if matches else None


# -- tokens and invitations ----------------------------------------------------------


#: the user's fields a token look-up loads (the rest, its password hash and its dates, is
#: deferred: read from the database if ever asked for)
_TOKEN_USER_FIELDS = ("username", "first_name", "last_name", "email", "is_staff", "is_active",
                      "is_superuser")


def live_token(key: str) -> AccessToken | None:
    """The unexpired token with this key, with its user; None for an unknown or expired one.

    Every API request asks: one raw query (the ORM's compilation of the same join cost ~6
    times the query)."""
    user_columns = ", ".join(f"u.{name} AS _u_{name}" for name in _TOKEN_USER_FIELDS)
    rows = list(AccessToken.objects.raw(
        f"SELECT t.*, {user_columns} FROM {AccessToken._meta.db_table} t"
        f" JOIN {User._meta.db_table} u ON u.id = t.user_id"
        " WHERE t.key_sha256 = %s AND t.expires_at > %s",
        [secret_sha256(key), timezone.now()],
    ))
    if not rows:
        return None
    token = rows[0]
    fields = {"id": token.user_id}
    for name in _TOKEN_USER_FIELDS:
        value = getattr(token, f"_u_{name}")
        fields[name] = bool(value) if name.startswith("is_") else value  # SQLite: 0 or 1
    token.user = _partial(User, token._state.db, fields)
    return token


def _partial(model: type[Any], db: str | None, values: dict[str, Any]) -> Any:
    """An instance of ``model`` as loaded from database ``db`` with these fields (attnames),
    the others deferred."""
    names = [f.attname for f in model._meta.concrete_fields if f.attname in values]
    return model.from_db(db, names, [values[name] for name in names])


def user_tokens(user: User) -> QuerySet[AccessToken]:
    """A user's unexpired tokens, newest first."""
    return AccessToken.objects.filter(user=user, expires_at__gt=timezone.now()).order_by(
        "-created_at", "-pk"
    )


def club_invitations(club: Club) -> QuerySet[Invitation]:
    """A club's invitations, newest first (every status: the club's own history)."""
    return Invitation.objects.filter(club=club).select_related("invited_by").order_by(
        "-created_at", "-pk"
    )


def invitations_for_user(user: User) -> QuerySet[Invitation]:
    """The pending, unexpired invitations addressed to the user's name."""
    return (
        Invitation.objects.filter(
            username=user.username,
            status=Invitation.Status.PENDING,
            expires_at__gt=timezone.now(),
        )
        .select_related("club", "invited_by")
        .order_by("-created_at", "-pk")
    )


def invitation_by_link(secret: str) -> Invitation | None:
    """The pending, unexpired invitation of this link, or None."""
    return (
        Invitation.objects.select_related("club")
        .filter(
            link_sha256=secret_sha256(secret),
            status=Invitation.Status.PENDING,
            expires_at__gt=timezone.now(),
        )
        .first()
    )
