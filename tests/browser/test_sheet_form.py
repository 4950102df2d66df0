"""The score-sheet form in a real browser: fields round by round, the payments as you go."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import ARTEFACTS, WIDTHS

pytestmark = pytest.mark.browser


def _fill_a_self_drawn_win(page: Any) -> None:
    for seat, name in enumerate(("ann", "ben", "cai", "dan")):
        page.fill(f"input[name=player{seat}]", name)
        page.dispatch_event(f"input[name=player{seat}]", "change")
    page.get_by_role("button", name="Add a win").click()
    win = page.locator(".sheet-event.win").first
    win.get_by_label("Winner", exact=True).select_option(label="ben")
    win.get_by_label("Tile", exact=True).fill("9m")
    win.get_by_label("Pattern", exact=True).select_option("qing_yi_se")


@pytest.mark.parametrize("label", list(WIDTHS))
def test_a_self_drawn_win_entered_in_the_fields_shows_its_payments(
    visit: Any, club: Any, label: str
) -> None:
    from records.models import Match

    page = visit("mia", f"/clubs/{club.pk}/sheets/new/", width=WIDTHS[label])
    assert page.locator("#rounds").is_hidden() and page.locator("#sheet-rounds").is_visible()
    _fill_a_self_drawn_win(page)
    payments = page.locator("#round-preview-0")
    for payer in ("ann", "cai", "dan"):
        payments.get_by_text(f"{payer} → ben 4").wait_for()
    assert "ben +12" in payments.inner_text()
    assert "adds up" in page.locator("#sheet-preview").inner_text()
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / f"sheet-form-{label}.png"), full_page=True)
    assert page.errors == [] and not Match.objects.exists()


def test_the_fields_are_saved_as_the_same_sheet_json(visit: Any, club: Any) -> None:
    from records.models import Match

    page = visit("mia", f"/clubs/{club.pk}/sheets/new/")
    _fill_a_self_drawn_win(page)
    page.locator("#round-preview-0").get_by_text("ann → ben 4").wait_for()
    page.get_by_role("button", name="Save as a match").click()
    page.wait_for_url(f"**/clubs/{club.pk}/matches/*/")
    doc = Match.objects.get().document
    assert doc["players"] == ["ann", "ben", "cai", "dan"]
    assert doc["rounds"] == [{"dealer": 0, "events": [
        {"type": "win", "seat": 1, "tile": "9m", "pattern": "qing_yi_se"}]}]


def test_a_drawn_round_takes_who_was_ready_and_who_was_a_flower_pig(
    visit: Any, club: Any
) -> None:
    page = visit("mia", f"/clubs/{club.pk}/sheets/new/")
    _fill_a_self_drawn_win(page)
    page.get_by_label("Drawn: the wall ran out").check()
    checks = page.locator(".draw-checks li")
    checks.nth(0).locator("select").first.select_option("ready")
    checks.nth(0).get_by_label("Fan", exact=True).fill("1")
    checks.nth(2).locator("select").first.select_option("flower_pig")
    payments = page.locator("#round-preview-0")
    payments.get_by_text("Flower pig (hua zhu)").first.wait_for()
    payments.get_by_text("Ready check (cha jiao)").first.wait_for()
    rounds = page.evaluate("JSON.parse(document.getElementById('rounds').value)")
    assert rounds[0]["drawn"] is True and rounds[0]["flower_pigs"] == [2]
    assert rounds[0]["ready"] == [{"seat": 0, "fan": 1}] and page.errors == []
