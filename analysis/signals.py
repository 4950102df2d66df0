"""What the analysis app announces once a transaction commits.

``verdict_stored`` is sent after a verification that stored outcomes commits, the matches
of a batch together: ``match_ids`` are those with a verdict (verified or illegal),
``club_ids`` the clubs of every match whose outcome was stored (a failed one included),
``failed_ids`` the matches the engine could not verify (status failed).
Receivers (connected in AnalysisConfig.ready) queue the decision reviews (analysis.tasks)
and the club's ratings (analysis.league.tasks), so that every way to a verdict — the task,
``reverify``, ``rebuild_facts``, ``load_simulated`` — is followed by both.
"""

from __future__ import annotations

import contextvars
import logging
from collections.abc import Iterator, Sequence

from django.db import transaction
from django.dispatch import Signal

verdict_stored = Signal()
log = logging.getLogger(__name__)

#: ids a receiver puts in one message or one query: a bulk load announces a whole club
#: (analysis.copies.announce: 125,000 matches at 1M rounds), past PostgreSQL's 65,535
#: parameters and Redis's comfortable message size
CHUNK = 1000


def in_chunks(ids: Sequence[int], size: int = CHUNK) -> Iterator[list[int]]:
    """``ids`` sorted, ``size`` at a time."""
    ordered = sorted(ids)
    for start in range(0, len(ordered), size):
        yield ordered[start : start + size]


def publish_verdicts_stored(
    match_ids: list[int], *, club_ids: list[int], failed_ids: list[int] | None = None
) -> None:
    """Send ``verdict_stored`` once the current transaction commits (at once outside one).

    ``robust``: a receiver that fails (the broker is away) must not fail the verification,
    which is committed; the review is then missing until the match is verified again.
    """
    context = contextvars.copy_context()
    failed = failed_ids or []
    transaction.on_commit(
        lambda: context.run(_announce, match_ids, club_ids, failed), robust=True
    )


def _announce(match_ids: list[int], club_ids: list[int], failed_ids: list[int]) -> None:
    sent = verdict_stored.send_robust(
        sender=None, match_ids=match_ids, club_ids=club_ids, failed_ids=failed_ids
    )
    for receiver, result in sent:
        if isinstance(result, Exception):
            log.warning(
                "a receiver of verdict_stored failed; the matches' review or ratings wait",
                extra={"matches": match_ids, "receiver": str(receiver), "error": repr(result)},
            )
