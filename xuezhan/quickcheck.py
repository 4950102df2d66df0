"""A yes-or-no structural check of a log document, for the usual case of an upload or a
review.

``validate_document`` names every problem with its path, and so runs a compiled check per
event, ~750 calls for a match of 8 rounds. An upload, like the decision review, only needs
to know that a document is valid; the names matter only for a bad one. :func:`passes`
answers yes for a well-formed document with the lean verifier's compiled checks
(``xuezhan.schema.lean_checks``: the document with its rounds open, a round with its
tiles and events open) plus the tiles by name and the draws and discards by hand, as
``xuezhan.fastpath`` reads them. A no says nothing: the caller runs ``validate_document``,
whose issues are the ones to report.

``passes(doc)`` is True only where ``validate_document(doc)`` finds nothing
(tests/xuezhan/test_quickcheck.py puts any value anywhere in legal documents to hold it).
"""

from __future__ import annotations

from typing import Any

from xuezhan.fastpath import _plain_round  # vouched for in tests/xuezhan/test_fastpath.py
from xuezhan.schema import integral_floats, lean_checks
from xuezhan.tiles import TILES

_TILE_NAMES = frozenset(str(t) for t in TILES)
_HAND_CHECKED = frozenset({"draw", "discard"})  # of exactly type, actor, tile: here


def passes(doc: object) -> bool:
    """True if ``doc`` is a well-formed log document (``validate_document`` finds nothing);
    False if it is not, or if this check is not sure."""
    checks = lean_checks()
    if type(doc) is not dict or doc.get("format") != "xuezhan-log":
        return False
    if not checks.document(doc) or type(doc["rounds"]) is not list:
        return False
    if integral_floats({**doc, "rounds": ()}):
        return False
    return all(_round_passes(r, checks.round, checks.event) for r in doc["rounds"])


def _round_passes(r: object, round_check: Any, event_checks: dict[str, Any]) -> bool:
    if type(r) is not dict:
        return False
    if not _plain_round(r) and (
            not round_check(r) or integral_floats({"rounds": [{**r, "events": ()}]})):
        return False
    names = _TILE_NAMES
    for hand in r["hands"]:
        if not all(type(t) is str and t in names for t in hand):
            return False
    if not all(type(t) is str and t in names for t in r.get("wall", ())):
        return False
    for event in r["events"]:
        if type(event) is not dict:
            return False
        kind = event.get("type")
        if type(kind) is str and kind in _HAND_CHECKED and len(event) == 3:
            seat, tile = event.get("actor"), event.get("tile")
            if type(seat) is int and 0 <= seat <= 3 and type(tile) is str and tile in names:
                continue
        check = event_checks.get(kind) if type(kind) is str else None
        # the integer fields of an event are its own (actor, target, die): no float there
        if check is None or not check(event) or any(type(v) is float for v in event.values()):
            return False
    return True

