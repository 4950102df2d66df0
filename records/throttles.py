"""Throttling (RELIABILITY.md §2.4): uploads per user, sign-in attempts per name and address.

The counts live in the Django cache: give several web processes a shared one (CACHE_URL).
The client address is REMOTE_ADDR unless NUM_PROXIES says how many proxies to trust in
X-Forwarded-For.

Uploads, the one throttle on a busy path, keep their log in Redis itself when CACHE_URL
is Redis: a sorted set of the request times, trimmed, added to and counted in one round
trip, instead of DRF's read of the whole pickled list and its write back (two round trips
and a list of up to UPLOAD_RATE_LIMIT times each way). The rule is DRF's exactly: a
request is allowed while fewer than N allowed ones fall in the last period; a refused one
is not counted.
"""

from __future__ import annotations

import hashlib
import logging
import os
import secrets
from functools import cache
from typing import Any

import redis
from django.conf import settings
from rest_framework.throttling import ScopedRateThrottle, SimpleRateThrottle
from rest_framework.views import APIView

from records.dependencies import CACHE, DependencyUnavailable
from records.metrics import UPLOAD_THROTTLE_UNAVAILABLE

_REDIS_SCHEMES = ("redis://", "rediss://", "unix://")
log = logging.getLogger(__name__)


@cache
def _redis(url: str) -> redis.Redis:
    """One client (and connection pool) per process; redis-py opens new connections in a
    forked child by itself. Short timeouts: a Redis that does not answer costs an upload
    about a second (REDIS_TIMEOUT_SECONDS), not the operating system's minutes."""
    timeout = settings.REDIS_TIMEOUT_SECONDS
    return redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout)


class UploadThrottle(ScopedRateThrottle):
    """``UPLOAD_RATE_LIMIT`` uploads per user; the rate is read when a request comes,
    not when DRF's settings were first loaded, so that it follows the settings."""

    scope = "uploads"
    scope_attr = "throttle_scope"

    def get_rate(self) -> str | None:
        return settings.UPLOAD_RATE_LIMIT or None

    def allow_request(self, request: Any, view: Any) -> bool:
        """Count the upload; when the cache is away, let it through (and say so in the log
        and ``xuezhan_upload_throttle_unavailable_total``) if UPLOAD_THROTTLE_FAIL_OPEN,
        else refuse it with 503 (records.middleware)."""
        try:
            return self._allow(request, view)
        except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError) as exc:
            fail_open = settings.UPLOAD_THROTTLE_FAIL_OPEN
            UPLOAD_THROTTLE_UNAVAILABLE.labels("allowed" if fail_open else "refused").inc()
            log.warning("the upload throttle cannot reach the cache: upload %s",
                        "allowed" if fail_open else "refused", extra={"error": repr(exc)})
            if fail_open:
                return True
            raise DependencyUnavailable(CACHE) from exc

    def _allow(self, request: Any, view: Any) -> bool:
        url = settings.CACHE_URL or ""
        rate = self.get_rate() if getattr(view, self.scope_attr, None) else None
        if not url.startswith(_REDIS_SCHEMES) or rate is None:
            return super().allow_request(request, view)
        self.scope = getattr(view, self.scope_attr)
        limit, duration = self.parse_rate(rate)
        assert limit is not None and duration is not None  # a rate was given
        key = self.cache.make_key(f"{self.get_cache_key(request, view)}:log")
        self.now = now = self.timer()
        member = f"{now:.6f}:{os.getpid()}:{secrets.token_hex(4)}"
        client = _redis(url)
        with client.pipeline() as pipe:  # MULTI/EXEC: one round trip, atomic
            pipe.zremrangebyscore(key, "-inf", now - duration)
            pipe.zadd(key, {member: now})
            pipe.zcard(key)
            pipe.zrange(key, 0, 0, withscores=True)
            pipe.expire(key, duration)
            _, _, count, oldest, _ = pipe.execute()
        if count <= limit:
            return True
        client.zrem(key, member)  # a refused request does not count
        self._refused = (limit - (count - 1) + 1, duration - (now - float(oldest[0][1])))
        return False

    def wait(self) -> float | None:
        """DRF's advice, from the log: the time until the oldest allowed request leaves
        the period, spread over the requests still available then."""
        refused: tuple[int, float] | None = getattr(self, "_refused", None)
        if refused is None:
            return super().wait()
        available, remaining = refused
        return remaining / available if available > 0 else None


def attempted_username(request: Any) -> str:
    """The user name a sign-in request tries (a form's field or a JSON body's), or ""."""
    data = getattr(request, "data", None)
    if data is None:
        data = request.POST
    value = data.get("username", "") if hasattr(data, "get") else ""
    return value.strip().casefold() if isinstance(value, str) else ""


class SignInPerUsername(SimpleRateThrottle):
    """Attempts on one user name, from anywhere: stops guessing one account's password."""

    scope = "signin-username"

    def get_rate(self) -> str | None:
        return settings.SIGNIN_RATE_PER_USERNAME or None

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        name = attempted_username(request)
        if not name:
            return None
        digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()
        return self.cache_format % {"scope": self.scope, "ident": digest}


class SignInPerAddress(SimpleRateThrottle):
    """Attempts from one address, on any name: stops trying one password on many accounts."""

    scope = "signin-address"

    def get_rate(self) -> str | None:
        return settings.SIGNIN_RATE_PER_ADDRESS or None

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


SIGN_IN_THROTTLES = (SignInPerUsername, SignInPerAddress)


def sign_in_wait(request: Any) -> float | None:
    """Seconds to wait before another sign-in attempt is allowed, or None to go ahead.

    For views outside DRF (the sign-in page); DRF views list SIGN_IN_THROTTLES instead.
    Every throttle counts the attempt, as DRF's do.
    """
    waits = []
    for throttle_class in SIGN_IN_THROTTLES:
        throttle = throttle_class()
        if not throttle.allow_request(request, APIView()):
            waits.append(throttle.wait() or 1.0)
    return max(waits) if waits else None
