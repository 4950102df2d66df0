"""The upload limit: the same rule whether the log is DRF's cached list or a Redis set."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache

from records.throttles import _redis
from tests.conftest import BROKER_URL, needs_broker
from tests.records.documents import dumps, make_document

pytestmark = pytest.mark.django_db


@pytest.fixture(params=["cache", pytest.param("redis", marks=[needs_broker, pytest.mark.broker])])
def log(request: Any, settings: Any, cast: Any) -> Iterator[str]:
    """Where the upload log lives: the Django cache (no CACHE_URL) or Redis (CACHE_URL)."""
    settings.CACHE_URL = BROKER_URL if request.param == "redis" else None
    if request.param == "redis":
        client = _redis(BROKER_URL)
        keys = [cache.make_key(f"throttle_uploads_{cast[n].pk}:log") for n in ("mia", "adam")]
        client.delete(*keys)  # a user id of an earlier run
        yield request.param
        client.delete(*keys)
    else:
        cache.clear()
        yield request.param


def post(client: Any, club: Any, n: int) -> Any:
    return client.generic("POST", f"/api/v1/clubs/{club.pk}/matches/",
                          dumps(make_document(n)), content_type="application/json")


def test_uploads_over_the_limit_are_refused_with_how_long_to_wait(
        log: str, club: Any, cast: Any, api_client: Any, settings: Any) -> None:
    settings.UPLOAD_RATE_LIMIT = "2/hour"
    client = api_client(cast["mia"])
    assert [post(client, club, n).status_code for n in (1, 2, 3)] == [201, 201, 429]
    refused = post(client, club, 4)
    assert refused.status_code == 429
    # the oldest of the two allowed uploads leaves the hour in about an hour
    assert 3500 < int(refused["Retry-After"]) <= 3600
    assert refused.json()["retry_after"] == int(refused["Retry-After"])
    if log == "redis":  # the two allowed uploads, in Redis's own set
        key = cache.make_key(f"throttle_uploads_{cast['mia'].pk}:log")
        assert _redis(BROKER_URL).zcard(key) == 2
    # another member has an allowance of their own
    assert post(api_client(cast["adam"]), club, 5).status_code == 201


def test_a_refused_upload_does_not_count_and_the_period_slides(
        log: str, club: Any, cast: Any, api_client: Any, settings: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    settings.UPLOAD_RATE_LIMIT = "2/minute"
    clock = [1_000_000.0]
    monkeypatch.setattr("records.throttles.UploadThrottle.timer", lambda self: clock[0])
    client = api_client(cast["mia"])
    assert post(client, club, 10).status_code == 201
    clock[0] += 30
    assert post(client, club, 11).status_code == 201
    for n in (12, 13):  # refused, and not counted: they would hold the limit after 90 s
        clock[0] += 10
        assert post(client, club, n).status_code == 429
    clock[0] += 11  # 61 s after the first upload: one place is free again
    assert post(client, club, 14).status_code == 201
    assert post(client, club, 15).status_code == 429
    clock[0] += 30  # the second upload has left the minute too
    assert post(client, club, 16).status_code == 201
