"""The statistics pages: a player's page and the club leaderboard."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.records.documents import data_documents

pytestmark = pytest.mark.django_db

CORPUS = data_documents()


@pytest.fixture
def players(club: Any, upload: Any) -> dict[str, int]:
    from analysis import services
    from records.models import Player

    for name in ("kong_discard_won_call_transfer_online", "multiple_win_two_winners_chengdu"):
        services.verify_match(match_id=upload(CORPUS[name]).pk)
    return dict(Player.objects.filter(club=club).values_list("handle", "pk"))


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_player_page_shows_charts_with_their_numbers_as_text(
    club: Any, cast: Any, players: dict[str, int]
) -> None:
    page = signed_in(cast["mia"]).get(f"/clubs/{club.pk}/players/{players['bob']}/stats/")
    assert page.status_code == 200
    html = page.content.decode()
    assert html.count("<svg") == 4  # waterfall, win order, patterns, trend
    decomposition = page.context["data"]["decomposition"]
    assert f'<th class="num">{decomposition["net"]}</th>' in html
    assert "call_transfer_out" in html and "low-sample" in html
    assert [row["handle"] for row in page.context["data"]["head_to_head"]] == [
        "alice",
        "carol",
        "dave",
    ]


def test_the_headline_shows_counts_as_counts_and_rates_with_their_sample(
    club: Any, cast: Any, players: dict[str, int]
) -> None:
    page = signed_in(cast["mia"]).get(f"/clubs/{club.pk}/players/{players['bob']}/stats/")
    headline = {row["key"]: row for row in page.context["headline"]}
    stats = page.context["data"]["stats"]
    assert headline["rounds"]["value"] == stats["rounds"]
    assert "denominator" not in headline["rounds"]
    rate = stats["win_rate"]
    assert (headline["win_rate"]["numerator"], headline["win_rate"]["denominator"]) == (
        rate["numerator"], rate["denominator"]
    )
    assert f"({rate['numerator']}/{rate['denominator']})" in page.content.decode()


def test_a_bad_filter_on_the_page_is_shown_not_a_500(
    club: Any, cast: Any, players: dict[str, int]
) -> None:
    page = signed_in(cast["mia"]).get(f"/clubs/{club.pk}/players/{players['bob']}/stats/?from=soon")
    assert page.status_code == 200
    assert "from" in page.context["errors"]


def test_the_leaderboard_page_ranks_with_the_chosen_stat(
    club: Any, cast: Any, players: dict[str, int]
) -> None:
    page = signed_in(cast["mia"]).get(f"/clubs/{club.pk}/leaderboard/?stat=net&min_rounds=0")
    assert page.status_code == 200
    values = [row["value"] for row in page.context["rows"]]
    assert values == sorted(values, reverse=True) and len(values) == 4


def test_stats_pages_are_404_for_non_members(club: Any, cast: Any, players: dict[str, int]) -> None:
    outsider = signed_in(cast["nora"])
    assert outsider.get(f"/clubs/{club.pk}/players/{players['bob']}/stats/").status_code == 404
    assert outsider.get(f"/clubs/{club.pk}/leaderboard/").status_code == 404
