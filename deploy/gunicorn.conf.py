"""gunicorn's configuration for the xuezhan web process (docs/deploy.md).

Run as ``gunicorn -c deploy/gunicorn.conf.py`` with DJANGO_SETTINGS_MODULE=
config.production; every value can be changed from the environment.
"""

import json
import multiprocessing
import os
from typing import Any

wsgi_app = "config.wsgi:application"
bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
# Sync workers: a process per request at a time. An upload is ~10 ms of Python CPU and a
# few short waits on PostgreSQL and Redis (docs/benchmarks.md, "Pipeline"); threads would
# not run Python any faster (one interpreter lock per process), so processes it is, and
# 2 × cores + 1 of them (5 on 2 cores) keeps the cores busy while some wait on the
# database. More would only queue on the CPU instead of in the listen backlog, and cost
# ~60 MB each. The slow clients are the proxy's to absorb (nginx buffers bodies and
# answers by default, deploy/nginx.conf.example), so none holds a sync worker.
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "sync")
workers = int(os.environ.get("GUNICORN_WORKERS", 2 * multiprocessing.cpu_count() + 1))
# Requests are short (an upload is parsed and stored; verification runs in the workers).
timeout = int(os.environ.get("GUNICORN_TIMEOUT", 30))
graceful_timeout = 30
# Keep-alive: a sync worker closes each connection after its answer whatever this says
# (gunicorn reads keepalive only in the threaded and async workers), and nginx speaks
# HTTP/1.0 to its upstream unless told otherwise: a new loopback connection per request
# costs ~0.1 ms, nothing to win there. Kept for GUNICORN_WORKER_CLASS=gthread setups.
keepalive = 5
# Restart workers now and then: bounds the damage of any slow leak.
max_requests = 2000
max_requests_jitter = 200
# The proxy in front (nginx, a load balancer) sets X-Forwarded-*; trust only it.
forwarded_allow_ips = os.environ.get("GUNICORN_FORWARDED_ALLOW_IPS", "127.0.0.1")
limit_request_line = 8190
limit_request_fields = 100
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None

# Logs on stderr, the access log as JSON lines like the application's.
accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info").lower()
access_log_format = json.dumps(
    {
        "logger": "gunicorn.access",
        "remote": "%(h)s",
        "method": "%(m)s",
        "path": "%(U)s",
        "status": "%(s)s",
        "bytes": "%(B)s",
        "duration_ms": "%(M)s",
        "request_id": "%({x-request-id}o)s",
        "agent": "%(a)s",
    }
)


def post_worker_init(worker: Any) -> None:
    """A new worker imports the views and compiles the upload's checks before it takes a
    request (config.wsgi.warm_up): its first upload is then as quick as the rest."""
    from config.wsgi import warm_up

    warm_up()


def child_exit(server: Any, worker: Any) -> None:
    """With PROMETHEUS_MULTIPROC_DIR, drop a dead worker's live gauges from /metrics."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
