"""The statistics API: the player stats and leaderboard endpoints, filters, CSV, access."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from tests.exports import body as body_of
from tests.records.documents import data_documents

pytestmark = pytest.mark.django_db

CORPUS = data_documents()


@pytest.fixture
def loaded(club: Any, upload: Any) -> dict[str, int]:
    """Two hand-made matches verified in the club; handle → player id."""
    from analysis import services
    from records.models import Player

    for name in ("rob_kong_chengdu", "multiple_win_two_winners_chengdu"):
        services.verify_match(match_id=upload(CORPUS[name]).pk)
    return dict(Player.objects.filter(club=club).values_list("handle", "pk"))


def url(club: Any, player: int) -> str:
    return f"/api/v1/clubs/{club.pk}/players/{player}/stats/"


def test_player_stats_serve_the_documented_shape(
    club: Any, cast: Any, api_client: Any, loaded: dict[str, int]
) -> None:
    body = api_client(cast["mia"]).get(url(club, loaded["dave"])).json()
    assert set(body) == {
        "player",
        "definitions_version",
        "filters",
        "stats",
        "decomposition",
        "head_to_head",
        "records",
        "trend",
    }
    assert body["player"] == {"id": loaded["dave"], "handle": "dave"}
    assert body["stats"]["rounds"] == 2
    assert body["stats"]["win_rate"] == {
        "value": 0.5,
        "numerator": 1,
        "denominator": 2,
        "low_sample": True,
    }
    assert body["records"]["biggest_win"]["match"] is not None


def test_non_members_get_404_for_stats_and_leaderboard(
    club: Any, cast: Any, api_client: Any, loaded: dict[str, int]
) -> None:
    outsider = api_client(cast["nora"])
    assert outsider.get(url(club, loaded["dave"])).status_code == 404
    assert outsider.get(f"/api/v1/clubs/{club.pk}/leaderboard/").status_code == 404
    assert api_client(None).get(url(club, loaded["dave"])).status_code == 401


def test_a_player_of_another_club_is_404(
    club: Any, cast: Any, api_client: Any, loaded: dict[str, int]
) -> None:
    from records import services

    other = services.create_club(name="Elsewhere", owner=cast["olga"])
    stranger = services.create_player(club=other, handle="zed")
    assert api_client(cast["mia"]).get(url(club, stranger.pk)).status_code == 404


@pytest.mark.parametrize(
    ("query", "field"),
    [("from=yesterday", "from"), ("with=x", "with"), ("from=2026-02-01&to=2026-01-01", "to")],
)
def test_a_bad_filter_is_a_400_naming_the_field(
    club: Any, cast: Any, api_client: Any, loaded: dict[str, int], query: str, field: str
) -> None:
    response = api_client(cast["mia"]).get(url(club, loaded["dave"]) + "?" + query)
    assert response.status_code == 400
    assert field in str(response.json())


def test_the_with_filter_keeps_only_rounds_with_that_co_player(
    club: Any, cast: Any, api_client: Any, loaded: dict[str, int], upload: Any
) -> None:
    from analysis import services
    from records.models import Player

    doc = {**CORPUS["third_win_ends_round_chengdu"], "players": ["dave", "erin", "fay", "gus"]}
    services.verify_match(match_id=upload(doc).pk)
    dave = loaded["dave"]
    alice = Player.objects.get(club=club, handle="alice").pk
    client = api_client(cast["mia"])
    assert client.get(url(club, dave)).json()["stats"]["rounds"] == 3
    assert client.get(url(club, dave) + f"?with={alice}").json()["stats"]["rounds"] == 2


def test_the_leaderboard_ranks_by_any_stat_with_percentiles(
    club: Any, cast: Any, api_client: Any, loaded: dict[str, int]
) -> None:
    client = api_client(cast["mia"])
    body = client.get(f"/api/v1/clubs/{club.pk}/leaderboard/?stat=net&min_rounds=1").json()
    nets = [row["value"] for row in body["players"]]
    assert nets == sorted(nets, reverse=True)
    assert body["players"][0]["percentile"] == 75.0
    assert body["players"][-1]["percentile"] == 0.0
    asc = client.get(
        f"/api/v1/clubs/{club.pk}/leaderboard/?stat=deal_in_rate&min_rounds=1&order=asc"
    ).json()["players"]
    assert asc[0]["value"] == min(row["value"] for row in asc)
    bad = client.get(f"/api/v1/clubs/{club.pk}/leaderboard/?stat=luck")
    assert bad.status_code == 400 and "stat" in str(bad.json())
    few = client.get(f"/api/v1/clubs/{club.pk}/leaderboard/?min_rounds=3").json()
    assert few["players"] == []


def test_both_endpoints_export_csv(
    club: Any, cast: Any, api_client: Any, loaded: dict[str, int]
) -> None:
    client = api_client(cast["mia"])
    response = client.get(url(club, loaded["bob"]) + "?export=csv")
    assert response["Content-Type"].startswith("text/csv")
    rows = {r["key"]: r for r in csv.DictReader(io.StringIO(body_of(response)))}
    assert rows["robbed_kongs"]["value"] == "1"
    assert rows["win_rate"]["denominator"] == "2"
    board = client.get(f"/api/v1/clubs/{club.pk}/leaderboard/?stat=wins&min_rounds=0&export=csv")
    table = list(csv.DictReader(io.StringIO(body_of(board))))
    assert [r["rank"] for r in table] == ["1", "2", "3", "4"]


def test_the_schema_documents_both_endpoints(cast: Any, api_client: Any) -> None:
    schema = api_client(cast["mia"]).get("/api/v1/schema/?format=json").json()
    assert "/api/v1/clubs/{club_id}/players/{player_id}/stats/" in schema["paths"]
    params = {
        p["name"]
        for p in schema["paths"]["/api/v1/clubs/{club_id}/leaderboard/"]["get"]["parameters"]
    }
    assert {"stat", "min_rounds", "from", "to", "with", "ruleset", "include_illegal"} <= params


def test_the_leaderboard_sees_a_new_verification_at_once(
    club: Any, cast: Any, api_client: Any, loaded: dict[str, int], upload: Any
) -> None:
    from analysis import services

    client = api_client(cast["mia"])
    board = f"/api/v1/clubs/{club.pk}/leaderboard/?stat=rounds&min_rounds=0"
    before = {r["handle"]: r["value"] for r in client.get(board).json()["players"]}
    services.verify_match(match_id=upload(CORPUS["third_win_ends_round_chengdu"]).pk)
    after = {r["handle"]: r["value"] for r in client.get(board).json()["players"]}
    assert after == {handle: n + 1 for handle, n in before.items()}
