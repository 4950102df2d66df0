"""The Celery app, wired as the Celery docs show (settings under the ``CELERY_`` namespace),
and the worker's heartbeat that /readyz reports (config.ops)."""

import contextlib
import gc
import os
import socket
import threading
import time
from typing import Any

from celery import Celery
from celery.signals import (
    task_postrun,
    task_prerun,
    worker_init,
    worker_process_init,
    worker_ready,
    worker_shutdown,
)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Celery's Django fixup runs Django's system checks when a worker starts, and the URL
# checks import the whole web (the URLconf, every view, DRF, the OpenAPI generator):
# ~24 MB more in every pool process, for code a worker never runs. The checks run where
# they can fail a deploy instead: `manage.py migrate` and `check --deploy` (docs/deploy.md).
os.environ.setdefault("CELERY_SKIP_CHECKS", "1")

app = Celery("xuezhan")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

HEARTBEAT_KEY = "xuezhan:worker-heartbeat"  # in the Django cache, shared with the web
HEARTBEAT_EVERY = 15  # seconds
_stop = threading.Event()


def _beat(hostname: str) -> None:
    from django.core.cache import cache

    while not _stop.is_set():
        with contextlib.suppress(Exception):  # the cache is away: readyz shows a stale beat
            cache.set(HEARTBEAT_KEY, {"hostname": hostname, "at": time.time()}, timeout=300)
        _stop.wait(HEARTBEAT_EVERY)


@worker_ready.connect
def _start_heartbeat(sender: Any = None, **kwargs: Any) -> None:
    hostname = getattr(sender, "hostname", None) or socket.gethostname()
    threading.Thread(target=_beat, args=(hostname,), name="heartbeat", daemon=True).start()


@worker_shutdown.connect
def _stop_heartbeat(**kwargs: Any) -> None:
    _stop.set()


@worker_init.connect
def _yield_to_the_web(**kwargs: Any) -> None:
    """Lower the worker's CPU priority to settings.WORKER_NICE, before the pool forks (its
    processes inherit it). Verifications and reviews are background work that may lag by
    seconds; an upload is a person or an app waiting. Where they share cores, the kernel
    then runs the upload first and the worker on what is left, so a burst of uploads is
    answered as fast as with no worker beside it and the queue drains after (docs/benchmarks.md,
    "Pipeline"). On idle cores a nice value costs nothing."""
    from django.conf import settings

    lower_priority(settings.WORKER_NICE)


def lower_priority(nice: int) -> int:
    """Raise this process's nice value to ``nice`` (never lower it: an operator's ``nice``
    or systemd's ``Nice=`` may have set more), and its session's where it leads one;
    return the process's value now."""
    if nice > os.getpriority(os.PRIO_PROCESS, 0):
        os.setpriority(os.PRIO_PROCESS, 0, nice)
    if os.getsid(0) == os.getpid():
        _lower_session_priority(nice)
    return os.getpriority(os.PRIO_PROCESS, 0)


AUTOGROUP = "/proc/self/autogroup"


def _lower_session_priority(nice: int) -> None:
    """With the kernel's autogroups (Linux, ``sched_autogroup_enabled``), the CPU is shared
    among sessions first and among one session's processes by their nice values: a nice
    worker in a session of its own would still weigh as much as the web. So a worker that
    leads its session (started by a supervisor, a daemon, the benchmark) gives the session
    the same nice value; one started from a shell shares the shell's and leaves it alone.
    Under systemd with the cgroup CPU controller, cgroups decide instead: CPUWeight= in
    the unit (deploy/systemd)."""
    try:
        with open(AUTOGROUP) as group:
            current = int(group.read().rsplit("nice", 1)[1])
        if nice > current:
            with open(AUTOGROUP, "w") as group:
                group.write(str(nice))
    except (OSError, ValueError, IndexError):
        pass  # no autogroups here (another kernel, or switched off): nothing to share


@worker_process_init.connect
def _settle_pool_process(**kwargs: Any) -> None:
    """Build the engine's fixed tables, then move everything alive (Django, Celery, the
    tables) out of the collector's reach: a full collection otherwise walks those
    long-lived objects again and again while a task runs, which measured 12% of a fresh
    decision review (docs/deploy.md, Workers). Each pool process does this once."""
    from django.db.backends.signals import connection_created

    from xuezhan.hand import is_winning

    connection_created.connect(_commit_without_waiting_for_the_disk)
    is_winning([0] * 27)
    gc.collect()
    gc.freeze()


def _commit_without_waiting_for_the_disk(sender: Any, connection: Any, **kwargs: Any) -> None:
    """A pool process's transactions commit without waiting for the WAL to reach the disk
    (~10 ms a commit on the benchmark machine, two a verification). Everything a worker
    writes — leases, verdicts and their rows, reviews, ratings — is derived from documents
    already stored durably by the upload: should PostgreSQL itself crash and lose the last
    moments of these commits, the matches are left queued or verifying and the sweep
    queues them again (docs/deploy.md, "PostgreSQL settings"). The web's commits (uploads,
    corrections) keep waiting: only they hold what cannot be recomputed."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET synchronous_commit TO off")


@task_prerun.connect
@task_postrun.connect
def _tidy_database_connections(sender: Any = None, **kwargs: Any) -> None:
    """Around each task a worker runs, what Django does around each request: close a
    connection that is broken or older than CONN_MAX_AGE, and check the next one before
    use (CONN_HEALTH_CHECKS). Celery's own fixup would close them all instead, every task;
    settings.CELERY_DB_REUSE_MAX turns that off. Not for an eager task: it runs inside
    the caller's request or transaction, whose connection is the caller's to manage."""
    if getattr(getattr(sender, "request", None), "is_eager", False):
        return
    from django.db import close_old_connections

    close_old_connections()
