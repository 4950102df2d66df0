"""Writes of the webhooks: endpoints, their secrets, and the deliveries' lives.

A delivery is a row before it is a message: ``emit`` stores one per endpoint that wants
the event (``tasks.announce`` queues their task after commit); the task claims it (a
lease: ``next_attempt_at`` moves past the request's time), sends it, and records the
attempt and what follows — done, tried again later (backoff with jitter; Retry-After
honoured), or given up. The periodic ``send_due`` finds every delivery whose time has
come, so a lost message, a dead worker or a broker that was away delays a delivery but
never loses it: at least once.
"""

from __future__ import annotations

import base64
import logging
import random
import secrets
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import orjson
from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from records.models import Club, WebhookAttempt, WebhookDelivery, WebhookEndpoint
from records.webhooks import delivery as http
from records.webhooks.events import TEST_EVENT

log = logging.getLogger(__name__)
Status = WebhookDelivery.Status
#: how long a rotated-out secret still signs (a receiver switches over meanwhile)
ROTATION_GRACE = timedelta(hours=24)


def new_secret() -> str:
    """A Standard Webhooks secret: ``whsec_`` and 32 random bytes in base64."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()


def create_endpoint(
    *, club: Club, url: str, events: list[str], by: User | None, description: str = "",
    enabled: bool = True,
) -> WebhookEndpoint:  # fmt: skip
    return WebhookEndpoint.objects.create(
        club=club, url=url, events=sorted(set(events)), description=description,
        enabled=enabled, secret=new_secret(), created_by=by,
    )  # fmt: skip


def change_endpoint(*, endpoint: WebhookEndpoint, **changes: Any) -> WebhookEndpoint:
    """Change the URL, events, description or enabled; enabling again clears the failure
    record (the next failure starts a new day) and makes the deliveries waiting due now."""
    if "events" in changes:
        changes["events"] = sorted(set(changes["events"]))
    if changes.get("enabled") and not endpoint.enabled:
        endpoint.failing_since, endpoint.disabled_reason = None, ""
        endpoint.deliveries.filter(status=Status.PENDING).update(next_attempt_at=timezone.now())
    for name, value in changes.items():
        setattr(endpoint, name, value)
    endpoint.save()
    return endpoint


def rotate_secret(*, endpoint: WebhookEndpoint, now: datetime | None = None) -> WebhookEndpoint:
    """A new secret; the old one signs too for ROTATION_GRACE."""
    now = now or timezone.now()
    endpoint.previous_secret, endpoint.secret = endpoint.secret, new_secret()
    endpoint.previous_secret_until = now + ROTATION_GRACE
    endpoint.save(update_fields=["secret", "previous_secret", "previous_secret_until"])
    return endpoint


def delete_endpoint(*, endpoint: WebhookEndpoint) -> None:
    endpoint.delete()


def signing_secrets(endpoint: WebhookEndpoint, now: datetime) -> list[str]:
    keys = [endpoint.secret]
    until = endpoint.previous_secret_until
    if endpoint.previous_secret and until is not None and until > now:
        keys.append(endpoint.previous_secret)
    return keys


# -- events --------------------------------------------------------------------------


def emit(*, club_id: int, event: str, data: dict[str, Any]) -> list[WebhookDelivery]:
    """One delivery of ``event`` per enabled endpoint of the club that asked for it (the
    caller queues them: records.webhooks.tasks.announce). Nothing of the core calls this:
    receivers of its signals do."""
    endpoints = [
        e for e in WebhookEndpoint.objects.filter(club_id=club_id, enabled=True)
        if event in e.events
    ]  # fmt: skip
    return _deliver(endpoints, event, data)


def wanted(club_id: int, event: str) -> bool:
    """Whether any endpoint of the club wants ``event`` (to skip building its data)."""
    return any(
        event in events
        for events in WebhookEndpoint.objects.filter(club_id=club_id, enabled=True)
        .values_list("events", flat=True)
    )  # fmt: skip


def send_test(*, endpoint: WebhookEndpoint) -> WebhookDelivery:
    """A ``webhook.test`` event to this endpoint alone, enabled or not."""
    data = {"club": endpoint.club_id, "webhook": endpoint.pk,
            "message": "A test event from xuezhan."}
    return _deliver([endpoint], TEST_EVENT, data)[0]


def _deliver(
    endpoints: Iterable[WebhookEndpoint], event: str, data: dict[str, Any]
) -> list[WebhookDelivery]:
    now = timezone.now()
    made = []
    for endpoint in endpoints:
        message_id = f"msg_{uuid.uuid4().hex}"
        body = orjson.dumps(
            {"type": event, "timestamp": now.isoformat().replace("+00:00", "Z"), "data": data}
        ).decode()
        made.append(WebhookDelivery.objects.create(
            endpoint=endpoint, event=event, message_id=message_id, body=body,
            next_attempt_at=now,
        ))  # fmt: skip
    return made


# -- attempts ------------------------------------------------------------------------


@dataclass(frozen=True)
class Claim:
    """A delivery held by one sender until ``until``: what it needs to send."""

    delivery_id: int
    number: int
    url: str
    secrets: list[str]
    message_id: str
    body: str
    by_hand: bool


def retry_schedule() -> list[int]:
    """Seconds to wait after each failed attempt (Standard Webhooks' suggestion: about a
    day in all); after the last, the delivery is given up."""
    return list(settings.WEBHOOK_RETRY_SCHEDULE)


def backoff(failed_attempts: int, *, jitter: float = 0.2) -> float | None:
    """The wait after ``failed_attempts`` failures (±``jitter``), None when none is left."""
    schedule = retry_schedule()
    if failed_attempts > len(schedule):
        return None
    base = schedule[failed_attempts - 1]
    return float(base * random.uniform(1 - jitter, 1 + jitter))


def claim(delivery_id: int, *, now: datetime | None = None, by_hand: bool = False) -> Claim | None:
    """Take the delivery for one attempt if it is due and its endpoint enabled (or
    ``by_hand``): None if another sender holds it, it is done, or it is not yet time."""
    now = now or timezone.now()
    with transaction.atomic():
        rows = WebhookDelivery.objects.select_for_update(skip_locked=True).select_related(
            "endpoint"
        ).filter(pk=delivery_id, status=Status.PENDING)
        if not by_hand:  # an admin's test or resend goes even to a disabled endpoint
            rows = rows.filter(next_attempt_at__lte=now, endpoint__enabled=True)
        item = rows.first()
        if item is None:
            return None
        item.attempt_count += 1
        item.next_attempt_at = now + timedelta(seconds=settings.WEBHOOK_LEASE_SECONDS)
        item.save(update_fields=["attempt_count", "next_attempt_at"])
    return Claim(
        item.pk, item.attempt_count, item.endpoint.url, signing_secrets(item.endpoint, now),
        item.message_id, item.body, by_hand,
    )  # fmt: skip


def record(claim: Claim, outcome: http.Outcome, *, now: datetime | None = None) -> WebhookDelivery:
    """Store the attempt and decide what follows: delivered, another try, or given up; and
    disable an endpoint that has failed, without a success, for WEBHOOK_DISABLE_AFTER_SECONDS."""
    now = now or timezone.now()
    with transaction.atomic():
        item = WebhookDelivery.objects.select_for_update().get(pk=claim.delivery_id)
        endpoint = WebhookEndpoint.objects.select_for_update().get(pk=item.endpoint_id)
        WebhookAttempt.objects.create(
            delivery=item, number=claim.number, at=now, status_code=outcome.status_code,
            latency_ms=outcome.latency_ms, error=outcome.error,
            response=outcome.response[: http.RESPONSE_EXCERPT], by_hand=claim.by_hand,
        )  # fmt: skip
        if outcome.succeeded:
            item.status, item.delivered_at, item.next_attempt_at = Status.DELIVERED, now, None
            endpoint.failing_since = None
        else:
            wait = backoff(item.attempt_count) if outcome.retryable else None
            if wait is not None and outcome.retry_after is not None:
                wait = max(wait, min(outcome.retry_after, settings.WEBHOOK_MAX_RETRY_AFTER))
            if wait is None:
                item.status, item.next_attempt_at = Status.FAILED, None
            else:
                item.next_attempt_at = now + timedelta(seconds=wait)
            endpoint.failing_since = endpoint.failing_since or now
            failing_for = (now - endpoint.failing_since).total_seconds()
            if endpoint.enabled and failing_for >= settings.WEBHOOK_DISABLE_AFTER_SECONDS:
                endpoint.enabled = False
                endpoint.disabled_reason = "failing"
                log.warning("webhook disabled after failing", extra={"webhook": endpoint.pk})
        item.save(update_fields=["status", "delivered_at", "next_attempt_at"])
        endpoint.save(update_fields=["failing_since", "enabled", "disabled_reason"])
    return item


def attempt(delivery_id: int, *, by_hand: bool = False) -> WebhookDelivery | None:
    """Claim, send and record one attempt (None: nothing to do now)."""
    held = claim(delivery_id, by_hand=by_hand)
    if held is None:
        return None
    outcome = http.post(held.url, secrets=held.secrets, message_id=held.message_id,
                        body=held.body)
    return record(held, outcome)


def resend(*, item: WebhookDelivery) -> WebhookDelivery:
    """Make a delivery due now, whatever its state (an admin sends it again by hand); the
    message keeps its ``webhook-id``, so a receiver that has it already can tell."""
    item.status, item.next_attempt_at = Status.PENDING, timezone.now()
    item.save(update_fields=["status", "next_attempt_at"])
    return item


def due(*, now: datetime | None = None, limit: int = 500) -> list[int]:
    """The deliveries whose time has come (lost messages, retries, an endpoint enabled
    again), oldest first."""
    now = now or timezone.now()
    return list(
        WebhookDelivery.objects.filter(
            Q(next_attempt_at__lte=now), status=Status.PENDING, endpoint__enabled=True
        ).order_by("next_attempt_at", "pk").values_list("pk", flat=True)[:limit]
    )


def forget_old(*, now: datetime | None = None) -> int:
    """Delete deliveries (and their attempts) older than WEBHOOK_KEEP_DAYS."""
    now = now or timezone.now()
    cutoff = now - timedelta(days=settings.WEBHOOK_KEEP_DAYS)
    deleted, _ = WebhookDelivery.objects.filter(created_at__lt=cutoff).exclude(
        status=Status.PENDING
    ).delete()
    return deleted
