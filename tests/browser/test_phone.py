"""The site's main pages on a 390 px phone: none scrolls sideways, in either language."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from tests.records.documents import data_documents

pytestmark = pytest.mark.browser

CORPUS = data_documents()
WIDE = """() => document.documentElement.scrollWidth <= innerWidth ? [] :
    [...document.querySelectorAll('main *')]
      .filter(e => e.getBoundingClientRect().right > innerWidth + 1)
      .map(e => e.tagName + '.' + e.getAttribute('class'))"""


@pytest.fixture
def league(club: Any, cast: Any, upload: Any) -> dict[str, int]:
    """Two verified matches in a season: the league pages have rows to show."""
    from analysis import services
    from analysis.league import services as league_services
    from records.models import Player

    season = league_services.save_season(
        club=club, by=cast["adam"], name="Autumn 2026", starts_on=date(2000, 1, 1),
        ends_on=date(2099, 12, 31), ruleset="chengdu", point_value="0.5")
    matches = []
    for name in ("kong_discard_won_call_transfer_online", "multiple_win_two_winners_chengdu"):
        match = upload(CORPUS[name])
        services.verify_match(match_id=match.pk)
        league_services.assign_match(season=season, match=match, by=cast["adam"])
        matches.append(match.pk)
    player = Player.objects.get(club=club, handle="bob").pk
    return {"season": season.pk, "match": matches[0], "player": player}


@pytest.mark.parametrize("language", ["en", "zh-Hans"])
def test_no_main_page_scrolls_sideways_on_a_phone(
    visit: Any, club: Any, league: dict[str, int], language: str
) -> None:
    c, s, m, p = club.pk, league["season"], league["match"], league["player"]
    urls = [
        f"/clubs/{c}/", f"/clubs/{c}/matches/{m}/", f"/clubs/{c}/matches/{m}/rounds/1/#step=end",
        f"/clubs/{c}/seasons/", f"/clubs/{c}/seasons/{s}/", f"/clubs/{c}/ledger/?season={s}",
        f"/clubs/{c}/ratings/", f"/clubs/{c}/ratings/{p}/", f"/clubs/{c}/players/{p}/stats/",
        f"/clubs/{c}/leaderboard/?min_rounds=0",
    ]
    page = visit("mia", urls[0], width=390, language=language)
    for url in urls:
        page.goto(page.url.split("/clubs/")[0] + url)
        page.wait_for_load_state("load")
        assert page.evaluate(WIDE) == [], url
    assert page.errors == []


STACKED = """() => [...document.querySelectorAll('main form[method=get] label')].map(label => {
    const box = label.getBoundingClientRect();
    const field = label.querySelector('input, select').getBoundingClientRect();
    return {label: label.textContent.trim(), below: field.top - box.top,
            aligned: Math.abs(field.left - box.left) <= 1};
})"""


@pytest.mark.parametrize("language", ["en", "zh-Hans"])
def test_the_ledger_form_puts_each_label_above_its_field_on_a_phone(
    visit: Any, club: Any, league: dict[str, int], language: str
) -> None:
    page = visit("adam", f"/clubs/{club.pk}/ledger/?season={league['season']}", width=390,
                 language=language)
    page.wait_for_load_state("load")
    fields = page.evaluate(STACKED)
    assert len(fields) == 4
    assert all(f["aligned"] and f["below"] >= 10 for f in fields), fields
