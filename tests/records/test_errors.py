"""One error shape: every 4xx and 5xx of the API is a problem body, and is documented."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import jsonschema
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.languages import in_chinese
from tests.records.documents import dumps, make_document

pytestmark = pytest.mark.django_db


def matches(club: Any) -> str:
    return f"/api/v1/clubs/{club.pk}/matches/"


def invitations(club: Any) -> str:
    return f"/api/v1/clubs/{club.pk}/invitations/"


Probe = Callable[[Any, Any, Any, Any], Any]

# name: (expected status, the request, the operation it hits as (path template, method))
PROBES: dict[str, tuple[int, Probe, tuple[str, str]]] = {
    "parse error": (
        400,
        lambda c, club, cast, s: c(cast["mia"]).generic(
            "POST", matches(club), b'{"a": ', "application/json"
        ),
        ("/api/v1/clubs/{club_id}/matches/", "post"),
    ),
    "invalid document": (
        400,
        lambda c, club, cast, s: c(cast["mia"]).generic(
            "POST", matches(club), b'{"format": 1}', "application/json"
        ),
        ("/api/v1/clubs/{club_id}/matches/", "post"),
    ),
    "multipart without a file": (
        400,
        lambda c, club, cast, s: c(cast["mia"]).post(matches(club), {"x": "1"}, format="multipart"),
        ("/api/v1/clubs/{club_id}/matches/", "post"),
    ),
    "field error": (
        400,
        lambda c, club, cast, s: c(cast["adam"]).post(
            invitations(club), {"username": "zed", "role": "king"}, format="json"
        ),
        ("/api/v1/clubs/{club_id}/invitations/", "post"),
    ),
    "bad filter": (
        400,
        lambda c, club, cast, s: c(cast["mia"]).get(matches(club), {"status": "bogus"}),
        ("/api/v1/clubs/{club_id}/matches/", "get"),
    ),
    "anonymous": (
        401,
        lambda c, club, cast, s: c(None).get(matches(club)),
        ("/api/v1/clubs/{club_id}/matches/", "get"),
    ),
    "unknown token": (
        401,
        lambda c, club, cast, s: c(None).get("/api/v1/clubs/", HTTP_AUTHORIZATION="Token nope"),
        ("/api/v1/clubs/", "get"),
    ),
    "member on an admin action": (
        403,
        lambda c, club, cast, s: c(cast["mia"]).post(invitations(club), {"username": "nora"}),
        ("/api/v1/clubs/{club_id}/invitations/", "post"),
    ),
    "not a member": (
        404,
        lambda c, club, cast, s: c(cast["nora"]).get(matches(club)),
        ("/api/v1/clubs/{club_id}/matches/", "get"),
    ),
    "no such page": (
        404,
        lambda c, club, cast, s: c(cast["mia"]).get(matches(club), {"page": 99}),
        ("/api/v1/clubs/{club_id}/matches/", "get"),
    ),
    "not acceptable": (
        406,
        lambda c, club, cast, s: c(cast["mia"]).get(matches(club), HTTP_ACCEPT="text/csv"),
        ("/api/v1/clubs/{club_id}/matches/", "get"),
    ),
    "conflict": (
        409,
        lambda c, club, cast, s: [
            c(cast["mia"]).generic(
                "POST", matches(club), dumps(make_document(n, match_id="m")), "application/json"
            )
            for n in (1, 2)
        ][-1],
        ("/api/v1/clubs/{club_id}/matches/", "post"),
    ),
    "too large": (
        413,
        lambda c, club, cast, s: c(cast["mia"]).post(
            matches(club),
            {"file": SimpleUploadedFile("m.json", b" " * (s.UPLOAD_MAX_BYTES + 1))},
            format="multipart",
        ),
        ("/api/v1/clubs/{club_id}/matches/", "post"),
    ),
    "unsupported media type": (
        415,
        lambda c, club, cast, s: c(cast["mia"]).generic(
            "POST", matches(club), b"a: 1", "text/yaml"
        ),
        ("/api/v1/clubs/{club_id}/matches/", "post"),
    ),
    "throttled": (
        429,
        lambda c, club, cast, s: [
            c(cast["mia"]).generic(
                "POST", matches(club), dumps(make_document(n)), "application/json"
            )
            for n in range(4)
        ][-1],
        ("/api/v1/clubs/{club_id}/matches/", "post"),
    ),
}


@pytest.fixture
def openapi(client: Any) -> dict[str, Any]:
    response = client.get("/api/v1/schema/", {"format": "json"})
    assert response.status_code == 200
    schema: dict[str, Any] = response.json()
    return schema


@pytest.mark.parametrize("name", sorted(PROBES))
def test_every_error_has_the_problem_shape_and_is_documented(
    name: str, club: Any, cast: Any, api_client: Any, settings: Any, openapi: dict[str, Any]
) -> None:
    settings.UPLOAD_RATE_LIMIT = "3/hour"
    status, probe, (path, method) = PROBES[name]
    response = probe(api_client, club, cast, settings)
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/json"
    body = response.json()
    jsonschema.validate(body, _resolve(openapi["components"]["schemas"]["DocumentError"], openapi))
    assert set(body) >= {"type", "detail", "errors"} and body["detail"]
    documented = openapi["paths"][path][method]["responses"]
    assert str(status) in documented, f"{status} is not documented for {method} {path}"
    assert documented[str(status)]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/DocumentError"
    }


def _resolve(schema: Any, openapi: dict[str, Any]) -> Any:
    """The schema with its local $refs inlined (jsonschema needs no resolver then)."""
    if isinstance(schema, dict):
        ref = schema.get("$ref")
        if ref:
            name = re.sub(r"^#/components/schemas/", "", ref)
            return _resolve(openapi["components"]["schemas"][name], openapi)
        return {k: _resolve(v, openapi) for k, v in schema.items()}
    if isinstance(schema, list):
        return [_resolve(v, openapi) for v in schema]
    return schema


def test_an_unknown_api_url_has_the_problem_shape(api_client: Any, cast: Any) -> None:
    response = api_client(cast["mia"]).get("/api/v1/no-such-thing/")
    assert response.status_code == 404
    assert response.json() == {"type": "not_found", "detail": "Not found.", "errors": []}


def test_a_throttled_answer_says_how_long_to_wait(
    club: Any, cast: Any, api_client: Any, settings: Any
) -> None:
    settings.UPLOAD_RATE_LIMIT = "1/hour"
    client = api_client(cast["mia"])
    for n in range(2):
        body = dumps(make_document(n))
        response = client.generic("POST", matches(club), body, "application/json")
    assert response.status_code == 429
    assert response.json()["retry_after"] == int(response["Retry-After"]) > 0


@pytest.mark.parametrize(
    "path",
    ["/api/v1/clubs/{club}/matches/", "/api/v1/clubs/{club}/sheets/preview/",
     "/api/v1/clubs/{club}/seasons/"],
)
def test_options_describes_a_view_without_building_its_serializer(
    club: Any, cast: Any, api_client: Any, path: str
) -> None:
    response = api_client(cast["mia"]).options(path.format(club=club.pk))
    assert response.status_code == 200
    assert response.json()["renders"][0] == "application/json"


# -- languages: the message follows Accept-Language, the type and the path never do ------


def test_a_refused_field_is_worded_in_the_request_language_and_still_named(
    club: Any, cast: Any, api_client: Any, upload: Any
) -> None:
    upload(make_document(1))
    url = f"/api/v1/clubs/{club.pk}/players/{club.players.get(handle='alice').pk}/"
    english = "a handle is what the documents say; it is fixed"
    client = api_client(cast["adam"])
    chinese = client.patch(url, {"handle": "alicia"}, format="json", HTTP_ACCEPT_LANGUAGE="zh-Hans")
    assert chinese.status_code == 400
    assert chinese.json() == {
        "type": "invalid_request",
        "detail": in_chinese("The request is not valid (%(count)d problem).", {"count": 1},
                             plural="The request is not valid (%(count)d problems)."),
        "errors": [{"path": "$.handle", "message": in_chinese(english)}],
    }
    plain = client.patch(url, {"handle": "alicia"}, format="json").json()
    assert plain["detail"] == "The request is not valid (1 problem)."
    assert plain["errors"] == [{"path": "$.handle", "message": english}]


def test_an_unreadable_body_is_worded_in_the_request_language_with_its_type_and_path(
    club: Any, cast: Any, api_client: Any
) -> None:
    response = api_client(cast["mia"]).generic(
        "POST", matches(club), b'{"a": ', "application/json", HTTP_ACCEPT_LANGUAGE="zh-Hans"
    )
    body = response.json()
    assert response.status_code == 400 and body["type"] == "invalid_json"
    assert body["detail"] == in_chinese("The body is not valid JSON.")
    assert body["errors"][0]["path"].startswith("$")


def test_a_refused_sign_in_is_worded_in_the_request_language(cast: Any, client: Any) -> None:
    response = client.post("/api/v1/auth/token/", {"username": "mia", "password": "wrong"},
                           HTTP_ACCEPT_LANGUAGE="zh-Hans")
    assert response.status_code == 400
    message = in_chinese("Unable to sign in with this user name and password.")
    assert response.json()["errors"] == [{"path": "$", "message": message}]
