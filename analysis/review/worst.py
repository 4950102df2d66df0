"""A match's worst decisions: their order, what one looks like in a report, and the few the
match page shows — stored with the review (analysis.services._review_summary), so that a
match page never replays the match; the report's full list is computed on demand."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xuezhan.review import Decision

#: the worst decisions of the match the match page lists (besides each seat's worst)
ON_MATCH_PAGE = 3


def worst_first(d: Decision) -> tuple[int, int, int, int]:
    """The largest loss first, then in the order they were played."""
    return (-d.loss, d.round, d.event, d.seat)


def page_worst(mistakes: Sequence[Decision]) -> list[Decision]:
    """Of ``mistakes`` sorted by :func:`worst_first`, the match page's: the first
    ``ON_MATCH_PAGE`` and each seat's first, in the same order."""
    seats_seen: set[int] = set()
    kept = []
    for index, d in enumerate(mistakes):
        if index < ON_MATCH_PAGE or d.seat not in seats_seen:
            kept.append(d)
        seats_seen.add(d.seat)
    return kept


def worst_entry(d: Decision) -> dict[str, Any]:
    """One mistake as the report lists it: what was done, what was best, by how much.
    Only a mistake's options are ranked in full (the summaries never need them)."""
    best = d.alternatives[0] if d.alternatives else d.picked
    return {
        "round": d.round, "event": d.event, "seat": d.seat, "kind": d.kind,
        "verdict": d.verdict, "loss": d.loss, "chosen": d.chosen, "best": best.chosen,
        "shanten_before": d.shanten_before, "shanten_after": d.shanten_after,
        "unseen": d.picked.unseen, "best_shanten_after": best.shanten_after,
        "best_unseen": best.unseen,
    }  # fmt: skip
