"""The match review report's API: GET …/matches/{m}/review/ (docs/review.md)."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise
from typing import Any

import pytest

from analysis.models import Verification
from analysis.review.serializers import MatchReviewSerializer
from tests.records.documents import one_win_sheet, simulated

pytestmark = pytest.mark.django_db

#: the summary's counts, each a sum over the rounds
COUNTS = ("decisions", "discards", "ukeire_lost", "passed_wins")


def report(api_client: Any, user: Any, club: Any, match_id: int) -> Any:
    return api_client(user).get(f"/api/v1/clubs/{club.pk}/matches/{match_id}/review/")


def test_the_match_reports_per_seat_figures_equal_the_sum_of_its_round_reviews(
    club: Any, cast: Any, api_client: Any, uploaded: Any
) -> None:
    doc = simulated(41, rounds=4)
    match_id = uploaded(doc)
    body = report(api_client, cast["mia"], club, match_id).json()
    assert body["status"] == "ready" and len(body["seats"]) == 4 and len(body["rounds"]) == 4
    # the per-round reviews as the round API serves them (computed afresh, not stored)
    rounds = [api_client(cast["mia"]).get(
        f"/api/v1/clubs/{club.pk}/matches/{match_id}/rounds/{i}/review/").json()["summary"]
        for i in range(4)]
    assert body["rounds"] == rounds
    for seat, summary in enumerate(body["seats"]):
        per_round = [r[seat] for r in rounds]
        for key in COUNTS:
            assert summary[key] == sum(r[key] for r in per_round), key
        mistakes: Counter[str] = Counter()
        for r in per_round:
            mistakes.update(r["mistakes"])
        assert summary["mistakes"] == dict(sorted(mistakes.items()))
        best = sum(round((r["share_best"] or 0) * r["decisions"]) for r in per_round)
        assert summary["share_best"] == round(best / summary["decisions"], 4)
        first = next((r["first_ready"] for r in per_round if r["first_ready"]), None)
        assert summary["first_ready"] == first


def test_the_worst_list_is_every_mistake_ordered_by_loss_largest_first(
    club: Any, cast: Any, api_client: Any, uploaded: Any
) -> None:
    match_id = uploaded(simulated(42, rounds=4))
    body = report(api_client, cast["mia"], club, match_id).json()
    worst = body["worst"]
    assert worst, "a simulated match of four rounds has mistakes"
    losses = [w["loss"] for w in worst]
    assert losses == sorted(losses, reverse=True)
    # ties keep the order of play
    for a, b in pairwise(worst):
        if a["loss"] == b["loss"]:
            assert (a["round"], a["event"], a["seat"]) <= (b["round"], b["event"], b["seat"])
    # every mistake of the summaries is listed once
    assert len(worst) == sum(sum(s["mistakes"].values()) for s in body["seats"])
    for w in worst:
        decisions = api_client(cast["mia"]).get(
            f"/api/v1/clubs/{club.pk}/matches/{match_id}/rounds/{w['round']}/review/"
        ).json()["decisions"]
        found = next(d for d in decisions if (d["event"], d["seat"], d["kind"]) ==
                     (w["event"], w["seat"], w["kind"]))
        assert (found["verdict"], found["loss"], found["chosen"]) == (
            w["verdict"], w["loss"], w["chosen"])
        assert found["alternatives"][0]["chosen"] == w["best"]
    assert MatchReviewSerializer(body).data == body


def test_an_outsider_gets_404_and_so_does_a_match_of_another_club(
    club: Any, cast: Any, api_client: Any, uploaded: Any
) -> None:
    match_id = uploaded(simulated(43, rounds=1))
    assert report(api_client, cast["nora"], club, match_id).status_code == 404
    assert report(api_client, None, club, match_id).status_code in (401, 403)
    assert report(api_client, cast["mia"], club, match_id + 1000).status_code == 404


def test_a_match_not_reviewed_yet_says_so_with_202_and_asks_the_worker_once(
    club: Any, cast: Any, api_client: Any, uploaded: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    match_id = uploaded(simulated(44, rounds=1))
    Verification.objects.filter(match_id=match_id).update(review=None)
    asked: list[int] = []
    monkeypatch.setattr("analysis.review.services.review_match.delay", asked.append)
    response = report(api_client, cast["mia"], club, match_id)
    assert response.status_code == 202
    assert response.json()["status"] == "reviewing"
    assert report(api_client, cast["mia"], club, match_id).status_code == 202
    assert asked == [match_id]


def test_a_match_not_verified_yet_is_pending(
    club: Any, cast: Any, api_client: Any, upload: Any
) -> None:
    match = upload(simulated(45, rounds=1))  # stored, its verification not run
    response = report(api_client, cast["mia"], club, match.pk)
    assert response.status_code == 202
    assert response.json() == {"match": match.pk, "status": "pending",
                                "detail": "The match is not verified yet."}


def test_the_worst_decisions_are_computed_once_then_cached(
    club: Any, cast: Any, api_client: Any, uploaded: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    match_id = uploaded(simulated(46, rounds=1))
    first = report(api_client, cast["mia"], club, match_id).json()

    def fail(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("reviewed again instead of read from the cache")

    monkeypatch.setattr("analysis.review.selectors.review_document", fail)
    assert report(api_client, cast["mia"], club, match_id).json() == first


def test_the_match_review_is_in_the_openapi_schema(client: Any) -> None:
    schema = client.get("/api/v1/schema/").content.decode()
    assert "/api/v1/clubs/{club_id}/matches/{match_id}/review/" in schema
    assert "MatchReview" in schema and "WorstDecision" in schema


def test_a_score_sheet_has_no_review_and_says_so_with_422(
    club: Any, cast: Any, api_client: Any, uploaded: Any
) -> None:
    match_id = uploaded(one_win_sheet())
    response = report(api_client, cast["mia"], club, match_id)
    assert response.status_code == 422
    assert response.json()["status"] == "unavailable"
