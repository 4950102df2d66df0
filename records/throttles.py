"""Throttling (RELIABILITY.md §2.4): uploads per user, sign-in attempts per name and address.

The counts live in the Django cache: give several web processes a shared one (CACHE_URL).
The client address is REMOTE_ADDR unless NUM_PROXIES says how many proxies to trust in
X-Forwarded-For.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.conf import settings
from rest_framework.throttling import ScopedRateThrottle, SimpleRateThrottle
from rest_framework.views import APIView


class UploadThrottle(ScopedRateThrottle):
    """``UPLOAD_RATE_LIMIT`` uploads per user; the rate is read when a request comes,
    not when DRF's settings were first loaded, so that it follows the settings."""

    scope = "uploads"
    scope_attr = "throttle_scope"

    def get_rate(self) -> str | None:
        return settings.UPLOAD_RATE_LIMIT or None


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
