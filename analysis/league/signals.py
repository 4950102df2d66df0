"""What the club books announce once a transaction commits, for whoever listens (the
webhooks: analysis/league/events.py); the books import none of their listeners.

- ``match_corrected``: ``match_id``, ``club_id``, ``reverify`` (a new verdict follows).
- ``settle_up_recorded``: ``settle_up_id``, ``club_id``.
- ``counted_matches_changed``: ``club_id``, ``match_ids`` — an acceptance given or withdrawn,
  a match assigned to a season or unassigned: the seasons that count them may rank anew.
- ``night_closed``: ``night_id``, ``club_id`` — a night closed (its settle-up final).
"""

from __future__ import annotations

import contextvars
import logging
from typing import Any

from django.db import transaction
from django.dispatch import Signal

match_corrected = Signal()
settle_up_recorded = Signal()
counted_matches_changed = Signal()
night_closed = Signal()
log = logging.getLogger(__name__)


def publish(signal: Signal, **kwargs: Any) -> None:
    """Send ``signal`` once the current transaction commits (at once outside one); a
    receiver that fails is logged and never fails the write."""
    context = contextvars.copy_context()
    transaction.on_commit(lambda: context.run(_send, signal, kwargs), robust=True)


def _send(signal: Signal, kwargs: dict[str, Any]) -> None:
    for receiver, result in signal.send_robust(sender=None, **kwargs):
        if isinstance(result, Exception):
            log.warning("a receiver of a league signal failed",
                        extra={"receiver": str(receiver), "error": repr(result)})
