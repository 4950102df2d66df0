"""The site in a real browser: the replay viewer's controls, languages, links, the upload form."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from analysis.models import payments_of
from tests.records.documents import DATA, dumps, illegal_document, make_document

pytestmark = pytest.mark.browser


@pytest.fixture
def verified(club: Any, upload: Any) -> Any:
    """``verified(doc)``: the document uploaded and verified, its Match returned."""
    from analysis import services

    def do(doc: Any) -> Any:
        match = upload(doc)
        services.verify_match(match_id=match.pk)
        match.refresh_from_db()
        return match

    return do


def _step(page: Any) -> int:
    return int(re.search(r"step=(\d+)", page.url)[1])  # type: ignore[index]


def _text(page: Any, selector: str) -> str:
    """An element's text without the isolates the viewer sets around names."""
    return str(page.locator(selector).inner_text()).replace("\u2068", "").replace("\u2069", "")


def _reaches(page: Any, step: int) -> bool:
    """Whether the viewer gets to ``step``: its script sets the URL's ``#step=`` after the
    key or the click, not before Playwright's next line runs (a loaded machine shows it)."""
    page.wait_for_function(
        "n => (location.hash.match(/step=(\\d+)/) || [])[1] == n", arg=step, timeout=5000
    )
    return _step(page) == step


def test_the_keyboard_and_the_slider_step_through_a_round(
    visit: Any, club: Any, verified: Any
) -> None:
    doc = make_document(1, turns=10)
    match = verified(doc)
    last = len(doc["rounds"][0]["events"])
    page = visit("mia", f"/clubs/{club.pk}/matches/{match.pk}/rounds/1/")
    assert page.locator("#step-label").inner_text() == f"Step 0 of {last}"
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert _reaches(page, 3) and "discards" in page.locator("#step-text").inner_text()
    page.keyboard.press("ArrowLeft")
    assert _reaches(page, 2)
    page.keyboard.press("End")
    assert _reaches(page, last)
    page.keyboard.press("Home")
    assert _reaches(page, 0) and "The deal: alice deals" in _text(page, "#step-text")
    page.locator("#step-slider").fill("7")
    assert _reaches(page, 7) and page.locator("#step-label").inner_text() == f"Step 7 of {last}"
    tiles = page.locator('.seat[data-seat="0"] .hand .tile')
    assert tiles.count() > 0 and re.match(r"\d \w+", tiles.first.get_attribute("aria-label"))
    assert page.errors == []


def test_the_viewer_draws_rivers_win_order_and_the_exchange_from_the_frames(
    visit: Any, club: Any, verified: Any
) -> None:
    from analysis.labels import tile_text
    from xuezhan.replay import replay_frames

    doc = json.loads((DATA / "multiple_win_two_winners_chengdu.json").read_text())
    match = verified(doc)
    frames = replay_frames(doc, 0)
    page = visit("mia", f"/clubs/{club.pk}/matches/{match.pk}/rounds/1/#step=end")
    final = frames[-1]
    rivers = [t for river in final["rivers"] for t in river]
    seats = page.locator(".seat .river")
    assert seats.locator(".tile.won").count() == sum(1 for t in rivers if t["won_by"])
    assert seats.locator(".tile.claimed").count() == sum(
        1 for t in rivers if t["claimed_by"] is not None and not t["won_by"])
    names = doc["players"]
    assert _text(page, "#win-order").endswith(
        " → ".join(names[s] for s in final["win_order"]))
    exchange = next(i for i, f in enumerate(frames) if f["action"]["type"] == "exchange")
    page.goto(page.url.split("#")[0] + f"#step={exchange}")
    page.reload()
    for seat in range(4):
        got = page.locator(f'.seat[data-seat="{seat}"] .gave .got ~ .tile')
        shown = [got.nth(i).text_content() for i in range(got.count())]
        assert shown == [tile_text(t) for t in frames[exchange]["action"]["receive"][seat]]
    assert page.errors == []


def test_space_plays_and_pauses(visit: Any, club: Any, verified: Any) -> None:
    match = verified(make_document(2, turns=10))
    page = visit("mia", f"/clubs/{club.pk}/matches/{match.pk}/rounds/1/")
    page.select_option("#speed", "200")
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press(" ")
    page.wait_for_function("() => (location.hash.match(/step=(\\d+)/) || [])[1] >= 3")
    page.keyboard.press(" ")
    paused = _step(page)
    page.wait_for_timeout(600)
    assert _step(page) == paused and page.locator("#play").get_attribute("aria-pressed") == "false"


def test_a_link_with_a_step_opens_at_that_step(visit: Any, club: Any, verified: Any) -> None:
    match = verified(make_document(3, turns=10))
    page = visit("mia", f"/clubs/{club.pk}/matches/{match.pk}/rounds/1/#step=5")
    assert page.locator("#step-label").inner_text().startswith("Step 5 of")
    assert page.locator("#step-list li.current").inner_text() == page.locator(
        "#step-text").inner_text()


def test_the_end_of_a_round_shows_the_settlement(visit: Any, club: Any, verified: Any) -> None:
    match = verified(json.loads((DATA / "rob_kong_chengdu.json").read_text()))
    payments = payments_of(match.rounds.get())
    page = visit("mia", f"/clubs/{club.pk}/matches/{match.pk}/rounds/1/")
    assert page.locator("#settlement").is_hidden()
    page.locator("#next-win").click()
    assert "wins" in page.locator("#step-text").inner_text()
    page.locator("#to-end").click()
    settlement = page.locator("#settlement")
    assert settlement.is_visible() and settlement.locator("li.payment").count() == len(payments)
    assert "Win robbing a kong" in settlement.inner_text()
    assert page.locator(".seat.has-won .tile.winning").count() >= 1


def test_the_language_switch_keeps_the_step(visit: Any, club: Any, verified: Any) -> None:
    match = verified(make_document(4, turns=10))
    page = visit("mia", f"/clubs/{club.pk}/matches/{match.pk}/rounds/1/#step=4")
    page.locator("#language-form button[value=zh-hans]").click()
    page.wait_for_url(re.compile(r".*#step=4$"))
    assert page.locator("html").get_attribute("lang") == "zh-hans"
    assert page.locator("#step-label").inner_text().startswith("第 4 /")
    assert re.search("摸|打出", page.locator("#step-text").inner_text())
    page.locator("#language-form button[value=en]").click()
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    assert page.locator("#step-label").inner_text().startswith("Step 4 of")


def test_see_as_a_seat_hides_the_other_hands(visit: Any, club: Any, verified: Any) -> None:
    match = verified(make_document(5, turns=10))
    page = visit("mia", f"/clubs/{club.pk}/matches/{match.pk}/rounds/1/#step=3")
    page.select_option("#see-as", "1")
    assert page.locator('.seat[data-seat="1"] .hand .tile.back').count() == 0
    for seat in (0, 2, 3):
        hand = page.locator(f'.seat[data-seat="{seat}"] .hand')
        assert hand.locator(".tile.back").count() == hand.locator(".tile").count() > 0


def test_a_violation_link_lands_on_its_step_and_the_viewer_marks_it(
    visit: Any, club: Any, verified: Any
) -> None:
    match = verified(illegal_document(6))
    violation = match.verification.violations.get(code="tile_not_in_hand")
    page = visit("mia", f"/clubs/{club.pk}/matches/{match.pk}/")
    page.locator("table.violations a").first.click()
    page.wait_for_url(re.compile(r".*/rounds/1/#step=\d+$"))
    assert _reaches(page, violation.event_index + 1)
    marked = page.locator("#step-violations")
    dealer = match.document["players"][0]
    assert marked.is_visible() and "Tile not in hand" in marked.inner_text()
    assert f"{dealer} plays " in marked.inner_text() and "seat" not in marked.inner_text()
    assert (marked.locator("li").first.get_attribute("title") or "").startswith(dealer)
    page.locator("#first").click()
    page.locator("#next-violation").click()
    assert _reaches(page, violation.event_index + 1)


def test_the_upload_form_shows_each_file_s_result_and_errors(
    visit: Any, club: Any, tmp_path: Any
) -> None:
    bad = make_document(7)
    bad["rounds"][0]["dealer"] = 9
    (tmp_path / "good.json").write_bytes(dumps(make_document(8)))
    (tmp_path / "bad.json").write_bytes(dumps(bad))
    (tmp_path / "broken.json").write_text("{nope")
    page = visit("mia", f"/clubs/{club.pk}/upload/")
    page.set_input_files("#file-input", [str(tmp_path / n) for n in
                                         ("good.json", "bad.json", "broken.json")])
    page.locator("#upload-form button[type=submit]").click()
    lines = page.locator("#upload-results li")
    lines.nth(2).filter(has_text="not valid JSON").wait_for()  # not "broken.json: sending…"
    assert lines.count() == 3
    assert "match #" in lines.nth(0).inner_text() and lines.nth(0).get_attribute("class") == "ok"
    assert "$.rounds[0].dealer" in lines.nth(1).inner_text()
    assert "not valid JSON" in lines.nth(2).inner_text()
    page.goto(page.url)
    page.fill("textarea[name=document]", "[1, 2")
    page.locator("#upload-form button[type=submit]").click()
    assert "not valid JSON" in page.locator("#upload-error").inner_text()
    assert page.errors == [] or all("400" in e for e in page.errors)


def test_a_violation_reads_in_chinese_on_a_chinese_page(
    visit: Any, club: Any, verified: Any
) -> None:
    match = verified(illegal_document(6))
    dealer = match.document["players"][0]
    page = visit("mia", f"/clubs/{club.pk}/matches/{match.pk}/", language="zh-Hans")
    row = page.locator("table.violations tr.violation").first
    assert f"{dealer} 打出了手中没有的" in row.inner_text() and "seat" not in row.inner_text()
    row.locator("a").click()
    page.wait_for_url(re.compile(r".*#step=\d+$"))
    assert f"{dealer} 打出了手中没有的" in page.locator("#step-violations").inner_text()


def test_a_pasted_file_is_uploaded_like_a_chosen_one(visit: Any, club: Any) -> None:
    page = visit("mia", f"/clubs/{club.pk}/upload/")
    page.evaluate("""(text) => {
        const data = new DataTransfer();
        data.items.add(new File([text], "pasted.json", {type: "application/json"}));
        document.dispatchEvent(new ClipboardEvent("paste", {clipboardData: data, bubbles: true}));
    }""", dumps(make_document(12)).decode())
    line = page.locator("#upload-results li").first
    line.filter(has_text="match #").wait_for()
    assert line.inner_text().startswith("pasted.json") and line.get_attribute("class") == "ok"
    assert page.locator("textarea[name=document]").input_value() == ""


def test_an_admin_invites_by_name_and_by_link_and_the_invited_accept(
    visit: Any, club: Any, make_user: Any
) -> None:
    from tests.browser.conftest import PASSWORD

    for name in ("wen", "yu"):
        user = make_user(name)
        user.set_password(PASSWORD)
        user.save(update_fields=["password"])
    admin = visit("adam", f"/clubs/{club.pk}/members/")
    admin.fill("#invite-form input[name=username]", "wen")
    admin.locator("#invite-form button[name=name]").click()
    assert "wen" in admin.locator("table.invitations").inner_text()
    admin.locator("#invite-form button[name=link]").click()
    link = admin.locator("#invitation-link").input_value()
    assert "/invitations/link/" in link
    wen = visit("wen", "/invitations/")
    wen.locator("li.invitation button[name=accept]").click()
    wen.wait_for_url(re.compile(rf".*/clubs/{club.pk}/$"))
    yu = visit("yu", link.split("/", 3)[3].join(["/", ""]))
    yu.locator("main form button[type=submit]").click()
    yu.wait_for_url(re.compile(rf".*/clubs/{club.pk}/$"))
    assert club.memberships.filter(user__username__in=["wen", "yu"]).count() == 2
    assert admin.errors == wen.errors == yu.errors == []


def test_no_page_logs_a_javascript_error(visit: Any, club: Any, verified: Any) -> None:
    match = verified(illegal_document(9))
    legal = verified(json.loads((DATA / "multiple_win_two_winners_chengdu.json").read_text()))
    urls = ["/clubs/", f"/clubs/{club.pk}/", f"/clubs/{club.pk}/upload/",
            f"/clubs/{club.pk}/members/", f"/clubs/{club.pk}/matches/{match.pk}/",
            f"/clubs/{club.pk}/matches/{match.pk}/rounds/1/#step=end",
            f"/clubs/{club.pk}/matches/{legal.pk}/rounds/1/#step=end",
            f"/clubs/{club.pk}/matches/{match.pk}/history/", "/invitations/"]
    for language in ("en", "zh-Hans"):
        for width in (390, 1280):
            page = visit("olga", urls[0], width=width, language=language)
            for url in urls:
                page.goto(page.url.split("/clubs/")[0] + url)
                page.wait_for_load_state("load")
                assert page.errors == [], (url, page.errors)


def test_the_review_toggle_shows_the_verdict_of_the_discard_at_the_step_and_is_remembered(
    visit: Any, club: Any, verified: Any
) -> None:
    from django.utils import translation

    from analysis.viewer import review_text
    from xuezhan.review import review_round

    doc = make_document(1, turns=10)
    match = verified(doc)
    discard = next(d for d in review_round(doc, 0).to_json()["decisions"]
                   if d["kind"] == "discard")
    with translation.override("en"):
        words = review_text()
    page = visit("mia", f"/clubs/{club.pk}/matches/{match.pk}/rounds/1/")
    assert page.locator("#step-review").is_hidden()
    page.locator("#review-toggle").check()
    for _ in range(discard["event"] + 1):  # step n shows event n - 1 (counted from 0)
        page.keyboard.press("ArrowRight")
    panel = page.locator("#step-review")
    panel.locator(".decision").first.wait_for()
    head = panel.locator(f".decision.verdict-{discard['verdict']} .decision-head").first
    assert words["verdict_" + discard["verdict"]] in head.inner_text()
    assert words["kind_discard"] in head.inner_text()
    page.reload()
    assert page.locator("#review-toggle").is_checked()
    page.locator("#step-review .decision").first.wait_for()
    assert page.errors == []
