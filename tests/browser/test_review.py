"""The match review in Chromium: from the match page the worst decision opens in one
click; the match page (score chart, review summary) and the report fit a phone and a
desktop in both languages."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.conftest import ARTEFACTS
from tests.browser.test_phone import WIDE

pytestmark = pytest.mark.browser



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
    assert re.search(
        rf"/clubs/{club.pk}/matches/{reviewed}/rounds/{worst['round'] + 1}/"
        rf"\?step={worst['event'] + 1}&review=1$", page.url), page.url
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
    chart = page.locator("svg.score-chart").bounding_box()
    assert chart is not None and chart["width"] <= width
    tag = f"{language}-{width}"
    page.locator("#review").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTEFACTS / f"review-match-{tag}.png"), full_page=True)
    page.goto(page.url + "review/")
    page.wait_for_load_state("load")
    assert page.locator("table.review-worst tr.worst").count() > 0
    assert page.evaluate(WIDE) == []
    page.screenshot(path=str(ARTEFACTS / f"review-report-{tag}.png"), full_page=True)
    assert page.errors == []
