"""Benchmark the statistics endpoints on a large club, against the database of DATABASE_URL.

Goals (docs/statistics.md, "Scale"): p95 of the player stats endpoint < 150 ms and of the
leaderboard < 300 ms on PostgreSQL with 100k rounds.

Setup (not timed), when the club ``Bench club`` has fewer than ``--rounds`` rounds:

1. ``--templates`` matches are simulated by the bots and verified by the service, as
   uploads are (``manage.py load_simulated --distinct``);
2. their rounds are then copied in bulk — rounds and seat facts (with the money between
   the seats: the statistics read no payment line) — into
   new matches with other players of the ``--players`` pool at the table and dates spread
   over a year, until the club holds ``--rounds`` rounds. The copies carry an empty
   document (statistics never read it), so that 100k rounds fit in a few hundred MB.

The materialised statistics (``analysis.stats.aggregates``: per-player-per-day rows) are then
rebuilt for the club in one pass (timed: ``manage.py rebuild_facts --aggregates-only``
does the same), unless they are there already.

Then it times ``--requests`` GETs of random players' stats (with and without filters)
and of the leaderboard by random statistics, through Django's test client (the full
view, serializer and JSON rendering, no network), once reading the seat rows
(``source=facts``: the design before the day rows, the reference) and once reading the day
rows (``aggregates``, what the endpoints use), the same requests in the same order; the
leaderboard cold (cache cleared before each request) and warm. It also times
``refresh_match`` (what each verification now adds), prints min/median/p95/max in ms, the
ratios and the EXPLAIN ANALYZE of the main queries of both designs.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/xuezhan_stats_bench \\
        python benchmarks/bench_stats.py [--rounds 100000] [--players 24] [--requests 100]
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
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
from django.test import Client  # noqa: E402

from analysis.models import PlayerDay, SeatResult  # noqa: E402
from analysis.stats import (  # noqa: E402
    aggregates,
    figures,
)
from records import services  # noqa: E402
from records.models import Club, Match, Player, Round, Seat  # noqa: E402

CLUB = "Bench club"
STATS_GOAL_MS, BOARD_GOAL_MS = 150.0, 300.0
BATCH = 250  # matches copied per transaction


def main() -> int:
    args = _arguments()
    if connection.vendor != "postgresql":
        print(f"note: running on {connection.vendor}, not PostgreSQL", file=sys.stderr)
    call_command("migrate", verbosity=0)
    user = get_user_model().objects.get_or_create(username="bench")[0]
    club = Club.objects.filter(name=CLUB).first() or services.create_club(name=CLUB, owner=user)
    have = SeatResult.objects.filter(club=club).count() // 4
    if have < args.rounds:
        _fill(club, user, args, have)
    if args.rebuild or have < args.rounds or not PlayerDay.objects.filter(club=club).exists():
        started = time.perf_counter()
        with transaction.atomic():
            aggregates.rebuild_club(club.pk)
        print(f"aggregates rebuilt in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # fresh planner statistics after the bulk load
    rounds = SeatResult.objects.filter(club=club).count() // 4
    print(
        f"{CLUB}: {rounds} rounds, {Player.objects.filter(club=club).count()} players, "
        f"{PlayerDay.objects.filter(club=club).count()} day rows; "
        f"load average {_load()} at the start"
    )
    client = Client(HTTP_HOST="127.0.0.1")  # one of ALLOWED_HOSTS
    client.force_login(user)
    players = list(Player.objects.filter(club=club).values_list("pk", flat=True))
    results = {
        source: _time_source(source, client, club, players, args)
        for source in ("facts", "aggregates")
    }
    figures.DEFAULT_SOURCE = "aggregates"
    goals = {"player stats": STATS_GOAL_MS, "leaderboard cold": BOARD_GOAL_MS}
    for name in results["facts"]:
        for source in ("facts", "aggregates"):
            _report(f"{name} ({source})", results[source][name], goals.get(name, BOARD_GOAL_MS))
        ratio = _p95(results["facts"][name]) / _p95(results["aggregates"][name])
        print(f"  p95 facts / aggregates: {ratio:.1f}x")
    _report("refresh_match", _time_refresh(club, args.requests), 1000.0)
    print(f"load average {_load()} at the end")
    if args.explain:
        _explain(club, players[0])
    return 0


def _time_source(
    source: str, client: Client, club: Club, players: list[int], args: argparse.Namespace
) -> dict[str, list[float]]:
    """The endpoints' times with the figures read from ``source``."""
    figures.DEFAULT_SOURCE = source
    rng = random.Random(args.seed)  # the same requests for both sources
    keys = figures.stat_keys()
    board = f"/api/v1/clubs/{club.pk}/leaderboard/?min_rounds=30&stat="
    return {
        "player stats": _time(args.requests, lambda: client.get(_stats_url(club, rng, players))),
        "leaderboard cold": _time(
            args.requests, lambda: client.get(board + rng.choice(keys)), before=cache.clear
        ),
        "leaderboard warm": _time(args.requests, lambda: client.get(board + rng.choice(keys))),
    }


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _time_refresh(club: Club, n: int) -> list[float]:
    """``refresh_match`` of random matches (rolled back: the data stays as it is)."""
    ids = list(Match.objects.filter(club=club).values_list("pk", flat=True))
    rng = random.Random(1)
    times = []
    for match_id in rng.sample(ids, min(n, len(ids))):
        with transaction.atomic():
            start = time.perf_counter()
            aggregates.refresh_match(match_id)
            times.append((time.perf_counter() - start) * 1000)
            transaction.set_rollback(True)
    return times


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=24)
    parser.add_argument("--templates", type=int, default=40, help="simulated matches to copy")
    parser.add_argument("--rounds-per-match", type=int, default=8)
    parser.add_argument("--requests", type=int, default=100)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--no-explain", dest="explain", action="store_false")
    parser.add_argument(
        "--rebuild", action="store_true", help="rebuild the day rows even if they are there"
    )
    return parser.parse_args()


def _stats_url(club: Club, rng: random.Random, players: list[int]) -> str:
    url = f"/api/v1/clubs/{club.pk}/players/{rng.choice(players)}/stats/"
    if rng.random() < 0.5:
        start = datetime(2026, 1, 1) + timedelta(days=rng.randrange(200))
        url += f"?from={start.date()}&to={(start + timedelta(days=90)).date()}"
    return url


def _time(n: int, request: Any, before: Any = None) -> list[float]:
    request()  # warm up
    times = []
    for _ in range(n):
        if before is not None:
            before()
        start = time.perf_counter()
        response = request()
        times.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, response.content[:300]
    return times


def _p95(ms: list[float]) -> float:
    return sorted(ms)[math.ceil(0.95 * len(ms)) - 1]  # nearest rank


def _report(name: str, ms: list[float], goal: float) -> None:
    p95 = _p95(ms)
    verdict = "ok" if p95 < goal else "ABOVE GOAL"
    print(
        f"{name:30s} n={len(ms)} min {min(ms):.1f} median {statistics.median(ms):.1f} "
        f"p95 {p95:.1f} max {max(ms):.1f} ms (goal p95 < {goal:.0f}: {verdict})"
    )


def _fill(club: Club, user: Any, args: argparse.Namespace, have: int) -> None:
    """Simulated, verified templates, then bulk copies of their rows up to --rounds."""
    sim = Club.objects.filter(name="Simulated club").first()
    templates = (
        list(Match.objects.filter(club=sim, status="verified").values_list("pk", flat=True))
        if sim
        else []
    )
    if not templates:
        call_command(
            "load_simulated",
            "--rounds",
            str(args.templates * args.rounds_per_match),
            "--players",
            str(args.players),
            "--rounds-per-match",
            str(args.rounds_per_match),
            "--weeks",
            "52",
            "--seed",
            str(args.seed),
        )
        sim = Club.objects.get(name="Simulated club")
        templates = list(
            Match.objects.filter(club=sim, status="verified").values_list("pk", flat=True)
        )
    handles = [f"p{k:03d}" for k in range(1, args.players + 1)]
    pool = [Player.objects.get_or_create(club=club, handle=h)[0] for h in handles]
    rng = random.Random(args.seed)
    per_match = args.rounds_per_match
    copies = -(-(args.rounds - have) // per_match)
    rows = {pk: _template(pk) for pk in templates}
    end = datetime.now(UTC)
    done = 0
    started = time.perf_counter()
    while done < copies:
        batch = [
            (
                rows[rng.choice(templates)],
                rng.sample(pool, 4),
                end - timedelta(days=365 * rng.random()),
                f"bench-{have}-{done + k}",
            )
            for k in range(min(BATCH, copies - done))
        ]
        with transaction.atomic():
            _copy(club, batch)
        done += len(batch)
        print(f"\rcopied {done}/{copies} matches", end="", file=sys.stderr)
    print(f"\ncopied in {time.perf_counter() - started:.0f} s", file=sys.stderr)


def _template(match_id: int) -> dict[str, Any]:
    match = Match.objects.get(pk=match_id)
    return {
        "match": match,
        "rounds": list(Round.objects.filter(match=match).order_by("index")),
        "facts": list(
            SeatResult.objects.filter(match=match)
            .order_by("round__index", "seat")
            .select_related("round")
        ),
    }


def _copy(club: Club, batch: list[tuple[dict[str, Any], list[Player], datetime, str]]) -> None:
    """Copy a batch of template matches in four bulk inserts (PostgreSQL returns the ids)."""
    matches = Match.objects.bulk_create(
        Match(
            club=club,
            raw=b"{}",
            content_sha256=key,
            source_match_id=key,
            stored_ruleset_id=t["match"].stored_ruleset_id,
            ruleset_name=t["match"].ruleset_name,
            played_at=played_at,
            status=Match.Status.VERIFIED,
        )
        for t, _, played_at, key in batch
    )
    Seat.objects.bulk_create(
        Seat(match=match, seat=s, player=p)
        for match, (_, players, _, _) in zip(matches, batch, strict=True)
        for s, p in enumerate(players)
    )
    rounds = Round.objects.bulk_create(
        Round(match=match, index=r.index, dealer=r.dealer, event_count=r.event_count)
        for match, (t, _, _, _) in zip(matches, batch, strict=True)
        for r in t["rounds"]
    )
    by_index = {(r.match_id, r.index): r for r in rounds}
    facts = []
    for match, (t, players, played_at, _) in zip(matches, batch, strict=True):
        for f in t["facts"]:
            row = SeatResult(
                **{
                    field.attname: getattr(f, field.attname)
                    for field in SeatResult._meta.concrete_fields
                }
            )  # keyed by (round, seat): the copy's round makes its key
            row.round = by_index[match.pk, f.round.index]
            row.player = players[f.seat]
            row.match, row.club, row.played_at = match, club, played_at
            facts.append(row)
    SeatResult.objects.bulk_create(facts, batch_size=5000)


def _explain(club: Club, player_id: int) -> None:
    """The plans of the queries that dominate, over the seat rows and over the day rows: a
    player's aggregate, the club's (the leaderboard), and the player's head-to-head."""
    if connection.vendor != "postgresql":
        return
    no_filter = figures.Filters()
    facts = figures.counted(club, no_filter)
    days = figures.keyed(PlayerDay, club, no_filter)
    sums = {f"a_{k}": v for k, v in figures.AGGREGATES.items()}
    day_sums = {f"a_{k}": v for k, v in figures.DAY_SUMS.items()}
    pairs = figures.keyed(figures.PairDay, club, no_filter).filter(player_id=player_id)
    queries = (
        (
            "player aggregate, seat rows",
            facts.filter(player_id=player_id).values("player_id").annotate(**sums),
        ),
        (
            "player aggregate, day rows",
            days.filter(player_id=player_id).values("player_id").annotate(**day_sums),
        ),
        ("club table, seat rows", facts.values("player_id").annotate(**sums)),
        ("club table, day rows", days.values("player_id").annotate(**day_sums)),
        (
            "head-to-head, day rows",
            pairs.values("other_id").annotate(n=figures.Sum("rounds"), s=figures.Sum("net")),
        ),
    )
    for name, query in queries:
        print(f"\n-- {name}\n{query.explain(analyze=True, buffers=True)}")


if __name__ == "__main__":
    sys.exit(main())
