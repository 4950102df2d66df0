from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.records.webhooks.receiver import Receiver


@pytest.fixture
def receiver(settings: Any) -> Iterator[Receiver]:
    """A receiver on 127.0.0.1 (allowed: WEBHOOK_ALLOW_PRIVATE_ADDRESSES, as in development)."""
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True
    found = Receiver().start()
    yield found
    found.stop()


@pytest.fixture
def hooks_url(club: Any) -> str:
    return f"/api/v1/clubs/{club.pk}/webhooks/"


@pytest.fixture
def register(api_client: Any, cast: Any, hooks_url: str) -> Any:
    """``register(url, events)``: an admin registers a webhook; returns the 201 body."""

    def make(url: str, events: list[str]) -> dict[str, Any]:
        response = api_client(cast["adam"]).post(
            hooks_url, {"url": url, "events": events}, format="json"
        )
        assert response.status_code == 201, response.content
        body: dict[str, Any] = response.json()
        return body

    return make
