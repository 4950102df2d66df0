"""Sign-in and sign-up limits (issue 27, findings 1–4): one identity per name on every
path, the admin behind the site's sign-in, no lock-out of the owner's known addresses,
and a sign-up that neither tells which names exist nor runs unlimited."""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

import pytest
import redis
from django.contrib import admin
from django.contrib.auth import authenticate
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.db import SessionStore
from django.test import RequestFactory

pytestmark = pytest.mark.django_db

TOKEN = "/api/v1/auth/token/"
LOGIN = "/accounts/login/"
SIGNUP = "/accounts/signup/"
PASSWORD = "correct horse"
#: ways of writing "mia" that Django's sign-in form turns into her account (NFKC), or
#: that differ only in case (sign-up keeps names unique regardless of case)
VARIANTS = ["ｍｉａ", "ｍia", "MIA", "Mia", " mia ", "ＭＩＡ"]


@pytest.fixture
def mia(cast: Any, settings: Any) -> Any:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cast["mia"].set_password(PASSWORD)
    cast["mia"].is_staff = cast["mia"].is_superuser = True  # the admin's sign-in too
    cast["mia"].save()
    return cast["mia"]


@pytest.fixture
def limits(settings: Any) -> Any:
    """Small limits, each test raising the one it is about."""
    settings.SIGNIN_RATE_PER_USERNAME = ""
    settings.SIGNIN_RATE_PER_ADDRESS_AND_USERNAME = ""
    settings.SIGNIN_RATE_PER_ADDRESS = ""
    return settings


def token(api_client: Any, name: str, password: str, address: str) -> int:
    response = api_client(None).post(TOKEN, {"username": name, "password": password},
                                      format="json", REMOTE_ADDR=address)
    code: int = response.status_code
    return code


def page(client: Any, name: str, password: str, address: str) -> int:
    """The sign-in page: 302 signed in, 200 the form again, 429 refused."""
    response = client.post(LOGIN, {"username": name, "password": password},
                            REMOTE_ADDR=address)
    code: int = response.status_code
    return code


def admin_form(name: str, password: str, address: str) -> int:
    """The admin's own sign-in view, as if it were still reachable: 302 signed in."""
    request = RequestFactory().post("/admin/login/", {"username": name, "password": password},
                                    REMOTE_ADDR=address)
    request.session = SessionStore()
    request.user = AnonymousUser()
    request._dont_enforce_csrf_checks = True  # type: ignore[attr-defined]
    code: int = admin.site.login(request).status_code
    return code


def direct(name: str, password: str, address: str) -> int:
    """Any future path: django.contrib.auth.authenticate with a request."""
    request = RequestFactory().post("/", REMOTE_ADDR=address)
    return 200 if authenticate(request, username=name, password=password) else 400


SIGNED_IN = {"token": 200, "page": 302, "admin": 302, "direct": 200}


def attempt(path: str, client: Any, api_client: Any, name: str, password: str,
            address: str) -> int:
    if path == "token":
        return token(api_client, name, password, address)
    if path == "page":
        return page(client, name, password, address)
    if path == "admin":
        return admin_form(name, password, address)
    return direct(name, password, address)


# -- finding 1: one identity, every spelling, every path ------------------------------


@pytest.mark.parametrize("path", ["token", "page", "admin", "direct"])
def test_every_spelling_of_a_name_counts_against_the_same_limit_on_every_path(
        path: str, mia: Any, limits: Any, client: Any, api_client: Any) -> None:
    limits.SIGNIN_RATE_PER_USERNAME = "3/hour"
    for n, variant in enumerate(VARIANTS[:3]):  # three failures, each spelled otherwise
        code = attempt(path, client, api_client, variant, "guess", f"10.2.0.{n}")
        assert code != SIGNED_IN[path]
    for n, variant in enumerate(["mia", *VARIANTS]):  # no spelling gets fresh tries
        code = attempt(path, client, api_client, variant, PASSWORD, f"10.3.0.{n}")
        assert code != SIGNED_IN[path], variant
        if path in ("token", "page"):
            assert code == 429


@pytest.mark.parametrize("path", ["token", "page", "admin", "direct"])
def test_every_path_signs_in_with_the_spellings_the_sign_in_form_accepts(
        path: str, mia: Any, client: Any, api_client: Any) -> None:
    for n, variant in enumerate(["mia", "ｍｉａ", " mia "]):
        client.logout()
        assert attempt(path, client, api_client, variant, PASSWORD, f"10.4.0.{n}") == \
            SIGNED_IN[path]


def test_failures_on_different_paths_add_up(mia: Any, limits: Any, client: Any,
                                            api_client: Any) -> None:
    limits.SIGNIN_RATE_PER_USERNAME = "4/hour"
    for n, path in enumerate(["token", "page", "admin", "direct"]):
        attempt(path, client, api_client, VARIANTS[n], "guess", f"10.5.0.{n}")
    assert token(api_client, "mia", PASSWORD, "10.5.1.1") == 429
    assert page(client, "ｍｉａ", PASSWORD, "10.5.1.2") == 429


# -- finding 2: the admin signs in through the limited page -----------------------------


def test_the_admin_sign_in_is_the_site_sign_in(mia: Any, limits: Any, client: Any) -> None:
    redirected = client.get("/admin/", follow=True)
    assert unquote(redirected.redirect_chain[-1][0]) == f"{LOGIN}?next=/admin/"
    posted = client.post("/admin/login/?next=/admin/", {"username": "mia", "password": "x"})
    assert posted.status_code == 302 and unquote(posted["Location"]) == f"{LOGIN}?next=/admin/"
    limits.SIGNIN_RATE_PER_USERNAME = "2/hour"
    assert [page(client, "mia", "x", "10.6.0.1") for _ in range(2)] == [200, 200]
    assert page(client, "MIA", PASSWORD, "10.6.0.2") == 429  # even the right password
    assert client.get("/admin/").status_code == 302  # not signed in


# -- finding 4: a lock imposed from elsewhere does not shut out the owner -------------


def test_a_lock_imposed_from_elsewhere_leaves_the_owners_known_address_open(
        mia: Any, limits: Any, client: Any, api_client: Any) -> None:
    limits.SIGNIN_RATE_PER_USERNAME = "5/hour"
    limits.SIGNIN_RATE_PER_ADDRESS_AND_USERNAME = "3/hour"
    home = "10.7.0.1"
    assert token(api_client, "mia", PASSWORD, home) == 200  # the owner, once
    attacker = [token(api_client, "mia", "guess", f"10.8.0.{n // 3}") for n in range(9)]
    assert attacker[:5] == [400] * 5 and set(attacker[5:]) == {429}
    assert token(api_client, "mia", PASSWORD, home) == 200  # the owner still signs in
    assert page(client, "mia", PASSWORD, home) == 302  # on the page too
    assert token(api_client, "mia", PASSWORD, "10.7.0.2") == 429  # a new address waits


def test_one_address_guessing_one_name_is_stopped_even_where_it_signed_in_before(
        mia: Any, limits: Any, api_client: Any) -> None:
    limits.SIGNIN_RATE_PER_ADDRESS_AND_USERNAME = "3/hour"
    assert token(api_client, "mia", PASSWORD, "10.9.0.1") == 200
    codes = [token(api_client, "mia", "guess", "10.9.0.1") for _ in range(4)]
    assert codes == [400, 400, 400, 429]
    assert token(api_client, "mia", "guess", "10.9.0.2") == 400  # another address


def test_a_successful_sign_in_is_not_counted_as_a_failure(
        mia: Any, limits: Any, api_client: Any) -> None:
    limits.SIGNIN_RATE_PER_USERNAME = "2/hour"
    limits.SIGNIN_RATE_PER_ADDRESS_AND_USERNAME = "2/hour"
    assert [token(api_client, "mia", PASSWORD, "10.10.0.1") for _ in range(5)] == [200] * 5
    assert token(api_client, "mia", "guess", "10.10.0.2") == 400


# -- finding 3: sign-up without an oracle, with a limit --------------------------------


def sign_up(client: Any, name: str, address: str = "10.11.0.1") -> Any:
    secret = "a long enough passphrase 7"
    return client.post(SIGNUP, {"username": name, "password1": secret, "password2": secret},
                       REMOTE_ADDR=address)


def test_sign_up_answers_a_taken_name_as_it_answers_a_malformed_one(
        mia: Any, client: Any) -> None:
    answers = {}
    for name in ["mia", "MIA", "has space", "x" * 151, "e\u202evil"]:
        response = sign_up(client, name)
        assert response.status_code == 200  # the form again
        answers[name] = response.context["form"].errors["username"]
        assert "exist" not in response.content.decode()
    assert len({tuple(errors) for errors in answers.values()}) == 1
    assert sign_up(client, "wen").status_code == 302  # a free name


def test_sign_ups_are_limited_per_address(client: Any, settings: Any) -> None:
    settings.SIGNUP_RATE_PER_ADDRESS = "3/hour"
    codes = [sign_up(client, f"wen{n}", "10.12.0.1").status_code for n in range(4)]
    assert codes == [302, 302, 302, 429]
    refused = sign_up(client, "wen9", "10.12.0.1")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert sign_up(client, "wen9", "10.12.0.2").status_code == 302


# -- the cache that holds the counts is down ------------------------------------------


def test_sign_in_and_sign_up_are_a_503_not_a_500_while_the_cache_is_down(
        mia: Any, client: Any, api_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    def down(*args: Any, **kwargs: Any) -> Any:
        raise redis.ConnectionError("Connection refused")

    monkeypatch.setattr("records.throttles.shared_cache.add", down)
    refused = api_client(None).post(TOKEN, {"username": "mia", "password": PASSWORD},
                                    format="json", REMOTE_ADDR="10.13.0.1")
    assert refused.status_code == 503 and int(refused["Retry-After"]) > 0
    assert refused.json()["type"] == "unavailable"
    page_answer = client.post(LOGIN, {"username": "mia", "password": PASSWORD})
    assert page_answer.status_code == 503 and int(page_answer["Retry-After"]) > 0
    assert sign_up(client, "wen").status_code == 503
