"""Benchmark 向听 (xuezhan.shanten) against the `mahjong` package's (PyPI).

Times ``xuezhan.shanten.shanten`` and ``mahjong.shanten.Shanten().calculate_shanten``
(standard shape and seven pairs, no thirteen orphans) on fixed, seeded sets of
suited-only hands — random 13- and 14-tile hands, ready hands, hands one tile from
ready, and random 10- and 7-tile concealed parts of hands with one or two melds — in one
process, interleaved in chunks of 500 calls (see bench_hand.compare), in CPU time, and
prints the median time per call of each and the ratio. Goal: ≥ 40× on the 13- and
14-tile sets. (CPU time, because on a shared machine a 40 µs-a-call chunk is switched
out far more often than a 1 µs one, which inflates wall-clock ratios; 500-call chunks,
because the first calls after the other side's chunk find the caches cold, a cost the
1 µs side feels and the 40 µs side does not.) The 10- and 7-tile sets are shown too:
there mahjong has little to do and this side's fixed cost (reading 27 counts into
three suit keys, five look-ups) weighs more.

It also checks that both give the same number where the two rule sets agree: on hands
holding no four-of-a-kind. (With one they part: here a four is two of the seven pairs
and a wait on a fifth copy is a shape wait; riichi counts it otherwise.) The mismatch
count must be 0.

    python benchmarks/bench_shanten.py [--quick] [--seed N]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_hand import Counts, compare, minus_one, random_hand, to_34, winning_hand
from mahjong.shanten import Shanten

from xuezhan.hand import SuitKeys
from xuezhan.shanten import shanten, shanten_keys

GOAL = 40.0
GOAL_SETS = ("random 13", "random 14", "ready 13", "one away 13")
CHUNK = 500
MAHJONG = Shanten()


def theirs(tiles_34: list[int]) -> int:
    return int(MAHJONG.calculate_shanten(tiles_34, use_kokushi=False))


def one_away(rng: random.Random, counts: Counts) -> Counts:
    """A ready hand with one tile swapped for another: usually one from ready."""
    while True:
        out = minus_one(rng, counts)
        out[rng.randrange(27)] += 1
        if max(out) <= 4:
            return out


def build_sets(seed: int, n: int) -> dict[str, list[Counts]]:
    rng = random.Random(seed)
    ready = [minus_one(rng, winning_hand(rng, 4)) for _ in range(n)]
    return {
        "random 13": [random_hand(rng, 13) for _ in range(n)],
        "random 14": [random_hand(rng, 14) for _ in range(n)],
        "ready 13": ready,
        "one away 13": [one_away(rng, h) for h in ready],
        "random 10": [random_hand(rng, 10) for _ in range(n)],
        "random 7": [random_hand(rng, 7) for _ in range(n)],
    }


def melds_of(counts: Counts) -> int:
    return (14 - sum(counts)) // 3


def check(sets: dict[str, list[Counts]]) -> tuple[int, int]:
    """(hands compared, mismatches) on the hands where the rule sets agree."""
    compared = bad = 0
    for hands in sets.values():
        for counts in hands:
            if 4 in counts:
                continue
            compared += 1
            bad += shanten(counts, melds_of(counts)) != theirs(to_34(counts))
    return compared, bad


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run")
    parser.add_argument("--seed", type=int, default=20260101)
    args = parser.parse_args(argv)
    n, rounds = (200, 5) if args.quick else (2000, 21)

    sets = build_sets(args.seed, n)
    start = time.perf_counter()
    for hands in sets.values():  # the first sight of each suit fills the tables
        for counts in hands:
            shanten(counts, melds_of(counts))
    print(f"tables for {sum(map(len, sets.values()))} new hands: "
          f"{(time.perf_counter() - start) * 1e3:.0f} ms")
    compared, bad = check(sets)
    print(f"hands: {n} per set, {rounds} interleaved rounds; compared with mahjong on "
          f"{compared} hands without a four-of-a-kind: {bad} mismatches")

    print("shanten (shanten vs Shanten.calculate_shanten), median per call:")
    ratios = {}
    for name, hands in sets.items():
        melds = melds_of(hands[0])
        ours = partial(shanten, melds=melds) if melds else shanten
        ratios[name] = compare(name, ours, list(hands), theirs, [to_34(h) for h in hands],
                               rounds, CHUNK, time.process_time)
    # The table keeps each player's suit keys up to date as tiles move (SuitKeys): the
    # engine's own path skips reading 27 counts into keys.
    print("shanten on kept suit keys (shanten_keys vs Shanten.calculate_shanten):")
    for name in ("ready 13", "one away 13"):
        hands = sets[name]
        ratios[f"kept {name}"] = compare(name, shanten_keys,
                                         [SuitKeys(h) for h in hands], theirs,
                                         [to_34(h) for h in hands], rounds, CHUNK,
                                         time.process_time)
    short = [name for name in GOAL_SETS if ratios[name] < GOAL]
    ok = bad == 0 and not short
    print(f"goal (≥ {GOAL:.0f}× from counts on the 13- and 14-tile sets, 0 mismatches): "
          f"{'met' if ok else 'NOT met'}"
          + (f"; short: {', '.join(f'{n} {ratios[n]:.1f}×' for n in short)}" if short else ""))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
