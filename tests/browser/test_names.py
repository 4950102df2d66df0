"""Names on pages (issue 27, finding 8), as Chromium lays them out: a stored name with a
right-to-left override shows it written out and reorders nothing around it."""

from __future__ import annotations

from typing import Any

import pytest

from records.models import Club
from tests.browser.conftest import ARTEFACTS

pytestmark = pytest.mark.browser

OVERRIDDEN = "Evil\u202eeman bulc"  # would read "Evil club name" backwards without care


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("language", ["zh-Hans", "en"])
def test_a_stored_name_with_a_direction_override_is_shown_written_out_and_isolated(
        visit: Any, club: Any, width: int, language: str) -> None:
    Club.objects.filter(pk=club.pk).update(name=OVERRIDDEN)
    page = visit("mia", f"/clubs/{club.pk}/matches/", width=width, language=language)
    heading = page.locator("main h1")
    assert heading.inner_text() == "Evil\\u202eeman bulc"
    assert heading.locator("bdi").count() == 1
    assert "\u202e" not in page.content()
    ARTEFACTS.mkdir(parents=True, exist_ok=True)  # kept for a look, passed or failed
    page.screenshot(path=str(ARTEFACTS / f"names-{language}-{width}.png"))
    assert not page.errors


@pytest.mark.parametrize("language", ["zh-Hans", "en"])
def test_a_right_to_left_name_in_the_viewer_is_isolated_in_every_sentence(
        visit: Any, club: Any, upload: Any, language: str) -> None:
    """The viewer's script writes names into sentences (the dealer, the actions): each is
    isolated like the |name filters do, and the seat's own label is a <bdi>."""
    import json

    from analysis import services
    from tests.records.documents import DATA

    doc = json.loads((DATA / "rob_kong_chengdu.json").read_text())
    doc["players"][0] = "דוד"  # the dealer
    match = upload(doc)
    services.verify_match(match_id=match.pk)
    page = visit("mia", f"/clubs/{club.pk}/matches/{match.pk}/rounds/1/#step=1",
                 language=language)
    text = page.locator("main").inner_text()
    assert "\u2068דוד\u2069" in text  # in the script's sentences
    assert page.locator('.seat[data-seat="0"] .name bdi').inner_text() == "דוד"
    # nowhere else bare: each other occurrence is a <bdi> of its own
    bare = text.replace("\u2068דוד\u2069", "").count("דוד")
    assert bare == page.locator("main bdi:visible", has_text="דוד").count()
    assert not page.errors
