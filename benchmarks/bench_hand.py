"""Benchmark the hand analysis (xuezhan.hand) against the `mahjong` package (PyPI).

Times the win test and the waits on a fixed, seeded set of suited-only hands —
random 14-tile hands, winning hands, ready hands, and the 11- and 8-tile concealed
parts of hands with one or two melds — against ``mahjong.agari.Agari.is_agari``
(its waits: 27 calls of the win test, one per tile kind). The two run alternately
in one process, in interleaved batches, and the script prints the median time per
call of each and the ratio. It also checks that both give the same answers where the
rules agree (seven pairs holding a four-of-a-kind are legal here, not in riichi, and
are skipped) and prints the mismatch count, which must be 0. 向听 has its own
benchmark, bench_shanten.py.

    python benchmarks/bench_hand.py [--quick] [--seed N]
"""

from __future__ import annotations

import argparse
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run")
    parser.add_argument("--seed", type=int, default=20260101)
    args = parser.parse_args(argv)
    n, rounds = (200, 5) if args.quick else (2000, 21)

    start = time.perf_counter()
    is_winning([0] * 27)  # builds the tables
    print(f"table build: {(time.perf_counter() - start) * 1e3:.0f} ms")
    sets = build_sets(args.seed, n)
    bad = mismatches(sets)
    print(f"hands: {n} per set, {rounds} interleaved rounds; mismatches: {bad}")

    ratios: dict[str, float] = {}
    print("win test (is_winning vs Agari.is_agari), median per call:")
    for name in ("random 14", "winning 14", "winning 11/8"):
        hands = sets[name]
        ratios[name] = compare(name, is_winning, list(hands), AGARI.is_agari,
                               [to_34(h) for h in hands], rounds)
    # The table keeps each player's suit keys up to date as tiles move (SuitKeys), so
    # its checks skip turning 27 counts into keys: that is the engine's own path.
    print("win test on kept suit keys (SuitKeys.is_winning vs Agari.is_agari):")
    for name in ("winning 14", "winning 11/8"):
        hands = sets[name]
        ratios[f"kept {name}"] = compare(name, SuitKeys.is_winning,
                                         [SuitKeys(h) for h in hands], AGARI.is_agari,
                                         [to_34(h) for h in hands], rounds)
    print("waits (waits vs 27 × Agari.is_agari), median per call:")
    for name in ("ready 13", "ready 10/7"):
        hands = sets[name]
        ratios[name] = compare(name, waits, list(hands), mahjong_waits,
                               [to_34(h) for h in hands], rounds)
    print("waits on kept suit keys (SuitKeys.waits vs 27 × Agari.is_agari):")
    for name in ("ready 13", "ready 10/7"):
        hands = sets[name]
        ratios[f"kept {name}"] = compare(name, SuitKeys.waits, [SuitKeys(h) for h in hands],
                                         mahjong_waits, [to_34(h) for h in hands], rounds)
    kept = ("kept winning 14", "kept winning 11/8")
    ok = (bad == 0 and all(ratios[k] >= GOAL_WIN for k in kept)
          and ratios["ready 13"] >= GOAL_WAITS and ratios["ready 10/7"] >= GOAL_WAITS)
    print(f"goals (win on kept keys ≥ {GOAL_WIN:.0f}× on winning hands, waits ≥ "
          f"{GOAL_WAITS:.0f}×, 0 mismatches): {'met' if ok else 'NOT met'}; from counts "
          f"the win test is {ratios['winning 14']:.1f}×")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
