"""Benchmark the decision review against the replay of the same rounds, on one core.

Simulates ``--rounds`` rounds (not timed), then measures in CPU time (the process's own:
on a shared machine the wall clock counts the time others hold the core), interleaved and
best of ``--repeat`` passes:

- ``verify_document``: the replay, verification and settlement of each match (the
  yardstick: the ratio reads the same on any machine, loaded or not);
- ``review (warm)``: :func:`xuezhan.review.review_document` of each match, every seat
  of every round — verdicts and summaries, what the worker stores — after one pass over
  the corpus has filled the shanten tables;
- ``review + JSON``: the same and every decision's JSON with all its alternatives
  ranked (what the API and ``xuezhan review`` print);
- ``review (fresh)``: the review of rounds the process has not met, after it has
  reviewed ``--rounds`` others: what a worker meets with new uploads (one pass only).

The goal is 150 rounds reviewed per second, every seat, on one core; the load average
is printed with the figures.

    python benchmarks/bench_review.py [--rounds 200] [--preset chengdu|online] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from xuezhan.replay import verify_document
from xuezhan.review import review_document
from xuezhan.sim.simulate import simulate_matches

GOAL = 150.0  # rounds per second, every seat reviewed, one core
ROUNDS_PER_MATCH = 10


def corpus(rounds: int, preset: str, seed: int) -> list[dict[str, Any]]:
    full, rest = divmod(rounds, ROUNDS_PER_MATCH)
    docs = list(simulate_matches(full, ROUNDS_PER_MATCH, seed, preset)) if full else []
    if rest:
        docs += list(simulate_matches(1, rest, seed + 1, preset))
    return docs


def cpu_seconds(work: Callable[[], None]) -> float:
    start = time.process_time()
    work()
    return time.process_time() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--preset", choices=("chengdu", "online"), default="chengdu")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeat", type=int, default=3, help="best of N passes (default 3)")
    parser.add_argument("--profile", action="store_true", help="print a cProfile summary")
    args = parser.parse_args(argv)

    docs = corpus(args.rounds, args.preset, args.seed)
    fresh = corpus(args.rounds, args.preset, args.seed + 7919)
    n_rounds = sum(len(d["rounds"]) for d in docs)
    decisions = sum(len(r.decisions) for d in docs for r in review_document(d))  # warms
    print(f"corpus: {n_rounds} rounds ({args.preset}), {decisions / n_rounds:.1f} decisions "
          f"reviewed per round; load average {os.getloadavg()[0]:.1f}")

    def verify() -> None:
        for doc in docs:
            verify_document(doc)

    def review() -> None:
        for doc in docs:
            review_document(doc)

    def review_json() -> None:
        for doc in docs:
            for r in review_document(doc):
                r.to_json()

    once = cpu_seconds(lambda: [review_document(d) for d in fresh] and None)
    work = {"verify_document": verify, "review (warm)": review, "review + JSON": review_json}
    best = dict.fromkeys(work, float("inf"))
    for _ in range(args.repeat):  # interleaved: a change of the machine's load hits all
        for name, run in work.items():
            best[name] = min(best[name], cpu_seconds(run))
    best["review (fresh)"] = once * n_rounds / sum(len(d["rounds"]) for d in fresh)
    base = best["verify_document"]
    print(f"{'':>16} {'rounds/s':>9} {'ms/round':>9} {'× verify':>9}")
    for name, seconds in best.items():
        print(f"{name:>16} {n_rounds / seconds:9.0f} {seconds / n_rounds * 1e3:9.2f} "
              f"{seconds / base:9.1f}")
    for name in ("review (warm)", "review (fresh)"):
        rate = n_rounds / best[name]
        print(f"goal {GOAL:.0f} rounds/s, {name}: "
              + ("met" if rate >= GOAL else f"not met ({rate / GOAL:.0%} of it)"))
    if args.profile:
        profiler = cProfile.Profile(time.process_time)
        profiler.runcall(review)
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(20)
        print(out.getvalue())
    return 0


if __name__ == "__main__":
    sys.exit(main())
