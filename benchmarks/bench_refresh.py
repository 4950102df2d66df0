"""Benchmark what a first verification adds to keep the statistics' day rows in step
(``analysis.stats.aggregates.refresh_match``), against the database of DATABASE_URL.

Setup (not timed), when the club ``Refresh club`` is not there yet: the verified matches
of ``load_simulated`` (the templates) are copied in bulk (``bench_stats._copy``) into
``--matches`` matches of the same ``--players`` players, all played on one day, and the
club's day rows are rebuilt: a club night (or a bulk import) that far along. Then
``--samples`` more copies of the same day are made and left uncounted, as matches are
between their upload and their verification.

For each of those, in a transaction rolled back afterwards (the data stays as it is), it
times both ways of counting it, one after the other under the same load:

- ``rebuild``: lock and rebuild the (player, day) keys it touches from all their seat
  rows — what every verification did before, and what a reverify still does;
- ``add``: ``refresh_match`` — a first verification, adding the match's own sums.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/xz_statsdb_refresh \\
        python benchmarks/bench_refresh.py [--matches 1000] [--players 4] [--samples 30]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_stats import _copy, _load, _template  # sets Django up, so first
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection, transaction
from django.db.models.functions import TruncDate

from analysis.models import PairDay, PlayerDay, PlayerDayPattern, PlayerMatch, SeatResult
from analysis.stats import aggregates
from records import services
from records.models import Club, Match, Player

CLUB = "Refresh club"
NIGHT = datetime(2026, 11, 3, 11, 0, tzinfo=UTC)  # 19:00 in Chengdu


def main() -> int:
    args = _arguments()
    if connection.vendor != "postgresql":
        print(f"note: running on {connection.vendor}, not PostgreSQL", file=sys.stderr)
    call_command("migrate", verbosity=0)
    club = Club.objects.filter(name=CLUB).first() or _fill(args)
    counted = PlayerMatch.objects.filter(club=club).values("match_id")
    fresh = list(
        Match.objects.filter(club=club).exclude(pk__in=counted).values_list("pk", flat=True)
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    print(
        f"{CLUB}: {Match.objects.filter(club=club).count() - len(fresh)} matches counted on "
        f"one day, {SeatResult.objects.filter(club=club).count()} seat rows, "
        f"{len(fresh)} uncounted; load average {_load()} at the start"
    )
    times: dict[str, list[float]] = {"add": [], "rebuild": []}
    for match_id in fresh:
        for way in times:  # the same match, one way after the other
            with transaction.atomic():
                start = time.perf_counter()
                if way == "add":
                    aggregates.refresh_match(match_id)
                else:
                    keys = set(
                        SeatResult.objects.filter(match_id=match_id)
                        .annotate(day=TruncDate("played_at"))
                        .values_list("player_id", "day")
                    )
                    aggregates._lock(keys)
                    aggregates.rebuild_keys(club.pk, keys)
                times[way].append((time.perf_counter() - start) * 1000)
                transaction.set_rollback(True)
        _vacuum()
    for way, ms in times.items():
        print(
            f"{way:8s} n={len(ms)} min {min(ms):.1f} median {statistics.median(ms):.1f} "
            f"max {max(ms):.1f} ms"
        )
    ratio = statistics.median(times["rebuild"]) / statistics.median(times["add"])
    print(f"median rebuild / add: {ratio:.0f}x; load average {_load()} at the end")
    return 0


def _vacuum() -> None:
    """A rolled-back rebuild leaves its thousands of deleted and inserted rows dead in the
    day tables, which the next sample would wade through: clear them, as autovacuum does
    between the commits of a real club night."""
    if connection.vendor == "postgresql":
        tables = (PlayerDay, PlayerDayPattern, PairDay, PlayerMatch)
        with connection.cursor() as cursor:
            cursor.execute("VACUUM " + ", ".join(m._meta.db_table for m in tables))


def _fill(args: argparse.Namespace) -> Club:
    """The club night: --matches counted copies and --samples uncounted ones, one day."""
    sim = Club.objects.filter(name="Simulated club").first()
    if sim is None:
        call_command(
            "load_simulated", "--rounds", str(args.templates * 8), "--players", "8",
            "--rounds-per-match", "8", "--seed", "11",
        )  # fmt: skip
        sim = Club.objects.get(name="Simulated club")
    templates = [
        _template(pk)
        for pk in Match.objects.filter(club=sim, status="verified").values_list("pk", flat=True)
    ]
    user = get_user_model().objects.get_or_create(username="bench")[0]
    club = services.create_club(name=CLUB, owner=user)
    pool = [Player.objects.get_or_create(club=club, handle=f"r{k}")[0] for k in range(args.players)]
    rng = random.Random(args.seed)

    def copies(n: int, tag: str) -> None:
        for start in range(0, n, 250):
            batch = [
                (
                    rng.choice(templates),
                    rng.sample(pool, 4),
                    NIGHT + timedelta(minutes=k * 0.7),
                    f"refresh-{tag}-{k}",
                )
                for k in range(start, min(n, start + 250))
            ]
            with transaction.atomic():
                _copy(club, batch)

    copies(args.matches, "counted")
    with transaction.atomic():
        aggregates.rebuild_club(club.pk)
    copies(args.samples, "fresh")
    return club


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000, help="counted, on one day")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--samples", type=int, default=30, help="first verifications timed")
    parser.add_argument("--templates", type=int, default=20)
    parser.add_argument("--seed", type=int, default=5)
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(main())
