"""Benchmark rejecting a bad document against verifying a good one of the same size.

A simulated match (``xuezhan.sim.simulate.simulate_match``, not timed) is verified as it is,
and again with faults, each timed best of ``--repeat``:

- ``one bad tile``: one event's tile written ``0z``, in the last round;
- ``every tile bad``: every event's tile written ``0z`` (the report stops after
  ``xuezhan.schema.MAX_ISSUES`` problems);
- ``a float actor`` (bytes only): ``"actor": 1.0``, which the reader refuses.

Each is timed on the parsed document (``verify_document``) and from the bytes (the strict
reader, then ``verify_document``, as the CLI does), and printed with its ratio to the good
document (goal: at most 3×) and to the schema check alone of the good document. The format
allows 64 rounds; documents of 185 and 300 rounds are refused on their length before any
round is looked at, and are compared with the 64-round good document. ``--old`` also times
the previous way of naming problems (jsonschema's walk of every error) at 64 rounds.

    python benchmarks/bench_reject.py [--repeat 5] [--old]
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import jsonschema

from xuezhan.reader import ReadError, read_document
from xuezhan.replay import verify_document
from xuezhan.schema import log_schema, validate_document
from xuezhan.sim.simulate import simulate_match

GOAL = 3.0  # rejecting a bad document costs at most this many times verifying a good one


def best_of(repeat: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def faults(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    one = copy.deepcopy(doc)
    last = one["rounds"][-1]["events"]
    next(e for e in reversed(last) if "tile" in e)["tile"] = "0z"
    every = copy.deepcopy(doc)
    for round_doc in every["rounds"]:
        for event in round_doc["events"]:
            if "tile" in event:
                event["tile"] = "0z"
    return {"one bad tile": one, "every tile bad": every}


def from_bytes(raw: bytes) -> None:
    with contextlib.suppress(ReadError):
        verify_document(read_document(raw))


def faulty(raw: bytes) -> bool:
    try:
        return not verify_document(read_document(raw)).legal
    except ReadError:
        return True


def row(name: str, seconds: float, good: float, schema: float) -> None:
    print(f"  {name:<40} {seconds * 1000:9.1f} ms  {seconds / good:6.2f}× verify"
          f"  {seconds / schema:6.2f}× schema check")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--old", action="store_true", help="time jsonschema's full walk too")
    args = parser.parse_args()
    doc = simulate_match(args.seed, 64)
    raw = json.dumps(doc).encode()
    events = sum(len(r["events"]) for r in doc["rounds"])
    print(f"64 rounds, {events} events, {len(raw) // 1024} KiB; best of {args.repeat}")

    assert verify_document(doc).legal
    good = best_of(args.repeat, lambda: verify_document(doc))
    good_bytes = best_of(args.repeat, lambda: from_bytes(raw))
    schema = best_of(args.repeat, lambda: validate_document(doc))
    print(f"  {'good: verify_document':<40} {good * 1000:9.1f} ms")
    print(f"  {'good: read + verify_document':<40} {good_bytes * 1000:9.1f} ms")
    print(f"  {'good: schema check alone':<40} {schema * 1000:9.1f} ms")
    worst = 0.0
    for name, bad in faults(doc).items():
        assert not verify_document(bad).legal
        seconds = best_of(args.repeat, lambda bad=bad: verify_document(bad))
        row(f"{name}: verify_document", seconds, good, schema)
        bad_raw = json.dumps(bad).encode()
        assert faulty(bad_raw)
        seconds = best_of(args.repeat, lambda bad_raw=bad_raw: from_bytes(bad_raw))
        row(f"{name}: read + verify_document", seconds, good_bytes, schema)
        worst = max(worst, seconds / good_bytes)
    at = raw.rfind(b'"actor": 1,')  # in the last round: the reader must read it all
    float_raw = raw[:at] + b'"actor": 1.0,' + raw[at + len(b'"actor": 1,'):]
    assert faulty(float_raw)
    seconds = best_of(args.repeat, lambda: from_bytes(float_raw))
    row("a float actor: read (refused)", seconds, good_bytes, schema)
    worst = max(worst, seconds / good_bytes)

    for rounds in (185, 300):
        long_doc = {**doc, "rounds": (doc["rounds"] * 5)[:rounds]}
        long_raw = json.dumps(long_doc).encode()
        print(f"{rounds} rounds (over the format's 64), {len(long_raw) // 1024} KiB")
        seconds = best_of(args.repeat, lambda long_doc=long_doc: verify_document(long_doc))
        row("refused: verify_document", seconds, good, schema)
        seconds = best_of(args.repeat, lambda long_raw=long_raw: from_bytes(long_raw))
        row("refused: read + verify_document", seconds, good_bytes, schema)
        worst = max(worst, seconds / good_bytes)

    if args.old:
        one = faults(doc)["one bad tile"]
        walk = jsonschema.Draft7Validator(log_schema())
        seconds = best_of(1, lambda: list(walk.iter_errors(one)))
        print("before: jsonschema's walk of every error")
        row("one bad tile, 64 rounds", seconds, good, schema)
    print(f"worst ratio to verifying the good document: {worst:.2f}× (goal ≤ {GOAL:.0f}×)")
    return 0 if worst <= GOAL else 1


if __name__ == "__main__":
    raise SystemExit(main())
