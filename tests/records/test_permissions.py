"""Who may do what: every endpoint × anonymous, non-member, member, admin, owner.

Anonymous callers get 401, non-members 404 (a club's existence does not leak), members
read and upload, admins manage members and players, delete and re-verify matches,
owners delete the club.
"""

from __future__ import annotations

from typing import Any

import pytest

from records import services
from tests.records.documents import dumps, make_document

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "outsider", "member", "admin", "owner")
USER_OF = {"anonymous": None, "outsider": "nora", "member": "mia", "admin": "adam", "owner": "olga"}

C = "/api/v1/clubs/{club}/"
M = C + "matches/{match}/"

# (method, url, body, expected status for anonymous, outsider, member, admin, owner)
MATRIX: list[tuple[str, str, Any, tuple[int, int, int, int, int]]] = [
    ("GET", "/api/v1/clubs/", None, (401, 200, 200, 200, 200)),
    ("POST", "/api/v1/clubs/", {"name": "New"}, (401, 201, 201, 201, 201)),
    ("GET", C, None, (401, 404, 200, 200, 200)),
    ("PATCH", C, {"name": "Renamed"}, (401, 404, 403, 200, 200)),
    ("DELETE", C, None, (401, 404, 403, 403, 204)),
    ("GET", C + "memberships/", None, (401, 404, 200, 200, 200)),
    # nobody is added without consent: members join by accepting an invitation
    ("POST", C + "memberships/", {"username": "erin"}, (401, 404, 405, 405, 405)),
    ("GET", C + "invitations/", None, (401, 404, 403, 200, 200)),
    ("POST", C + "invitations/", {"username": "erin"}, (401, 404, 403, 201, 201)),
    ("GET", C + "invitations/{invitation}/", None, (401, 404, 403, 200, 200)),
    ("DELETE", C + "invitations/{invitation}/", None, (401, 404, 403, 204, 204)),
    ("GET", "/api/v1/invitations/", None, (401, 200, 200, 200, 200)),
    ("GET", "/api/v1/auth/tokens/", None, (401, 200, 200, 200, 200)),
    ("GET", C + "memberships/{membership}/", None, (401, 404, 200, 200, 200)),
    ("PATCH", C + "memberships/{membership}/", {"role": "admin"}, (401, 404, 403, 200, 200)),
    ("DELETE", C + "memberships/{membership}/", None, (401, 404, 403, 204, 204)),
    ("GET", C + "players/", None, (401, 404, 200, 200, 200)),
    ("POST", C + "players/", {"handle": "zhou"}, (401, 404, 403, 201, 201)),
    ("GET", C + "players/{player}/", None, (401, 404, 200, 200, 200)),
    ("PATCH", C + "players/{player}/", {"username": "mia"}, (401, 404, 403, 200, 200)),
    ("GET", C + "matches/", None, (401, 404, 200, 200, 200)),
    ("POST", C + "matches/", "document", (401, 404, 201, 201, 201)),
    ("GET", M, None, (401, 404, 200, 200, 200)),
    ("DELETE", M, None, (401, 404, 403, 204, 204)),
    ("POST", M + "reverify/", None, (401, 404, 403, 202, 202)),
    ("GET", M + "rounds/", None, (401, 404, 200, 200, 200)),
    ("GET", M + "rounds/0/", None, (401, 404, 200, 200, 200)),
    ("GET", M + "rounds/0/replay/", None, (401, 404, 200, 200, 200)),
]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(
    ("method", "path", "body", "expected"),
    MATRIX,
    ids=[f"{m} {p}" for m, p, _, _ in MATRIX],
)
def test_permission_matrix(
    role: str,
    method: str,
    path: str,
    body: Any,
    expected: tuple[int, ...],
    club: Any,
    cast: Any,
    make_user: Any,
    api_client: Any,
    upload: Any,
) -> None:
    make_user("erin")
    match = upload(make_document(1))
    invitation = services.invite(club=club, invited_by=cast["olga"], role="member", username="zed")
    url = path.format(
        invitation=invitation.invitation.pk,
        club=club.pk,
        match=match.pk,
        membership=club.memberships.get(user=cast["mia"]).pk,
        player=club.players.get(handle="alice").pk,
    )
    user = cast[USER_OF[role]] if USER_OF[role] else None
    client = api_client(user)
    if body == "document":
        response = client.generic(method, url, dumps(make_document(2)), "application/json")
    else:
        response = client.generic(
            method, url, None if body is None else _json(body), "application/json"
        )
    assert response.status_code == expected[ROLES.index(role)], response.content
    assert response.status_code == 204 or response["Content-Type"] == "application/json"


def _json(body: Any) -> bytes:
    import json

    return json.dumps(body).encode()


def test_anonymous_calls_are_told_how_to_authenticate(club: Any, api_client: Any) -> None:
    response = api_client(None).get(f"/api/v1/clubs/{club.pk}/")
    assert response.status_code == 401 and response["WWW-Authenticate"] == "Token"


def test_a_missing_club_and_a_foreign_club_look_the_same(
    club: Any, cast: Any, api_client: Any
) -> None:
    client = api_client(cast["nora"])
    foreign = client.get(f"/api/v1/clubs/{club.pk}/matches/")
    missing = client.get("/api/v1/clubs/999999/matches/")
    assert foreign.status_code == missing.status_code == 404
    assert foreign.json() == missing.json()


def test_a_match_of_another_club_is_not_found_through_yours(
    club: Any, cast: Any, api_client: Any, upload: Any
) -> None:
    from records import services

    other = services.create_club(name="Other", owner=cast["nora"])
    foreign = upload(make_document(5), to=other)
    response = api_client(cast["olga"]).get(f"/api/v1/clubs/{club.pk}/matches/{foreign.pk}/")
    assert response.status_code == 404


def test_the_token_and_membership_look_ups_are_one_query_each(
        club: Any, cast: Any, django_assert_num_queries: Any) -> None:
    from records import selectors

    mia = cast["mia"]
    key = services.issue_token(user=mia).key
    with django_assert_num_queries(1):
        token = selectors.live_token(key)
        assert token is not None
        assert (token.user.pk, token.user.username, token.user.is_active) == (
            mia.pk, "mia", True)
    with django_assert_num_queries(1):
        membership = selectors.membership_for(user=mia, club_id=club.pk)
        assert membership is not None
        assert (membership.role, membership.club.name, membership.club.created_at) == (
            "member", club.name, club.created_at)
    # what was left out is still there, read when asked for
    assert token.user.date_joined == mia.date_joined
    assert membership.created_at is not None
    assert selectors.membership_for(user=cast["nora"], club_id=club.pk + 1) is None
    assert selectors.live_token(key[:-1] + ("0" if key[-1] != "0" else "1")) is None
