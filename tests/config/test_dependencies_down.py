"""A dependency that is away (issue 27, finding 5): never a 500.

The cache and the broker are pointed at a loopback port where nothing listens (port 1):
Redis's connection is refused at once, as during a restart. The suite's own Redis is left
alone; tests/analysis/test_faults.py stops a real one under a real worker.
"""

from __future__ import annotations

from typing import Any

import pytest
from kombu.exceptions import OperationalError as BrokerError

from tests.records.documents import dumps, make_document

pytestmark = pytest.mark.django_db

AWAY = "redis://127.0.0.1:1/0"  # nothing listens on port 1


@pytest.fixture
def cache_away(settings: Any) -> None:
    """The shared cache (CACHE_URL: the upload counts, the heartbeat, cached figures) away."""
    settings.CACHE_URL = AWAY
    settings.CACHES = {
        "default": {
            "BACKEND": "config.cache.KeptClientRedisCache",
            "LOCATION": AWAY,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }


def _upload(client: Any, club: Any, number: int = 1) -> Any:
    return client.generic("POST", f"/api/v1/clubs/{club.pk}/matches/",
                          dumps(make_document(number)), "application/json")


def _sample(name: str, labels: dict[str, str]) -> float:
    from prometheus_client import REGISTRY

    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_an_upload_while_the_cache_is_away_is_stored_uncounted_by_default(
    cache_away: None, club: Any, cast: Any, api_client: Any, caplog: Any
) -> None:
    from records.models import Match

    before = _sample("xuezhan_upload_throttle_unavailable_total", {"decision": "allowed"})
    response = _upload(api_client(cast["mia"]), club)
    assert response.status_code == 201, response.content
    assert Match.objects.filter(pk=response.json()["id"]).exists()
    after = _sample("xuezhan_upload_throttle_unavailable_total", {"decision": "allowed"})
    assert after == before + 1
    assert "the upload throttle cannot reach the cache" in caplog.text


def test_an_upload_while_the_cache_is_away_is_503_naming_it_when_the_throttle_fails_closed(
    cache_away: None, settings: Any, club: Any, cast: Any, api_client: Any
) -> None:
    from records.models import Match

    settings.UPLOAD_THROTTLE_FAIL_OPEN = False
    response = _upload(api_client(cast["mia"]), club)
    assert response.status_code == 503, response.content
    body = response.json()
    assert body["type"] == "service_unavailable" and body["dependency"] == "cache"
    assert response["Retry-After"] == "5"
    assert not Match.objects.exists()


def test_an_api_read_that_needs_the_cache_while_it_is_away_is_503_not_500(
    cache_away: None, club: Any, cast: Any, api_client: Any
) -> None:
    before = _sample("xuezhan_dependency_unavailable_total", {"dependency": "cache"})
    response = api_client(cast["mia"]).get(f"/api/v1/clubs/{club.pk}/leaderboard/")
    assert response.status_code == 503, response.content
    assert response.json()["dependency"] == "cache"
    assert _sample("xuezhan_dependency_unavailable_total", {"dependency": "cache"}) == before + 1


def test_a_page_that_needs_the_cache_while_it_is_away_is_a_503_page(
    cache_away: None, club: Any, cast: Any, client: Any
) -> None:
    client.force_login(cast["mia"])
    response = client.get(f"/clubs/{club.pk}/leaderboard/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert response.status_code == 503
    assert response["Content-Type"].startswith("text/html")
    assert "503" in response.content.decode()


def test_readyz_is_503_naming_the_cache_when_it_is_away(
    cache_away: None, client: Any, settings: Any
) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = "memory://localhost/"
    response = client.get("/readyz")
    assert response.status_code == 503, response.content
    body = response.json()
    assert body["down"] == ["cache"] and body["checks"]["cache"]["ok"] is False
    assert body["worker"] == {"ok": False, "last_beat": None, "error": "ConnectionError"}


def test_an_upload_while_the_broker_is_away_is_stored_queued_for_the_sweep(
    club: Any, cast: Any, api_client: Any, monkeypatch: Any,
    django_capture_on_commit_callbacks: Any, caplog: Any,
) -> None:  # fmt: skip
    from analysis import tasks
    from records.models import Match

    def away(*args: Any, **kwargs: Any) -> None:
        raise BrokerError("Error 111 connecting to 127.0.0.1:1. Connection refused.")

    monkeypatch.setattr(tasks.verify_match, "delay", away)
    with django_capture_on_commit_callbacks(execute=True):
        response = _upload(api_client(cast["mia"]), club)
    assert response.status_code == 201, response.content
    assert Match.objects.get(pk=response.json()["id"]).status == "queued"
    assert "the sweep will queue the match" in caplog.text


def test_a_write_whose_task_cannot_be_sent_is_503_naming_the_broker(
    club: Any, cast: Any, api_client: Any, monkeypatch: Any, upload: Any
) -> None:
    """A view that sends a task itself (a re-verification) while the broker is away."""
    from analysis import tasks

    def away(*args: Any, **kwargs: Any) -> None:
        raise BrokerError("connection refused")

    match = upload(make_document(1))
    monkeypatch.setattr(tasks.verify_match, "delay_on_commit", away)
    response = api_client(cast["adam"]).post(
        f"/api/v1/clubs/{club.pk}/matches/{match.pk}/reverify/"
    )
    assert response.status_code == 503, response.content
    assert response.json()["dependency"] == "broker"


def test_a_broken_broker_connection_lets_running_tasks_finish_their_transaction(
    settings: Any,
) -> None:
    """Celery would otherwise terminate them mid-commit; every task is safe to run twice,
    so the redelivered message finds its work done (docs/deploy.md)."""
    from config.celery import app

    assert settings.CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS is False
    assert app.conf.worker_cancel_long_running_tasks_on_connection_loss is False


def test_a_new_pool_process_has_long_enough_to_say_it_is_up(settings: Any) -> None:
    from config.celery import app

    assert app.conf.worker_proc_alive_timeout == settings.CELERY_WORKER_PROC_ALIVE_TIMEOUT
    assert app.conf.worker_proc_alive_timeout >= 30


def test_a_verdict_while_the_cache_is_away_still_queues_its_clubs_ratings(
    cache_away: None, club: Any, monkeypatch: Any
) -> None:
    from analysis.league import services, tasks

    sent: list[int] = []
    monkeypatch.setattr(tasks.recompute_ratings, "delay", sent.append)
    tasks.rate_club_soon(club.pk)
    assert sent == [club.pk]
    monkeypatch.setattr(services, "recompute_ratings", lambda club_id: 0)
    assert tasks.recompute_ratings.apply(args=[club.pk]).get() == 0  # runs without the cache
