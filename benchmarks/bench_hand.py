"""Benchmark the hand analysis (xuezhan.hand) against the `mahjong` package (PyPI).

Times the win test and the waits on a fixed, seeded set of suited-only hands —
random 14-tile hands, winning hands, ready hands, and the 11- and 8-tile concealed
parts of hands with one or two melds — against ``mahjong.agari.Agari.is_agari``
(its waits: 27 calls of the win test, one per tile kind): from 27 counts, and on the
suit keys the table keeps (``SuitKeys``), the engine's own path. It also times the
table's real cycle on kept keys (a tile in, the win test, the tile out) and a move
alone, with mahjong's ``is_agari`` beside them for scale.

The machine is shared, so the measure is built to shrug off load: every comparison
runs round-robin with all the others, one batch of each side (~1 ms of CPU, the side
going first alternating) at a time; the clock is the thread's CPU time, which leaves
out the time the process is switched out; each ratio is the median of the batches'
ratios (each batch's two sides ran side by side), printed with its quartiles. What
load still does (caches shared with other processes) falls on both sides of a batch.

It checks that both give the same answers where the rules agree (seven pairs holding
a four-of-a-kind are legal here, not in riichi, and are skipped) and prints the
mismatch count, which must be 0, then one line a goal, met or NOT met. 向听 has its
own benchmark, bench_shanten.py (the same round-robin measure, :func:`run_pairs`).

    python benchmarks/bench_hand.py [--quick] [--seed N] [--batches N]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mahjong.agari import Agari

from xuezhan.hand import SuitKeys, is_winning, waits
from xuezhan.shanten import shanten

Counts = list[int]
GOAL_WIN = 20.0
GOAL_RAW = 12.0
GOAL_WAITS = 50.0


# -- the hands --------------------------------------------------------------------


def random_hand(rng: random.Random, n: int) -> Counts:
    counts = [0] * 27
    for t in rng.sample([t for t in range(27) for _ in range(4)], n):
        counts[t] += 1
    return counts


def winning_hand(rng: random.Random, sets: int) -> Counts:
    """Sets (pungs or chows, any suit) and a pair, at most four copies of a kind."""
    while True:
        counts = [0] * 27
        for _ in range(sets):
            suit, rank = rng.randrange(3), rng.randrange(9)
            if rank <= 6 and rng.random() < 0.6:
                for d in range(3):
                    counts[suit * 9 + rank + d] += 1
            else:
                counts[suit * 9 + rank] += 3
        counts[rng.randrange(27)] += 2
        if max(counts) <= 4:
            return counts


def seven_pairs(rng: random.Random) -> Counts:
    counts = [0] * 27
    for t in rng.sample(range(27), 7):
        counts[t] = 2
    return counts


def minus_one(rng: random.Random, counts: Counts) -> Counts:
    out = list(counts)
    out[rng.choice([t for t in range(27) if out[t]])] -= 1
    return out


def build_sets(seed: int, n: int) -> dict[str, list[Counts]]:
    rng = random.Random(seed)
    winning = [winning_hand(rng, 4) for _ in range(n * 9 // 10)] + [
        seven_pairs(rng) for _ in range(n // 10)]
    melded = [winning_hand(rng, rng.choice((2, 3))) for _ in range(n)]
    return {
        "random 14": [random_hand(rng, 14) for _ in range(n)],
        "winning 14": winning,
        "winning 11/8": melded,
        "ready 13": [minus_one(rng, h) for h in winning],
        "ready 10/7": [minus_one(rng, h) for h in melded],
    }


# -- the two sides ----------------------------------------------------------------


def to_34(counts: Sequence[int]) -> list[int]:
    return [*counts, 0, 0, 0, 0, 0, 0, 0]


AGARI = Agari()


def mahjong_waits(tiles_34: list[int]) -> list[int]:
    out = []
    for t in range(27):
        tiles_34[t] += 1
        if AGARI.is_agari(tiles_34):
            out.append(t)
        tiles_34[t] -= 1
    return out


def seven_pairs_with_four(counts: Sequence[int]) -> bool:
    return sum(counts) == 14 and all(n % 2 == 0 for n in counts) and 4 in counts


def mismatches(sets: dict[str, list[Counts]]) -> int:
    bad = 0
    for name, hands in sets.items():
        for counts in hands:
            if name.startswith("ready"):
                # where the rules differ: a wait that makes seven pairs with a
                # four-of-a-kind (legal here), and a wait on a tile the hand holds all
                # four of (a shape wait here; riichi code assumes at most four copies)
                def agree(t: int, counts: Counts = counts) -> bool:
                    grown = list(counts)
                    grown[t] += 1
                    return counts[t] < 4 and not seven_pairs_with_four(grown)

                ours = [int(t) for t in waits(counts) if agree(t)]
                theirs = [t for t in mahjong_waits(to_34(counts)) if agree(t)]
                if theirs != ours:
                    bad += 1
                if bool(ours) != (shanten(counts, (13 - sum(counts)) // 3) == 0):
                    bad += 1
            else:
                if seven_pairs_with_four(counts):
                    continue
                melds = (14 - sum(counts)) // 3
                if is_winning(counts) != AGARI.is_agari(to_34(counts)):
                    bad += 1
                if (shanten(counts, melds) == -1) != is_winning(counts):
                    bad += 1
    return bad


def time_batch(fn: Callable[[Any], object], args: Sequence[object],
               clock: Callable[[], float] = time.perf_counter) -> float:
    start = clock()
    for a in args:
        fn(a)
    return clock() - start


def compare(label: str, ours: Callable[[Any], object], ours_args: list[object],
            theirs: Callable[[Any], object], theirs_args: list[object],
            rounds: int, chunk: int = 50,
            clock: Callable[[], float] = time.perf_counter) -> float:
    """Median time per call of each side, and the median of the paired ratios.

    Each round walks the hands in chunks, timing our chunk and theirs back to back
    (alternating which goes first), so both sides see the same machine load. Medians
    over all chunks keep a stray pause of the machine (a shared 2-core VM) out.
    ``clock`` may be ``time.process_time``: CPU time leaves out the time the process
    spends switched out, which on a loaded machine lands mostly in the longer chunks.
    """
    t_ours: list[float] = []
    t_theirs: list[float] = []
    ratios: list[float] = []
    for i in range(rounds):
        for j in range(0, len(ours_args), chunk):
            a, b = ours_args[j:j + chunk], theirs_args[j:j + chunk]
            if (i + j // chunk) % 2:
                mine = time_batch(ours, a, clock)
                other = time_batch(theirs, b, clock)
            else:
                other = time_batch(theirs, b, clock)
                mine = time_batch(ours, a, clock)
            t_ours.append(mine / len(a))
            t_theirs.append(other / len(b))
            ratios.append(other / mine)
    mo, mt = statistics.median(t_ours), statistics.median(t_theirs)
    ratio = statistics.median(ratios)
    print(f"  {label:<14} xuezhan {mo * 1e6:8.3f} µs   mahjong {mt * 1e6:9.3f} µs"
          f"   ratio {ratio:6.1f}×")
    return ratio


# -- the robust measure: round-robin, CPU time, medians of many batches ----------


class Pair:
    """One comparison: our function on our arguments against theirs on theirs, timed
    in batches of about ``TARGET`` seconds of CPU a side."""

    def __init__(self, label: str, ours: Callable[[Any], object], ours_args: list[Any],
                 theirs: Callable[[Any], object], theirs_args: list[Any]) -> None:
        self.label = label
        self.sides = ((ours, ours_args), (theirs, theirs_args))
        self.lengths = (0, 0)
        self.at = [0, 0]
        self.times: tuple[list[float], list[float]] = ([], [])
        self.ratios: list[float] = []

    def calibrate(self, clock: Callable[[], float]) -> None:
        """Batch lengths that take about TARGET seconds of CPU a side (the clock's own
        cost, a system call, is then lost in the batch)."""
        mine, other = (_batch_length(fn, args, clock) for fn, args in self.sides)
        self.lengths = (mine, other)

    def batch(self, ours_first: bool, clock: Callable[[], float]) -> None:
        """One batch a side, back to back, each on the next arguments of its list (so a
        batch does not run the previous one's hands again with their look-ups cached)."""
        per_call = [0.0, 0.0]
        for side in ((0, 1) if ours_first else (1, 0)):
            fn, args = self.sides[side]
            n = self.lengths[side]
            batch = [args[(self.at[side] + i) % len(args)] for i in range(n)]
            self.at[side] += n
            per_call[side] = time_batch(fn, batch, clock) / n
        for side in (0, 1):
            self.times[side].append(per_call[side])
        self.ratios.append(per_call[1] / per_call[0])

    @property
    def ratio(self) -> float:
        """The median of the batches' ratios."""
        return statistics.median(self.ratios)

    def line(self) -> str:
        mine, other = (statistics.median(t) * 1e6 for t in self.times)
        q = statistics.quantiles(self.ratios, n=4)
        return (f"  {self.label:<24} xuezhan {mine:7.3f} µs   mahjong {other:8.3f} µs   "
                f"ratio {self.ratio:6.1f}× (quartiles {q[0]:.1f}–{q[2]:.1f})")


#: CPU seconds a batch of one side takes, about (short enough that a batch of the
#: 1 µs side does not wrap round its 2,000 hands and meet their look-ups again)
TARGET = 0.001


def _batch_length(fn: Callable[[Any], object], args: list[Any],
                  clock: Callable[[], float]) -> int:
    trial = args[:min(len(args), 200)]
    time_batch(fn, trial, clock)  # warm up
    per_call = max(time_batch(fn, trial, clock) / len(trial), 1e-9)
    return max(3, round(TARGET / per_call))


def run_pairs(pairs: list[Pair], batches: int, clock: Callable[[], float]) -> None:
    """Round-robin: every batch runs one batch of each comparison in turn, so that a
    stretch of load on the shared machine falls on all of them alike, and which side
    goes first alternates."""
    for pair in pairs:
        pair.calibrate(clock)
    for i in range(batches):
        for j, pair in enumerate(pairs):
            pair.batch((i + j) % 2 == 0, clock)


def move(arg: tuple[SuitKeys, int]) -> None:
    """A tile in and out of kept keys: what the table pays per draw and discard."""
    keys, tile = arg
    keys.add(tile)
    keys.remove(tile)


def draw_check(arg: tuple[SuitKeys, int]) -> bool:
    """A draw, the win test, the discard, on kept keys: the win test as the table meets
    it, the first after the hand changed."""
    keys, tile = arg
    keys.add(tile)
    won = keys.is_winning()
    keys.remove(tile)
    return won


def mahjong_draw_check(arg: tuple[list[int], int]) -> bool:
    tiles_34, tile = arg
    tiles_34[tile] += 1
    won = AGARI.is_agari(tiles_34)
    tiles_34[tile] -= 1
    return bool(won)


def draws(rng: random.Random, hands: list[Counts]) -> list[tuple[Counts, int]]:
    """A tile for each hand, a wait of it half the time, never a fifth copy."""
    out = []
    for h in hands:
        ok = [t for t in range(27) if h[t] < 4]
        won = [int(t) for t in waits(h) if h[t] < 4]
        out.append((h, rng.choice(won if won and rng.random() < 0.5 else ok)))
    return out


def goal_line(text: str, ok: bool) -> bool:
    print(f"  {text}: {'met' if ok else 'NOT met'}")
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run")
    parser.add_argument("--seed", type=int, default=20260101)
    parser.add_argument("--batches", type=int, help="batches per comparison")
    args = parser.parse_args(argv)
    n, batches = (200, 15) if args.quick else (2000, 61)
    batches = args.batches or batches
    clock = time.thread_time

    load = os.getloadavg()
    start = time.perf_counter()
    is_winning([0] * 27)  # builds the tables
    print(f"table build: {(time.perf_counter() - start) * 1e3:.0f} ms")
    sets = build_sets(args.seed, n)
    bad = mismatches(sets)
    print(f"hands: {n} per set; {batches} round-robin batches of ~{TARGET * 1e3:.0f} ms "
          f"of thread CPU time a side; load average {load[0]:.2f}; mismatches: {bad}")

    def mj(name: str) -> list[list[int]]:
        return [to_34(h) for h in sets[name]]

    raw = {name: Pair(name, is_winning, list(sets[name]), AGARI.is_agari, mj(name))
           for name in ("random 14", "winning 14", "winning 11/8")}
    kept = {name: Pair(name, SuitKeys.is_winning, [SuitKeys(h) for h in sets[name]],
                       AGARI.is_agari, mj(name))
            for name in ("winning 14", "winning 11/8")}
    wait = {name: Pair(name, waits, list(sets[name]), mahjong_waits, mj(name))
            for name in ("ready 13", "ready 10/7")}
    kept_wait = {name: Pair(name, SuitKeys.waits, [SuitKeys(h) for h in sets[name]],
                            mahjong_waits, mj(name))
                 for name in ("ready 13", "ready 10/7")}
    drawn = draws(random.Random(args.seed), sets["ready 13"])
    upkeep = Pair("add + remove", move, [(SuitKeys(h), t) for h, t in drawn],
                  AGARI.is_agari, mj("winning 14"))
    cycle = Pair("add, is_winning, remove", draw_check, [(SuitKeys(h), t) for h, t in drawn],
                 mahjong_draw_check, [(to_34(h), t) for h, t in drawn])
    run_pairs([*raw.values(), *kept.values(), *wait.values(), *kept_wait.values(), upkeep,
               cycle], batches, clock)

    print("win test from 27 counts (is_winning vs Agari.is_agari), median per call:")
    for pair in raw.values():
        print(pair.line())
    # The table keeps each player's suit keys, and each suit's state, up to date as
    # tiles move (SuitKeys): that is the engine's own path.
    print("win test on kept suit keys (SuitKeys.is_winning vs Agari.is_agari):")
    for pair in kept.values():
        print(pair.line())
    print("waits (waits vs 27 × Agari.is_agari):")
    for pair in wait.values():
        print(pair.line())
    print("waits on kept suit keys (SuitKeys.waits vs 27 × Agari.is_agari):")
    for pair in kept_wait.values():
        print(pair.line())
    print("kept keys as the table uses them, ready 13-tile hands and a drawn tile:")
    print(cycle.line())
    print(upkeep.line() + "   (mahjong: one is_agari, for scale)")

    def shown(group: dict[str, Pair]) -> str:
        return ", ".join(f"{name} {pair.ratio:.1f}×" for name, pair in group.items())

    print(f"goals (load average now {os.getloadavg()[0]:.2f}):")
    ok = [
        goal_line(f"win test on kept suit keys ≥ {GOAL_WIN:.0f}× ({shown(kept)})",
                  all(p.ratio >= GOAL_WIN for p in kept.values())),
        goal_line(f"win test from 27 counts ≥ {GOAL_RAW:.0f}× on winning hands "
                  f"({shown({k: raw[k] for k in ('winning 14', 'winning 11/8')})})",
                  raw["winning 14"].ratio >= GOAL_RAW and raw["winning 11/8"].ratio >= GOAL_RAW),
        goal_line(f"waits ≥ {GOAL_WAITS:.0f}× ({shown(wait)})",
                  all(p.ratio >= GOAL_WAITS for p in wait.values())),
        goal_line("mismatches with mahjong = 0", bad == 0),
    ]
    print("all goals met" if all(ok) else "some goals NOT met")
    return 0 if all(ok) else 1


if __name__ == "__main__":
    sys.exit(main())
