"""The webhooks' tasks: send one delivery, and send whatever is due (every
WEBHOOK_SWEEP_INTERVAL_SECONDS, from beat). Both take ids and are safe to run twice: a
delivery is claimed before it is sent (records.webhooks.services.claim)."""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task
from django.db import transaction

from records.webhooks import services

log = logging.getLogger(__name__)


@shared_task(name="records.webhooks.deliver", acks_late=True, ignore_result=True)
def deliver(delivery_id: int, by_hand: bool = False) -> None:
    services.attempt(delivery_id, by_hand=by_hand)


@shared_task(name="records.webhooks.send_due", ignore_result=True)
def send_due() -> int:
    """Queue every due delivery (retries, lost messages); forget old ones."""
    ids = services.due()
    for delivery_id in ids:
        deliver.delay(delivery_id)
    services.forget_old()
    return len(ids)


def queue(delivery_id: int, *, by_hand: bool = False) -> None:
    """Queue a delivery's task once the current transaction commits. A broker that is away
    loses nothing: the delivery is due, and ``send_due`` finds it."""

    def send() -> None:
        try:
            deliver.delay(delivery_id, by_hand)
        except Exception:
            log.warning("webhook delivery not queued; the sweep will send it",
                        extra={"delivery": delivery_id}, exc_info=True)

    transaction.on_commit(send, robust=True)


def announce(*, club_id: int, event: str, data: dict[str, Any]) -> int:
    """Emit ``event`` to the club's endpoints that want it and queue the deliveries."""
    made = services.emit(club_id=club_id, event=event, data=data)
    for item in made:
        queue(item.pk)
    return len(made)
