"""What the verification asks of the broker beyond sending: whether a queue is empty, and
sending that never fails the caller (the sweep hands on what could not be sent).

A match is stored before its message is sent, and its status in the database is the truth
(records.signals, analysis.leases): a message may be lost (the broker was away when it was
sent, or Redis restarted empty) and the sweep sends it again. This module lets the sweep
tell "its message waits in the queue" from "its message is gone" without waiting minutes.
"""

from __future__ import annotations

import logging
from typing import Any

from kombu.exceptions import ChannelError
from kombu.exceptions import OperationalError as BrokerError

from config.celery import app

log = logging.getLogger(__name__)


def queue_depth(queue: str) -> int | None:
    """The messages waiting in ``queue`` (not those a worker holds), or None when the
    broker cannot say (it is away, or tasks run eagerly: no broker)."""
    if app.conf.task_always_eager:
        return None
    try:
        with app.connection_for_read() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
            declared = conn.default_channel.queue_declare(queue=queue, passive=True)
            return int(declared.message_count)
    except ChannelError:  # Redis deletes an empty list: a queue never used or drained
        return 0
    except Exception as exc:
        log.warning("cannot read the queue's depth", extra={"queue": queue, "error": repr(exc)})
        return None


def verification_queue() -> str:
    """The queue verifications go to (CELERY_QUEUE)."""
    return str(app.conf.task_default_queue)


def send(task: Any, *args: Any, **kwargs: Any) -> bool:
    """``task.delay(*args, **kwargs)``; False (and a log line) if the broker is away: the
    match stays queued in the database and the sweep sends it again."""
    try:
        task.delay(*args, **kwargs)
    except BrokerError as exc:
        log.warning("the broker is away: the sweep will send this again",
                    extra={"task": task.name, "task_args": list(args), "error": repr(exc)})
        return False
    return True
