"""Benchmark 向听 and 进张 (xuezhan.shanten) against plain precomputed per-suit tables and
against the `mahjong` package (PyPI).

Two references, in one process, interleaved (round-robin batches of ~1 ms of the
thread's CPU time a side, the side going first alternating: ``bench_hand.run_pairs``;
each ratio is the median of the batches' ratios):

- **plain tables** (:class:`PlainTables`): the fastest form of the per-suit table idea this
  script knows — every suit key of the hands measured (and every key one tile larger, for
  进张) and every profile pair they meet, looked up beforehand into plain dicts, then
  ``answer[pair[left[a] + right[b]] + right[c]][melds]`` with no checks, no void suit and
  nothing filled in on a miss. It is the ceiling of a table look-up in Python: the goal is
  ``shanten``, ``shanten_keys`` and ``ukeire`` within 0.9× of it (a ratio ≥ 0.9: at most
  a tenth slower), the tables being what the engine's answers must match hand by hand.
  Its 进张 is the per-suit way: the other two suits' profile once, then a look-up for each
  of the nine ranks a draw can raise.
- **mahjong**: ``Shanten().calculate_shanten`` (standard shape and seven pairs, no thirteen
  orphans); 进张 as 1 + 27 calls of it. Goal of issue 29: ≥ 40× on the 13- and 14-tile
  sets, or within 0.9× of the plain tables.

Hand sets (seeded, suited only): random 13- and 14-tile hands, ready hands, hands one
tile from ready, random 10- and 7-tile concealed parts of hands with one or two melds.
Both references must give the same answers as the engine: the tables on every hand,
mahjong on hands without a four-of-a-kind (with one the rule sets part: here a four is
two of the seven pairs and a wait on a fifth copy is a shape wait). Mismatches must be 0.
The script ends with the engine's table sizes (their bound: ``TABLE_LIMIT``, docs/review.md).

    python benchmarks/bench_shanten.py [--quick] [--seed N] [--batches N]
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

from bench_hand import Counts, Pair, minus_one, random_hand, run_pairs, to_34, winning_hand
from mahjong.shanten import Shanten

from xuezhan import shanten as engine
from xuezhan.hand import SuitKeys, _split
from xuezhan.shanten import shanten, shanten_keys, ukeire
from xuezhan.tiles import COPIES, TILES, Tile

GOAL_MAHJONG = 40.0
GOAL_TABLES = 0.9
GOAL_SETS = ("random 13", "random 14", "ready 13", "one away 13")
UKEIRE_SETS = ("random 13", "ready 13", "one away 13")
MAHJONG = Shanten()


def theirs(tiles_34: list[int]) -> int:
    return int(MAHJONG.calculate_shanten(tiles_34, use_kokushi=False))


def theirs_ukeire(tiles_34: list[int]) -> list[int]:
    """The kinds whose draw lowers mahjong's shanten: 1 + 27 calls."""
    base = theirs(tiles_34)
    out = []
    for k in range(27):
        tiles_34[k] += 1
        if theirs(tiles_34) < base:
            out.append(k)
        tiles_34[k] -= 1
    return out


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


# -- the reference: plain per-suit tables, precomputed -----------------------------------

_SHIFT = 20
Tables = tuple[dict[bytes, int], dict[bytes, int], dict[int, int], dict[int, tuple[int, ...]]]
#: right, left, pair, answer: the shanten's tables hold the hands' keys only, as a table
#: that grew with the hands it met would (a dict four times the size misses the CPU's
#: caches more often, which would slow this side for nothing)
_RIGHT, _LEFT, _PAIR, _ANSWER = SHANTEN_TABLES = ({}, {}, {}, {})
#: 进张's tables: the hands' keys and every key one tile larger
_U_RIGHT, _U_LEFT, _U_PAIR, _U_ANSWER = UKEIRE_TABLES = ({}, {}, {}, {})


class PlainTables:
    """Plain dicts filled before timing, from the engine's own profile arithmetic (so both
    sides compute the same thing and only the look-up path differs): a suit key's
    profile id, two profiles combined, and the shanten of a whole hand's profile."""

    def __init__(self, hands: Sequence[Counts], tables: Tables, draws: bool) -> None:
        right, left, pairs, answers = tables
        profiles: list[tuple[int, ...]] = []
        ids: dict[tuple[int, ...], int] = {}

        def intern(profile: tuple[int, ...]) -> int:
            found = ids.get(profile)
            if found is None:
                found = ids[profile] = len(profiles)
                profiles.append(profile)
            return found

        def suit(key: bytes) -> int:
            if key not in right:
                right[key] = intern(engine._suit_profile(key))
                left[key] = right[key] << _SHIFT
            return right[key]

        def pair(x: bytes, y: bytes) -> int:
            at = left[x] + right[y]
            if at not in pairs:
                pairs[at] = intern(engine._combine(profiles[at >> _SHIFT],
                                                   profiles[at & (1 << _SHIFT) - 1])) << _SHIFT
            return pairs[at]

        def answer(x: bytes, y: bytes, z: bytes) -> None:
            """The entry read for suit keys x and y (their pair) and z."""
            for key in (x, y, z):
                suit(key)
            at = pair(x, y) + right[z]
            if at not in answers:
                answers[at] = engine._answers(engine._combine(
                    profiles[at >> _SHIFT], profiles[at & (1 << _SHIFT) - 1]))

        for counts in hands:
            a, b, c = _split(bytes(counts))
            answer(a, b, c)
            for s, (x, y) in enumerate(((b, c), (a, c), (a, b)) if draws else ()):
                grown = bytearray((a, b, c)[s])  # every draw: this suit one tile larger
                for rank in range(9):
                    grown[rank] += 1
                    answer(x, y, bytes(grown))
                    grown[rank] -= 1


def tables_shanten(counts: Counts, melds: int = 0) -> int:
    a, b, c = _split(bytearray(counts))  # the fastest way from a list to three keys
    return _ANSWER[_PAIR[_LEFT[a] + _RIGHT[b]] + _RIGHT[c]][melds]


def tables_shanten_keys(keys: SuitKeys, melds: int = 0) -> int:
    a, b, c = keys.keys
    return _ANSWER[_PAIR[_LEFT[a] + _RIGHT[b]] + _RIGHT[c]][melds]


def tables_ukeire(counts: Counts, melds: int = 0) -> list[tuple[Tile, int]]:
    """进张 by per-suit tables: the other two suits' profile once, each rank grown."""
    keys = _split(bytearray(counts))
    a, b, c = keys
    base = _U_ANSWER[_U_PAIR[_U_LEFT[a] + _U_RIGHT[b]] + _U_RIGHT[c]][melds]
    out: list[tuple[Tile, int]] = []
    for s, (x, y) in enumerate(((b, c), (a, c), (a, b))):
        pair = _U_PAIR[_U_LEFT[x] + _U_RIGHT[y]]
        grown = bytearray(keys[s])
        for rank in range(9):
            grown[rank] += 1
            if _U_ANSWER[pair + _U_RIGHT[bytes(grown)]][melds] < base:
                kind = s * 9 + rank
                out.append((TILES[kind], max(COPIES - counts[kind], 0)))
            grown[rank] -= 1
    return out


# -- checks ----------------------------------------------------------------------------


def mismatches(sets: dict[str, list[Counts]]) -> tuple[int, int, int]:
    """(hands compared with mahjong, mismatches with mahjong, mismatches with the tables)."""
    compared = bad = bad_tables = 0
    for name, hands in sets.items():
        for counts in hands:
            melds = melds_of(counts)
            ours = shanten(counts, melds)
            bad_tables += ours != tables_shanten(counts, melds)
            bad_tables += ours != shanten_keys(SuitKeys(counts), melds)
            if name in UKEIRE_SETS:
                bad_tables += ukeire(counts) != tables_ukeire(counts)
            if 4 in counts:
                continue
            compared += 1
            bad += ours != theirs(to_34(counts))
            if name in UKEIRE_SETS and name != "random 13" and max(counts) <= 2:
                # 28 calls a hand: the short sets. Seven pairs part the rule sets again
                # once a kind reaches three (riichi wants seven kinds, a four is two
                # pairs here): only hands and draws that stay at two of a kind
                def agree(kinds: list[int], counts: Counts = counts) -> list[int]:
                    return [k for k in kinds if counts[k] < 2]

                bad += (agree([int(t) for t, _ in ukeire(counts)])
                        != agree(theirs_ukeire(to_34(counts))))
    return compared, bad, bad_tables


# -- the run ----------------------------------------------------------------------------


def with_melds(fn: Callable[..., object], melds: int) -> Callable[[Any], object]:
    if not melds:
        return fn
    return lambda arg: fn(arg, melds)


def line(pair: Pair, other: str) -> str:
    mine, theirs_ = (statistics.median(t) * 1e6 for t in pair.times)
    q = statistics.quantiles(pair.ratios, n=4)
    return (f"  {pair.label:<14} xuezhan {mine:7.3f} µs   {other} {theirs_:8.3f} µs   "
            f"ratio {pair.ratio:6.2f}× (quartiles {q[0]:.2f}–{q[2]:.2f})")


def table_sizes() -> str:
    plain = {"_RIGHT": engine._RIGHT, "_LEFT": engine._LEFT, "_PAIR": engine._PAIR,
             "_ANSWER": engine._ANSWER}
    kept = {"_BLOCKS": engine._BLOCKS, "_RISES": engine._RISES, "_REMOVED": engine._REMOVED,
            "_UNIONS": engine._UNIONS, "_GAINS": engine._GAINS}
    sizes = [f"{name} {len(t)}" for name, t in {**plain, **kept}.items()]
    return (f"engine tables (entries; each emptied at {engine.TABLE_LIMIT}): "
            + ", ".join(sizes) + f"; profiles {len(engine._PROFILES)}")


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
    sets = build_sets(args.seed, n)
    start = time.perf_counter()
    every = [h for hands in sets.values() for h in hands]
    PlainTables(every, SHANTEN_TABLES, draws=False)
    PlainTables([h for h in every if sum(h) == 13], UKEIRE_TABLES, draws=True)
    print(f"plain tables for {sum(map(len, sets.values()))} hands and their draws: "
          f"{(time.perf_counter() - start) * 1e3:.0f} ms")
    start = time.perf_counter()
    for hands in sets.values():  # the engine fills its own tables on first sight
        for counts in hands:
            shanten(counts, melds_of(counts))
            if sum(counts) == 13:
                ukeire(counts)
    print(f"engine tables for the same hands, filled on first sight: "
          f"{(time.perf_counter() - start) * 1e3:.0f} ms")
    compared, bad, bad_tables = mismatches(sets)
    print(f"hands: {n} per set; {batches} round-robin batches a comparison; load average "
          f"{load[0]:.2f}; mismatches with the plain tables: {bad_tables}; with mahjong "
          f"(on {compared} hands without a four-of-a-kind): {bad}")

    def pairs_for(names: Sequence[str], ours: Callable[..., object], other: Callable[..., object],
                  args_of: Callable[[Counts], object], other_args_of: Callable[[Counts], object],
                  ) -> dict[str, Pair]:
        out = {}
        for name in names:
            hands, melds = sets[name], melds_of(sets[name][0])
            out[name] = Pair(name, with_melds(ours, melds), [args_of(h) for h in hands],
                             with_melds(other, melds) if other is not theirs else other,
                             [other_args_of(h) for h in hands])
        return out

    def same(h: Counts) -> Counts:
        return h

    all_sets = list(sets)
    vs_tables = pairs_for(all_sets, shanten, tables_shanten, same, same)
    keys_vs_tables = pairs_for(("ready 13", "one away 13"), shanten_keys, tables_shanten_keys,
                               SuitKeys, SuitKeys)
    ukeire_vs_tables = pairs_for(UKEIRE_SETS, ukeire, tables_ukeire, same, same)
    vs_mahjong = pairs_for(all_sets, shanten, theirs, same, to_34)
    keys_vs_mahjong = pairs_for(("ready 13", "one away 13"), shanten_keys, theirs, SuitKeys,
                                to_34)
    ukeire_vs_mahjong = {name: Pair(name, ukeire, list(sets[name]), theirs_ukeire,
                                    [to_34(h) for h in sets[name]]) for name in UKEIRE_SETS}
    groups = [vs_tables, keys_vs_tables, ukeire_vs_tables, vs_mahjong, keys_vs_mahjong,
              ukeire_vs_mahjong]
    run_pairs([p for g in groups for p in g.values()], batches, clock)

    print("shanten from 27 counts (shanten vs plain tables), median per call:")
    for pair in vs_tables.values():
        print(line(pair, "tables"))
    print("shanten on kept suit keys (shanten_keys vs plain tables):")
    for pair in keys_vs_tables.values():
        print(line(pair, "tables"))
    print("进张 of 13-tile hands (ukeire vs plain tables, a look-up a rank):")
    for pair in ukeire_vs_tables.values():
        print(line(pair, "tables"))
    print("shanten from 27 counts (shanten vs Shanten.calculate_shanten):")
    for pair in vs_mahjong.values():
        print(line(pair, "mahjong"))
    print("shanten on kept suit keys (shanten_keys vs Shanten.calculate_shanten):")
    for pair in keys_vs_mahjong.values():
        print(line(pair, "mahjong"))
    print("进张 of 13-tile hands (ukeire vs 1 + 27 × Shanten.calculate_shanten):")
    for pair in ukeire_vs_mahjong.values():
        print(line(pair, "mahjong"))
    print(table_sizes())

    checked = {**{f"shanten {k}": v for k, v in vs_tables.items() if k in GOAL_SETS},
               **{f"shanten_keys {k}": v for k, v in keys_vs_tables.items()},
               **{f"ukeire {k}": v for k, v in ukeire_vs_tables.items()}}
    by_mahjong = {**{f"shanten {k}": v for k, v in vs_mahjong.items()},
                  **{f"shanten_keys {k}": v for k, v in keys_vs_mahjong.items()},
                  **{f"ukeire {k}": v for k, v in ukeire_vs_mahjong.items()}}
    short = [name for name, pair in checked.items() if pair.ratio < GOAL_TABLES
             and by_mahjong[name].ratio < GOAL_MAHJONG]
    ok = bad == 0 and bad_tables == 0 and not short
    print(f"goal (within {GOAL_TABLES}× of the plain tables, or ≥ {GOAL_MAHJONG:.0f}× mahjong, "
          f"for shanten on the 13- and 14-tile sets, shanten_keys and ukeire; 0 mismatches; "
          f"load average now {os.getloadavg()[0]:.2f}): {'met' if ok else 'NOT met'}"
          + (f"; short: {', '.join(short)}" if short else ""))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
