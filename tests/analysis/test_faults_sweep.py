"""The sweep tells a lost message from one still waiting (issue 27, finding 10): with the
verification queue empty, a match queued for VERIFY_LOST_AFTER_SECONDS is sent again;
while messages wait, VERIFY_STUCK_AFTER_SECONDS still applies."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from analysis import broker, leases, tasks
from records.models import Match
from tests.conftest import BROKER_URL, needs_broker
from tests.records.documents import make_document

pytestmark = pytest.mark.django_db


def _queued_since(upload: Any, seconds: int) -> Match:
    match = upload(make_document(1))
    Match.objects.filter(pk=match.pk).update(
        status="queued", status_changed_at=timezone.now() - timedelta(seconds=seconds)
    )
    return match


def test_a_match_queued_past_the_lost_wait_is_requeued_only_when_the_queue_is_empty(
    upload: Any, settings: Any
) -> None:
    settings.VERIFY_LOST_AFTER_SECONDS, settings.VERIFY_STUCK_AFTER_SECONDS = 30, 300
    match = _queued_since(upload, 45)
    assert leases.sweep(queue_empty=False) == []  # its message may still wait in the queue
    assert leases.sweep(queue_empty=True) == [match.pk]
    assert leases.sweep(queue_empty=True) == []  # its clock restarted: sent once


def test_the_sweep_task_reads_the_queue_and_sends_the_lost_again(
    upload: Any, settings: Any, monkeypatch: Any
) -> None:
    settings.VERIFY_LOST_AFTER_SECONDS = 30
    match = _queued_since(upload, 45)
    sent: list[int] = []
    monkeypatch.setattr(broker, "queue_depth", lambda queue: 3)
    monkeypatch.setattr(tasks.verify_match, "delay", lambda match_id: sent.append(match_id))
    assert tasks.sweep_and_requeue() == 0 and sent == []  # three messages wait: not lost
    monkeypatch.setattr(broker, "queue_depth", lambda queue: 0)
    assert tasks.sweep_and_requeue() == 1 and sent == [match.pk]


def test_a_sweep_whose_messages_cannot_be_sent_leaves_the_matches_queued(
    upload: Any, settings: Any, monkeypatch: Any
) -> None:
    from kombu.exceptions import OperationalError

    def away(*args: Any) -> None:
        raise OperationalError("connection refused")

    match = _queued_since(upload, 400)
    monkeypatch.setattr(broker, "queue_depth", lambda queue: None)  # the broker is away
    monkeypatch.setattr(tasks.verify_match, "delay", away)
    assert tasks.sweep_and_requeue() == 1
    assert Match.objects.get(pk=match.pk).status == "queued"  # the next sweep sends it


@needs_broker
def test_an_empty_or_missing_queue_has_depth_zero_and_a_waiting_message_counts() -> None:
    import redis

    from config import celery_app

    queue = f"xuezhan-depth-{uuid.uuid4().hex[:8]}"
    before = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = False
    try:
        assert broker.queue_depth(queue) == 0  # Redis keeps no empty list
        with celery_app.connection_for_write() as conn:
            conn.default_channel.queue_declare(queue=queue)
            conn.default_channel.client.lpush(queue, b"{}")
        assert broker.queue_depth(queue) == 1
    finally:
        celery_app.conf.task_always_eager = before
        redis.Redis.from_url(BROKER_URL).delete(queue)
