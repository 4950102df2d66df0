"""Shared fixtures of the service's tests (records, analysis, config).

The engine's own tests (tests/xuezhan) use none of these: every fixture here that touches
Django asks for ``db`` itself, so pure tests never get a database.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest

DATABASE_URL = os.environ.get("DATABASE_URL", "")
BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")

needs_postgres = pytest.mark.skipif(
    not DATABASE_URL.startswith(("postgres://", "postgresql://")),
    reason="needs PostgreSQL: set DATABASE_URL=postgres://… (as .ci/run does)",
)
needs_broker = pytest.mark.skipif(
    not BROKER_URL.startswith("redis://"),
    reason="needs a Redis broker: set CELERY_BROKER_URL=redis://… (as .ci/run does)",
)


@pytest.fixture
def eager_tasks() -> Iterator[None]:
    """Run Celery tasks in-process, whatever CELERY_BROKER_URL says.

    Only the real-worker tests talk to a broker; everything else verifies in-process.
    """
    from config import celery_app

    before = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = before


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under pytest-xdist (``make test`` runs two processes), the tests that use the real
    broker run in one process, one after another: they share its Redis database (a worker
    started by one test would take another test's messages, a flush would drop them)."""
    for item in items:
        if item.get_closest_marker("broker"):
            item.add_marker(pytest.mark.xdist_group("broker"))


@pytest.fixture(scope="session", autouse=True)
def _catalogues() -> None:
    """The zh-Hans pages need the compiled catalogue (`make install` compiles it too)."""
    from django.core.management import call_command

    call_command("compilemessages", verbosity=0)


@pytest.fixture(autouse=True)
def _fresh_cache(request: pytest.FixtureRequest) -> None:
    """Upload counts live in the cache: each Django test starts with none."""
    if "db" in request.fixturenames or "django_db" in request.keywords:
        from django.core.cache import cache

        cache.clear()


@pytest.fixture(autouse=True)
def _site_language() -> Iterator[None]:
    """Each test starts in the site's default language: a test that switches to zh-Hans
    (a page rendered for a Chinese browser, a task in a club's language) must not leave the
    next test's messages in Chinese."""
    yield
    from django.utils import translation

    translation.deactivate()


@pytest.fixture
def make_user(db: Any) -> Callable[[str], Any]:
    from django.contrib.auth import get_user_model

    def make(username: str) -> Any:
        return get_user_model().objects.create_user(username=username)  # no password: fast

    return make


@pytest.fixture
def cast(make_user: Callable[[str], Any]) -> dict[str, Any]:
    """The people: owner olga, admin adam, member mia, outsider nora (in no club)."""
    return {name: make_user(name) for name in ("olga", "adam", "mia", "nora")}


@pytest.fixture
def club(cast: dict[str, Any]) -> Any:
    from records import services

    club = services.create_club(name="Chengdu Tuesday", owner=cast["olga"])
    # the suite's fixed times are written in UTC and read as written; the time-zone tests
    # (tests/records/test_timezones.py) use clubs in their own zones, the default included
    club.time_zone = "UTC"
    club.save(update_fields=["time_zone"])
    services.add_member(club=club, user=cast["adam"], role="admin")
    services.add_member(club=club, user=cast["mia"], role="member")
    return club


@pytest.fixture
def api_client() -> Callable[[Any], Any]:
    """``api_client(user)``: a DRF client with the user's token (None: anonymous)."""
    from rest_framework.test import APIClient

    from records import services

    def make(user: Any | None) -> APIClient:
        client = APIClient()
        if user is not None:
            key = services.issue_token(user=user).key
            client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        return client

    return make


@pytest.fixture
def upload(club: Any, cast: dict[str, Any]) -> Callable[..., Any]:
    """``upload(doc)``: store a document in the club through the service; returns the Match."""
    from records import services
    from tests.records.documents import dumps

    def do(doc: Any, *, to: Any = None) -> Any:
        return services.upload_match(club=to or club, raw=dumps(doc), uploaded_by=cast["mia"]).match

    return do
