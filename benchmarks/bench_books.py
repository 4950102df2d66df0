"""Benchmark a club's books and pages at 10k, 100k (and 1M) rounds, in one database that also
holds the other clubs, against the database of DATABASE_URL (docs/scaling.md, issue 28).

Goals: standings, ledger, player statistics, leaderboard, match list and match page each
p95 < 150 ms at 1M rounds (cache cold); the p50 of each at 100k ≤ 2 × its p50 at 10k; a web
process below 200 MB after serving them; ≤ 330 MB of rows per 100k rounds, all told.

Setup (not timed), for each ``--sizes`` club (``Books 10000``, ``Books 100000``, …) with
fewer rounds than its size: the benchmarks' bulk copy of simulated, verified matches
(benchmarks/bench_stats.py: rounds and seat facts copied into new matches
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
from django.db import DatabaseError, connection, transaction  # noqa: E402
from django.db.models import Q, Sum  # noqa: E402
from django.test import Client  # noqa: E402

from analysis import books  # noqa: E402
from analysis.league import selectors, services  # noqa: E402
from analysis.models import BookMatch, Season, SeatResult  # noqa: E402
from analysis.stats import aggregates  # noqa: E402
from records import services as records_services  # noqa: E402
from records.models import (  # noqa: E402
    Club,
    Match,
    Player,
    ruleset_key,
    ruleset_rules,
    store_ruleset,
)
from xuezhan.rules import Rules  # noqa: E402

GOAL_MS = 150.0
RSS_GOAL_MB = 200.0


def main() -> int:
    args = _arguments()
    if args.serve:
        return _serve(args)
    if args.synthetic:
        return _synthetic(args)
    if args.write_cost:
        return _write_cost(args)
    call_command("migrate", verbosity=0)
    user = get_user_model().objects.get_or_create(username="bench")[0]
    for size in args.sizes:
        _make_club(size, user, args)
    with connection.cursor() as cursor:
        # as autovacuum leaves a table that has settled: the visibility map set, so that a
        # count (the match list's pages) reads the index alone, and the sizes without the
        # dead rows of the load's updates
        cursor.execute("VACUUM ANALYZE")
    _storage(args.sizes)
    command = [sys.executable, __file__, "--serve", "--requests", str(args.requests),
               "--sizes", *map(str, args.sizes)]
    return subprocess.call(command)


def _make_club(size: int, user: Any, args: argparse.Namespace) -> Club:
    if args.loader == "simulated":
        return _load_simulated(size, user, args)
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
    ruleset = ruleset_rules(
        Match.objects.filter(club=club).values_list("stored_ruleset_id", flat=True).first())
    if not Season.objects.filter(club=club, name="Year").exists():
        today = datetime.now(UTC).date()
        services.save_season(
            club=club, by=user, name="Year", starts_on=today - timedelta(days=366),
            ends_on=today + timedelta(days=1), ruleset=ruleset,
            tie_breaks=["wins", "net_per_round"],
        )
    return club


def _load_simulated(size: int, user: Any, args: argparse.Namespace) -> Club:
    """The club made as `manage.py load_simulated --bulk` makes one (documents, reports,
    reviews, statistics and books as uploads and the verification write them), the
    benchmark's user a member of it, and its season of the year."""
    from records.models import Membership

    name = f"Books {size}"
    started = time.perf_counter()
    call_command(
        "load_simulated", bulk=True, rounds=size, distinct=args.templates, club=name,
        players=args.players, weeks=52, seed=args.seed + size,
        rounds_per_match=args.rounds_per_match, stdout=sys.stderr,
    )  # fmt: skip
    print(f"{name}: loaded in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    club = Club.objects.get(name=name, memberships__user__username="sim-owner")
    Membership.objects.get_or_create(club=club, user=user, defaults={"role": "admin"})
    if not Season.objects.filter(club=club, name="Year").exists():
        today = datetime.now(UTC).date()
        ruleset = ruleset_rules(Match.objects.filter(club=club)
                                .values_list("stored_ruleset_id", flat=True).first())
        services.save_season(
            club=club, by=user, name="Year", starts_on=today - timedelta(days=366),
            ends_on=today + timedelta(days=1), ruleset=ruleset,
            tie_breaks=["wins", "net_per_round"],
        )  # fmt: skip
    return club


def _peak_rss_mb() -> float:
    """This process's own peak resident memory: the high-water mark of its memory map
    (``VmHWM``), not ``getrusage``'s ``ru_maxrss``, which Linux carries over an exec — the
    serving process started by the loading one would report the loader's peak."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM in /proc/self/status (not Linux?)")


def _serve(args: argparse.Namespace) -> int:
    """Time every endpoint of each club (this process is the web process measured)."""
    user = get_user_model().objects.get(username="bench")
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(user)
    print(f"load average {_load()} at the start")
    medians: dict[str, dict[int, float]] = defaultdict(dict)
    for size in args.sizes:
        _time_club(size, client, args, medians)
    # the web's own peak, before the references (main's summing held ~1.2 GB at 1M rounds)
    rss = _peak_rss_mb()
    verdict = "ok" if rss < RSS_GOAL_MB else "ABOVE GOAL"
    print(f"\nweb process peak RSS {rss:.0f} MB after the endpoints (goal < {RSS_GOAL_MB:.0f}: "
          f"{verdict})")
    print("\nthe reference: the books as main computed them, as functions")
    for size in args.sizes:
        _time_references(size, args, medians)
    if len(args.sizes) > 1:
        small, large = args.sizes[0], args.sizes[1]
        print(f"\np50 at {large} / p50 at {small} (goal ≤ 2 for the endpoints):")
        for name, by_size in medians.items():
            print(f"  {name:30s} {by_size[large] / by_size[small]:.2f}x")
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


def _time_references(size: int, args: argparse.Namespace,
                     medians: dict[str, dict[int, float]]) -> None:
    club = Club.objects.get(name=f"Books {size}")
    season = Season.objects.get(club=club, name="Year")
    print(f"{club.name}:")
    summed = {
        "standings, summed (main)": lambda: _summed_standings(season),
        "standings, books (function)": lambda: selectors.standings(season),
        "ledger, summed (main)": lambda: _summed_ledger(club),
        "ledger, books (function)": lambda: selectors.club_ledger(club),
    }
    for name, call in summed.items():
        try:
            ms = _time(max(5, args.requests // 4), call)
        except DatabaseError as exc:  # main's id lists pass PostgreSQL's 65,535 parameters
            print(f"  {name:30s} fails: {str(exc).splitlines()[0]}")
            continue
        medians[name][size] = statistics.median(ms)
        _report(name, ms)


def _storage(sizes: list[int]) -> None:
    """Each table's total size (heap, TOAST, indexes) per 100k rounds of the database."""
    if connection.vendor != "postgresql":
        return
    rounds = SeatResult.objects.count() // 4 or 1
    tables = [
        "records_match", "records_ruleset", "records_round", "records_seat",
        "analysis_verification", "analysis_violation", "analysis_roundsettlement",
        "analysis_seatresult", "analysis_playerday", "analysis_playerdaypattern",
        "analysis_pairday", "analysis_playermatch", "analysis_bookmatch", "analysis_bookday",
    ]  # fmt: skip
    print(f"storage per 100k rounds ({rounds} rounds in the database; bench_stats' copies "
          "(--loader copy) carry an empty document, load_simulated's the uploads' own):")
    total = 0.0
    with connection.cursor() as cursor:
        for table in tables:
            cursor.execute("SELECT pg_total_relation_size(%s)", [table])
            per = cursor.fetchone()[0] / rounds * 100_000 / 2**20
            total += per
            print(f"  {table:28s} {per:8.1f} MB")
    print(f"  {'all told':28s} {total:8.1f} MB")


# --- what the books add to a verification ---


def _write_cost(args: argparse.Namespace) -> int:
    """Verify batches of 8 verified matches again (``verify_matches(force=True)``, as the
    worker's batches; rolled back), timing ``books.refresh_matches`` inside it: the books'
    share of a verification. Needs matches with documents (a ``load_simulated`` club)."""
    from analysis import services as verification

    ids = list(Match.objects.filter(status="verified").exclude(raw_sha256="")
               .values_list("pk", flat=True))
    rng = random.Random(args.seed)
    spent: list[float] = []
    refresh = books.refresh_matches

    def timed(match_ids: Any) -> None:
        start = time.process_time()
        refresh(match_ids)
        spent.append((time.process_time() - start) * 1000)

    books.refresh_matches = timed  # type: ignore[assignment]
    totals = []
    print(f"load average {_load()} at the start; {len(ids)} matches to draw from")
    for _ in range(args.write_cost):
        batch = rng.sample(ids, 8)
        with transaction.atomic():
            start = time.process_time()
            verification.verify_matches(match_ids=batch, force=True)
            totals.append((time.process_time() - start) * 1000)
            transaction.set_rollback(True)
    books.refresh_matches = refresh  # type: ignore[assignment]
    share = sum(spent) / sum(totals)
    print(f"verify_matches of 8 (CPU): median {statistics.median(totals):.1f} ms; "
          f"books.refresh_matches in it: median {statistics.median(spent):.1f} ms, "
          f"{share:.1%} of the verification's CPU ({len(totals)} batches)")
    print(f"load average {_load()} at the end")
    return 0


# --- clubs of the books' rows alone, at any size in seconds ---

SYNTHETIC_PLAYERS = 40


def _synthetic(args: argparse.Namespace) -> int:
    """Clubs of ``Match`` and books' rows only (no documents, settlements nor seat rows),
    made in SQL: the standings and ledger API at 10k to 1M rounds in minutes. Each match
    is 8 rounds of 4 of the 40 players with random zero-sum nets."""
    call_command("migrate", verbosity=0)
    user = get_user_model().objects.get_or_create(username="bench")[0]
    ruleset = Rules.from_json("chengdu").to_json()
    clubs = []
    for size in args.synthetic:
        name = f"Synthetic {size}"
        club = Club.objects.filter(name=name).first()
        if club is None:
            club = records_services.create_club(name=name, owner=user)
            started = time.perf_counter()
            with transaction.atomic():
                _synthesise(club, size // 8, ruleset)
            print(f"{name}: made in {time.perf_counter() - started:.0f} s", file=sys.stderr)
        if not Season.objects.filter(club=club, name="Year").exists():
            today = datetime.now(UTC).date()
            services.save_season(
                club=club, by=user, name="Year", starts_on=today - timedelta(days=366),
                ends_on=today + timedelta(days=1), ruleset=ruleset,
                tie_breaks=["wins", "net_per_round"],
            )
        clubs.append((size, club))
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(user)
    print(f"load average {_load()} at the start; "
          f"{BookMatch.objects.count()} match rows in the database")
    medians: dict[str, dict[int, float]] = defaultdict(dict)
    for size, club in clubs:
        season = Season.objects.get(club=club, name="Year")
        print(f"\n{club.name}: {Match.objects.filter(club=club).count()} matches")
        api = f"/api/v1/clubs/{club.pk}/"
        for name, url in (("standings", api + f"seasons/{season.pk}/standings/"),
                          ("ledger", api + "ledger/"),
                          ("ledger of a month", api + "ledger/?from=2026-09-01&to=2026-09-30")):
            ms = _time(args.requests, lambda url=url: client.get(url))  # type: ignore[misc]
            medians[name][size] = statistics.median(ms)
            _report(name, ms)
    sizes = [size for size, _ in clubs]
    for name, by_size in medians.items():
        ratios = ", ".join(f"{s}: {by_size[s] / by_size[sizes[0]]:.2f}x" for s in sizes[1:])
        print(f"  p50 of {name} against {sizes[0]}: {ratios}")
    rss = _peak_rss_mb()
    print(f"\nprocess peak RSS {rss:.0f} MB; load average {_load()} at the end")
    return 0


def _synthesise(club: Club, matches: int, ruleset: Any) -> None:
    players = [p.pk for p in Player.objects.bulk_create(
        Player(club=club, handle=f"s{k:03d}") for k in range(SYNTHETIC_PLAYERS)
    )]
    key = store_ruleset(ruleset)
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO records_match (raw, raw_sha256, content_sha256, stored_ruleset_id,"
            " ruleset_name, played_at, uploaded_at, status, status_changed_at, attempts,"
            " last_error, club_id, lease_owner)"
            " SELECT '{}', '', 'syn-' || g, %s, 'chengdu',"
            " now() - random() * interval '365 days', now(), 'verified', now(), 1, '', %s, ''"
            " FROM generate_series(1, %s) AS g",
            [key, club.pk, matches],
        )
        # four distinct players a match: a step coprime to 40 from a random base
        cursor.execute(
            "WITH m AS (SELECT id, played_at, floor(random() * 40)::int AS base,"
            " (ARRAY[1, 3, 7, 9, 11, 13])[1 + floor(random() * 6)::int] AS step,"
            " (random() * 60 - 30)::int AS a, (random() * 60 - 30)::int AS b,"
            " (random() * 60 - 30)::int AS c FROM records_match WHERE club_id = %s),"
            " s AS (SELECT m.id, m.played_at, k AS seat,"
            " (%s::bigint[])[1 + (m.base + k * m.step) %% 40] AS player,"
            " CASE k WHEN 0 THEN a WHEN 1 THEN b WHEN 2 THEN c ELSE -(a + b + c) END AS net"
            " FROM m CROSS JOIN generate_series(0, 3) AS k)"
            " INSERT INTO analysis_bookmatch (match_id, club_id, player_id, seat, kind,"
            " ruleset_key, played_at, \"when\", day, rounds, net, deal_ins, place, span, vs)"
            " SELECT id, %s, player, seat, 'v', %s, played_at, played_at,"
            " (played_at AT TIME ZONE 'UTC')::date, 8, net, floor(random() * 3)::int,"
            " rank() OVER (PARTITION BY id ORDER BY net DESC),"
            " count(*) OVER (PARTITION BY id, net), '[0, 0, 0, 0]'::jsonb FROM s",
            [club.pk, players, club.pk, key],
        )
        shares = ", ".join(
            f"sum(CASE WHEN place <= {k} AND {k} < place + span THEN 12 / span ELSE 0 END)"
            for k in range(1, 5)
        )
        places = ", ".join(f"count(*) FILTER (WHERE place = {k})" for k in range(1, 5))
        cursor.execute(
            "INSERT INTO analysis_bookday (club_id, ruleset_key, day, kind, dated, player_id,"
            " matches, east, rounds, net, deal_ins, first, second, third, fourth, share_1,"
            " share_2, share_3, share_4)"
            " SELECT club_id, ruleset_key, day, kind, true, player_id, count(*),"
            f" count(*) FILTER (WHERE seat = 0), sum(rounds), sum(net), sum(deal_ins), {places},"
            f" {shares} FROM analysis_bookmatch WHERE club_id = %s"
            " GROUP BY club_id, ruleset_key, day, kind, player_id",
            [club.pk],
        )


# --- the reference: the books as main computed them, from the settlements ---


def _summed_standings(season: Season) -> list[selectors.Row]:
    """main's standings: every counted match's ids, the settlement aggregates over them,
    the ranking run twice (movement)."""
    in_dates = Match.objects.filter(
        club=season.club, played_at__date__gte=season.starts_on,
        played_at__date__lte=season.ends_on, ruleset_name=season.ruleset_name,
    )
    dated = list(in_dates.filter(stored_ruleset_id=ruleset_key(season.ruleset))
                 .values_list("pk", flat=True))
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
    parser.add_argument(
        "--loader", choices=["simulated", "copy"], default="simulated",
        help="simulated: load_simulated --bulk (documents and reports as uploads have them); "
        "copy: bench_stats' bulk copy (empty documents)",
    )  # fmt: skip
    parser.add_argument(
        "--write-cost", type=int, default=0,
        help="batches of 8 matches verified again (rolled back): the books' share of it",
    )
    parser.add_argument(
        "--synthetic", type=int, nargs="*",
        help="round counts of clubs made of the books' rows alone (SQL), e.g. 10000 1000000",
    )
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(main())
