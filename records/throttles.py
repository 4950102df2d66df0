"""Upload throttling (RELIABILITY.md §2.4): a per-user rate on match uploads."""

from __future__ import annotations

from django.conf import settings
from rest_framework.throttling import ScopedRateThrottle


class UploadThrottle(ScopedRateThrottle):
    """``UPLOAD_RATE_LIMIT`` uploads per user; the rate is read when a request comes,
    not when DRF's settings were first loaded, so that it follows the settings."""

    scope = "uploads"
    scope_attr = "throttle_scope"

    def get_rate(self) -> str | None:
        return settings.UPLOAD_RATE_LIMIT or None
