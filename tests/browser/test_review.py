"""The match review in Chromium: from the match page the worst decision opens in one
click; the match page (score chart, review summary) and the report fit a phone and a
desktop in both languages."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.browser.conftest import ARTEFACTS
from tests.browser.test_every_page import TEXT, _chinese, _latin
from tests.browser.test_phone import WIDE

pytestmark = pytest.mark.browser



def between(page: Any, first: str, last: str) -> dict[str, float]:
    """The page's band from the top of ``first`` to the bottom of ``last`` (a screenshot
    of the part under test, for a look and for the README)."""
    top, bottom = page.locator(first).first, page.locator(last).first
    a, b = top.bounding_box(), bottom.bounding_box()
    scroll = page.evaluate("() => scrollY")
    width = page.evaluate("() => document.documentElement.clientWidth")
    return {"x": 0, "y": a["y"] + scroll - 8, "width": width,
            "height": b["y"] + b["height"] - a["y"] + 16}


def words_of_the_other_language(page: Any, language: str) -> list[str]:
    """Latin words on a Chinese page, Chinese on an English one (test_every_page's rules;
    the names and match ids are the simulator's)."""
    from records.models import Match, Player

    names = set(Player.objects.values_list("handle", flat=True)) | {"Chengdu Tuesday", "mia"}
    names |= {m for m in Match.objects.values_list("source_match_id", flat=True) if m}
    text = page.evaluate(TEXT)
    return _latin(text, names) if language.startswith("zh") else _chinese(text)


@pytest.fixture
def reviewed(club: Any, upload: Any) -> int:
    """A simulated match of four rounds, verified and its review stored."""
    from analysis import services
    from xuezhan.sim.simulate import simulate_match

    match = upload(simulate_match(61, 4))
    services.verify_match(match_id=match.pk)
    services.store_review(match_id=match.pk)
    return int(match.pk)


def test_the_worst_decision_opens_from_the_match_page_in_one_click(
    visit: Any, club: Any, reviewed: int
) -> None:
    page = visit("mia", f"/clubs/{club.pk}/matches/{reviewed}/")
    body = page.request.get(
        page.url.split("/clubs/")[0] + f"/api/v1/clubs/{club.pk}/matches/{reviewed}/review/"
    ).json()
    worst = body["worst"][0]
    assert worst["verdict"] in ("worse", "void_held") and worst["loss"] > 0
    page.locator("table.review-worst a.worst-link").first.click()
    page.wait_for_load_state("load")
    # the viewer may add its own #step= fragment: the path and the query are the link's
    url = urlsplit(page.url)
    assert url.path == f"/clubs/{club.pk}/matches/{reviewed}/rounds/{worst['round'] + 1}/"
    assert parse_qs(url.query) == {"step": [str(worst["event"] + 1)], "review": ["1"]}
    assert page.errors == []


@pytest.mark.parametrize("language", ["en", "zh-Hans"])
@pytest.mark.parametrize("width", [390, 1280])
def test_the_match_page_and_the_report_fit_the_screen(
    visit: Any, club: Any, reviewed: int, language: str, width: int
) -> None:
    page = visit("mia", f"/clubs/{club.pk}/matches/{reviewed}/", width=width,
                 language=language)
    assert page.locator("svg.score-chart polyline").count() == 4
    assert page.locator("ul.legend li").count() == 4
    assert page.locator("tr.review-seat").count() == 4
    assert page.evaluate(WIDE) == []
    assert words_of_the_other_language(page, language) == []
    chart = page.locator("svg.score-chart").bounding_box()
    assert chart is not None and chart["width"] <= width
    tag = f"{language}-{width}"
    page.screenshot(path=str(ARTEFACTS / f"review-match-{tag}.png"), full_page=True,
                    clip=between(page, "#totals", "#review-more"))
    page.goto(page.url + "review/")
    page.wait_for_load_state("load")
    assert page.locator("table.review-worst tr.worst").count() > 0
    assert page.evaluate(WIDE) == []
    assert words_of_the_other_language(page, language) == []
    page.screenshot(path=str(ARTEFACTS / f"review-report-{tag}.png"), full_page=True,
                    clip=between(page, "h1", "table.review-worst"))
    assert page.errors == []


def test_the_statistics_review_figure_leads_to_the_players_matches_and_their_reports(
    visit: Any, club: Any, reviewed: int
) -> None:
    from records.models import Player

    player = Player.objects.filter(club=club).order_by("handle").first()
    assert player is not None
    page = visit("mia", f"/clubs/{club.pk}/players/{player.pk}/stats/", width=390,
                 language="zh-Hans")
    page.locator("#headline-best_discard_rate a.review-link").click()
    page.wait_for_load_state("load")
    assert page.url.endswith(f"/clubs/{club.pk}/players/{player.pk}/review/")
    assert page.locator("tr.review-match").count() == 1
    assert page.evaluate(WIDE) == []
    assert words_of_the_other_language(page, "zh-Hans") == []
    page.screenshot(path=str(ARTEFACTS / "review-player-zh-Hans-390.png"), full_page=True)
    page.locator("tr.review-match a").first.click()
    page.wait_for_load_state("load")
    assert page.url.endswith(f"/clubs/{club.pk}/matches/{reviewed}/review/")
    assert page.errors == []
