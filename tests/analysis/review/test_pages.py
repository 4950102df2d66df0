"""The match review's pages: the report, the match page's chart and summary, and a
player's matches sorted by 进张 lost (linked from the statistics page)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from analysis.models import Verification
from records.models import Player
from tests.records.documents import one_win_sheet, simulated

pytestmark = pytest.mark.django_db


def signed_in(user: Any, language: str = "en") -> Client:
    client = Client(headers={"accept-language": language})
    client.force_login(user)
    return client


def test_the_report_page_lists_the_worst_decisions_each_opening_its_step_with_the_review(
    club: Any, cast: Any, uploaded: Any
) -> None:
    match_id = uploaded(simulated(51, rounds=3))
    page = signed_in(cast["mia"]).get(f"/clubs/{club.pk}/matches/{match_id}/review/")
    assert page.status_code == 200
    worst = page.context["review_worst"]
    assert worst and [w["loss"] for w in worst] == sorted((w["loss"] for w in worst),
                                                          reverse=True)
    top = worst[0]
    url = (f"/clubs/{club.pk}/matches/{match_id}/rounds/{top['round'] + 1}/"
           f"?step={top['event'] + 1}&amp;review=1")
    assert url in page.content.decode()
    assert len(page.context["review_seats"]) == 4 and len(page.context["rounds"]) == 3
    # each seat's first ready turn opens its step, as the stored summary names it
    stored = Verification.objects.get(match_id=match_id).review["seats"]
    for seat, shown in zip(stored, page.context["review_seats"], strict=True):
        ready = seat["first_ready"]
        if ready:
            assert shown["first_ready"]["url"].endswith(
                f"/rounds/{ready['round'] + 1}/?step={ready['event'] + 1}&review=1")


def test_the_report_page_is_for_members_only(club: Any, cast: Any, uploaded: Any) -> None:
    match_id = uploaded(simulated(52, rounds=1))
    assert signed_in(cast["nora"]).get(
        f"/clubs/{club.pk}/matches/{match_id}/review/").status_code == 404


def test_a_report_not_reviewed_yet_says_so_and_refreshes_itself(
    club: Any, cast: Any, uploaded: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    match_id = uploaded(simulated(53, rounds=1))
    Verification.objects.filter(match_id=match_id).update(review=None)
    monkeypatch.setattr("analysis.review.services.review_match.delay", lambda m: None)
    html = signed_in(cast["mia"]).get(
        f"/clubs/{club.pk}/matches/{match_id}/review/").content.decode()
    assert 'id="review-status"' in html and 'http-equiv="refresh"' in html


def test_the_match_page_shows_a_score_line_per_player_and_each_seats_review(
    club: Any, cast: Any, uploaded: Any
) -> None:
    doc = simulated(54, rounds=3)
    match_id = uploaded(doc)
    page = signed_in(cast["mia"]).get(f"/clubs/{club.pk}/matches/{match_id}/")
    html = page.content.decode()
    assert html.count("<polyline") == 4 and 'class="chart score-chart"' in html
    totals = Verification.objects.get(match_id=match_id).totals
    assert [row["total"] for row in page.context["score_legend"]] == totals
    assert [row["name"] for row in page.context["score_legend"]] == doc["players"]
    assert len(re.findall(r'<tr class="review-seat"', html)) == 4
    assert f"/clubs/{club.pk}/matches/{match_id}/review/" in html
    worst = page.context["review_worst"]
    if worst:
        assert "?step=" in html and "review=1" in html


def test_the_match_page_in_chinese_names_the_review_in_chinese(
    club: Any, cast: Any, uploaded: Any
) -> None:
    match_id = uploaded(simulated(55, rounds=2))
    html = signed_in(cast["mia"], "zh-hans").get(
        f"/clubs/{club.pk}/matches/{match_id}/").content.decode()
    assert "决策复盘" in html and "最差的决策" in html
    assert "Worst decisions" not in html and "Best or as good" not in html


def test_a_players_matches_are_sorted_by_ukeire_lost_and_paginated(
    club: Any, cast: Any, uploaded: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from analysis.review import pages

    monkeypatch.setattr(pages, "PAGE_SIZE", 2)
    ids = [uploaded(simulated(seed, rounds=2)) for seed in (56, 57, 58)]
    player = Player.objects.get(club=club, handle="frank")  # plays in all three
    client = signed_in(cast["mia"])
    first = client.get(f"/clubs/{club.pk}/players/{player.pk}/review/")
    second = client.get(f"/clubs/{club.pk}/players/{player.pk}/review/?page=2")
    rows = [*first.context["rows"], *second.context["rows"]]
    assert sorted(r["match"] for r in rows) == sorted(ids)
    assert [r["lost"] for r in rows] == sorted((r["lost"] for r in rows), reverse=True)
    for row in rows:  # the per-round columns sum to the stored summary
        seat = Verification.objects.get(match_id=row["match"]).review["seats"][row["seat"]]
        assert row["lost"] == seat["ukeire_lost"]
        assert f"/clubs/{club.pk}/matches/{row['match']}/review/" in (
            first.content.decode() + second.content.decode())
    assert signed_in(cast["nora"]).get(
        f"/clubs/{club.pk}/players/{player.pk}/review/").status_code == 404


def test_the_statistics_page_links_its_review_figures_to_the_players_matches(
    club: Any, cast: Any, uploaded: Any
) -> None:
    doc = simulated(59, rounds=2)
    uploaded(doc)
    player = Player.objects.get(club=club, handle=doc["players"][1])
    html = signed_in(cast["mia"]).get(
        f"/clubs/{club.pk}/players/{player.pk}/stats/").content.decode()
    link = f'href="/clubs/{club.pk}/players/{player.pk}/review/"'
    # the headline's two review figures, the table's two and the line above the charts
    assert html.count(link) == 5


def test_a_score_sheets_match_page_shows_its_chart_but_no_review(
    club: Any, cast: Any, uploaded: Any
) -> None:
    match_id = uploaded(one_win_sheet())
    html = signed_in(cast["mia"]).get(f"/clubs/{club.pk}/matches/{match_id}/").content.decode()
    assert html.count("<polyline") == 4
    assert 'id="review"' not in html and 'http-equiv="refresh"' not in html


def test_the_match_page_shows_the_worst_decisions_stored_with_the_review_replaying_nothing(
    club: Any, cast: Any, uploaded: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A match page's first view (the cache cold) used to replay the whole match's review
    for its three worst decisions; they are stored with the review, and equal to what the
    report computes."""
    from django.core.cache import cache

    match_id = uploaded(simulated(60, rounds=3))
    client = signed_in(cast["mia"])
    report = client.get(f"/clubs/{club.pk}/matches/{match_id}/review/").context
    cache.clear()

    def replayed(*args: Any) -> Any:
        raise AssertionError("the match page replayed the review")

    monkeypatch.setattr("analysis.review.selectors.review_document", replayed)
    page = client.get(f"/clubs/{club.pk}/matches/{match_id}/").context
    assert page["review_worst"] == report["review_worst"][:3]
    assert [s["worst"] for s in page["review_seats"]] == [
        s["worst"] for s in report["review_seats"]]
    assert page["review_more"] == report["review_more"] + len(report["review_worst"]) - 3
