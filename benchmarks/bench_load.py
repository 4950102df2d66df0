"""Benchmark ``manage.py load_simulated --bulk`` (issue 28, item 4: ≥ 5,000 rounds/s) against
the database of DATABASE_URL (PostgreSQL), docs/scaling.md.

For each ``--sizes`` (rounds), a run of the command with ``--distinct 50`` into the
simulated club (a seed of its own per size, so every run writes new matches), timed as a
whole and in its copies (``analysis.copies.store_copies``: the rows of the copies of the 50
simulated matches, the command's work at scale); the 50 simulated matches (the bots, the
engine, their reviews) and the copies' verdicts' followers (``copies.announce``, once per
run: the club's ratings again, in-process) are printed apart.

The reference in the same run: the previous bulk path (``load_simulated._bulk``: the
upload's rows, the engine once per distinct document, the verification's own writer) on
``--reference`` rounds of copies of the same documents, as full documents, once the first
size is loaded (it slows as the club grows: its batches rate the whole club). The load
average is printed after each.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/xz_bench_load \\
        python benchmarks/bench_load.py [--sizes 10000 100000] [--reference 2000]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

from analysis import copies  # noqa: E402
from analysis.management.commands import load_simulated  # noqa: E402
from records.models import Club, Match  # noqa: E402


def loadavg() -> str:
    return Path("/proc/loadavg").read_text().split(" ")[0]


class Timed:
    """A function of ``analysis.copies`` in place of itself while the command runs: its
    calls' span (the first's start to the last's end: the command's writers run several
    at once) and the matches they returned."""

    def __init__(self, name: str) -> None:
        self.name, self.matches = name, 0
        self.first: float | None = None
        self.last = 0.0
        self.inner = getattr(copies, name)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        self.first = start if self.first is None else min(self.first, start)
        found = self.inner(*args, **kwargs)
        self.last = max(self.last, time.perf_counter())
        self.matches += len(found or ())
        return found

    @property
    def seconds(self) -> float:
        return 0.0 if self.first is None else self.last - self.first


def run(rounds: int, seed: int) -> tuple[float, Timed, Timed]:
    timed = [Timed("store_copies"), Timed("announce")]
    for t in timed:
        setattr(copies, t.name, t)
    start = time.perf_counter()
    arguments = ["--bulk", "--rounds", str(rounds), "--distinct", "50", "--seed", str(seed)]
    try:
        with open(os.devnull, "w") as null:
            call_command("load_simulated", *arguments, stdout=null, stderr=null)
    finally:
        for t in timed:
            setattr(copies, t.name, t.inner)
    return time.perf_counter() - start, *timed


def reference(rounds: int) -> float:
    """The previous path's rounds/s: copies of the club's first matches as documents."""
    club = Club.objects.get(name=load_simulated.SIM_CLUB)
    docs = [m.document for m in Match.objects.filter(club=club).order_by("pk")[:50]]
    per_match = len(docs[0]["rounds"])
    batch = []
    for i in range(rounds // per_match):
        doc = dict(docs[i % len(docs)])
        doc["match_id"] = f"reference-{time.time_ns()}-{i}"
        batch.append(doc)
    start = time.perf_counter()
    for at in range(0, len(batch), 200):
        load_simulated._bulk(club, batch[at : at + 200], {})
    return len(batch) * per_match / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--reference", type=int, default=2000)
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("bench_load needs DATABASE_URL=postgres://…")
    print(f"load average at the start: {loadavg()}")
    for n, size in enumerate(args.sizes):
        seconds, timed, followers = run(size, 1000 + n)
        rounds = timed.matches * 8
        rate = rounds / timed.seconds if timed.seconds else 0.0
        # what is left: the 50 simulated matches, written before the first copies
        rest = seconds - timed.seconds - followers.seconds
        print(
            f"{size:>8} rounds: {seconds:7.1f} s in all ({size / seconds:6.0f} rounds/s);"
            f" copies {rounds} rounds in {timed.seconds:6.1f} s ({rate:6.0f} rounds/s);"
            f" their verdicts' followers (ratings…) {followers.seconds:5.1f} s;"
            f" the 50 simulated matches {rest:5.1f} s; load average {loadavg()}"
        )
        if n == 0:  # the reference on the smallest club (the previous path slows as it grows)
            old = reference(args.reference)
            print(
                f"reference: the previous bulk path {old:6.0f} rounds/s on {args.reference}"
                f" rounds (after {size}); load average {loadavg()}"
            )


if __name__ == "__main__":
    main()
