"""Benchmark the table seating (analysis/league/seating.py): how long a seating takes and
how good it is, for the sizes a club night has and the largest the API takes.

The time is the process's CPU time, best of ``--repeat`` runs, and is printed with its ratio
to a reference measured in the same run on the same machine: a JSON round trip
(``json.loads(json.dumps(doc))``) of one simulated 8-round match, the yardstick the other
benchmarks use, so that figures from a loaded or a quiet machine compare. The goal (issue
25): 64 players × 10 rounds well under a second. Each case also prints the repeated pairs
against the lower bound, and the winds' spread.

``64 × 10`` is seated by the affine space over GF(4) (no pair meets twice); ``(search)``
cases force the general search on the same sizes, to measure it too. ``12 × 4`` and
``13 × 4`` cannot reach their bound, so they spend the search's whole budget: the slowest
a seating gets.

    python benchmarks/bench_seating.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analysis.league import seating
from xuezhan.sim.simulate import simulate_match

GOAL_SECONDS = 1.0
CASES = [  # (players, rounds, force the search)
    (64, 10, False), (64, 10, True), (63, 10, True), (60, 12, True), (48, 12, True),
    (16, 5, False), (16, 5, True), (13, 4, True), (12, 4, True), (64, 24, True),
]


def cpu(work: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return best


def reference(repeat: int) -> float:
    """Seconds of one JSON round trip of a simulated 8-round match (best of many)."""
    doc = simulate_match(0, 8)
    n = 20

    def trips() -> None:
        for _ in range(n):
            json.loads(json.dumps(doc))

    return cpu(trips, repeat * 3) / n


def seat_case(players: int, rounds: int, search: bool) -> seating.Seating:
    construction = seating._affine
    if search:
        seating._affine = lambda *args: None
    try:
        return seating.seat(range(players), rounds, seed=1)
    finally:
        seating._affine = construction


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    load = os.getloadavg()[0]
    ref = reference(args.repeat)
    print(f"load average {load:.2f} on {os.cpu_count()} cores; CPU time, best of {args.repeat}")
    print(f"reference: a JSON round trip of a simulated 8-round match, {ref * 1e3:.3f} ms")
    print(f"{'case':<22}{'ms':>9}{'× ref':>9}  repeated / bound  spread")
    met = True
    for players, rounds, search in CASES:
        s = seat_case(players, rounds, search)
        took = cpu(partial(seat_case, players, rounds, search), args.repeat)
        name = f"{players} × {rounds}" + (" (search)" if search else "")
        print(f"{name:<22}{took * 1e3:9.1f}{took / ref:9.0f}  {s.repeated_pairs:>8} / "
              f"{s.lower_bound:<5}  {s.seat_spread}")
        if players == 64 and rounds == 10:
            met &= took < GOAL_SECONDS
    print(f"load average now {os.getloadavg()[0]:.2f}")
    print(f"goal 64 × 10 under {GOAL_SECONDS:.0f} s (both ways): {'met' if met else 'NOT met'}")
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
