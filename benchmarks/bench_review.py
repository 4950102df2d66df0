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
is printed with the figures. With ``--against REV`` the review of a git revision (its
``xuezhan/review.py`` and ``xuezhan/shanten.py``, loaded under other names, with tables of
their own) is timed in the same run, interleaved: a before and after that the machine's
load cannot tilt.

    python benchmarks/bench_review.py [--rounds 200] [--preset chengdu|online] [--profile]
                                      [--against main]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import subprocess
import sys
import time
import types
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


Review = Callable[[dict[str, Any]], object]


def review_of(rev: str) -> Review:
    """``review_document`` of git revision ``rev``, its shanten module loaded beside this
    one (``_base_shanten``), so that neither shares the other's tables."""
    root = Path(__file__).resolve().parent.parent

    def load(name: str, path: str, replace: tuple[str, str] | None = None) -> types.ModuleType:
        source = subprocess.run(["git", "-C", str(root), "show", f"{rev}:{path}"], check=True,
                                capture_output=True, text=True).stdout
        if replace is not None:
            source = source.replace(*replace)
        module = types.ModuleType(name)
        sys.modules[name] = module
        exec(compile(source, f"{rev}:{path}", "exec"), module.__dict__)
        return module

    load("_base_shanten", "xuezhan/shanten.py")
    review = load("_base_review", "xuezhan/review.py",
                  ("from xuezhan.shanten import", "from _base_shanten import"))
    found: Review = review.review_document
    return found


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
    parser.add_argument("--against", metavar="REV",
                        help="also time the review of this git revision, interleaved")
    args = parser.parse_args(argv)
    base = review_of(args.against) if args.against else None

    docs = corpus(args.rounds, args.preset, args.seed)
    fresh = corpus(args.rounds, args.preset, args.seed + 7919)
    n_rounds = sum(len(d["rounds"]) for d in docs)
    decisions = sum(len(r.decisions) for d in docs for r in review_document(d))  # warms
    if base is not None:
        for doc in docs:
            base(doc)
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

    reviews: dict[str, Review] = {"review (fresh)": review_document}
    if base is not None:
        reviews[f"{args.against} (fresh)"] = base
    once = dict.fromkeys(reviews, 0.0)
    for i, doc in enumerate(fresh):  # interleaved, each side first in turn
        for name in list(reviews)[::1 if i % 2 else -1]:
            start = time.process_time()
            reviews[name](doc)
            once[name] += time.process_time() - start
    work = {"verify_document": verify, "review (warm)": review, "review + JSON": review_json}
    if base is not None:
        def base_warm() -> None:
            for doc in docs:
                base(doc)

        work[f"{args.against} (warm)"] = base_warm
    best = dict.fromkeys(work, float("inf"))
    for _ in range(args.repeat):  # interleaved: a change of the machine's load hits all
        for name, run in work.items():
            best[name] = min(best[name], cpu_seconds(run))
    for name, seconds in once.items():
        best[name] = seconds * n_rounds / sum(len(d["rounds"]) for d in fresh)
    yardstick = best["verify_document"]
    width = max(len(name) for name in best)
    print(f"{'':>{width}} {'rounds/s':>9} {'ms/round':>9} {'× verify':>9}")
    for name, seconds in best.items():
        print(f"{name:>{width}} {n_rounds / seconds:9.0f} {seconds / n_rounds * 1e3:9.2f} "
              f"{seconds / yardstick:9.1f}")
    if base is not None:
        for kind in ("warm", "fresh"):
            print(f"review ({kind}) against {args.against}: "
                  f"{best[f'{args.against} ({kind})'] / best[f'review ({kind})']:.2f}× as fast")
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
