"""Operations endpoints: /healthz (the process answers), /readyz (it can serve: database,
migrations, cache, broker; and when a worker last beat), /metrics (Prometheus text format).

/readyz answers 503 when a check fails, ``down`` naming the dependencies that are away;
it never fails itself because one is (docs/deploy.md, "When a dependency fails").

Cheap and unauthenticated: no query touches more than one row, and nothing is written.
"""

from __future__ import annotations

import os
import time
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Gauge,
    generate_latest,
    multiprocess,
)

import analysis.metrics  # noqa: F401  (registers the verification metrics)
import records.metrics  # noqa: F401  (registers the upload counters)
from config.celery import HEARTBEAT_KEY
from config.celery import app as celery_app
from records.models import Match

HEARTBEAT_STALE_AFTER = 60  # seconds; workers beat every 15 (config/celery.py)

_migrated = False  # once every migration is applied, it stays so for this process

QUEUED = Gauge("xuezhan_matches_pending", "Matches queued or verifying (database).", ["status"])
QUEUE_DEPTH = Gauge("xuezhan_queue_depth", "Messages waiting in the task queue (broker).")


@never_cache
def healthz(request: HttpRequest) -> HttpResponse:
    return JsonResponse({"status": "ok"})


@never_cache
def readyz(request: HttpRequest) -> HttpResponse:
    checks = {
        "database": _database(),
        "migrations": _migrations(),
        "cache": _cache(),
        "broker": _broker(),
    }
    ready = all(check["ok"] for check in checks.values())
    body = {
        "status": "ready" if ready else "not ready",
        "down": [name for name, check in checks.items() if not check["ok"]],
        "checks": checks,
        "worker": _worker(),
    }
    return JsonResponse(body, status=200 if ready else 503)


def _database() -> dict[str, Any]:
    try:
        with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
            cursor.execute("SELECT 1")
        return {"ok": True}
    except Exception as exc:
        return {"ok": False, "error": type(exc).__name__}


def _migrations() -> dict[str, Any]:
    global _migrated
    if not _migrated:
        try:
            executor = MigrationExecutor(connections[DEFAULT_DB_ALIAS])
            plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
        except Exception as exc:
            return {"ok": False, "error": type(exc).__name__}
        if plan:
            return {"ok": False, "unapplied": len(plan)}
        _migrated = True
    return {"ok": True}


def _cache() -> dict[str, Any]:
    """The shared cache answers (the upload counts, the worker's heartbeat); a cache in
    the process (no CACHE_URL) always does."""
    if not settings.CACHE_URL:
        return {"ok": True, "mode": "local"}
    try:
        cache.get(HEARTBEAT_KEY)
        return {"ok": True}
    except Exception as exc:
        return {"ok": False, "error": type(exc).__name__}


def _broker() -> dict[str, Any]:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {"ok": True, "mode": "eager"}  # tasks run in the web process: no broker
    try:
        with celery_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
        return {"ok": True}
    except Exception as exc:
        return {"ok": False, "error": type(exc).__name__}


def _worker() -> dict[str, Any]:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {"ok": True, "mode": "eager"}
    try:
        beat = cache.get(HEARTBEAT_KEY)
    except Exception as exc:  # the cache is away: the beat is unknown (``cache`` says why)
        return {"ok": False, "last_beat": None, "error": type(exc).__name__}
    if not beat:
        return {"ok": False, "last_beat": None}
    age = time.time() - float(beat["at"])
    return {"ok": age < HEARTBEAT_STALE_AFTER, "hostname": beat["hostname"], "age": round(age)}


@never_cache
def metrics(request: HttpRequest) -> HttpResponse:
    if not settings.METRICS_ENABLED:
        return HttpResponse(status=404)
    _sample_queues()
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        output = generate_latest(registry)
    else:
        output = generate_latest()
    return HttpResponse(output, content_type=CONTENT_TYPE_LATEST)


def _sample_queues() -> None:
    for status in Match.PENDING:
        QUEUED.labels(status).set(Match.objects.filter(status=status).count())
    if settings.CELERY_TASK_ALWAYS_EAGER:
        QUEUE_DEPTH.set(0)
        return
    try:
        with celery_app.connection_for_read() as conn:
            queue = conn.default_channel.queue_declare(
                queue=settings.CELERY_TASK_DEFAULT_QUEUE, passive=True
            )
            QUEUE_DEPTH.set(queue.message_count)
    except Exception:
        QUEUE_DEPTH.set(float("nan"))  # unknown: the broker is away (readyz says so)
