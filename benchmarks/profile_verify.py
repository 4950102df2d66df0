"""Profile the verification task in-process: CPU and queries per match, and where they go.

On a PostgreSQL database of its own (``--database``, dropped and created, migrated) with
the production settings and Redis (``--redis``: the broker and the cache; the messages go
to queues of its own, emptied at the end, so a worker on the same Redis ignores them), it
uploads ``--warm`` + ``--matches`` matches of the pipeline benchmark's corpus
(var/bench/, bench_pipeline.py makes it) through ``records.services.upload_match`` with
the verification's enqueueing switched off (not timed), verifies the ``--warm`` first (a
warm process), then runs the verification task's body (``analysis.tasks._verify``, the
after-commit hooks included: the review's and the ratings' messages are published) on
each of the others, on this process's CPU clock, and the review task
(``analysis.tasks.review_match``) on ``--reviews`` of them. With ``--profile`` it prints
the cProfile of the verifications, by cumulative time.

PostgreSQL's own CPU and Celery's per-message work in a worker are not included:
bench_pipeline.py measures those (its "worker alone" and "CPU per match" lines).

    python benchmarks/profile_verify.py [--matches 100] [--warm 20] [--reviews 10]
        [--database xz_prof_verify] [--redis redis://127.0.0.1:6379/10] [--profile 40]
"""

from __future__ import annotations

import argparse
import cProfile
import gzip
import json
import os
import pstats
import secrets
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    args = _arguments()
    _environment(args)
    _recreate(args.database)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    docs = _corpus(args.warm + args.matches)
    ids = _upload(docs)
    warm, timed = ids[: args.warm], ids[args.warm :]
    for match_id in warm:
        _verify(match_id)
    from analysis import services
    engine = _timed(services, "_run_engine")
    cpu, wall, queries, profile = _measure(timed, args.profile > 0)
    n = len(timed)
    print(f"load average {_load()}; {n} verifications after {len(warm)} warm ones")
    print(f"verification task body: {1000 * cpu / n:.1f} ms CPU (the engine's replay and play"
          f" facts {1000 * engine() / n:.1f} ms of it), {1000 * wall / n:.1f} ms wall,"
          f" {queries / n:.1f} queries per match")
    if args.reviews:
        _reviews(timed[: args.reviews])
    if profile is not None:
        stats = pstats.Stats(profile).strip_dirs().sort_stats("cumulative")
        stats.print_stats(args.profile)
        stats.sort_stats("tottime").print_stats(args.profile)
    if not args.keep:
        from django.db import connections

        connections.close_all()
        _drop(args.database)
    _forget_queues(args.redis)
    return 0


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--warm", type=int, default=20)
    parser.add_argument("--reviews", type=int, default=10)
    parser.add_argument("--database", default="xz_prof_verify")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/10")
    parser.add_argument("--profile", type=int, default=0, help="print this many cProfile lines")
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    return parser.parse_args()


def _environment(args: argparse.Namespace) -> None:
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.production",
        SECRET_KEY=secrets.token_urlsafe(50),
        DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{args.database}",
        CELERY_BROKER_URL=args.redis,
        CACHE_URL=args.redis,
        ALLOWED_HOSTS="127.0.0.1",
        HTTPS_ONLY="False",
        LOG_LEVEL="WARNING",
        CELERY_QUEUE=QUEUES[0],
        CELERY_REVIEW_QUEUE=QUEUES[1],
        XUEZHAN_VAR_DIR=str(ROOT / "var" / "bench"),
    )
    os.environ.pop("PROMETHEUS_MULTIPROC_DIR", None)


def _admin(sql: str) -> None:
    import psycopg

    with psycopg.connect("host=127.0.0.1 user=postgres dbname=postgres", autocommit=True) as c:
        c.execute(sql)


def _recreate(name: str) -> None:
    _drop(name)
    _admin(f'CREATE DATABASE "{name}"')


def _drop(name: str) -> None:
    _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


#: the queues its messages go to, which no worker consumes
QUEUES = ("profile-verify", "profile-review")


def _forget_queues(url: str) -> None:
    import redis

    redis.Redis.from_url(url).delete(*QUEUES)


def _corpus(n: int) -> list[dict[str, Any]]:
    for made in sorted((ROOT / "var" / "bench").glob("pipeline-8r-13-*.json.gz")):
        docs: list[dict[str, Any]] = json.loads(gzip.decompress(made.read_bytes()))
        if len(docs) >= n:
            return docs[:n]
    raise SystemExit("no corpus of enough matches in var/bench/: run bench_pipeline.py first")


def _upload(docs: list[dict[str, Any]]) -> list[int]:
    """Upload the documents with the verification's enqueueing switched off."""
    from django.contrib.auth.models import User

    from records import services
    from records.signals import match_needs_verifying

    user = User.objects.create_user("profile", password=None)
    club = services.create_club(name="Profile", owner=user)
    receivers = match_needs_verifying.receivers
    match_needs_verifying.receivers = []
    try:
        return [
            services.upload_match(
                club=club, raw=json.dumps(d, ensure_ascii=False).encode(), uploaded_by=user
            ).match.pk
            for d in docs
        ]
    finally:
        match_needs_verifying.receivers = receivers
        match_needs_verifying.sender_receivers_cache.clear()


def _timed(module: Any, name: str) -> Callable[[], float]:
    """Wrap ``module.name`` to add up its CPU time; returns the reader of the sum."""
    wrapped = getattr(module, name)
    spent = 0.0

    def timed(*args: Any, **kwargs: Any) -> Any:
        nonlocal spent
        started = time.process_time()
        try:
            return wrapped(*args, **kwargs)
        finally:
            spent += time.process_time() - started

    setattr(module, name, timed)
    return lambda: spent


def _verify(match_id: int) -> str:
    from analysis import tasks

    return tasks._verify(match_id, owner=f"profile-{match_id}")


def _measure(ids: list[int], profiled: bool) -> tuple[float, float, int, cProfile.Profile | None]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from records.models import Match

    profile = cProfile.Profile(time.process_time) if profiled else None  # CPU, not waits
    backend = _backend_cpu()
    with CaptureQueriesContext(connection) as captured:
        cpu, wall = time.process_time(), time.perf_counter()
        for match_id in ids:
            if profile is not None:
                profile.enable()
            outcome = _verify(match_id)
            if profile is not None:
                profile.disable()
            # skipped: taken into an earlier task's batch (VERIFY_BATCH_SIZE)
            assert outcome in ("verified", "illegal", "skipped"), outcome
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    left = Match.objects.filter(pk__in=ids).exclude(status__in=("verified", "illegal"))
    assert not left.exists(), list(left.values_list("pk", "status"))
    print(f"PostgreSQL backend: {1000 * (_backend_cpu() - backend) / len(ids):.1f} ms CPU"
          " per match")
    return cpu, wall, len(captured.captured_queries), profile


def _backend_cpu() -> float:
    """The CPU seconds of this connection's PostgreSQL backend (same host: /proc)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _reviews(ids: list[int]) -> None:
    """The review task on matches verified, and what of it is not the review itself."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from analysis import services, tasks

    summary = services._review_summary
    engine = 0.0

    def timed_summary(document: Any) -> Any:
        nonlocal engine
        started = time.process_time()
        try:
            return summary(document)
        finally:
            engine += time.process_time() - started

    services._review_summary = timed_summary  # type: ignore[assignment]
    try:
        with CaptureQueriesContext(connection) as captured:
            started = time.process_time()
            for match_id in ids:
                assert tasks.review_match(match_id) == "stored"
            cpu = time.process_time() - started
    finally:
        services._review_summary = summary  # type: ignore[assignment]
    n = len(ids)
    print(f"review task: {1000 * cpu / n:.0f} ms CPU per match, of which the review itself "
          f"{1000 * engine / n:.0f} ms; the rest {1000 * (cpu - engine) / n:.1f} ms, "
          f"{len(captured.captured_queries) / n:.1f} queries per match")


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


if __name__ == "__main__":
    raise SystemExit(main())
