"""What the records announce, for other apps to act on; records itself imports none of them.

``match_needs_verifying`` is sent after the transaction that stored (or re-queued) a match
commits, with ``match_id``. The analysis app connects the verification task to it in its
AppConfig.ready(); with no receiver connected the match simply waits in ``queued`` for the
sweeper.
"""

from __future__ import annotations

from django.db import transaction
from django.dispatch import Signal

match_needs_verifying = Signal()


def publish_needs_verifying(match_id: int) -> None:
    """Send ``match_needs_verifying`` once the current transaction commits (at once outside one).

    ``robust``: a receiver that fails (the broker is down) must not fail the upload, whose
    match is already stored; the sweeper queues it again later.
    """
    transaction.on_commit(
        lambda: match_needs_verifying.send_robust(sender=None, match_id=match_id), robust=True
    )
