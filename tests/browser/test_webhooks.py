"""The webhooks' pages in Chromium: an admin adds one with the form, copies its secret,
sends a test event and reads the attempt; nothing scrolls sideways on a phone."""

from __future__ import annotations

import os
from typing import Any

import pytest

from tests.browser.conftest import ARTEFACTS
from tests.browser.test_phone import WIDE
from tests.records.webhooks.receiver import Receiver

pytestmark = pytest.mark.browser


@pytest.fixture
def receiver(settings: Any) -> Any:
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True
    found = Receiver().start()
    yield found
    found.stop()


@pytest.mark.parametrize("language", ["en", "zh-Hans"])
@pytest.mark.parametrize("width", [390, 1280])
def test_an_admin_adds_a_webhook_and_sends_a_test_event(
    visit: Any, club: Any, receiver: Receiver, eager_tasks: None, language: str, width: int
) -> None:
    from records.models import WebhookEndpoint

    page = visit("adam", f"/clubs/{club.pk}/webhooks/", width=width, language=language)
    page.fill("input[name=url]", receiver.url)
    page.check("input[value='match.verified']")
    page.check("input[value='standings.changed']")
    page.locator("form.webhook-form button[type=submit]").click()
    page.wait_for_load_state("load")
    endpoint = WebhookEndpoint.objects.get()
    assert page.input_value("#webhook-secret") == endpoint.secret
    assert page.evaluate(WIDE) == []
    shots = os.environ.get("SCREENSHOTS")  # SCREENSHOTS=1: keep them, to look at
    if shots:
        ARTEFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTEFACTS / f"webhooks-{language}-{width}.png"), full_page=True)
    page.goto(page.url + f"{endpoint.pk}/")
    page.locator("form[action$='/test/'] button").click()
    page.wait_for_load_state("load")
    assert page.locator("table.attempts tr").count() == 2  # the head and the attempt
    assert "webhook.test" in page.locator("table.attempts").inner_text()
    assert len(receiver.received) == 1
    assert page.evaluate(WIDE) == [] and page.errors == []
    if shots:
        page.screenshot(path=str(ARTEFACTS / f"webhook-{language}-{width}.png"), full_page=True)
