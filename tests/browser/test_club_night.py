"""A club night in a real browser: the score sheet at the table on a phone (players from the
roster, tiles from the keypad, the next dealer from the engine, kept across a reload, saved),
a correction made on the page showing in the history with its reason, and the night's
pages at phone and desktop width in both languages."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.conftest import ARTEFACTS

pytestmark = pytest.mark.browser

PLAYERS = ("ann", "ben", "cai", "dan")
WIDE = """() => document.documentElement.scrollWidth <= innerWidth ? [] :
    [...document.querySelectorAll('main *')]
      .filter(e => e.getBoundingClientRect().right > innerWidth + 1)
      .map(e => e.tagName + '.' + e.getAttribute('class'))"""
#: headers and buttons wrapped one character a line (e.g. 昵/称 in a narrow column)
CHOPPED = """() => [...document.querySelectorAll('main th, main button, main .button')]
    .filter(e => {
      const text = e.textContent.trim();
      if (text.length < 2 || e.offsetParent === null) return false;
      const range = document.createRange();
      range.selectNodeContents(e);
      const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
      return lines.size >= text.length;
    }).map(e => e.textContent.trim())"""


@pytest.fixture
def roster(club: Any) -> list[Any]:
    from records.models import Player

    club.time_zone = "Asia/Shanghai"  # a Chengdu club: the sheet's time is entered in UTC+8
    club.save(update_fields=["time_zone"])
    return [Player.objects.create(club=club, handle=h) for h in PLAYERS]


def _players(page: Any) -> None:
    for seat, name in enumerate(PLAYERS):
        page.select_option(f"select[name=player{seat}]", name)


def _round(page: Any, number: int) -> Any:
    return page.locator(f'section.sheet-round[data-round="{number - 1}"]')


WORDS = {
    "en": {"win": "+ Win", "winner": "Winner", "from": "On whose discard", "done": "Done",
           "same": "Same discard as the win before (several wins)"},
    "zh-Hans": {"win": "+ 胡牌", "winner": "胡牌者", "from": "点炮者", "done": "完成",
                "same": "与上一次胡牌是同一张牌（一炮多响）"},
}


def _win(page: Any, number: int, winner: str, tile: str, *, on: str | None = None,
         same_discard: bool = False, language: str = "en", shot: str = "") -> None:
    words = WORDS[language]
    _round(page, number).get_by_role("button", name=words["win"]).click()
    editor = _round(page, number).locator(".editor")
    editor.get_by_role("group", name=words["winner"]).get_by_role("button", name=winner).click()
    if on:
        editor = _round(page, number).locator(".editor")
        editor.get_by_role("group", name=words["from"]).get_by_role("button", name=on).click()
    _round(page, number).locator(".editor").locator(f'button.tile-key[data-tile="{tile}"]').click()
    _round(page, number).locator(".editor select[name=pattern]").select_option("ping_hu")
    if same_discard:
        _round(page, number).locator(".editor").get_by_label(words["same"]).check()
    if shot:  # the editor open, keypad and all, to look at
        ARTEFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTEFACTS / shot), full_page=True)
    _round(page, number).get_by_role("button", name=words["done"]).click()


def test_a_two_round_sheet_is_entered_on_a_phone_with_the_keypad_and_saved(
    visit: Any, club: Any, roster: list[Any]
) -> None:
    from records.models import Match

    page = visit("mia", f"/clubs/{club.pk}/sheets/new/", width=390)
    page.locator("#sheet-app").wait_for()
    _players(page)
    # round 1: ben and cai both win on dan's discard (一炮多响): dan deals next
    _win(page, 1, "ben", "5m", on="dan")
    _win(page, 1, "cai", "5m", on="dan", same_discard=True, shot="sheet-keypad-phone-en.png")
    _round(page, 1).locator(".round-preview").get_by_text("After round 1").wait_for()
    page.get_by_role("button", name="+ Next round").click()
    dealer = _round(page, 2).get_by_role("group", name="Dealer")
    dealer.locator('button[aria-pressed="true"]', has_text="dan").wait_for()
    assert "several on dan's discard" in _round(page, 2).locator(".rule").inner_text()
    # the form is kept: a reload brings it back
    page.reload()
    page.get_by_text("Restored the sheet you were entering").wait_for()
    _win(page, 2, "ann", "9s")
    _round(page, 2).locator(".round-preview").get_by_text("ben → ann 1").wait_for()
    page.locator("#sheet-problems").get_by_text("Everything on the sheet adds up.").wait_for()
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / "sheet-phone-en.png"), full_page=True)
    assert page.evaluate(WIDE) == []
    page.get_by_role("button", name="Save as a match").click()
    page.wait_for_url(re.compile(r".*/clubs/\d+/matches/\d+/$"))
    doc = Match.objects.get().document
    assert doc["players"] == list(PLAYERS)
    assert [r["dealer"] for r in doc["rounds"]] == [0, 3]
    assert doc["rounds"][0]["events"] == [
        {"type": "win", "seat": 1, "from": 3, "tile": "5m", "pattern": "ping_hu"},
        {"type": "win", "seat": 2, "from": 3, "tile": "5m", "pattern": "ping_hu",
         "with_previous": True}]
    assert doc["rounds"][1]["events"] == [
        {"type": "win", "seat": 0, "tile": "9s", "pattern": "ping_hu"}]
    assert doc["played_at"].endswith("+08:00")
    assert page.evaluate("localStorage.length") == 0 and page.errors == []


def test_a_sheet_with_a_problem_is_saved_only_when_asked_twice(
    visit: Any, club: Any, roster: list[Any]
) -> None:
    from records.models import Match

    page = visit("mia", f"/clubs/{club.pk}/sheets/new/", width=390, language="zh-Hans")
    page.locator("#sheet-app").wait_for()
    page.get_by_role("button", name="保存为比赛").click()
    page.locator(".save-area .problems").get_by_text("东：请选择玩家。").wait_for()
    _players(page)
    # ben self-draws, then cai is entered as winning "on the same discard": no such discard
    _win(page, 1, "ben", "2p", language="zh-Hans")
    _win(page, 1, "cai", "2p", on="dan", same_discard=True, language="zh-Hans")
    page.locator("#sheet-problems li.finding").first.wait_for()
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / "sheet-phone-zh.png"), full_page=True)
    page.get_by_role("button", name="保存为比赛").click()
    page.get_by_role("button", name="仍然保存").wait_for()
    assert not Match.objects.exists()
    page.get_by_role("button", name="仍然保存").click()
    page.wait_for_url(re.compile(r".*/clubs/\d+/matches/\d+/$"))
    assert Match.objects.get().document["rounds"][0]["events"][1]["with_previous"] is True
    # the refused saves answered 400 and 409, as they should; nothing else went wrong
    refused = ("status of 400 (Bad Request)", "status of 409 (Conflict)")
    assert [e for e in page.errors if not e.endswith(refused)] == []


def test_a_correction_made_on_the_page_shows_in_the_history_with_its_reason(
    visit: Any, club: Any, roster: list[Any]
) -> None:
    from tests.analysis.league.data import settled_match, win

    match = settled_match(club, PLAYERS, [win(0, 1, 8)])
    page = visit("adam", f"/clubs/{club.pk}/matches/{match.pk}/history/", width=390)
    page.get_by_text("Who sat where").click()
    form = page.locator("details.correction").first
    form.locator("input[name=new0]").fill("erin")
    form.locator("input[name=reason]").fill("erin played East, not ann")
    form.get_by_role("button", name="Save the seats").click()
    row = page.locator("table.history tr.change", has_text="erin played East, not ann")
    row.wait_for()
    assert "East: ann → erin" in row.inner_text() and "adam" in row.inner_text()
    assert page.locator("table.history tr.change", has_text="erin played East").count() == 1
    assert page.errors == []


def test_a_night_is_started_seated_and_its_tables_open_their_sheets(
    visit: Any, club: Any, roster: list[Any]
) -> None:
    from records.models import Player

    for h in ("eve", "fay", "gus", "hal", "ivy"):
        Player.objects.create(club=club, handle=h)
    page = visit("adam", f"/clubs/{club.pk}/nights/", width=390)
    for box in page.locator("fieldset.roster input[type=checkbox]").all():
        box.check()
    page.locator("input[name=rounds]").fill("3")
    page.get_by_role("button", name="Start the night").click()
    page.get_by_role("heading", name="Round 3").wait_for()
    assert page.locator("li.seat-table").count() == 6
    assert page.get_by_text("Sitting out:").count() == 3
    page.get_by_role("link", name="Enter its score sheet").first.click()
    page.locator("#sheet-app").wait_for()
    chosen = [page.locator(f"select[name=player{i}]").input_value() for i in range(4)]
    assert all(chosen) and len(set(chosen)) == 4
    assert page.errors == []


PAGES = {
    "home": "/clubs/{c}/",
    "night": "/clubs/{c}/nights/{n}/",
    "seating": "/clubs/{c}/nights/{n}/seating/",
    "nights": "/clubs/{c}/nights/",
    "sheet": "/clubs/{c}/sheets/new/?night={n}&round=0&table=0",
    "history": "/clubs/{c}/matches/{m}/history/",
    "players": "/clubs/{c}/players/",
}


@pytest.mark.parametrize("language", ["en", "zh-Hans"])
def test_the_night_s_pages_fit_a_phone_and_a_desktop_in_both_languages(
    visit: Any, club: Any, cast: Any, language: str
) -> None:
    from analysis.league.nights import services
    from records.models import Player
    from tests.analysis.league.data import settled_match, tsumo, win

    people = [Player.objects.create(club=club, handle=h).pk
              for h in ("ann", "ben", "cai", "dan", "eve", "fay", "gus", "hal", "ivy")]
    Player.objects.filter(handle="ben").update(user=cast["adam"])
    match = settled_match(club, ("ann", "ben", "cai", "dan"), [win(0, 1, 8), tsumo(2, 4)])
    night = services.create_night(club=club, by=cast["adam"], matches=[match.pk],
                                  players=people, point_value=None)
    services.seat_night(night, players=people, rounds=3, seed=1, by=cast["adam"])
    page = visit("adam", "/clubs/", language=language)
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    for width, label in ((390, "phone"), (1280, "desktop")):
        page.set_viewport_size({"width": width, "height": 900})
        for name, url in PAGES.items():
            page.goto(page.url.split("/clubs/")[0] + url.format(c=club.pk, n=night.pk,
                                                                 m=match.pk))
            page.wait_for_load_state("load")
            if name == "sheet":
                page.locator("#sheet-app").wait_for()
            page.screenshot(path=str(ARTEFACTS / f"night-{name}-{label}-{language}.png"),
                            full_page=True)
            assert page.evaluate(WIDE) == [], (name, width)
            assert page.evaluate(CHOPPED) == [], (name, width)
    assert page.errors == []
