"""The decision review in the service: summaries stored with the verification, the full
review of a round served (members only) and cached."""

from __future__ import annotations

from typing import Any

import pytest

from analysis.models import Verification
from analysis.serializers import RoundReviewSerializer
from tests.records.documents import simulated

pytestmark = pytest.mark.django_db


def test_the_verification_stores_each_seats_review_summary(uploaded: Any) -> None:
    from tests.analysis.test_review_task import expected_review

    doc = simulated(31, rounds=2)
    verification = Verification.objects.get(match_id=uploaded(doc))
    assert verification.review == expected_review(doc)
    assert verification.review["mistakes"] >= len(verification.review["worst"]) > 0
    assert [s["seat"] for s in verification.review["seats"]] == [0, 1, 2, 3]
    assert all(s["decisions"] > 0 for s in verification.review["seats"])


def test_a_document_the_engine_cannot_review_stores_no_summary() -> None:
    from analysis.services import _review_summary

    assert _review_summary({"format": "xuezhan-log"}) is None


def test_a_member_gets_the_full_review_of_a_round(
    club: Any, cast: Any, api_client: Any, uploaded: Any
) -> None:
    from xuezhan.review import review_round

    doc = simulated(32, rounds=2)
    match_id = uploaded(doc)
    response = api_client(cast["mia"]).get(
        f"/api/v1/clubs/{club.pk}/matches/{match_id}/rounds/1/review/")
    assert response.status_code == 200
    body = response.json()
    expected = review_round(doc, 1).to_json()
    assert (body["match"], body["round"], body["players"]) == (match_id, 1, doc["players"])
    assert body["decisions"] == expected["decisions"]
    assert body["summary"] == expected["summary"]
    # the body has the shape the schema publishes
    assert RoundReviewSerializer(body).data == body


def test_the_review_is_computed_once_then_served_from_the_cache(
    club: Any, cast: Any, api_client: Any, uploaded: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    match_id = uploaded(simulated(33, rounds=1))
    url = f"/api/v1/clubs/{club.pk}/matches/{match_id}/rounds/0/review/"
    client = api_client(cast["mia"])
    first = client.get(url).json()

    def fail(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("reviewed again instead of read from the cache")

    monkeypatch.setattr("xuezhan.review.review_round", fail)
    assert client.get(url).json() == first


def test_the_review_is_for_members_only_and_of_rounds_that_exist(
    club: Any, cast: Any, api_client: Any, uploaded: Any
) -> None:
    match_id = uploaded(simulated(34, rounds=1))
    url = f"/api/v1/clubs/{club.pk}/matches/{match_id}/rounds/{{}}/review/"
    assert api_client(cast["nora"]).get(url.format(0)).status_code == 404
    assert api_client(cast["mia"]).get(url.format(3)).status_code == 404
    other = f"/api/v1/clubs/{club.pk}/matches/{match_id + 1000}/rounds/0/review/"
    assert api_client(cast["mia"]).get(other).status_code == 404


def test_the_review_endpoint_is_in_the_openapi_schema(client: Any) -> None:
    schema = client.get("/api/v1/schema/").content.decode()
    assert "/api/v1/clubs/{club_id}/matches/{match_id}/rounds/{index}/review/" in schema
    assert "RoundReview" in schema
