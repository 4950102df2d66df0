"""Upload through the API, verified, settlement readable through the API."""

from __future__ import annotations

from typing import Any

import pytest

from tests.records.documents import dumps, illegal_document, simulated

pytestmark = pytest.mark.django_db


@pytest.fixture
def verified_upload(
    club: Any, cast: Any, api_client: Any, django_capture_on_commit_callbacks: Any
) -> Any:
    def do(doc: Any) -> dict[str, Any]:
        with django_capture_on_commit_callbacks(execute=True):
            response = api_client(cast["mia"]).generic(
                "POST", f"/api/v1/clubs/{club.pk}/matches/", dumps(doc), "application/json"
            )
        assert response.status_code == 201, response.content
        body: dict[str, Any] = response.json()
        return body

    return do


def test_an_uploaded_match_ends_verified_with_its_settlement(
    club: Any, cast: Any, api_client: Any, verified_upload: Any
) -> None:
    doc = simulated(21, rounds=3)
    match_id = verified_upload(doc)["id"]
    client = api_client(cast["mia"])
    detail = client.get(f"/api/v1/clubs/{club.pk}/matches/{match_id}/").json()
    assert detail["status"] == "verified" and detail["attempts"] == 1
    assert detail["verification"]["legal"] and detail["verification"]["violations"] == []
    assert detail["ruleset"]["preset"] == "chengdu"
    from xuezhan.replay import verify_document

    report = verify_document(doc).to_dict()
    assert detail["verification"]["totals"] == report["totals"]
    assert len(detail["rounds"]) == 3
    for got, want in zip(detail["rounds"], report["rounds"], strict=True):
        assert got["settlement"]["deltas"] == want["deltas"]
        assert got["payments"] == want["payments"]
        assert [s["delta"] for s in got["seats"]] == [s["delta"] for s in want["seats"]]
        assert [s["handle"] for s in got["seats"]] == doc["players"]

    rounds = client.get(f"/api/v1/clubs/{club.pk}/matches/{match_id}/rounds/").json()
    assert rounds["count"] == 3 and rounds["results"] == detail["rounds"]
    one = client.get(f"/api/v1/clubs/{club.pk}/matches/{match_id}/rounds/1/").json()
    assert one == detail["rounds"][1]


def test_the_api_serves_each_payments_reason_params(
    club: Any, cast: Any, api_client: Any, verified_upload: Any
) -> None:
    from xuezhan.settlement import describe

    match_id = verified_upload(simulated(21, rounds=2))["id"]
    client = api_client(cast["mia"])
    rounds = client.get(f"/api/v1/clubs/{club.pk}/matches/{match_id}/").json()["rounds"]
    payments = [p for r in rounds for p in r["payments"]]
    assert payments
    for p in payments:
        assert p["params"]["amount"] == p["amount"]
        assert describe(p["reason"], p["params"]) == p["detail"]


def test_an_illegal_match_reports_its_violations(
    club: Any, cast: Any, api_client: Any, verified_upload: Any
) -> None:
    match_id = verified_upload(illegal_document(3))["id"]
    detail = api_client(cast["mia"]).get(f"/api/v1/clubs/{club.pk}/matches/{match_id}/").json()
    assert detail["status"] == "illegal" and not detail["verification"]["legal"]
    violation = detail["verification"]["violations"][0]
    assert violation["round_index"] == 0 and violation["event_index"] == 2
    assert violation["seat"] == 0 and violation["code"] and violation["message"]


def test_replay_gives_the_table_after_each_event(
    club: Any, cast: Any, api_client: Any, verified_upload: Any
) -> None:
    doc = simulated(22, rounds=1)
    match_id = verified_upload(doc)["id"]
    client = api_client(cast["mia"])
    body = client.get(f"/api/v1/clubs/{club.pk}/matches/{match_id}/rounds/0/replay/").json()
    assert body["match"] == match_id and body["round"] == 0 and body["players"] == doc["players"]
    frames = body["frames"]
    assert len(frames) == len(doc["rounds"][0]["events"]) + 1
    assert frames[0]["event"] is None
    last = frames[-1]
    assert set(last) >= {"hands", "melds", "discards", "wall_remaining", "won", "scores"}
    assert len(last["hands"]) == 4 and len(last["scores"]) == 4
    missing = client.get(f"/api/v1/clubs/{club.pk}/matches/{match_id}/rounds/5/replay/")
    assert missing.status_code == 404


def test_reverify_puts_the_match_back_through_the_queue(
    club: Any, cast: Any, api_client: Any, verified_upload: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:  # fmt: skip
    match_id = verified_upload(simulated(23, rounds=1))["id"]
    client = api_client(cast["adam"])
    with django_capture_on_commit_callbacks() as callbacks:
        response = client.post(f"/api/v1/clubs/{club.pk}/matches/{match_id}/reverify/")
    assert response.status_code == 202 and response.json()["status"] == "queued"
    assert len(callbacks) == 1  # the request queues the verification, nothing else
    callbacks[0]()  # (the verdict then queues its review: a callback of its own)
    detail = client.get(f"/api/v1/clubs/{club.pk}/matches/{match_id}/").json()
    assert detail["status"] == "verified" and detail["attempts"] == 2


def test_deleting_a_match_deletes_its_results(
    club: Any, cast: Any, api_client: Any, verified_upload: Any
) -> None:
    from analysis.models import RoundSettlement, SeatResult, Verification

    match_id = verified_upload(simulated(24, rounds=1))["id"]
    response = api_client(cast["adam"]).delete(f"/api/v1/clubs/{club.pk}/matches/{match_id}/")
    assert response.status_code == 204
    assert not Verification.objects.exists() and not SeatResult.objects.exists()
    assert not RoundSettlement.objects.exists()  # and the payment lines in them


def test_reads_take_a_bounded_number_of_queries(
    club: Any, cast: Any, api_client: Any, upload: Any, django_assert_max_num_queries: Any
) -> None:
    from analysis import services

    for seed in range(3):
        services.verify_match(match_id=upload(simulated(40 + seed, rounds=4)).pk)
    client = api_client(cast["mia"])
    match_id = club.matches.first().pk
    base = f"/api/v1/clubs/{club.pk}/matches/"
    with django_assert_max_num_queries(8):
        assert client.get(base).status_code == 200
    with django_assert_max_num_queries(14):
        assert client.get(f"{base}{match_id}/").status_code == 200
    with django_assert_max_num_queries(10):
        assert client.get(f"{base}{match_id}/rounds/").status_code == 200
