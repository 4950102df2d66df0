"""Bulk upload (one document per line, a result per line in order, nothing half-stored) and
Idempotency-Key on the POSTs an app retries."""

from __future__ import annotations

import json
from typing import Any

import pytest

from records.models import IdempotencyKey, Match
from tests.records.documents import dumps, make_document

NDJSON = "application/x-ndjson"


def bulk_url(club: Any) -> str:
    return f"/api/v1/clubs/{club.pk}/matches/bulk/"


def ndjson(*docs: Any) -> bytes:
    return b"".join(
        (d if isinstance(d, bytes) else json.dumps(d).encode()) + b"\n" for d in docs
    )


def test_each_line_gets_its_result_in_order_and_a_bad_line_stores_nothing(
    club: Any, cast: Any, api_client: Any
) -> None:
    first = make_document(1, match_id="night-1")
    conflicting = {**make_document(2), "match_id": "night-1"}
    body = ndjson(first, b"{not json", first, conflicting, {"format": "xuezhan-log"},
                  make_document(3)) + b"\n\n"
    response = api_client(cast["mia"]).post(bulk_url(club), body, content_type=NDJSON)
    assert response.status_code == 200
    results = response.json()["results"]
    assert [(r["line"], r["result"]) for r in results] == [
        (1, "stored"), (2, "invalid"), (3, "duplicate"), (4, "conflict"), (5, "invalid"),
        (6, "stored"),
    ]
    stored = results[0]["match"]
    assert results[2]["match"] == stored and results[3]["match"] == stored
    assert results[1]["error"]["type"] == "invalid_json"
    assert results[4]["error"]["type"] == "invalid_document" and results[4]["error"]["errors"]
    assert response.json()["counts"] == {"stored": 2, "duplicate": 1, "conflict": 1,
                                         "invalid": 2}
    assert Match.objects.filter(club=club).count() == 2


def test_a_bulk_upload_over_the_line_limit_keeps_what_came_before(
    club: Any, cast: Any, api_client: Any, settings: Any
) -> None:
    settings.BULK_MAX_LINES = 2
    body = ndjson(make_document(1), make_document(2), make_document(3))
    answer = api_client(cast["mia"]).post(bulk_url(club), body, content_type=NDJSON).json()
    assert [r["result"] for r in answer["results"]] == ["stored", "stored", "invalid"]
    assert answer["results"][-1]["error"]["type"] == "too_many_lines" and answer["truncated"]
    assert Match.objects.count() == 2


def test_a_bulk_body_over_its_byte_limit_is_413_before_anything_is_read(
    club: Any, cast: Any, api_client: Any, settings: Any
) -> None:
    settings.BULK_MAX_BYTES = 100
    body = ndjson(make_document(1))
    response = api_client(cast["mia"]).post(bulk_url(club), body, content_type=NDJSON)
    assert response.status_code == 413 and response.json()["limit"] == 100
    assert not Match.objects.exists()


@pytest.mark.parametrize(("user", "status"), [("nora", 404), (None, 401)])
def test_only_members_bulk_upload(
    user: str | None, status: int, club: Any, cast: Any, api_client: Any
) -> None:
    client = api_client(cast[user] if user else None)
    response = client.post(bulk_url(club), ndjson(make_document(1)), content_type=NDJSON)
    assert response.status_code == status and not Match.objects.exists()


def test_a_bulk_upload_is_ndjson(club: Any, cast: Any, api_client: Any) -> None:
    response = api_client(cast["mia"]).post(
        bulk_url(club), ndjson(make_document(1)), content_type="application/json"
    )
    assert response.status_code == 415 and not Match.objects.exists()


# -- Idempotency-Key -------------------------------------------------------------------


def test_the_same_key_and_bulk_body_answer_the_first_answer(
    club: Any, cast: Any, api_client: Any
) -> None:
    client = api_client(cast["mia"])
    body = ndjson(make_document(1), make_document(2))
    first = client.post(bulk_url(club), body, content_type=NDJSON, HTTP_IDEMPOTENCY_KEY="n-1")
    again = client.post(bulk_url(club), body, content_type=NDJSON, HTTP_IDEMPOTENCY_KEY="n-1")
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert [r["result"] for r in again.json()["results"]] == ["stored", "stored"]
    other = client.post(bulk_url(club), ndjson(make_document(3)), content_type=NDJSON,
                        HTTP_IDEMPOTENCY_KEY="n-1")
    assert other.status_code == 422 and other.json()["type"] == "idempotency_key_reused"
    assert Match.objects.count() == 2


def test_the_same_key_on_an_upload_answers_201_again_and_another_body_422(
    club: Any, cast: Any, api_client: Any
) -> None:
    client = api_client(cast["mia"])
    url = f"/api/v1/clubs/{club.pk}/matches/"
    doc = dumps(make_document(1))
    first = client.post(url, doc, content_type="application/json", HTTP_IDEMPOTENCY_KEY="k")
    again = client.post(url, doc, content_type="application/json", HTTP_IDEMPOTENCY_KEY="k")
    assert first.status_code == again.status_code == 201 and first.json() == again.json()
    other = client.post(url, dumps(make_document(2)), content_type="application/json",
                        HTTP_IDEMPOTENCY_KEY="k")
    assert other.status_code == 422 and Match.objects.count() == 1
    # keys are the user's own: another user's same key is another request
    admin = api_client(cast["adam"]).post(url, dumps(make_document(2)),
                                          content_type="application/json",
                                          HTTP_IDEMPOTENCY_KEY="k")
    assert admin.status_code == 201


def test_a_settle_up_retried_with_its_key_is_recorded_once(
    club: Any, cast: Any, api_client: Any
) -> None:
    from analysis.models import SettleUp
    from records.models import Player

    a, b = (Player.objects.create(club=club, handle=h) for h in ("a", "b"))
    client = api_client(cast["adam"])
    url = f"/api/v1/clubs/{club.pk}/settle-ups/"
    body = {"payer": a.pk, "payee": b.pk, "points": 5}
    responses = [client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="pay-1")
                 for _ in range(3)]
    assert {r.status_code for r in responses} == {201} and SettleUp.objects.count() == 1
    assert len({r.json()["id"] for r in responses}) == 1


def test_a_key_still_being_answered_is_409_and_old_keys_expire(
    club: Any, cast: Any, api_client: Any, settings: Any
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    IdempotencyKey.objects.create(user=cast["mia"], key="busy", scope="x", fingerprint="",
                                  created_at=timezone.now())
    client = api_client(cast["mia"])
    url = f"/api/v1/clubs/{club.pk}/matches/"
    doc = dumps(make_document(1))
    busy = client.post(url, doc, content_type="application/json", HTTP_IDEMPOTENCY_KEY="busy")
    assert busy.status_code == 409 and not Match.objects.exists()
    IdempotencyKey.objects.update(created_at=timezone.now() - timedelta(hours=25))
    later = client.post(url, doc, content_type="application/json", HTTP_IDEMPOTENCY_KEY="busy")
    assert later.status_code == 201


def test_an_idempotency_key_must_be_sane(club: Any, cast: Any, api_client: Any) -> None:
    response = api_client(cast["mia"]).post(
        f"/api/v1/clubs/{club.pk}/matches/", dumps(make_document(1)),
        content_type="application/json", HTTP_IDEMPOTENCY_KEY="x" * 300,
    )
    assert response.status_code == 400 and not Match.objects.exists()
