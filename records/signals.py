"""What the records announce, for other apps to act on; records itself imports none of them.

``match_needs_verifying`` is sent after the transaction that stored (or re-queued) a match
commits, with ``match_id``. The analysis app connects the verification task to it in its
AppConfig.ready(); with no receiver connected the match simply waits in ``queued`` for the
sweeper.
"""

from __future__ import annotations

import contextvars
import logging

from django.db import transaction
from django.dispatch import Signal

match_needs_verifying = Signal()
log = logging.getLogger(__name__)


def publish_needs_verifying(match_id: int) -> None:
    """Send ``match_needs_verifying`` once the current transaction commits (at once outside one).

    ``robust``: a receiver that fails (the broker is down) must not fail the upload, whose
    match is already stored; the sweeper queues it again later. Receivers run in the
    context of the caller (its request id for the logs), even if the commit comes later.
    """
    context = contextvars.copy_context()
    transaction.on_commit(lambda: context.run(_announce, match_id), robust=True)


def _announce(match_id: int) -> None:
    for receiver, result in match_needs_verifying.send_robust(sender=None, match_id=match_id):
        if isinstance(result, Exception):
            log.warning(
                "a receiver of match_needs_verifying failed; the sweep will queue the match",
                extra={"match": match_id, "receiver": str(receiver), "error": repr(result)},
            )
