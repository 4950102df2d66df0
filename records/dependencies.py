"""Which dependency an exception says is away: the cache (Redis), the broker (Redis or
RabbitMQ, through kombu) or the database; RELIABILITY.md §2, docs/deploy.md "When a
dependency fails".

The web answers such a request 503 naming the dependency (records.middleware), never 500:
the client may try again, and the operator reads which one in the log and the metric.
"""

from __future__ import annotations

import redis.exceptions
from django.db import InterfaceError, OperationalError
from kombu.exceptions import OperationalError as BrokerError

CACHE, BROKER, DATABASE = "cache", "broker", "database"


class DependencyUnavailable(Exception):
    """Raised where code knows which dependency failed and chose not to go on."""

    def __init__(self, dependency: str) -> None:
        super().__init__(f"the {dependency} is unavailable")
        self.dependency = dependency


def unavailable(exc: BaseException) -> str | None:
    """The dependency ``exc`` says is away, or None if it is some other error.

    kombu wraps a Redis broker's connection errors in its own OperationalError, so a Redis
    error that reaches here unwrapped came from the cache (Django's Redis cache, the
    upload throttle's client)."""
    if isinstance(exc, DependencyUnavailable):
        return exc.dependency
    if isinstance(exc, BrokerError):
        return BROKER
    if isinstance(exc, redis.exceptions.ConnectionError | redis.exceptions.TimeoutError):
        return CACHE
    if isinstance(exc, OperationalError | InterfaceError):
        return DATABASE
    return None
