"""The upload endpoint and the records API: happy paths, duplicates, and bad input."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext

from records import services
from records.models import Match
from records.serializers import MatchSerializer, stored_match_data
from tests.records.documents import dumps, make_document

pytestmark = pytest.mark.django_db


def url(club: Any) -> str:
    return f"/api/v1/clubs/{club.pk}/matches/"


def error_paths(response: Any) -> list[str]:
    """The JSON paths a problem-shaped error body names."""
    return [error["path"] for error in response.json()["errors"]]


def post_json(client: Any, club: Any, body: bytes) -> Any:
    return client.generic("POST", url(club), body, content_type="application/json")


def test_a_member_uploads_a_json_body(club: Any, cast: Any, api_client: Any) -> None:
    response = post_json(api_client(cast["mia"]), club, dumps(make_document(1)))
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["status"] == "queued"  # verification waits for the commit
    assert [s["handle"] for s in body["seats"]] == ["alice", "bob", "carol", "dave"]
    assert body["uploaded_by"] == "mia"
    assert Match.objects.get().pk == body["id"]


def test_a_member_uploads_a_json_file(club: Any, cast: Any, api_client: Any) -> None:
    doc_file = SimpleUploadedFile("m.json", dumps(make_document(2)), "application/json")
    response = api_client(cast["mia"]).post(url(club), {"file": doc_file}, format="multipart")
    assert response.status_code == 201, response.content


def test_uploads_over_the_rate_limit_get_429_with_retry_after(
        club: Any, cast: Any, api_client: Any, settings: Any) -> None:
    settings.UPLOAD_RATE_LIMIT = "2/hour"
    client = api_client(cast["mia"])
    codes = [post_json(client, club, dumps(make_document(n))).status_code for n in (11, 12, 13)]
    assert codes == [201, 201, 429]
    refused = post_json(client, club, dumps(make_document(14)))
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    assert "detail" in refused.json()
    # reading is not limited, and another member has an allowance of their own
    assert client.get(url(club)).status_code == 200
    assert post_json(api_client(cast["adam"]), club, dumps(make_document(15))).status_code == 201


def test_no_rate_limit_when_it_is_switched_off(
        club: Any, cast: Any, api_client: Any, settings: Any) -> None:
    settings.UPLOAD_RATE_LIMIT = ""
    client = api_client(cast["mia"])
    assert {post_json(client, club, dumps(make_document(n))).status_code
            for n in range(20, 26)} == {201}


def test_a_multipart_upload_without_a_file_is_a_400(club: Any, cast: Any, api_client: Any) -> None:
    response = api_client(cast["mia"]).post(url(club), {"x": "1"}, format="multipart")
    assert response.status_code == 400 and error_paths(response) == ["$.file"]
    assert response.json()["type"] == "invalid_request"


def test_the_upload_enqueues_verification_after_commit(
    club: Any, cast: Any, api_client: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks() as callbacks:
        post_json(api_client(cast["mia"]), club, dumps(make_document(1)))
    assert len(callbacks) == 1


def test_an_upload_twice_gives_the_first_match_with_200(
    club: Any, cast: Any, api_client: Any, django_capture_on_commit_callbacks: Any
) -> None:
    client = api_client(cast["mia"])
    first = post_json(client, club, dumps(make_document(1)))
    with django_capture_on_commit_callbacks() as callbacks:
        second = post_json(client, club, json.dumps(make_document(1), indent=4).encode())
    assert second.status_code == 200 and second.json()["id"] == first.json()["id"]
    assert callbacks == []  # nothing enqueued again
    assert Match.objects.count() == 1


BAD_BODIES = {
    "truncated JSON": b'{"format": "xuezhan-log", "rounds": [',
    "not JSON at all": b"hello",
    "empty body": b"",
    "a JSON array": b"[1, 2, 3]",
    "NaN": b'{"format": NaN}',
    "2,000-deep nesting": b"[" * 2000 + b"]" * 2000,
    "100,000-deep nesting": b"[" * 100_000 + b"]" * 100_000,
    "duplicate keys": b'{"format": "xuezhan-log", "format": "other"}',
    "not UTF-8": b'{"format": "\xff"}',
    "NUL in a string": dumps(make_document(1)).replace(b'"alice"', b'"ali\\u0000ce"'),
    "lone surrogate": dumps(make_document(1)).replace(b'"alice"', b'"\\udc00"'),
    "huge float": dumps({**make_document(1), "x": 1}).replace(b'"x": 1', b'"x": 1e999'),
}


def _doc_with(path_fn: Any) -> bytes:
    doc = make_document(11)
    path_fn(doc)
    return dumps(doc)


BAD_DOCUMENTS = {
    "wrong type": (
        lambda d: d.update(version="1"),
        "$.version",
    ),
    "bad tile": (
        lambda d: d["rounds"][0]["hands"][1].__setitem__(0, "0m"),
        "$.rounds[0].hands[1][0]",
    ),
    "seat 4": (
        lambda d: d["rounds"][0]["events"][2].__setitem__("actor", 4),
        "$.rounds[0].events[2].actor",
    ),
    "missing field": (lambda d: d.pop("players"), "$"),
    "unknown ruleset": (lambda d: d.update(ruleset="vegas"), "$.ruleset"),
    "date out of range": (lambda d: d.update(played_at="9999-12-31T23:59:59-12:00"), "$.played_at"),
}


@pytest.mark.parametrize("name", BAD_BODIES)
def test_bad_json_is_a_400_with_a_json_error(
    name: str, club: Any, cast: Any, api_client: Any
) -> None:
    response = post_json(api_client(cast["mia"]), club, BAD_BODIES[name])
    assert response.status_code == 400, response.content
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["errors"] if name != "a JSON array" else body["errors"][0]["path"] == "$"
    assert Match.objects.count() == 0


@pytest.mark.parametrize("name", BAD_DOCUMENTS)
def test_an_invalid_document_is_a_400_naming_the_path(
    name: str, club: Any, cast: Any, api_client: Any
) -> None:
    change, path = BAD_DOCUMENTS[name]
    response = post_json(api_client(cast["mia"]), club, _doc_with(change))
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["type"] == "invalid_document"
    assert path in [e["path"] for e in body["errors"]], body
    assert Match.objects.count() == 0


def test_every_error_is_reported_not_just_the_first(club: Any, cast: Any, api_client: Any) -> None:
    doc = make_document(12)
    for i in range(5):
        doc["rounds"][0]["events"][2 + i]["tile"] = "x"
    response = post_json(api_client(cast["mia"]), club, dumps(doc))
    reported = {e["path"] for e in response.json()["errors"]}
    assert {f"$.rounds[0].events[{2 + i}].tile" for i in range(5)} <= reported


def test_a_body_over_the_limit_is_a_413_json(
    club: Any, cast: Any, api_client: Any, settings: Any
) -> None:
    body = dumps(make_document(1)) + b" " * (settings.UPLOAD_MAX_BYTES + 70_000)
    response = post_json(api_client(cast["mia"]), club, body)
    assert response.status_code == 413
    assert response.json()["type"] == "payload_too_large"
    assert response.json()["limit"] == settings.UPLOAD_MAX_BYTES


def test_a_body_just_over_the_limit_is_a_413_json(
    club: Any, cast: Any, api_client: Any, settings: Any
) -> None:
    # over the limit but under the middleware's multipart slack: caught when read
    body = dumps(make_document(1)) + b" " * settings.UPLOAD_MAX_BYTES
    response = post_json(api_client(cast["mia"]), club, body)
    assert response.status_code == 413 and response.json()["type"] == "payload_too_large"


def test_a_file_over_the_limit_is_a_413_json(
    club: Any, cast: Any, api_client: Any, settings: Any
) -> None:
    settings.UPLOAD_MAX_BYTES = 2000
    big = SimpleUploadedFile("m.json", dumps(make_document(1, rounds=3)), "application/json")
    response = api_client(cast["mia"]).post(url(club), {"file": big}, format="multipart")
    assert response.status_code == 413 and response.json()["type"] == "payload_too_large"


def test_an_oversized_body_elsewhere_is_a_413_json_too(
    club: Any, cast: Any, api_client: Any, settings: Any
) -> None:
    body = b'{"name": "' + b"x" * (settings.UPLOAD_MAX_BYTES + 10) + b'"}'
    response = api_client(cast["olga"]).generic(
        "PATCH", f"/api/v1/clubs/{club.pk}/", body, content_type="application/json"
    )
    assert response.status_code == 413 and response.json()["type"] == "payload_too_large"


def test_deep_json_elsewhere_is_a_400_json(club: Any, cast: Any, api_client: Any) -> None:
    body = b'{"name": ' + b"[" * 3000 + b"]" * 3000 + b"}"
    response = api_client(cast["olga"]).generic(
        "PATCH", f"/api/v1/clubs/{club.pk}/", body, content_type="application/json"
    )
    assert response.status_code == 400 and "nested" in response.json()["detail"]


def test_an_unsupported_media_type_is_a_415(club: Any, cast: Any, api_client: Any) -> None:
    response = api_client(cast["mia"]).generic(
        "POST", url(club), b"format: x", content_type="text/yaml"
    )
    assert response.status_code == 415


def test_the_list_filters_by_status_player_ruleset_and_date(
    club: Any, cast: Any, api_client: Any, upload: Any
) -> None:
    a = upload(make_document(1))  # played 2026-11-02
    b = upload(make_document(20, players=("alice", "erin", "frank", "gus")))  # 2026-11-21
    Match.objects.filter(pk=b.pk).update(status="verified")
    client = api_client(cast["mia"])

    def ids(query: str) -> list[int]:
        response = client.get(url(club) + query)
        assert response.status_code == 200
        return [m["id"] for m in response.json()["results"]]

    assert ids("") == [b.pk, a.pk]
    assert ids("?status=verified") == [b.pk]
    erin = b.seats.get(seat=1).player_id
    alice = a.seats.get(seat=0).player_id
    assert ids(f"?player={erin}") == [b.pk]
    assert ids(f"?player={alice}") == [b.pk, a.pk]
    assert ids("?ruleset=chengdu") == [b.pk, a.pk]
    assert ids("?ruleset=online") == []
    assert ids("?played_after=2026-11-10T00:00:00Z") == [b.pk]
    assert ids("?played_before=2026-11-10T00:00:00Z") == [a.pk]
    assert client.get(url(club) + "?status=bogus").status_code == 400


def test_lists_are_paginated(club: Any, cast: Any, api_client: Any, upload: Any) -> None:
    for seed in range(3):
        upload(make_document(seed))
    body = api_client(cast["mia"]).get(url(club) + "?page_size=2").json()
    assert body["count"] == 3 and len(body["results"]) == 2 and body["next"]


def test_creating_a_club_makes_you_its_owner(cast: Any, api_client: Any) -> None:
    response = api_client(cast["nora"]).post("/api/v1/clubs/", {"name": "Nora's"}, format="json")
    assert response.status_code == 201
    body = api_client(cast["nora"]).get(f"/api/v1/clubs/{response.json()['id']}/memberships/")
    assert [(m["username"], m["role"]) for m in body.json()["results"]] == [("nora", "owner")]


def test_an_admin_cannot_invite_an_owner(club: Any, cast: Any, api_client: Any) -> None:
    response = api_client(cast["adam"]).post(
        f"/api/v1/clubs/{club.pk}/invitations/",
        {"username": "nora", "role": "owner"},
        format="json",
    )
    assert response.status_code == 403
    response = api_client(cast["olga"]).post(
        f"/api/v1/clubs/{club.pk}/invitations/",
        {"username": "nora", "role": "owner"},
        format="json",
    )
    assert response.status_code == 201


def test_the_last_owner_cannot_step_down(club: Any, cast: Any, api_client: Any) -> None:
    owner = club.memberships.get(role="owner")
    response = api_client(cast["olga"]).patch(
        f"/api/v1/clubs/{club.pk}/memberships/{owner.pk}/", {"role": "admin"}, format="json"
    )
    assert response.status_code == 400 and error_paths(response) == ["$.role"]
    assert "owner" in response.json()["errors"][0]["message"]


def test_a_player_can_be_linked_to_a_member_only(
    club: Any, cast: Any, api_client: Any, upload: Any
) -> None:
    upload(make_document(1))
    alice = club.players.get(handle="alice")
    player_url = f"/api/v1/clubs/{club.pk}/players/{alice.pk}/"
    client = api_client(cast["adam"])
    assert client.patch(player_url, {"username": "nora"}, format="json").status_code == 400
    response = client.patch(player_url, {"username": "mia"}, format="json")
    assert response.status_code == 200 and response.json()["username"] == "mia"
    assert client.patch(player_url, {"handle": "alicia"}, format="json").status_code == 400


def test_session_authentication_works_with_csrf(club: Any, cast: Any) -> None:
    from rest_framework.test import APIClient

    client = APIClient(enforce_csrf_checks=True)
    client.force_login(cast["mia"])
    assert client.get(url(club)).status_code == 200
    response = client.generic("POST", url(club), dumps(make_document(1)), "application/json")
    assert response.status_code == 403  # no CSRF token: refused


def test_a_token_is_issued_for_a_password(cast: Any, client: Any, settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cast["mia"].set_password("correct horse")
    cast["mia"].save()
    response = client.post("/api/v1/auth/token/", {"username": "mia", "password": "correct horse"})
    assert response.status_code == 200 and response.json()["token"]


def test_a_club_counts_its_matches(club: Any, cast: Any, api_client: Any, upload: Any) -> None:
    upload(make_document(1))
    upload(make_document(2))
    client = api_client(cast["mia"])
    assert client.get(f"/api/v1/clubs/{club.pk}/").json()["match_count"] == 2
    assert client.get("/api/v1/clubs/").json()["results"][0]["match_count"] == 2


def test_a_user_has_one_player_per_club(club: Any, cast: Any, api_client: Any) -> None:
    client = api_client(cast["adam"])
    players = f"/api/v1/clubs/{club.pk}/players/"
    first = client.post(players, {"handle": "mia", "username": "mia"}, format="json")
    assert first.status_code == 201
    second = client.post(players, {"handle": "mia2", "username": "mia"}, format="json")
    assert second.status_code == 400 and error_paths(second) == ["$.username"]


def test_linking_a_user_who_has_a_player_already_is_a_400(
    club: Any, cast: Any, api_client: Any
) -> None:
    client = api_client(cast["adam"])
    players = f"/api/v1/clubs/{club.pk}/players/"
    first = client.post(players, {"handle": "p1", "username": "mia"}, format="json")
    assert first.status_code == 201
    p2 = client.post(players, {"handle": "p2"}, format="json").json()["id"]
    response = client.patch(f"{players}{p2}/", {"username": "mia"}, format="json")
    assert response.status_code == 400 and error_paths(response) == ["$.username"]
    # the player already linked to mia may keep her
    p1 = club.players.get(handle="p1").pk
    assert client.patch(f"{players}{p1}/", {"username": "mia"}, format="json").status_code == 200


def test_a_link_that_loses_a_race_is_a_400_not_a_500(
    club: Any, cast: Any, api_client: Any, monkeypatch: Any
) -> None:
    from records import serializers

    client = api_client(cast["adam"])
    players = f"/api/v1/clubs/{club.pk}/players/"
    client.post(players, {"handle": "p1", "username": "mia"}, format="json")
    p2 = client.post(players, {"handle": "p2"}, format="json").json()["id"]
    # the check passes, then the database refuses: as when another request linked her first
    monkeypatch.setattr(
        serializers.PlayerSerializer, "validate_username", lambda self, user: user
    )
    response = client.patch(f"{players}{p2}/", {"username": "mia"}, format="json")
    assert response.status_code == 400 and error_paths(response) == ["$.username"]


def test_an_unknown_api_url_is_a_json_404(cast: Any, api_client: Any) -> None:
    response = api_client(cast["mia"]).get("/api/v1/clubs/not-a-number/")
    assert response.status_code == 404
    assert response.json() == {"type": "not_found", "detail": "Not found.", "errors": []}


def test_too_many_multipart_fields_is_a_json_400(
    club: Any, cast: Any, api_client: Any, settings: Any
) -> None:
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 5
    fields = {f"f{i}": "x" for i in range(10)}
    response = api_client(cast["mia"]).post(url(club), fields, format="multipart")
    assert response.status_code == 400 and response["Content-Type"] == "application/json"


@pytest.mark.parametrize("offset", ["+16:00", "-16:48", "+23:59"])
def test_a_date_filter_with_any_offset_is_asked_in_utc(
    club: Any, cast: Any, api_client: Any, upload: Any, offset: str
) -> None:
    from datetime import UTC, datetime

    from records.views import UtcDateTimeField

    # PostgreSQL refuses offsets of 16 h or more: the value must reach it in UTC
    value = UtcDateTimeField().clean(f"2026-11-10T00:00:00{offset}")
    assert value.tzinfo is UTC
    assert value == datetime.fromisoformat(f"2026-11-10T00:00:00{offset}")
    upload(make_document(1))  # played 2026-11-02
    response = api_client(cast["mia"]).get(
        url(club), {"played_after": f"2026-11-01T00:00:00{offset}"}
    )
    assert response.status_code == 200 and response.json()["count"] == 1


@pytest.mark.parametrize("value", ["0001-01-01T00:00:00+16:00", "9999-12-31T23:59:59-15:00"])
def test_a_date_filter_with_no_utc_equivalent_is_a_400(
    club: Any, cast: Any, api_client: Any, value: str
) -> None:
    response = api_client(cast["mia"]).get(url(club), {"played_before": value})
    assert response.status_code == 400
    assert "played_before" in response.content.decode()


def test_the_same_match_id_with_other_content_is_a_409_naming_the_match(
    club: Any, cast: Any, api_client: Any
) -> None:
    client = api_client(cast["mia"])
    first = post_json(client, club, dumps(make_document(5, match_id="x")))
    assert first.status_code == 201
    assert post_json(client, club, dumps(make_document(5, match_id="x"))).status_code == 200
    response = post_json(client, club, dumps(make_document(6, match_id="x")))
    assert response.status_code == 409
    body = response.json()
    assert body["type"] == "conflict" and body["match"] == first.json()["id"]
    assert f"Match {first.json()['id']}" in body["detail"] and "content" in body["detail"]
    assert Match.objects.count() == 1


def test_two_file_parts_in_one_upload_are_a_400(club: Any, cast: Any, api_client: Any) -> None:
    files = [
        SimpleUploadedFile(f"m{n}.json", dumps(make_document(n)), "application/json")
        for n in (1, 2)
    ]
    response = api_client(cast["mia"]).post(url(club), {"file": files}, format="multipart")
    assert response.status_code == 400 and "file" in response.content.decode()
    assert Match.objects.count() == 0


@pytest.mark.parametrize(
    "path", ["clubs/{big}/", "clubs/{club}/matches/{big}/", "clubs/{big}/players/"]
)
def test_an_id_too_large_for_the_database_is_a_404(
    club: Any, cast: Any, api_client: Any, path: str
) -> None:
    big = "2505464436224936640512"  # over 2**63: no database integer holds it
    response = api_client(cast["olga"]).get("/api/v1/" + path.format(big=big, club=club.pk))
    assert response.status_code == 404 and response.json()["type"] == "not_found"


def test_the_201_body_is_the_match_as_listed_without_reading_it_again(
        club: Any, cast: Any, api_client: Any) -> None:
    client = api_client(cast["mia"])
    post_json(client, club, dumps(make_document(30)))  # the players exist: the usual upload
    with CaptureQueriesContext(connection) as queries:
        created = post_json(client, club, dumps(make_document(31)))
    assert created.status_code == 201
    reads = [q["sql"] for q in queries.captured_queries
             if q["sql"].startswith("SELECT") and ('"records_match"' in q["sql"].split(
                 " FROM ")[1] or '"records_seat"' in q["sql"].split(" FROM ")[1])]
    assert reads == []
    listed = client.get(url(club)).json()["results"]
    assert created.json() == next(m for m in listed if m["id"] == created.json()["id"])


@pytest.mark.parametrize("played_at", [None, "2026-11-02T19:30:00+08:00"])
def test_the_stored_match_data_is_what_the_match_serializer_gives(
        club: Any, cast: Any, played_at: str | None) -> None:
    doc = make_document(33, match_id="m-33")
    if played_at is None:
        del doc["played_at"]
    upload = services.upload_match(club=club, raw=dumps(doc), uploaded_by=cast["mia"])
    assert stored_match_data(upload.match) == MatchSerializer(upload.match).data
    anonymous = services.upload_match(club=club, raw=dumps(make_document(34)), uploaded_by=None)
    assert stored_match_data(anonymous.match) == MatchSerializer(anonymous.match).data


def test_the_stored_document_is_the_uploaded_one(club: Any, cast: Any, api_client: Any) -> None:
    doc = make_document(32, rounds=2, match_id="m-32")
    body = json.dumps(doc, ensure_ascii=False, indent=1).encode()
    response = post_json(api_client(cast["mia"]), club, body)
    assert response.status_code == 201
    stored = Match.objects.get(pk=response.json()["id"])
    assert stored.document == doc
    assert bytes(stored.raw) == body


def test_a_club_keeps_its_time_zone_asia_shanghai_unless_an_admin_sets_another(
    club: Any, cast: Any, api_client: Any
) -> None:
    from records import services

    club = services.create_club(name="Chengdu Friday", owner=cast["olga"])
    services.add_member(club=club, user=cast["adam"], role="admin")
    services.add_member(club=club, user=cast["mia"], role="member")
    url = f"/api/v1/clubs/{club.pk}/"
    assert api_client(cast["mia"]).get(url).json()["time_zone"] == "Asia/Shanghai"
    admin = api_client(cast["adam"])
    bad = admin.patch(url, {"time_zone": "Mars/Olympus"}, format="json")
    assert bad.status_code == 400 and error_paths(bad) == ["$.time_zone"]
    assert admin.patch(url, {"time_zone": "Europe/Paris"}, format="json").status_code == 200
    assert api_client(cast["mia"]).get(url).json()["time_zone"] == "Europe/Paris"
    member = api_client(cast["mia"]).patch(url, {"time_zone": "UTC"}, format="json")
    assert member.status_code == 403
