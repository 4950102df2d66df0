"""Operations endpoints, request ids and metrics: /healthz, /readyz, /metrics, X-Request-ID."""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from tests.conftest import needs_postgres
from tests.records.documents import dumps, make_document

pytestmark = pytest.mark.django_db


def test_healthz_answers_without_signing_in(client: Any) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200 and response.json() == {"status": "ok"}


def test_readyz_checks_the_database_migrations_cache_and_broker(client: Any) -> None:
    response = client.get("/readyz")
    assert response.status_code == 200, response.content
    checks = response.json()["checks"]
    assert {name: check["ok"] for name, check in checks.items()} == {
        "database": True, "migrations": True, "cache": True, "broker": True,
    }  # fmt: skip
    assert response.json()["down"] == []


def test_readyz_is_503_when_the_broker_is_away(
    client: Any, settings: Any, monkeypatch: Any
) -> None:
    from config import celery_app

    settings.CELERY_TASK_ALWAYS_EAGER = False
    # Celery derives its write URL from the broker URL once, so the connection itself is
    # pointed elsewhere: nothing listens on port 1 (with or without a real broker in CI)
    connect = celery_app.connection_for_write
    monkeypatch.setattr(
        celery_app, "connection_for_write", lambda: connect(url="redis://127.0.0.1:1/0")
    )
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["checks"]["broker"]["ok"] is False


def test_readyz_is_503_while_migrations_are_unapplied(client: Any, monkeypatch: Any) -> None:
    from django.db.migrations.executor import MigrationExecutor

    from config import ops

    monkeypatch.setattr(ops, "_migrated", False)
    monkeypatch.setattr(MigrationExecutor, "migration_plan", lambda self, targets: [("m", 0)])
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["checks"]["migrations"] == {"ok": False, "unapplied": 1}


def test_readyz_shows_the_worker_heartbeat(client: Any, settings: Any) -> None:
    from django.core.cache import cache

    from config import celery as celery_module

    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = "memory://localhost/"
    assert client.get("/readyz").json()["worker"] == {"ok": False, "last_beat": None}
    celery_module._stop.clear()
    celery_module._start_heartbeat(sender=None)
    try:
        deadline = time.monotonic() + 5
        while cache.get(celery_module.HEARTBEAT_KEY) is None and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        celery_module._stop.set()
    worker = client.get("/readyz").json()["worker"]
    assert worker["ok"] is True and worker["age"] < 5


def test_metrics_count_uploads_and_verifications(
    client: Any, club: Any, cast: Any, api_client: Any, django_capture_on_commit_callbacks: Any
) -> None:
    def sample(text: str, name: str) -> float:
        for line in text.splitlines():
            if line.split(" ")[0] == name:
                return float(line.split(" ")[1])
        return 0.0

    before = client.get("/metrics").content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client(cast["mia"]).generic(
            "POST", f"/api/v1/clubs/{club.pk}/matches/", dumps(make_document(1)),
            "application/json",
        )  # fmt: skip
    assert response.status_code == 201
    after = client.get("/metrics")
    assert after.status_code == 200 and after["Content-Type"].startswith("text/plain")
    text = after.content.decode()
    for name in (
        'xuezhan_uploads_total{outcome="created"}',
        'xuezhan_verifications_total{outcome="verified"}',
        "xuezhan_verify_task_seconds_count",
    ):
        assert sample(text, name) == sample(before, name) + 1, name
    assert 'xuezhan_matches_pending{status="queued"}' in text
    assert "xuezhan_queue_depth" in text


def test_a_request_id_is_given_kept_and_carried_into_the_task(
    club: Any, cast: Any, api_client: Any, monkeypatch: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:  # fmt: skip
    from analysis import services
    from records.logs import request_id

    seen: list[str] = []
    real = services.verify_matches

    def spy(**kwargs: Any) -> Any:
        seen.append(request_id.get())
        return real(**kwargs)

    monkeypatch.setattr(services, "verify_matches", spy)
    client = api_client(cast["mia"])
    assert len(client.get("/healthz")["X-Request-ID"]) == 32  # made up when none is given
    assert client.get("/healthz", HTTP_X_REQUEST_ID="bad id\n")["X-Request-ID"] != "bad id\n"
    with django_capture_on_commit_callbacks(execute=True):
        response = client.generic(
            "POST", f"/api/v1/clubs/{club.pk}/matches/", dumps(make_document(2)),
            "application/json", HTTP_X_REQUEST_ID="upload-42",
        )  # fmt: skip
    assert response["X-Request-ID"] == "upload-42"
    assert seen == ["upload-42"]


def test_log_lines_are_json_with_the_request_id() -> None:
    from records.logs import JsonFormatter, RequestIdFilter, request_id

    record = logging.LogRecord("records", logging.INFO, "x.py", 1, "upload", None, None)
    record.match = 7
    token = request_id.set("r-1")
    try:
        RequestIdFilter().filter(record)
    finally:
        request_id.reset(token)
    line = json.loads(JsonFormatter().format(record))
    assert line["message"] == "upload" and line["request_id"] == "r-1" and line["match"] == 7
    assert line["level"] == "INFO" and line["logger"] == "records"


def test_a_new_pool_process_freezes_what_lives_as_long_as_it_does() -> None:
    """docs/deploy.md, Workers: a pool process builds the win tables, then gc.freeze()s."""
    import gc

    from django.db.backends.signals import connection_created

    from config.celery import _commit_without_waiting_for_the_disk, _settle_pool_process
    from xuezhan import hand

    try:
        _settle_pool_process()
        assert gc.get_freeze_count() > 0
        assert hand._STATE  # the win tables were built before the freeze
    finally:
        gc.unfreeze()
        connection_created.disconnect(_commit_without_waiting_for_the_disk)


def _in_a_child(work: Any) -> Any:
    """``work()`` in a forked child, its result sent back: a nice value once raised cannot
    be lowered without privilege, so the test process's own stays untouched."""
    import os
    import pickle

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        try:
            os.close(read)
            os.write(write, pickle.dumps(work()))
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        data = pipe.read()
    os.waitpid(pid, 0)
    return pickle.loads(data)


def test_a_worker_starts_without_importing_the_web() -> None:
    """docs/deploy.md, Workers: Celery's Django fixup would run Django's checks, whose URL
    check imports every view (~30 MB a pool process); the checks run at migrate."""
    import os
    import subprocess
    import sys

    from tests.config.test_settings import _KNOBS, ROOT

    code = ("import sys; from config.celery import app; import django; django.setup(); "
            "app.loader.import_default_modules(); "
            "print('analysis.tasks' in sys.modules, 'config.urls' in sys.modules)")
    env = {**{k: v for k, v in os.environ.items() if k not in _KNOBS},
           "DJANGO_SETTINGS_MODULE": "config.settings"}
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.stdout.split() == ["True", "False"], result.stderr


def test_a_worker_yields_the_cpu_to_the_web_and_its_pool_inherits_it(settings: Any) -> None:
    """docs/deploy.md, Workers: the worker's main process takes WORKER_NICE before its pool
    forks, so an upload gets the cores first."""
    import os

    from config.celery import _yield_to_the_web

    settings.WORKER_NICE = 7

    def worker() -> tuple[int, int]:
        base = os.getpriority(os.PRIO_PROCESS, 0)
        _yield_to_the_web(sender=None)
        pool = _in_a_child(lambda: os.getpriority(os.PRIO_PROCESS, 0))
        return base, pool

    base, pool = _in_a_child(worker)
    assert pool == max(base, 7)


@pytest.mark.skipif(not Path("/proc/self/autogroup").exists(), reason="no autogroups")
def test_a_worker_that_leads_its_session_lowers_the_sessions_priority_too() -> None:
    """With autogroups the kernel shares the CPU among sessions first: a worker in a session
    of its own (a supervisor's, the benchmark's) gives the session its nice value."""
    import os

    from config.celery import lower_priority

    def own_session() -> str:
        os.setsid()
        lower_priority(7)
        return Path("/proc/self/autogroup").read_text()

    def shared_session() -> str:
        lower_priority(7)
        return Path("/proc/self/autogroup").read_text()

    assert own_session().split()[-2:] == ["nice", "7"]
    assert shared_session() == Path("/proc/self/autogroup").read_text()  # the test's own


def test_a_worker_never_runs_above_the_priority_it_was_started_with() -> None:
    """An operator's `nice -n 15` (or systemd's Nice=) stands; WORKER_NICE only lowers."""
    import os

    from config.celery import lower_priority

    def started_nicer() -> tuple[int, int]:
        os.setpriority(os.PRIO_PROCESS, 0, 15)
        return lower_priority(10), lower_priority(0)

    assert _in_a_child(started_nicer) == (15, 15)


def test_a_web_process_warms_up_before_its_first_request() -> None:
    """docs/deploy.md, One host: gunicorn's post_worker_init imports the views and compiles
    the upload's checks, so that a new process's first upload is not ~100 times slower."""
    import gc
    import runpy

    from django.urls import get_resolver

    from tests.config.test_settings import ROOT
    from xuezhan.schema import lean_checks

    hook = runpy.run_path(str(ROOT / "deploy" / "gunicorn.conf.py"))["post_worker_init"]
    lean_checks.cache_clear()
    try:
        hook(worker=SimpleNamespace())
        assert lean_checks.cache_info().currsize == 1
        assert "url_patterns" in get_resolver().__dict__  # the URLconf was imported
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


@needs_postgres
def test_a_pool_process_commits_without_waiting_for_the_disk_and_the_web_waits() -> None:
    """docs/deploy.md, PostgreSQL settings: what a worker writes is derived and recovered
    by the sweep; what the web writes is not, so its connections keep waiting."""
    from django.db import connection

    from config.celery import _commit_without_waiting_for_the_disk

    def setting() -> str:
        with connection.cursor() as cursor:
            cursor.execute("SHOW synchronous_commit")
            row = cursor.fetchone()
        return str(row[0])

    assert setting() == "on"
    try:
        _commit_without_waiting_for_the_disk(sender=None, connection=connection)
        assert setting() == "off"
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SET synchronous_commit TO on")


def _task_sender(*, eager: bool) -> Any:
    return SimpleNamespace(request=SimpleNamespace(is_eager=eager))


def test_a_worker_keeps_its_database_connections_for_the_life_of_a_pool_process(
        settings: Any) -> None:
    """docs/deploy.md, Workers: Celery's fixup closes the connections every task unless
    told to reuse them; they are reused for longer than a pool process lives."""
    from config.celery import app

    assert app.conf.get("CELERY_DB_REUSE_MAX") == settings.CELERY_DB_REUSE_MAX
    assert settings.CELERY_DB_REUSE_MAX >= settings.CELERY_WORKER_MAX_TASKS_PER_CHILD


@pytest.mark.django_db(transaction=True)
def test_between_tasks_a_healthy_connection_is_kept_and_a_broken_one_closed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """As Django does around a request (close_old_connections); an eager task's
    connection belongs to its caller and is left alone."""
    from django.db import connection

    from config.celery import _tidy_database_connections

    connection.ensure_connection()
    kept = connection.connection
    _tidy_database_connections(sender=_task_sender(eager=False))
    assert connection.connection is kept  # reused by the next task

    closed: list[bool] = []
    monkeypatch.setattr(connection, "close", lambda: closed.append(True))
    connection.errors_occurred = True
    monkeypatch.setattr(connection, "is_usable", lambda: False)
    _tidy_database_connections(sender=_task_sender(eager=True))
    assert not closed  # the caller's
    _tidy_database_connections(sender=_task_sender(eager=False))
    assert closed  # the next task connects again
    connection.errors_occurred = False
