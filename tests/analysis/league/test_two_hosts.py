"""Two Celery workers as if on two hosts (their own hostnames and queues) against one
PostgreSQL, one killed mid-batch: every match is verified exactly once, and the club's
books count each once (docs/scaling.md, "Past one machine")."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import pytest

from tests.analysis.test_worker import (
    ROOT,
    WORKER_OPTIONS,
    Workers,
    _forget_routes,
    _waiting_on_a_lock,
    assert_verified_exactly_once,
    simulated,
    statuses,
    test_database_url,
    upload_all,
    wait_for,
    workers,  # noqa: F401  (the fixture: a fresh queue, everything killed at teardown)
)
from tests.conftest import BROKER_URL, needs_broker, needs_postgres

pytestmark = [needs_postgres, needs_broker, pytest.mark.postgres, pytest.mark.broker]

#: a dead host's lease runs out in 16 s, and the sweep runs every 2 s (the shipped
#: timings are 75 s and 15 s: the same path, slower)
TIMINGS = {
    "VERIFY_TIME_LIMIT_SECONDS": "15",
    "VERIFY_LEASE_SECONDS": "16",
    "VERIFY_SWEEP_INTERVAL_SECONDS": "2",
    "VERIFY_STUCK_AFTER_SECONDS": "3",
    "CELERY_VISIBILITY_TIMEOUT": "5",
}


def start_host(pool: Workers, queue: str, host: str, *, beat: bool) -> subprocess.Popen[bytes]:
    """A worker named as on its own host, consuming only its own queue."""
    env = {**os.environ, **TIMINGS, "DATABASE_URL": test_database_url(),
           "CELERY_BROKER_URL": BROKER_URL, "CELERY_QUEUE": queue,
           "DJANGO_SETTINGS_MODULE": "config.settings"}
    extra = ["-B", "-s", str(pool.log_dir / f"beat-{host}")] if beat else []
    log = (pool.log_dir / f"worker-{host}.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", *WORKER_OPTIONS,
         "-Q", queue, "-n", f"verify@{host}", *extra],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    pool.procs.append(proc)
    return proc


def upload_to(queue: str, club: Any, client: Any, docs: list[Any]) -> list[int]:
    """Upload, the verification's messages going to ``queue`` (as a web host would route
    them to a worker host's queue)."""
    from config import celery_app

    celery_app.conf.task_default_queue = queue
    _forget_routes(celery_app)
    return upload_all(club, client, docs)


def test_two_hosts_one_killed_mid_batch_verify_every_match_exactly_once(
    workers: Workers, club: Any, cast: Any, api_client: Any  # noqa: F811
) -> None:
    import psycopg
    import redis

    from analysis.models import BookMatch
    from records.models import Match

    docs = simulated(16)
    client = api_client(cast["mia"])
    queue_a, queue_b = f"{workers.queue}-host-a", f"{workers.queue}-host-b"
    ids = upload_to(queue_a, club, client, docs[:8]) + upload_to(queue_b, club, client, docs[8:])
    try:
        with (
            psycopg.connect(test_database_url()) as lock,
            psycopg.connect(test_database_url(), autocommit=True) as watch,
        ):
            # both hosts take a task and block inside it: mid-batch
            lock.execute("SELECT id FROM records_match WHERE id = ANY(%s) FOR UPDATE", [ids])
            host_a = start_host(workers, queue_a, "host-a", beat=False)
            start_host(workers, queue_b, "host-b", beat=True)
            wait_for(lambda: _waiting_on_a_lock(watch) >= 2, 40, "both hosts mid-task", workers)
            workers.kill(host_a)  # host A goes away for good: nobody consumes its queue
            lock.rollback()
        wait_for(lambda: statuses(ids).get("verified") == len(ids), 60,
                 "host B to verify every match, host A's included", workers)
    finally:
        redis.Redis.from_url(BROKER_URL).delete(queue_a, queue_b)
    assert_verified_exactly_once(ids, docs)
    assert BookMatch.objects.filter(match_id__in=ids).count() == 4 * len(ids)
    assert max(Match.objects.filter(pk__in=ids).values_list("attempts", flat=True)) >= 1
