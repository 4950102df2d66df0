"""A compact way to write round logs in tests.

Events are short strings, seat first::

    "0-9s"          seat 0 discards 9s          "1+5p"          seat 1 draws 5p
    "3peng1 7m"     seat 3 pengs 7m from 1      "2ming3 4p"     seat 2 kongs 4p from 3
    "2jia 6s"       seat 2 adds 6s to a kong    "2an 2s"        seat 2 kongs 2s concealed
    "0hu2 4p"       seat 0 wins 4p from 2       "1hu 8m"        seat 1 wins 8m self-drawn
    "dq mpsm"       void suits of seats 0-3     "ex3 123m|456p|789s|111s"  exchange, die 3
"""

from __future__ import annotations

import re
from typing import Any

from xuezhan.tiles import SUIT_LETTERS, parse_tiles

_SEAT_EVENT = re.compile(r"^(\d)(\+|-|peng|ming|jia|an|hu)(\d)?\s*(\w\w)$")


def tiles(text: str) -> list[str]:
    return [str(t) for t in parse_tiles(text)]


def event(text: str) -> dict[str, Any]:
    text = text.strip()
    if text.startswith("dq "):
        return {"type": "dingque", "suits": list(text[3:].strip())}
    if text.startswith("ex"):
        die, gives = text[2:].split(" ", 1)
        parts = [tiles(g) for g in gives.split("|")]
        return {"type": "exchange", "die": int(die), "give": parts}
    m = _SEAT_EVENT.match(text)
    if not m:
        raise ValueError(f"cannot read event {text!r}")
    seat, verb, target, tile = int(m[1]), m[2], m[3], m[4]
    out: dict[str, Any]
    if verb in "+-":
        out = {"type": "draw" if verb == "+" else "discard", "actor": seat, "tile": tile}
    elif verb in ("ming", "jia", "an"):
        out = {"type": "gang", "actor": seat, "kind": verb, "tile": tile}
    else:
        out = {"type": verb, "actor": seat, "tile": tile}
    if target is not None:
        out["target"] = int(target)
    return out


def round_doc(hands: list[str], events: list[str], dealer: int = 0,
              **extra: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {"dealer": dealer, "dice": [3, 4],
                           "hands": [tiles(h) for h in hands],
                           "events": [event(e) for e in events]}
    doc.update(extra)
    return doc


def match_doc(*rounds: dict[str, Any], ruleset: Any = "chengdu", **extra: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {"format": "xuezhan-log", "version": 1, "ruleset": ruleset,
                           "players": ["alice", "bob", "carol", "dave"],
                           "rounds": list(rounds)}
    doc.update(extra)
    return doc


def suits(text: str) -> list[int]:
    return [SUIT_LETTERS.index(c) for c in text]
