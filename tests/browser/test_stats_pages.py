"""The statistics pages in a real browser: nothing wider than a phone, labels translated."""

from __future__ import annotations

from typing import Any

import pytest

from tests.records.documents import data_documents

pytestmark = pytest.mark.browser

CORPUS = data_documents()
HEADLINE = {"en": ["Rounds", "Net", "Net per round", "Win rate"],
            "zh-Hans": ["局数", "净分", "每局净分", "胡牌率"]}


@pytest.fixture
def player(club: Any, upload: Any) -> int:
    """Bob, after two verified matches (every chart has something to draw)."""
    from analysis import services
    from records.models import Player

    for name in ("kong_discard_won_call_transfer_online", "multiple_win_two_winners_chengdu"):
        services.verify_match(match_id=upload(CORPUS[name]).pk)
    return Player.objects.get(club=club, handle="bob").pk


def _overflow(page: Any) -> list[str]:
    """What sticks out on the right of the window (empty when the page does not scroll
    sideways)."""
    return page.evaluate("""() => document.documentElement.scrollWidth <= innerWidth ? [] :
        [...document.querySelectorAll('main *')]
          .filter(e => e.getBoundingClientRect().right > innerWidth + 1)
          .map(e => e.tagName + '.' + e.getAttribute('class'))""")


@pytest.mark.parametrize("language", ["en", "zh-Hans"])
def test_the_statistics_pages_fit_a_phone_and_a_desktop(
    visit: Any, club: Any, player: int, language: str
) -> None:
    urls = [f"/clubs/{club.pk}/players/{player}/stats/", f"/clubs/{club.pk}/leaderboard/",
            f"/clubs/{club.pk}/leaderboard/?stat=kong_discard_win_rate&min_rounds=0"]
    for width in (390, 1280):
        page = visit("mia", urls[0], width=width, language=language)
        for url in urls:
            page.goto(page.url.split("/clubs/")[0] + url)
            assert _overflow(page) == [], (url, width)
            charts = page.locator("svg.chart")
            for i in range(charts.count()):
                box = charts.nth(i).bounding_box()
                assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
        assert page.errors == []


@pytest.mark.parametrize("language", ["en", "zh-Hans"])
def test_the_headline_shows_translated_labels(
    visit: Any, club: Any, player: int, language: str
) -> None:
    page = visit("mia", f"/clubs/{club.pk}/players/{player}/stats/", width=390,
                 language=language)
    labels = page.locator(".headline dt").all_inner_texts()
    assert labels[:4] == HEADLINE[language]
    assert not any("_" in text for text in labels)
    review = page.locator("#headline-best_discard_rate dt").inner_text()
    assert review == {"en": "Best-discard match rate", "zh-Hans": "一致率"}[language]
    assert page.locator("html").get_attribute("lang") == language.lower()


def test_the_leaderboard_s_chooser_names_the_statistics(
    visit: Any, club: Any, player: int
) -> None:
    page = visit("mia", f"/clubs/{club.pk}/leaderboard/", language="zh-Hans")
    page.select_option("select[name=stat]", "deal_in_rate")
    page.locator("form.filters button[type=submit]").click()
    page.wait_for_url("**stat=deal_in_rate**")
    assert page.locator("th.stat-name").inner_text() == "点炮率（每局）"
    options = page.locator("select[name=stat] option").all_inner_texts()
    assert options and not any("_" in text for text in options)
