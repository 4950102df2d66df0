"""Throttling (RELIABILITY.md §2.4): uploads per user; sign-in attempts per name and address
(``SignInAttempt``, counted by the authentication backend, records/signin.py).

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

import contextlib
import hashlib
import logging
import os
import secrets
import time
from functools import cache
from typing import Any

import redis
from django.conf import settings
from django.core.cache import cache as shared_cache
from rest_framework.throttling import BaseThrottle, ScopedRateThrottle

from records.dependencies import CACHE, DependencyUnavailable
from records.metrics import UPLOAD_THROTTLE_UNAVAILABLE
from records.names import sign_in_identity

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


class LimitsUnavailable(Exception):
    """The cache that holds the sign-in counts cannot be reached."""


#: what a cache call raises when Redis is down or unreachable
CACHE_ERRORS = (redis.RedisError, ConnectionError, TimeoutError)


class SignInAttempt:
    """One sign-in attempt, counted against the limits (fixed windows in the Django cache).

    Every limit is keyed on ``sign_in_identity`` (records/names.py), the name as Django
    authenticates it, so no spelling of a name gets fresh tries. Against someone locking
    another person out (docs/deploy.md, "Sign-in limits"):

    - per address and name (``SIGNIN_RATE_PER_ADDRESS_AND_USERNAME``): failures of one
      address on one name; the guessing limit that always applies;
    - per name (``SIGNIN_RATE_PER_USERNAME``, looser): failures from anywhere; it refuses
      only addresses that have not signed in to this name before
      (``SIGNIN_KNOWN_ADDRESS_DAYS``), so a lock imposed from elsewhere leaves the owner's
      usual addresses open;
    - per address (``SIGNIN_RATE_PER_ADDRESS``): every attempt, on any name (spraying).

    A successful sign-in takes its own attempt back from the failure counts. The counter
    is incremented before the password is checked (atomic in the cache), so parallel
    guesses cannot all slip under the limit.
    """

    def __init__(self, request: Any, username: str) -> None:
        self.identity = sign_in_identity(username)
        self.address = BaseThrottle().get_ident(request) if request is not None else ""
        self.now = time.time()
        self._failure_keys: list[str] = []

    def begin(self) -> float | None:
        """Count the attempt; the seconds to wait if it is refused, else None.

        :raises LimitsUnavailable: the cache cannot be reached (nothing is let through
            uncounted: the sign-in is refused with a 503).
        """
        try:
            return self._count_all()
        except CACHE_ERRORS as exc:
            log.warning("sign-in limits unavailable: %s", exc, extra={"event": "signin_cache_down"})
            raise LimitsUnavailable from exc

    def _count_all(self) -> float | None:
        known = bool(self.address) and shared_cache.get(self._known_key()) is not None
        limits = [("name", self.identity, settings.SIGNIN_RATE_PER_USERNAME, not known)]
        if self.address:
            pair = f"{self.address}|{self.identity}"
            limits += [("address-name", pair, settings.SIGNIN_RATE_PER_ADDRESS_AND_USERNAME, True),
                       ("address", self.address, settings.SIGNIN_RATE_PER_ADDRESS, True)]
        waits = []
        for scope, ident, rate, enforced in limits:
            counted = _count(scope, ident, rate, self.now)
            if counted is None:
                continue
            key, over, wait = counted
            if scope != "address":
                self._failure_keys.append(key)
            if over and enforced:
                waits.append(wait)
        return max(waits) if waits else None

    def succeeded(self) -> None:
        """A right password: it was no failure, and this address is known for this name.
        The cache failing now costs only this bookkeeping, not the sign-in."""
        try:
            for key in self._failure_keys:
                with contextlib.suppress(ValueError):  # the window ended meanwhile
                    shared_cache.decr(key)
            if self.address:
                shared_cache.set(self._known_key(), 1, settings.SIGNIN_KNOWN_ADDRESS_DAYS * 86400)
        except CACHE_ERRORS as exc:
            log.warning("sign-in limits unavailable: %s", exc, extra={"event": "signin_cache_down"})

    def _known_key(self) -> str:
        return "signin-known:" + _digest(f"{self.address}|{self.identity}")


def _digest(value: str) -> str:
    return hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()


def _count(scope: str, ident: str, rate: str, now: float) -> tuple[str, bool, float] | None:
    """Add one to this window's count: (its key, whether it is over the limit, seconds
    until the window ends), or None when the limit is off."""
    if not rate:
        return None
    count_text, unit = rate.split("/")  # DRF's syntax: "10/hour"
    limit, period = int(count_text), {"s": 1, "m": 60, "h": 3600, "d": 86400}[unit[0]]
    window = int(now // period)
    key = f"signin:{scope}:{_digest(ident)}:{window}"
    shared_cache.add(key, 0, timeout=period + 1)
    try:
        count = shared_cache.incr(key)
    except ValueError:  # expired between the two calls
        shared_cache.set(key, 1, timeout=period + 1)
        count = 1
    return key, count > limit, period - (now - window * period)


def sign_up_wait(request: Any) -> float | None:
    """Count a sign-up attempt of this address (every one, taken name or not, so that the
    form cannot be used to try names in bulk); the seconds to wait if refused, else None."""
    try:
        counted = _count("signup", BaseThrottle().get_ident(request),
                         settings.SIGNUP_RATE_PER_ADDRESS, time.time())
    except CACHE_ERRORS as exc:
        log.warning("sign-up limits unavailable: %s", exc, extra={"event": "signin_cache_down"})
        raise LimitsUnavailable from exc
    return counted[2] if counted is not None and counted[1] else None
