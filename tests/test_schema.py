"""The OpenAPI schema is precise (issue 27, finding 11): the answers the server gives are
the ones it documents — nullable fields marked, parameter bounds equal to the server's,
the business rules' 400s and a dependency's 503 on every operation. The fuzzer
(tests/config/test_fuzz_api.py) checks every answer against the schema too; these tests
name the cases it found or could miss.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.analysis.league.data import settled_match, win
from tests.config.test_fuzz_api import one_connection, schema  # noqa: F401  (a fixture)

pytestmark = pytest.mark.django_db

LEDGER = "/api/v1/clubs/{club_id}/ledger/"


def test_the_ledger_without_a_point_value_answers_money_null_as_the_schema_says(
    club: Any, cast: Any, one_connection: None, settings: Any  # noqa: F811
) -> None:
    from records import services

    settings.ALLOWED_HOSTS = ["testserver", "localhost"]
    settled_match(club, ("a", "b", "c", "d"), [win(0, 1, 8)], day="2026-11-03")
    token = services.issue_token(user=cast["mia"]).key
    operation = schema[LEDGER]["GET"]
    response = operation.Case(path_parameters={"club_id": club.pk}).call(
        headers={"Authorization": f"Token {token}"}
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["balances"] and {b["money"] for b in body["balances"]} == {None}
    assert body["transfers"] and {t["money"] for t in body["transfers"]} == {None}
    operation.validate_response(response)  # raises when the body breaks the schema


#: (operation, integer query parameter): the bounds the server checks
BOUNDS = {
    ("/api/v1/clubs/{club_id}/leaderboard/", "with"): (1, 999_999_999_999_999_999),
    ("/api/v1/clubs/{club_id}/players/{player_id}/stats/", "with"): (1, 999_999_999_999_999_999),
    ("/api/v1/clubs/{club_id}/leaderboard/", "min_rounds"): (0, 1_000_000_000),
    ("/api/v1/clubs/{club_id}/nights/proposals/", "hours"): (1, 12),
    ("/api/v1/clubs/{club_id}/nights/proposals/", "days"): (1, 366),
}


@pytest.mark.parametrize(("path", "name"), sorted(BOUNDS), ids=lambda v: str(v))
def test_an_integer_parameters_bounds_in_the_schema_are_the_servers(
    path: str, name: str, club: Any, cast: Any, api_client: Any, upload: Any
) -> None:
    from tests.records.documents import make_document

    low, high = BOUNDS[path, name]
    (parameter,) = [p for p in schema.raw_schema["paths"][path]["get"]["parameters"]
                    if p["name"] == name and p["in"] == "query"]
    assert (parameter["schema"]["minimum"], parameter["schema"]["maximum"]) == (low, high)
    match = upload(make_document(1))
    player = match.seats.first().player_id
    url = path.format(club_id=club.pk, player_id=player)
    client = api_client(cast["mia"])
    for value in (low, high):
        assert client.get(url, {name: value}).status_code == 200, (name, value)
    for value in (low - 1, high + 1):
        answer = client.get(url, {name: value})
        assert answer.status_code == 400, (name, value)
        assert answer.json()["errors"][0]["path"] == f"$.{name}"


def test_no_integer_query_parameter_is_left_without_bounds_where_the_server_has_them() -> None:
    """Every integer query parameter whose view checks a range states it (BOUNDS); the
    others take any integer and answer 400 only for an unknown object (``season``,
    ``player``) or clamp it (``page_size``)."""
    unbounded = set()
    for item in schema.raw_schema["paths"].values():
        for operation in item.values():
            for p in operation.get("parameters", []):
                if p["in"] == "query" and p["schema"].get("type") == "integer" and (
                        "minimum" not in p["schema"] or "maximum" not in p["schema"]):
                    unbounded.add(p["name"])
    assert unbounded <= {"page", "page_size", "season", "player"}, unbounded


def test_business_rule_400s_and_a_dependencys_503_are_documented() -> None:
    paths = schema.raw_schema["paths"]
    last_owner = paths["/api/v1/clubs/{club_id}/memberships/{membership_id}/"]["delete"]
    answered = paths["/api/v1/invitations/{invitation_id}/accept/"]["post"]
    assert "400" in last_owner["responses"] and "400" in answered["responses"]
    for item in paths.values():
        for method, operation in item.items():
            if method in ("get", "post", "put", "patch", "delete"):
                assert "503" in operation["responses"], (method, operation["operationId"])

