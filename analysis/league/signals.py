"""What the club books announce once a transaction commits.

``night_closed`` is sent after the transaction that closed a night commits, with
``night_id`` and ``club_id``: for whatever wants to tell the club (webhooks connect to
it). The books themselves connect no receiver.
"""

from __future__ import annotations

import contextvars
import logging

from django.db import transaction
from django.dispatch import Signal

night_closed = Signal()
log = logging.getLogger(__name__)


def publish_night_closed(night_id: int, *, club_id: int) -> None:
    """Send ``night_closed`` once the current transaction commits (at once outside one).

    ``robust``: a receiver that fails must not undo the closing, which is committed.
    """
    context = contextvars.copy_context()
    transaction.on_commit(lambda: context.run(_announce, night_id, club_id), robust=True)


def _announce(night_id: int, club_id: int) -> None:
    sent = night_closed.send_robust(sender=None, night_id=night_id, club_id=club_id)
    for receiver, result in sent:
        if isinstance(result, Exception):
            log.warning(
                "a receiver of night_closed failed",
                extra={"night": night_id, "receiver": str(receiver), "error": repr(result)},
            )
