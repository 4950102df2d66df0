"""The viewer as a table (docs/board.md): seats around the table from the viewing seat,
winners' hands at the end, no one to act after the last event, "next mistake" on the
review's own list, tile faces, swipes on a phone."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from tests.records.documents import DATA

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "browser" / "board"


@pytest.fixture
def verified(club: Any, upload: Any) -> Any:
    """``verified(name)``: the test log ``name`` uploaded and verified, its Match returned."""
    from analysis import services

    def do(name: str) -> Any:
        match = upload(json.loads((DATA / name).read_text()))
        services.verify_match(match_id=match.pk)
        match.refresh_from_db()
        return match

    return do


def _step(page: Any) -> int:
    return int(re.search(r"#step=(\d+)", page.url)[1])  # type: ignore[index]


def _reaches(page: Any, step: int) -> bool:
    page.wait_for_function(
        "n => (location.hash.match(/step=(\\d+)/) || [])[1] == n", arg=step, timeout=5000)
    return _step(page) == step


def _places(page: Any) -> dict[str, int]:
    """Which seat sits where, as drawn: the box lowest on the page is the bottom one."""
    boxes = {seat: page.locator(f'.seat[data-seat="{seat}"]').bounding_box() for seat in range(4)}
    centre = {s: (b["x"] + b["width"] / 2, b["y"] + b["height"] / 2) for s, b in boxes.items()}
    return {
        "bottom": max(centre, key=lambda s: centre[s][1]),
        "top": min(centre, key=lambda s: centre[s][1]),
        "left": min(centre, key=lambda s: centre[s][0]),
        "right": max(centre, key=lambda s: centre[s][0]),
    }


@pytest.mark.parametrize("width", [1280, 390])
def test_the_viewing_seat_sits_at_the_bottom_and_the_others_in_turn_order(
    visit: Any, club: Any, verified: Any, width: int
) -> None:
    match = verified("rob_kong_chengdu.json")
    page = visit("mia", f"/clubs/{club.pk}/matches/{match.pk}/rounds/1/#step=3", width=width)
    # everyone's hands: seat 0 at the bottom, 下家 (seat 1) right, 对家 top, 上家 left
    assert _places(page) == {"bottom": 0, "right": 1, "top": 2, "left": 3}
    page.select_option("#see-as", "2")
    assert _places(page) == {"bottom": 2, "right": 3, "top": 0, "left": 1}
    bottom = page.locator('.seat[data-place="bottom"]')
    assert bottom.get_attribute("data-seat") == "2"
    assert bottom.locator(".hand .tile.back").count() == 0 < bottom.locator(".hand .tile").count()
    page.select_option("#see-as", "1")
    assert _places(page)["bottom"] == 1
    assert page.errors == []


def test_winners_hands_show_at_the_end_under_see_as(visit: Any, club: Any, verified: Any) -> None:
    from xuezhan.replay import replay_frames

    match = verified("multiple_win_two_winners_chengdu.json")
    final = replay_frames(match.document, 0)[-1]
    loser = next(s for s in range(4) if not final["won"][s])
    page = visit("mia", f"/clubs/{club.pk}/matches/{match.pk}/rounds/1/#step=end")
    page.select_option("#see-as", str(loser))
    for seat in range(4):
        hand = page.locator(f'.seat[data-seat="{seat}"] .hand')
        if final["won"][seat]:
            assert hand.locator(".tile.back").count() == 0 < hand.locator(".tile").count()
            assert hand.locator(".tile.winning").count() == 1
    page.locator("#first").click()  # before anyone won, the others' hands are face down
    assert _reaches(page, 0)
    other = next(s for s in range(4) if s != loser)
    hand = page.locator(f'.seat[data-seat="{other}"] .hand')
    assert hand.locator(".tile.back").count() == hand.locator(".tile").count() > 0


@pytest.mark.parametrize("name", ["third_win_ends_round_chengdu.json",
                                  "multiple_win_three_winners_chengdu.json",
                                  "drawn_round_pig_ting_check_refund_chengdu.json"])
def test_no_one_is_marked_to_act_after_the_last_event(
    visit: Any, club: Any, verified: Any, name: str
) -> None:
    match = verified(name)
    page = visit("mia", f"/clubs/{club.pk}/matches/{match.pk}/rounds/1/")
    page.keyboard.press("ArrowRight")
    assert _reaches(page, 1) and page.locator(".seat.to-act").count() == 1
    page.keyboard.press("End")
    assert page.locator("#settlement").is_visible()
    assert page.locator(".seat.to-act").count() == 0
    assert page.locator(".badge.to-act").count() == 0


def test_next_mistake_lands_on_a_step_the_review_lists_as_worse(
    visit: Any, club: Any, verified: Any
) -> None:
    match = verified("rob_kong_chengdu.json")
    page = visit("mia", f"/clubs/{club.pk}/matches/{match.pk}/rounds/1/")
    url = page.evaluate("JSON.parse(document.getElementById('viewer-data').textContent).review_url")
    decisions = page.evaluate("u => fetch(u).then(r => r.json())", url)["decisions"]
    worse = sorted({d["event"] + 1 for d in decisions if d["verdict"] in ("worse", "void_held")})
    assert len(worse) >= 2
    button = page.locator("#next-mistake")
    page.wait_for_function("() => !document.getElementById('next-mistake').disabled")
    assert page.locator(".timeline .tick.mark-mistake").count() == len(worse)
    assert page.locator("#step-list li.mark-mistake").count() == len(worse)
    button.click()
    assert _reaches(page, worse[0])
    button.click()
    assert _reaches(page, worse[1])
    page.keyboard.press("[")
    assert _reaches(page, worse[0])
    page.keyboard.press("]")
    assert _reaches(page, worse[1])
    # under "see as" only that seat's mistakes count
    seat = next(d["seat"] for d in decisions if d["verdict"] == "worse")
    own = sorted({d["event"] + 1 for d in decisions
                  if d["verdict"] in ("worse", "void_held") and d["seat"] == seat})
    page.select_option("#see-as", str(seat))
    page.locator("#first").click()
    button.click()
    assert _reaches(page, own[0])
    assert page.errors == []


def test_a_review_link_opens_at_its_step_with_the_panel_saying_what_was_best(
    visit: Any, club: Any, verified: Any
) -> None:
    from xuezhan.review import review_round

    match = verified("rob_kong_chengdu.json")
    worst = max(review_round(match.document, 0).to_json()["decisions"], key=lambda d: d["loss"])
    step = worst["event"] + 1
    page = visit("mia", f"/clubs/{club.pk}/matches/{match.pk}/rounds/1/?step={step}&review=1",
                 language="zh-Hans")
    assert _reaches(page, step)
    panel = page.locator("#step-review")
    panel.locator(f".decision.verdict-{worst['verdict']}").first.wait_for()
    text = panel.inner_text()
    assert "最佳：" in text and f"比最佳少 {worst['loss']} 张未见进张" in text
    assert "向听" in text or "shanten" not in text.lower()


def test_tiles_have_drawn_faces_and_names(visit: Any, club: Any, verified: Any) -> None:
    match = verified("rob_kong_chengdu.json")
    page = visit("mia", f"/clubs/{club.pk}/matches/{match.pk}/rounds/1/#step=end",
                 language="zh-Hans")
    page.wait_for_function("() => document.documentElement.classList.contains('tile-faces')")
    tile = page.locator('.seat[data-seat="0"] .hand .tile').first
    assert re.fullmatch("[一二三四五六七八九][万筒条]", tile.get_attribute("aria-label") or "")
    assert tile.locator("svg.face use").count() == 1 and tile.locator("b").is_hidden()
    assert page.locator(".meld .turned .tile.claimed").count() >= 1  # the peng's claimed tile
    box = page.locator(".meld .turned").first.bounding_box()
    assert box["width"] > box["height"]  # lies sideways


def test_a_swipe_on_a_phone_steps(visit: Any, club: Any, verified: Any) -> None:
    match = verified("rob_kong_chengdu.json")
    page = visit("mia", f"/clubs/{club.pk}/matches/{match.pk}/rounds/1/#step=4", width=390)
    swipe = """dx => {
      const board = document.getElementById('board');
      const at = (type, x) => board.dispatchEvent(new PointerEvent(type,
        {pointerType: 'touch', clientX: x, clientY: 300, bubbles: true}));
      at('pointerdown', 200); at('pointerup', 200 + dx);
    }"""
    page.evaluate(swipe, -120)
    assert _reaches(page, 5)
    page.evaluate(swipe, 120)
    assert _reaches(page, 4)
    page.evaluate(swipe, 20)  # too short: a tap, not a swipe
    page.wait_for_timeout(200)
    assert _step(page) == 4
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390  # the table fits the phone
    clipped = page.evaluate("""() => [...document.querySelectorAll('.centre p, .seat header')]
      .filter(el => el.scrollWidth > el.clientWidth + 1).map(el => el.textContent)""")
    assert clipped == []


@pytest.mark.skipif(not os.environ.get("XZ_BOARD_SHOTS"), reason="screenshots on demand: "
                    "XZ_BOARD_SHOTS=1 (docs/board.md)")
def test_screenshots_of_the_table_with_the_review(visit: Any, club: Any, verified: Any) -> None:
    from xuezhan.review import review_round

    match = verified("rob_kong_chengdu.json")
    worst = max(review_round(match.document, 0).to_json()["decisions"], key=lambda d: d["loss"])
    step = worst["event"] + 1
    SHOTS.mkdir(parents=True, exist_ok=True)
    for language in ("en", "zh-Hans"):
        for width in (390, 1280):
            page = visit("mia", f"/clubs/{club.pk}/matches/{match.pk}/rounds/1/"
                         f"?step={step}&review=1", width=width, language=language)
            page.wait_for_function(
                "() => document.documentElement.classList.contains('tile-faces')")
            page.locator("#step-review .decision").first.wait_for()
            page.screenshot(path=str(SHOTS / f"table-{language}-{width}.png"), full_page=True)
            if language == "zh-Hans":  # docs/img's: the table and the panel, in one screen
                phone = width < 700
                page.set_viewport_size({"width": width, "height": 860 if phone else 1000})
                top = page.locator("#board").bounding_box()["y"] - 40 if phone else 0
                page.evaluate("y => window.scrollTo(0, y)", top)
                page.screenshot(path=str(SHOTS / f"board-{'phone' if phone else 'desktop'}.png"))
            page.select_option("#see-as", "1")
            page.keyboard.press("End")
            page.screenshot(path=str(SHOTS / f"end-{language}-{width}.png"), full_page=True)


def test_the_table_and_its_review_read_in_chinese_and_fit_a_phone(
    visit: Any, club: Any, verified: Any
) -> None:
    from tests.browser.test_every_page import OVERFLOW, STACKED, TEXT, _latin

    match = verified("rob_kong_chengdu.json")
    names = {*match.document["players"], club.name, "mia"}  # people and the club
    page = visit("mia", f"/clubs/{club.pk}/matches/{match.pk}/rounds/1/?step=13&review=1",
                 width=390, language="zh-Hans")
    page.locator("#step-review .decision").first.wait_for()
    for step in (13, 18, 19):
        page.evaluate("n => { location.hash = 'step=' + n; }", step)
        assert _reaches(page, step)
        assert _latin(page.evaluate(TEXT), names) == [], step
        assert page.evaluate(OVERFLOW) == [] and page.evaluate(STACKED) == [], step


def test_the_keyboard_hint_shows_only_where_there_is_a_keyboard(
    browser: Any, site: Any, club: Any, verified: Any, visit: Any
) -> None:
    from tests.browser.conftest import PASSWORD

    match = verified("rob_kong_chengdu.json")
    url = f"/clubs/{club.pk}/matches/{match.pk}/rounds/1/"
    assert visit("mia", url).locator(".viewer .hint").is_visible()  # a desktop with a mouse
    phone = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                is_mobile=True)
    try:
        page = phone.new_page()
        page.goto(f"{site.url}/accounts/login/")
        page.fill("#id_username", "mia")
        page.fill("#id_password", PASSWORD)
        page.locator("main form button[type=submit]").click()
        page.wait_for_url(re.compile(r".*/clubs/.*"))
        page.goto(site.url + url)
        assert page.evaluate("matchMedia('(pointer: coarse)').matches")
        assert page.locator(".viewer .hint").is_hidden()
    finally:
        phone.close()
