"""Benchmark a club's books and pages at 10k, 100k (and 1M) rounds, in one database that also
holds the other clubs, against the database of DATABASE_URL (docs/scaling.md, issue 28).

Goals: standings, ledger, player statistics, leaderboard, match list and match page each
p95 < 150 ms at 1M rounds (cache cold); the p50 of each at 100k ≤ 2 × its p50 at 10k; a web
process below 200 MB after serving them; ≤ 330 MB of rows per 100k rounds, all told.

Setup (not timed), for each ``--sizes`` club (``Books 10000``, ``Books 100000``, …) with
fewer rounds than its size: the benchmarks' bulk copy of simulated, verified matches
(benchmarks/bench_stats.py: rounds, seat facts and payment lines copied into new matches
over the last year, other players of the pool at the table), then the statistics' day rows
and the books' rows (analysis.books.rebuild_club) rebuilt for the club. Each club is every
other club's neighbour: the books must not read the neighbours' rows.

Timed, in a fresh process (``--serve``: the web process whose peak RSS is reported), each
club in turn, the cache cleared before each request, through Django's test client (view,
serializer, template, no network): the season standings (API), the ledger (API), a random
player's statistics (API), the leaderboard (API), the match list page and a match page.
The reference in the same run: the standings and the ledger computed as main computed them
before the books' rows (from the settlements of every counted match: ``_summed_standings``,
``_summed_ledger``), as functions. Then each table's ``pg_total_relation_size`` per 100k
rounds (the clubs' share of each table, by rows).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/xz_scale_books \\
        python benchmarks/bench_books.py [--sizes 10000 100000] [--requests 40]
"""

from __future__ import annotations

import argparse
import math
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.db.models import Q, Sum  # noqa: E402
from django.test import Client  # noqa: E402

from analysis import books  # noqa: E402
from analysis.league import selectors, services  # noqa: E402
from analysis.models import BookMatch, Season, SeatResult  # noqa: E402
from analysis.stats import aggregates  # noqa: E402
from records import services as records_services  # noqa: E402
from records.models import Club, Match, Player  # noqa: E402

GOAL_MS = 150.0
RSS_GOAL_MB = 200.0


def main() -> int:
    args = _arguments()
    if args.serve:
        return _serve(args)
    call_command("migrate", verbosity=0)
    user = get_user_model().objects.get_or_create(username="bench")[0]
    for size in args.sizes:
        _make_club(size, user, args)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    _storage(args.sizes)
    command = [sys.executable, __file__, "--serve", "--requests", str(args.requests),
               "--sizes", *map(str, args.sizes)]
    return subprocess.call(command)


def _make_club(size: int, user: Any, args: argparse.Namespace) -> Club:
    import bench_stats  # the benchmarks' bulk copy

    name = f"Books {size}"
    club = Club.objects.filter(name=name).first() or records_services.create_club(
        name=name, owner=user
    )
    have = SeatResult.objects.filter(club=club).count() // 4
    if have < size:
        fill = argparse.Namespace(
            rounds=size, players=args.players, templates=args.templates,
            rounds_per_match=args.rounds_per_match, seed=args.seed + size,
        )
        bench_stats._fill(club, user, fill, have)
        started = time.perf_counter()
        with transaction.atomic():
            aggregates.rebuild_club(club.pk)
        print(f"{name}: statistics rebuilt in {time.perf_counter() - started:.0f} s",
              file=sys.stderr)
    if have < size or not BookMatch.objects.filter(club=club).exists():
        started = time.perf_counter()
        with transaction.atomic():
            books.rebuild_club(club.pk)
        print(f"{name}: books rebuilt in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    ruleset = Match.objects.filter(club=club).values_list("ruleset", flat=True).first()
    if not Season.objects.filter(club=club, name="Year").exists():
        today = datetime.now(UTC).date()
        services.save_season(
            club=club, by=user, name="Year", starts_on=today - timedelta(days=366),
            ends_on=today + timedelta(days=1), ruleset=ruleset,
            tie_breaks=["wins", "net_per_round"],
        )
    return club


def _serve(args: argparse.Namespace) -> int:
    """Time every endpoint of each club (this process is the web process measured)."""
    user = get_user_model().objects.get(username="bench")
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(user)
    print(f"load average {_load()} at the start")
    medians: dict[str, dict[int, float]] = defaultdict(dict)
    for size in args.sizes:
        _time_club(size, client, args, medians)
    if len(args.sizes) > 1:
        small, large = args.sizes[0], args.sizes[1]
        print(f"\np50 at {large} / p50 at {small} (goal ≤ 2 for the endpoints):")
        for name, by_size in medians.items():
            print(f"  {name:30s} {by_size[large] / by_size[small]:.2f}x")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    verdict = "ok" if rss < RSS_GOAL_MB else "ABOVE GOAL"
    print(f"\nweb process peak RSS {rss:.0f} MB (goal < {RSS_GOAL_MB:.0f}: {verdict})")
    print(f"load average {_load()} at the end")
    return 0


def _time_club(size: int, client: Client, args: argparse.Namespace,
               medians: dict[str, dict[int, float]]) -> None:
    club = Club.objects.get(name=f"Books {size}")
    season = Season.objects.get(club=club, name="Year")
    rounds = SeatResult.objects.filter(club=club).count() // 4
    matches = Match.objects.filter(club=club).count()
    print(f"\n{club.name}: {rounds} rounds, {matches} matches "
          f"({SeatResult.objects.count() // 4} rounds in the database)")
    rng = random.Random(size)
    players = list(Player.objects.filter(club=club).values_list("pk", flat=True))
    match_ids = list(Match.objects.filter(club=club).values_list("pk", flat=True)[:500])
    api = f"/api/v1/clubs/{club.pk}/"
    urls = {
        "standings": lambda: api + f"seasons/{season.pk}/standings/",
        "ledger": lambda: api + "ledger/",
        "player stats": lambda: api + f"players/{rng.choice(players)}/stats/",
        "leaderboard": lambda: api + "leaderboard/?min_rounds=30&stat=net_per_round",
        "match list page": lambda: f"/clubs/{club.pk}/matches/",
        "match page": lambda: f"/clubs/{club.pk}/matches/{rng.choice(match_ids)}/",
    }
    for name, url in urls.items():
        ms = _time(args.requests, lambda url=url: client.get(url()))  # type: ignore[misc]
        medians[name][size] = statistics.median(ms)
        _report(name, ms)
    summed = {
        "standings, summed (main)": lambda: _summed_standings(season),
        "standings, books (function)": lambda: selectors.standings(season),
        "ledger, summed (main)": lambda: _summed_ledger(club),
        "ledger, books (function)": lambda: selectors.club_ledger(club),
    }
    for name, call in summed.items():
        ms = _time(max(5, args.requests // 4), call)
        medians[name][size] = statistics.median(ms)
        _report(name, ms)


def _storage(sizes: list[int]) -> None:
    """Each table's total size (heap, TOAST, indexes) per 100k rounds of the database."""
    if connection.vendor != "postgresql":
        return
    rounds = SeatResult.objects.count() // 4 or 1
    tables = [
        "records_match", "records_round", "records_seat", "analysis_verification",
        "analysis_violation", "analysis_roundsettlement", "analysis_payment",
        "analysis_seatresult", "analysis_playerday", "analysis_playerdaypattern",
        "analysis_pairday", "analysis_playermatch", "analysis_bookmatch", "analysis_bookday",
    ]
    print(f"storage per 100k rounds ({rounds} rounds in the database; the copies carry an "
          "empty document):")
    total = 0.0
    with connection.cursor() as cursor:
        for table in tables:
            cursor.execute("SELECT pg_total_relation_size(%s)", [table])
            per = cursor.fetchone()[0] / rounds * 100_000 / 2**20
            total += per
            print(f"  {table:28s} {per:8.1f} MB")
    print(f"  {'all told':28s} {total:8.1f} MB")


# --- the reference: the books as main computed them, from the settlements ---


def _summed_standings(season: Season) -> list[selectors.Row]:
    """main's standings: every counted match's ids, the settlement aggregates over them,
    the ranking run twice (movement)."""
    in_dates = Match.objects.filter(
        club=season.club, played_at__date__gte=season.starts_on,
        played_at__date__lte=season.ends_on, ruleset_name=season.ruleset_name,
    )
    dated = [pk for pk, rules in in_dates.values_list("pk", "ruleset") if rules == season.ruleset]
    ids = sorted(Match.objects.filter(pk__in=dated).filter(selectors.counted(False))
                 .values_list("pk", flat=True))
    results = selectors.match_results(ids)
    handles = dict(Player.objects.filter(club=season.club).values_list("pk", "handle"))
    rows = selectors.compute_rows(season, results, handles)
    days = sorted({r.day for r in results})
    if len(days) > 1:
        before = [r for r in results if r.day < days[-1]]
        selectors.compute_rows(season, before, handles)
    return rows


def _summed_ledger(club: Club) -> dict[int, int]:
    """main's ledger read: every counted match's ids, the seat deltas of complete rounds."""
    ids = list(Match.objects.filter(club=club).filter(selectors.counted(True))
               .values_list("pk", flat=True))
    played = SeatResult.objects.filter(
        Q(round__match_id__in=ids, round__settlement__incomplete=False)
    )
    return dict(played.values("player_id").annotate(n=Sum("delta")).values_list("player_id", "n"))


# --- timing ---


def _time(n: int, request: Any) -> list[float]:
    request()  # warm up (imports, the first query plans)
    times = []
    for _ in range(n):
        cache.clear()
        start = time.perf_counter()
        response = request()
        times.append((time.perf_counter() - start) * 1000)
        status = getattr(response, "status_code", 200)
        assert status == 200, getattr(response, "content", b"")[:300]
    return times


def _p95(ms: list[float]) -> float:
    return sorted(ms)[math.ceil(0.95 * len(ms)) - 1]  # nearest rank


def _report(name: str, ms: list[float]) -> None:
    p95 = _p95(ms)
    verdict = "ok" if p95 < GOAL_MS else "above 150"
    print(f"  {name:30s} n={len(ms):3d} p50 {statistics.median(ms):8.1f} p95 {p95:8.1f} "
          f"max {max(ms):8.1f} ms ({verdict})")


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--templates", type=int, default=40, help="simulated matches to copy")
    parser.add_argument("--rounds-per-match", type=int, default=8)
    parser.add_argument("--requests", type=int, default=40)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--serve", action="store_true", help="time only (the web process)")
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(main())
