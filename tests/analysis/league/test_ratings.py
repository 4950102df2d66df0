"""Ratings: openskill's Plackett–Luce over match nets, reproducible from scratch, kept fresh."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from analysis.league import services
from analysis.league.ratings import MODEL_VERSION, MatchNet, ranks_by_net, rate_matches
from analysis.models import PlayerRating, RatingStep
from records.models import Match
from tests.analysis.league.data import settled_match, win
from tests.records.documents import dumps

ABCD = ("a", "b", "c", "d")


def test_equal_nets_share_the_better_rank() -> None:
    assert ranks_by_net([5, -3, 5, -7]) == [1, 3, 1, 4]


def test_the_same_matches_in_the_same_order_give_the_same_ratings() -> None:
    matches = [MatchNet(1, {1: 8, 2: -8, 3: 0, 4: 0}), MatchNet(2, {1: -2, 2: 6, 3: -4, 5: 0})]
    assert rate_matches(matches) == rate_matches(list(matches))


def test_the_winner_gains_the_loser_loses_and_ties_are_rated_alike() -> None:
    final, history = rate_matches([MatchNet(1, {1: 8, 2: -8, 3: 0, 4: 0})])
    assert final[1].mu > final[3].mu == final[4].mu > final[2].mu
    assert all(r.sigma < 25 / 3 for r in final.values())  # one match: less uncertain
    assert [s.player for s in history] == [1, 2, 3, 4]


def test_order_matters_so_ratings_follow_the_order_of_play() -> None:
    one, two = MatchNet(1, {1: 8, 2: -8, 3: 0, 4: 0}), MatchNet(2, {1: -8, 2: 8, 3: 0, 4: 0})
    assert rate_matches([one, two])[0] != rate_matches([two, one])[0]


def test_a_match_with_no_complete_round_changes_nothing() -> None:
    assert rate_matches([MatchNet(1, {})]) == ({}, [])


def board(club: Any) -> list[tuple[str, float, float, int]]:
    return [
        (r.player.handle, r.mu, r.sigma, r.matches)
        for r in PlayerRating.objects.filter(club=club).select_related("player")
    ]


@pytest.mark.django_db
def test_ratings_are_reproducible_from_scratch_in_the_order_matches_were_played(
    club: Any,
) -> None:
    late = settled_match(club, ABCD, [win(1, 0, 8)], day="2026-11-10")
    early = settled_match(club, ABCD, [win(0, 1, 8)], day="2026-11-03")
    assert services.recompute_ratings(club_id=club.pk) == 2
    first = board(club)
    assert services.recompute_ratings(club_id=club.pk) == 2
    assert board(club) == first
    steps = RatingStep.objects.filter(player__handle="a").order_by("position")
    assert [s.match_id for s in steps] == [early.pk, late.pk]
    final, _ = rate_matches(
        [MatchNet(0, {1: 8, 2: -8, 3: 0, 4: 0}), MatchNet(1, {1: -8, 2: 8, 3: 0, 4: 0})]
    )
    assert first[0][1] == pytest.approx(max(r.mu for r in final.values()))
    assert {r.model_version for r in PlayerRating.objects.all()} == {MODEL_VERSION}


@pytest.mark.django_db
def test_a_verified_upload_and_a_change_of_acceptance_recompute_ratings(
    club: Any, cast: Any, api_client: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from xuezhan.sim.simulate import simulate_match

    doc = simulate_match(5, 1)
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client(cast["mia"]).generic(
            "POST", f"/api/v1/clubs/{club.pk}/matches/", dumps(doc), "application/json"
        )
    assert response.status_code == 201
    assert {r[0] for r in board(club)} == set(doc["players"])
    illegal = settled_match(club, ("w", "x", "y", "z"), [win(0, 1, 4)], status="illegal")
    with django_capture_on_commit_callbacks(execute=True):
        api_client(cast["adam"]).put(
            f"/api/v1/clubs/{club.pk}/matches/{illegal.pk}/acceptance/",
            {"reason": "agreed"},
            format="json",
        )
    assert "w" in {r[0] for r in board(club)}
    with django_capture_on_commit_callbacks(execute=True):
        api_client(cast["adam"]).delete(f"/api/v1/clubs/{club.pk}/matches/{illegal.pk}/acceptance/")
    assert "w" not in {r[0] for r in board(club)}
    assert Match.objects.get(pk=illegal.pk).status == "illegal"


@pytest.mark.django_db
def test_the_leaderboard_states_the_model_and_shows_the_uncertainty(
    club: Any, cast: Any, api_client: Any
) -> None:
    settled_match(club, ABCD, [win(0, 1, 8)])
    services.recompute_ratings(club_id=club.pk)
    body = api_client(cast["mia"]).get(f"/api/v1/clubs/{club.pk}/ratings/").json()
    assert body["model"]["version"] == MODEL_VERSION and body["model"]["parameters"]["mu"] == 25
    top = body["rows"][0]
    assert (top["rank"], top["handle"], top["matches"]) == (1, "a", 1)
    assert top["ordinal"] == pytest.approx(top["mu"] - 3 * top["sigma"])
    a = club.players.get(handle="a")
    detail = api_client(cast["mia"]).get(f"/api/v1/clubs/{club.pk}/ratings/{a.pk}/").json()
    assert detail["rating"]["handle"] == "a" and len(detail["history"]) == 1
    assert detail["history"][0]["played_at"].startswith("2026-11-03")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("who", "method", "path", "expected"),
    [
        ("nora", "get", "ratings/", 404),
        ("mia", "get", "ratings/", 200),
        ("nora", "get", "ratings/{player}/", 404),
        ("mia", "get", "ratings/{player}/", 200),
        ("mia", "get", "ratings/999999/", 404),
        ("nora", "post", "ratings/recompute/", 404),
        ("mia", "post", "ratings/recompute/", 403),
        ("adam", "post", "ratings/recompute/", 202),
        (None, "get", "ratings/", 401),
    ],
)
def test_rating_endpoints_members_read_admins_recompute(
    club: Any, cast: Any, api_client: Any, who: str | None, method: str, path: str, expected: int
) -> None:
    settled_match(club, ABCD, [win(0, 1, 8)])
    a = club.players.get(handle="a")
    client = api_client(cast[who] if who else None)
    url = f"/api/v1/clubs/{club.pk}/" + path.format(player=a.pk)
    assert getattr(client, method)(url).status_code == expected


@pytest.mark.django_db
def test_rating_pages_show_the_leaderboard_and_a_history_chart(club: Any, cast: Any) -> None:
    settled_match(club, ABCD, [win(0, 1, 8)], day="2026-11-03")
    settled_match(club, ABCD, [win(0, 2, 2)], day="2026-11-10")
    services.recompute_ratings(club_id=club.pk)
    browser = Client()
    browser.force_login(cast["mia"])
    page = browser.get(f"/clubs/{club.pk}/ratings/").content.decode()
    assert MODEL_VERSION in page and "±" in page
    a = club.players.get(handle="a")
    page = browser.get(f"/clubs/{club.pk}/ratings/{a.pk}/").content.decode()
    assert "<polyline" in page and page.count("<tr>") == 3
    outsider = Client()
    outsider.force_login(cast["nora"])
    assert outsider.get(f"/clubs/{club.pk}/ratings/").status_code == 404


@pytest.mark.django_db
def test_deleting_a_match_rates_the_club_again_without_it(
    club: Any, cast: Any, api_client: Any, django_capture_on_commit_callbacks: Any
) -> None:
    kept = settled_match(club, ABCD, [win(0, 1, 8)], day="2026-11-03")
    gone = settled_match(club, ("w", "x", "y", "z"), [win(0, 1, 4)], day="2026-11-10")
    services.recompute_ratings(club_id=club.pk)
    assert "w" in {r[0] for r in board(club)}
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client(cast["adam"]).delete(f"/api/v1/clubs/{club.pk}/matches/{gone.pk}/")
    assert response.status_code == 204
    assert "w" not in {r[0] for r in board(club)}
    assert {s.match_id for s in RatingStep.objects.all()} == {kept.pk}
