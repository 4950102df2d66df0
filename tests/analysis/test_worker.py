"""A real Celery worker process on Redis and PostgreSQL, killed mid-task.

Each test starts its own ``celery -A config worker`` subprocesses on a queue of
its own (no cross-talk with other workers on the same Redis), bounds every wait, and
kills what it started. The uploads go through the API, as a client's would.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.conftest import BROKER_URL, DATABASE_URL, needs_broker, needs_postgres
from tests.records.documents import dumps

pytestmark = [needs_postgres, needs_broker, pytest.mark.postgres, pytest.mark.broker]

ROOT = Path(__file__).resolve().parents[2]
MATCHES = 20
ROUNDS = 2
WORKER_OPTIONS = (
    "-c", "1", "--prefetch-multiplier", "1", "-l", "info",
    "--without-gossip", "--without-mingle", "--without-heartbeat",
)  # fmt: skip


def test_database_url() -> str:
    """DATABASE_URL, pointed at the database pytest-django made for this run."""
    from django.db import connection

    parts = urlsplit(DATABASE_URL)
    return urlunsplit(parts._replace(path="/" + connection.settings_dict["NAME"]))


test_database_url.__test__ = False  # type: ignore[attr-defined]


class Workers:
    """Start and kill worker processes; whatever is left is killed at teardown."""

    def __init__(self, queue: str, log_dir: Path) -> None:
        self.queue = queue
        self.log_dir = log_dir
        self.procs: list[subprocess.Popen[bytes]] = []

    def start(self, *, beat: bool = False, timings: str = "short") -> subprocess.Popen[bytes]:
        """A worker; ``beat``: with the periodic sweep in it; ``timings``: "short" redelivers
        a dead worker's task after 5 s, "default" keeps every recovery setting as shipped."""
        env = {
            **os.environ,
            "DATABASE_URL": test_database_url(),
            "CELERY_BROKER_URL": BROKER_URL,
            "CELERY_QUEUE": self.queue,
            "CELERY_REVIEW_QUEUE": after_queue(self.queue),
            "DJANGO_SETTINGS_MODULE": "config.settings",
        }
        if timings == "short":
            env["CELERY_VISIBILITY_TIMEOUT"] = "5"
        else:
            for name in [k for k in env if k.startswith(("VERIFY_", "CELERY_VISIBILITY"))]:
                del env[name]
        extra = ["-B", "-s", str(self.log_dir / f"beat-{len(self.procs)}")] if beat else []
        log = (self.log_dir / f"worker-{len(self.procs)}.log").open("wb")
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                *WORKER_OPTIONS,
                "-Q",
                f"{self.queue},{after_queue(self.queue)}",
                "-n",
                f"{self.queue}-{len(self.procs)}@%h",
                *extra,
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: SIGKILL takes the pool too
        )
        self.procs.append(proc)
        return proc

    def kill(self, proc: subprocess.Popen[bytes]) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)

    def logs(self) -> str:
        return "\n".join(p.read_text(errors="replace") for p in sorted(self.log_dir.glob("*.log")))

    def close(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                self.kill(proc)


@pytest.fixture
def workers(transactional_db: Any, tmp_path: Path) -> Iterator[Workers]:
    """Tasks go to fresh queues, served only by the workers this fixture starts."""
    import redis

    from config import celery_app

    queue = f"xuezhan-test-{uuid.uuid4().hex[:10]}"
    restore = use_queues(celery_app, queue)
    pool = Workers(queue, tmp_path)
    try:
        yield pool
    finally:
        pool.close()
        restore()
        redis.Redis.from_url(BROKER_URL).delete(queue, after_queue(queue))
        _end_other_sessions()


def after_queue(queue: str) -> str:
    """The test's own CELERY_REVIEW_QUEUE: what follows a verdict (settings.py)."""
    return f"{queue}-after"


def use_queues(app: Any, queue: str) -> Callable[[], None]:
    """Run this process's tasks on real workers: verifications to ``queue``, the tasks
    routed to the review queue to ``after_queue(queue)``. Returns what undoes it."""
    saved = (app.conf.task_always_eager, app.conf.task_default_queue, app.conf.task_routes)
    app.conf.task_always_eager = False
    app.conf.task_default_queue = queue
    app.conf.task_routes = {name: {**route, "queue": after_queue(queue)}
                            for name, route in saved[2].items()}  # fmt: skip
    _forget_routes(app)

    def restore() -> None:
        app.conf.task_always_eager, app.conf.task_default_queue, app.conf.task_routes = saved
        _forget_routes(app)

    return restore


def _forget_routes(app: Any) -> None:
    # kombu caches the queues and router built from task_default_queue
    for name in ("queues", "default_queue", "router"):
        app.amqp.__dict__.pop(name, None)


def _end_other_sessions() -> None:
    """Close database sessions a killed worker may have left, so teardown can flush."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


def upload_all(club: Any, client: Any, docs: list[Any]) -> list[int]:
    ids = []
    for doc in docs:
        response = client.generic(
            "POST", f"/api/v1/clubs/{club.pk}/matches/", dumps(doc), "application/json"
        )
        assert response.status_code == 201, response.content
        ids.append(response.json()["id"])
    return ids


def wait_for(condition: Callable[[], bool], timeout: float, what: str, logs: Workers) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.25)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}\n{logs.logs()[-4000:]}")


def statuses(ids: list[int]) -> dict[str, int]:
    from records.models import Match

    counts: dict[str, int] = {}
    for status in Match.objects.filter(pk__in=ids).values_list("status", flat=True):
        counts[status] = counts.get(status, 0) + 1
    return counts


def expected_facts(docs: list[Any]) -> tuple[int, int]:
    """Seat results and payment lines the engine gives for these documents."""
    from xuezhan.replay import verify_document

    reports = [verify_document(doc).to_dict() for doc in docs]
    seats = sum(len(r["seats"]) for report in reports for r in report["rounds"])
    payments = sum(len(r["payments"]) for report in reports for r in report["rounds"])
    return seats, payments


def assert_verified_exactly_once(ids: list[int], docs: list[Any]) -> None:
    from analysis.models import RoundSettlement, SeatResult, Verification

    assert statuses(ids) == {"verified": len(ids)}
    assert Verification.objects.filter(match_id__in=ids).count() == len(ids)
    seats, payments = expected_facts(docs)
    assert SeatResult.objects.filter(round__match_id__in=ids).count() == seats
    settlements = RoundSettlement.objects.filter(round__match_id__in=ids)
    assert sum(len(s.payments) for s in settlements) == payments


def simulated(count: int) -> list[Any]:
    from xuezhan.sim.simulate import simulate_matches

    return list(simulate_matches(count, ROUNDS, seed=4242))


def test_a_real_worker_verifies_twenty_uploads(
    workers: Workers, club: Any, cast: Any, api_client: Any
) -> None:
    docs = simulated(MATCHES)
    workers.start()
    ids = upload_all(club, api_client(cast["mia"]), docs)
    wait_for(lambda: statuses(ids).get("verified") == MATCHES, 60, "20 verified", workers)
    assert_verified_exactly_once(ids, docs)
    from records.models import Match

    assert set(Match.objects.filter(pk__in=ids).values_list("attempts", flat=True)) == {1}


def test_a_worker_killed_mid_task_loses_and_duplicates_nothing(
    workers: Workers, club: Any, cast: Any, api_client: Any
) -> None:
    import psycopg

    from records.models import Match

    docs = simulated(MATCHES)
    ids = upload_all(club, api_client(cast["mia"]), docs)  # queued in Redis, no worker yet
    assert statuses(ids) == {"queued": MATCHES}

    # Hold the rows: the first worker takes a task and blocks inside it, mid-task.
    with (
        psycopg.connect(test_database_url()) as lock,
        psycopg.connect(test_database_url(), autocommit=True) as watch,
    ):
        lock.execute("SELECT id FROM records_match WHERE id = ANY(%s) FOR UPDATE", [ids])
        first = workers.start()
        wait_for(lambda: _waiting_on_a_lock(watch) > 0, 30, "the worker to block mid-task", workers)
        workers.kill(first)  # SIGKILL the whole worker: main process and pool child
        lock.rollback()

    workers.start()  # a fresh worker; the broker redelivers the unacknowledged task
    wait_for(
        lambda: statuses(ids).get("verified") == MATCHES, 90, "all verified after the kill",
        workers,
    )  # fmt: skip
    assert_verified_exactly_once(ids, docs)
    attempts = sorted(Match.objects.filter(pk__in=ids).values_list("attempts", flat=True))
    # the killed task was claimed again (its first claim went through once the lock was released)
    assert attempts[:-1] == [1] * (MATCHES - 1) and attempts[-1] >= 2, attempts


def _waiting_on_a_lock(conn: Any) -> int:
    # from an autocommit connection: inside a transaction pg_stat_activity is a snapshot
    row = conn.execute(
        "SELECT count(*) FROM pg_stat_activity "
        "WHERE datname = current_database() AND wait_event_type = 'Lock'"
    ).fetchone()
    return int(row[0])


def test_a_pool_child_killed_mid_task_is_redelivered_at_once(
    workers: Workers, club: Any, cast: Any, api_client: Any
) -> None:
    import psycopg

    from records.models import Match

    docs = simulated(3)
    ids = upload_all(club, api_client(cast["mia"]), docs)
    with (
        psycopg.connect(test_database_url()) as lock,
        psycopg.connect(test_database_url(), autocommit=True) as watch,
    ):
        lock.execute("SELECT id FROM records_match WHERE id = ANY(%s) FOR UPDATE", [ids])
        main = workers.start()
        wait_for(lambda: _waiting_on_a_lock(watch) > 0, 30, "the task to block", workers)
        children = _children(main.pid)
        assert len(children) == 1, children
        os.kill(children[0], signal.SIGKILL)  # the pool child only: WorkerLostError
        # reject_on_worker_lost: the message goes straight back; a new child takes it
        wait_for(
            lambda: _waiting_on_a_lock(watch) > 1 and _children(main.pid) not in ([], children),
            30, "the task to be redelivered to a new child", workers,
        )  # fmt: skip
        lock.rollback()
    wait_for(lambda: statuses(ids).get("verified") == 3, 60, "all verified", workers)
    assert_verified_exactly_once(ids, docs)
    assert main.poll() is None  # the worker itself lived on
    assert "WorkerLostError" in workers.logs()
    attempts = sorted(Match.objects.filter(pk__in=ids).values_list("attempts", flat=True))
    assert attempts[:2] == [1, 1] and attempts[2] >= 2, attempts


def _children(pid: int) -> list[int]:
    result = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
    return [int(line) for line in result.stdout.split()]


def test_a_match_left_by_a_dead_worker_is_verified_within_two_minutes(
    workers: Workers, club: Any, cast: Any, api_client: Any
) -> None:
    """The shipped timings: the lease runs out, the beat sweep re-queues, a worker verifies;
    the killed task never runs alongside its successor."""
    import psycopg

    from records.models import Match

    docs = simulated(3)
    ids = upload_all(club, api_client(cast["mia"]), docs)
    with (
        psycopg.connect(test_database_url()) as lock,
        psycopg.connect(test_database_url(), autocommit=True) as watch,
    ):
        # the claim (an UPDATE of the match row) goes through and so does the verification's
        # row lock (FOR NO KEY UPDATE); writing the verdict's row waits on this table lock:
        # the worker is mid-task, holding a lease
        lock.execute("LOCK TABLE analysis_verification IN SHARE MODE")
        first = workers.start(timings="default")
        wait_for(
            lambda: _waiting_on_a_lock(watch) > 0 and statuses(ids).get("verifying", 0) >= 1,
            30, "a claimed match, mid-task", workers,
        )  # fmt: skip
        # the task took the other queued matches into its batch (VERIFY_BATCH_SIZE)
        claimed = list(Match.objects.filter(pk__in=ids, status="verifying"))
        workers.kill(first)
        killed_at = time.monotonic()
        lock.rollback()

    workers.start(beat=True, timings="default")
    wait_for(
        lambda: statuses(ids).get("verified") == 3, 150, "all verified after the kill", workers
    )
    recovered_after = time.monotonic() - killed_at
    assert recovered_after < 120, f"recovered after {recovered_after:.0f} s"
    assert_verified_exactly_once(ids, docs)
    assert len(claimed) == 3
    for match in claimed:
        match.refresh_from_db()
        assert match.attempts == 2  # claimed by the dead task, then once more, alone
    print(f"recovered {recovered_after:.1f} s after the SIGKILL")
