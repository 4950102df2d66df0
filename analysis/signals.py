"""What the analysis app announces once a transaction commits.

``verdict_stored`` is sent, with ``match_ids``, after a verification that gave verdicts
(verified or illegal) commits: the matches of a batch together. The tasks module queues
their decision reviews on it (AnalysisConfig.ready), so that every way to a verdict — the
task, ``reverify``, ``rebuild_facts``, ``load_simulated`` — is followed by its review.
"""

from __future__ import annotations

import contextvars
import logging

from django.db import transaction
from django.dispatch import Signal

verdict_stored = Signal()
log = logging.getLogger(__name__)


def publish_verdicts_stored(match_ids: list[int]) -> None:
    """Send ``verdict_stored`` once the current transaction commits (at once outside one).

    ``robust``: a receiver that fails (the broker is away) must not fail the verification,
    which is committed; the review is then missing until the match is verified again.
    """
    context = contextvars.copy_context()
    transaction.on_commit(lambda: context.run(_announce, match_ids), robust=True)


def _announce(match_ids: list[int]) -> None:
    for receiver, result in verdict_stored.send_robust(sender=None, match_ids=match_ids):
        if isinstance(result, Exception):
            log.warning(
                "a receiver of verdict_stored failed; the matches have no review yet",
                extra={"matches": match_ids, "receiver": str(receiver), "error": repr(result)},
            )
