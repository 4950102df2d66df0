"""Accounts: throttled sign-in, tokens that are listed, revoked and expire, and invitations.

Nobody joins a club without accepting, and inviting a name never tells whether it exists.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from records import services
from records.models import AccessToken, Membership

pytestmark = pytest.mark.django_db

TOKEN = "/api/v1/auth/token/"
TOKENS = "/api/v1/auth/tokens/"


@pytest.fixture
def mia_password(cast: Any, settings: Any) -> str:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cast["mia"].set_password("correct horse")
    cast["mia"].save()
    return "correct horse"


def sign_in(client: Any, username: str, password: str, address: str = "10.0.0.1") -> Any:
    return client.post(
        TOKEN, {"username": username, "password": password}, format="json", REMOTE_ADDR=address
    )


# -- tokens --------------------------------------------------------------------------


def test_a_token_is_issued_for_a_password_and_expires_after_the_setting(
    cast: Any, mia_password: str, api_client: Any, settings: Any
) -> None:
    settings.TOKEN_TTL_SECONDS = 3600
    response = sign_in(api_client(None), "mia", mia_password)
    assert response.status_code == 200
    expires = AccessToken.objects.get(pk=response.json()["id"]).expires_at
    assert abs((expires - timezone.now()) - timedelta(hours=1)) < timedelta(minutes=1)
    client = api_client(None)
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    assert client.get(TOKENS).status_code == 200
    AccessToken.objects.filter(pk=response.json()["id"]).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    assert client.get(TOKENS).status_code == 401


def test_a_wrong_password_gets_no_token(cast: Any, mia_password: str, api_client: Any) -> None:
    response = sign_in(api_client(None), "mia", "wrong")
    assert response.status_code == 400 and "token" not in response.json()
    assert not AccessToken.objects.exists()


def test_the_key_is_not_stored_only_its_hash(cast: Any, mia_password: str, api_client: Any) -> None:
    key = sign_in(api_client(None), "mia", mia_password).json()["token"]
    token = AccessToken.objects.get()
    assert key not in (token.key_sha256, token.prefix) and token.prefix == key[:8]


def test_tokens_are_listed_and_revoked(cast: Any, api_client: Any) -> None:
    other = services.issue_token(user=cast["mia"], name="phone")
    services.issue_token(user=cast["nora"], name="not mia's")
    client = api_client(cast["mia"])  # its own token, the second of mia's
    listed = client.get(TOKENS).json()["results"]
    assert len(listed) == 2 and "phone" in {t["name"] for t in listed}
    assert all("token" not in t and "key_sha256" not in t for t in listed)
    assert client.delete(f"{TOKENS}{other.token.pk}/").status_code == 204
    revoked = api_client(None)
    revoked.credentials(HTTP_AUTHORIZATION=f"Token {other.key}")
    assert revoked.get(TOKENS).status_code == 401
    # another user's token is not found through yours
    nora_token = AccessToken.objects.get(user=cast["nora"])
    assert client.delete(f"{TOKENS}{nora_token.pk}/").status_code == 404


# -- throttling ----------------------------------------------------------------------


def test_sign_in_is_throttled_per_user_name_from_any_address(
    cast: Any, mia_password: str, api_client: Any, settings: Any
) -> None:
    settings.SIGNIN_RATE_PER_USERNAME = "3/hour"
    client = api_client(None)
    codes = [sign_in(client, "mia", "guess", f"10.0.0.{n}").status_code for n in range(3)]
    assert codes == [400, 400, 400]
    refused = sign_in(client, "mia", mia_password, "10.0.0.99")  # even the right password
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert refused.json()["type"] == "throttled"
    assert sign_in(client, "MIA ", "guess", "10.0.0.98").status_code == 429  # the same name
    assert sign_in(client, "nora", "guess", "10.0.0.97").status_code == 400


def test_sign_in_is_throttled_per_address_on_any_name(
    cast: Any, api_client: Any, settings: Any
) -> None:
    settings.SIGNIN_RATE_PER_ADDRESS = "3/hour"
    client = api_client(None)
    codes = [sign_in(client, name, "guess", "10.1.1.1").status_code for name in "abcd"]
    assert codes == [400, 400, 400, 429]
    assert sign_in(client, "e", "guess", "10.1.1.2").status_code == 400


def test_the_sign_in_page_is_throttled_too(cast: Any, client: Any, settings: Any) -> None:
    settings.SIGNIN_RATE_PER_USERNAME = "2/hour"
    codes = [
        client.post("/accounts/login/", {"username": "mia", "password": "x"}).status_code
        for _ in range(3)
    ]
    assert codes == [200, 200, 429]  # a failed sign-in shows the form again: 200
    refused = client.post("/accounts/login/", {"username": "mia", "password": "x"})
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0


# -- invitations ---------------------------------------------------------------------


def invite(client: Any, club: Any, **body: Any) -> Any:
    return client.post(f"/api/v1/clubs/{club.pk}/invitations/", body, format="json")


def test_adding_a_member_directly_is_gone(club: Any, cast: Any, api_client: Any) -> None:
    response = api_client(cast["olga"]).post(
        f"/api/v1/clubs/{club.pk}/memberships/", {"username": "nora"}, format="json"
    )
    assert response.status_code == 405
    assert not club.memberships.filter(user=cast["nora"]).exists()


def test_an_invitation_does_not_tell_whether_a_user_name_exists(
    club: Any, cast: Any, api_client: Any
) -> None:
    client = api_client(cast["adam"])
    real, ghost = invite(client, club, username="nora"), invite(client, club, username="ghost")
    assert real.status_code == ghost.status_code == 201
    differing = {"id", "username", "created_at", "expires_at"}
    assert {k: v for k, v in real.json().items() if k not in differing} == {
        k: v for k, v in ghost.json().items() if k not in differing
    }


def test_an_invited_user_joins_only_by_accepting(club: Any, cast: Any, api_client: Any) -> None:
    invitation = invite(api_client(cast["adam"]), club, username="nora", role="admin").json()
    assert not club.memberships.filter(user=cast["nora"]).exists()
    nora = api_client(cast["nora"])
    mine = nora.get("/api/v1/invitations/").json()["results"]
    assert [(i["id"], i["club_name"], i["role"]) for i in mine] == [
        (invitation["id"], club.name, "admin")
    ]
    # nobody else can answer it, and it looks as if it did not exist
    assert api_client(cast["mia"]).post(
        f"/api/v1/invitations/{invitation['id']}/accept/"
    ).status_code == 404
    accepted = nora.post(f"/api/v1/invitations/{invitation['id']}/accept/")
    assert accepted.status_code == 201
    assert club.memberships.get(user=cast["nora"]).role == "admin"
    assert nora.post(f"/api/v1/invitations/{invitation['id']}/accept/").status_code == 404


def test_a_declined_invitation_adds_nobody(club: Any, cast: Any, api_client: Any) -> None:
    invitation = invite(api_client(cast["adam"]), club, username="nora").json()
    nora = api_client(cast["nora"])
    assert nora.post(f"/api/v1/invitations/{invitation['id']}/decline/").status_code == 204
    assert not club.memberships.filter(user=cast["nora"]).exists()
    assert nora.get("/api/v1/invitations/").json()["results"] == []
    status = api_client(cast["adam"]).get(f"/api/v1/clubs/{club.pk}/invitations/").json()
    assert status["results"][0]["status"] == "declined"


def test_a_link_is_redeemed_once(club: Any, cast: Any, api_client: Any, make_user: Any) -> None:
    created = invite(api_client(cast["adam"]), club, role="member").json()
    secret = created["link_token"]
    assert secret and created["username"] is None
    listed = api_client(cast["adam"]).get(f"/api/v1/clubs/{club.pk}/invitations/").json()
    assert listed["results"][0]["link_token"] is None  # shown once, when made
    redeem = "/api/v1/invitations/redeem/"
    joined = api_client(cast["nora"]).post(redeem, {"token": secret}, format="json")
    assert joined.status_code == 201
    assert club.memberships.get(user=cast["nora"]).role == "member"
    late = api_client(make_user("zoe")).post(redeem, {"token": secret}, format="json")
    assert late.status_code == 404


def test_an_expired_or_revoked_invitation_cannot_be_accepted(
    club: Any, cast: Any, api_client: Any
) -> None:
    from records.models import Invitation

    admin = api_client(cast["adam"])
    link = invite(admin, club)
    Invitation.objects.filter(pk=link.json()["id"]).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    redeem = api_client(cast["nora"]).post(
        "/api/v1/invitations/redeem/", {"token": link.json()["link_token"]}, format="json"
    )
    assert redeem.status_code == 404
    named = invite(admin, club, username="nora").json()
    assert admin.delete(f"/api/v1/clubs/{club.pk}/invitations/{named['id']}/").status_code == 204
    accept = api_client(cast["nora"]).post(f"/api/v1/invitations/{named['id']}/accept/")
    assert accept.status_code == 404
    assert not Membership.objects.filter(user=cast["nora"]).exists()


def test_inviting_a_member_is_a_400(club: Any, cast: Any, api_client: Any) -> None:
    response = invite(api_client(cast["adam"]), club, username="mia")
    assert response.status_code == 400 and response.json()["errors"][0]["path"] == "$.username"
