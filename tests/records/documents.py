"""Round logs for the service's tests, built from a seed.

Each round is dealt from a shuffled set, plays the exchange (opposite seats swap), the void
declaration and a few draw-and-discard turns, then stops: a legal, *incomplete* round
(docs/format.md: an abandoned table is incomplete, not illegal). ``illegal_document`` makes one
with a discard of a tile the actor does not hold. The hand-checked logs with wins and
settlements live in ``tests/data``; ``data_documents()`` loads them.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

SUITS = "mps"
PLAYERS = ("alice", "bob", "carol", "dave")
DATA = Path(__file__).resolve().parent.parent / "data"


def make_document(
    seed: int = 0,
    *,
    rounds: int = 1,
    turns: int = 8,
    players: tuple[str, ...] = PLAYERS,
    match_id: str | None = None,
) -> dict[str, Any]:
    rng = random.Random(seed)
    doc: dict[str, Any] = {
        "format": "xuezhan-log",
        "version": 1,
        "ruleset": "chengdu",
        "players": list(players),
        "played_at": f"2026-11-{1 + seed % 28:02d}T19:30:00+08:00",
        "rounds": [],
    }
    if match_id is not None:
        doc["match_id"] = match_id
    for _ in range(rounds):
        doc["rounds"].append(_round(rng, turns))
    return doc


def _round(rng: random.Random, turns: int) -> dict[str, Any]:
    deck = [f"{n}{s}" for s in SUITS for n in range(1, 10) for _ in range(4)]
    rng.shuffle(deck)
    dealer = 0
    hands = [deck[0:14], deck[14:27], deck[27:40], deck[40:53]]
    wall = deck[53:]
    held = [list(h) for h in hands]
    give = []
    for hand in held:
        suit = max(SUITS, key=lambda s: sum(t[1] == s for t in hand))
        give.append([t for t in hand if t[1] == suit][:3])
    for seat in range(4):
        for tile in give[seat]:
            held[seat].remove(tile)
    for seat in range(4):
        held[seat].extend(give[(seat + 2) % 4])  # die 3: opposite seats swap
    voids = [min(SUITS, key=lambda s: sum(t[1] == s for t in hand)) for hand in held]
    events: list[dict[str, Any]] = [
        {"type": "exchange", "die": 3, "give": give},
        {"type": "dingque", "suits": voids},
    ]

    def discard(seat: int) -> None:
        hand = held[seat]
        void = [t for t in hand if t[1] == voids[seat]]
        tile = void[0] if void else hand[-1]
        hand.remove(tile)
        events.append({"type": "discard", "actor": seat, "tile": tile})

    seat = dealer
    discard(seat)
    for draw in wall[:turns]:
        seat = (seat + 1) % 4
        events.append({"type": "draw", "actor": seat, "tile": draw})
        held[seat].append(draw)
        discard(seat)
    return {"dealer": dealer, "dice": [3, 4], "hands": hands, "wall": wall, "events": events}


def illegal_document(seed: int = 0) -> dict[str, Any]:
    """A schema-valid document whose first discard is of a tile the dealer does not hold."""
    doc = make_document(seed)
    round_ = doc["rounds"][0]
    give = round_["events"][0]["give"]
    held = set(round_["hands"][0]) | set(give[2])  # the dealer's tiles, before and after
    missing = next(f"{n}{s}" for s in SUITS for n in range(1, 10) if f"{n}{s}" not in held)
    first_discard = next(e for e in round_["events"] if e["type"] == "discard")
    first_discard["tile"] = missing
    return doc


def dumps(doc: Any) -> bytes:
    return json.dumps(doc).encode()


def data_documents() -> dict[str, Any]:
    """The hand-written logs under tests/data (name → document), possibly none yet."""
    found = {}
    for path in sorted(DATA.rglob("*.json")):
        try:
            found[path.stem] = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            continue
    return found


def simulated(seed: int, rounds: int = 2) -> dict[str, Any]:
    """A complete match the bots played (wins and settlements), ``rounds`` rounds long."""
    from xuezhan.sim.simulate import simulate_match

    return simulate_match(seed, rounds)


def one_win_sheet() -> dict[str, Any]:
    """A score sheet of one round, one win (docs/format.md, "Score sheets"): no tiles."""
    return {
        "format": "xuezhan-sheet", "version": 1, "ruleset": "chengdu",
        "players": ["a", "b", "c", "d"], "played_at": "2026-11-05T20:00:00+08:00",
        "rounds": [{"dealer": 0, "events": [
            {"type": "win", "seat": 1, "from": 3, "tile": "9m", "pattern": "qing_yi_se"}]}],
    }  # fmt: skip
