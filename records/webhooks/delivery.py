"""One HTTP request of a delivery: signed, to a checked address, short timeouts, no redirect.

Signing follows Standard Webhooks (``standardwebhooks``): ``webhook-id`` (the message, the
same on every attempt), ``webhook-timestamp`` (seconds), ``webhook-signature``
(``v1,<base64 HMAC-SHA256 of "id.timestamp.body">``, one per secret in force, separated by
spaces, so that a receiver still on the previous secret verifies during a rotation).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from urllib.parse import urlsplit

import urllib3
from django.conf import settings
from standardwebhooks.webhooks import Webhook

from records.webhooks.addresses import AddressRefused, allowed_addresses, target

USER_AGENT = "xuezhan-webhooks/1"
#: how much of an answer is kept with the attempt
RESPONSE_EXCERPT = 1000


@dataclass(frozen=True)
class Outcome:
    """What one attempt got: a status code, or an error (timeout, refused, …) without one."""

    status_code: int | None
    latency_ms: int
    error: str = ""
    response: str = ""
    retry_after: int | None = None  # seconds, from a 408/429/503's Retry-After

    @property
    def succeeded(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300

    @property
    def retryable(self) -> bool:
        """Timeouts, connection errors, 5xx, 408 and 429 are tried again; a refused address,
        a redirect and any other 4xx are not (the same request would fail the same way)."""
        if self.status_code is None:
            return self.error not in ("address_refused", "bad_url")
        return self.status_code >= 500 or self.status_code in (408, 429)


def signature(secrets: list[str], message_id: str, at: datetime, body: str) -> str:
    return " ".join(Webhook(s).sign(message_id, at, body) for s in secrets)


def headers(secrets: list[str], message_id: str, at: datetime, body: str) -> dict[str, str]:
    return {
        "content-type": "application/json",
        "user-agent": USER_AGENT,
        "webhook-id": message_id,
        "webhook-timestamp": str(int(at.timestamp())),
        "webhook-signature": signature(secrets, message_id, at, body),
    }


def post(url: str, *, secrets: list[str], message_id: str, body: str) -> Outcome:
    """Send ``body`` to ``url`` once. Never raises for what the network or the receiver do."""
    started = time.monotonic()

    def elapsed() -> int:
        return int((time.monotonic() - started) * 1000)

    try:
        host, port = target(url)
        address = allowed_addresses(host, port)[0]
    except AddressRefused as exc:
        return Outcome(None, elapsed(), "address_refused", str(exc))
    parts = urlsplit(url)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    sent = headers(secrets, message_id, datetime.now(UTC), body)
    default_port = 443 if parts.scheme == "https" else 80
    sent["host"] = host if port == default_port else f"{host}:{port}"
    if ":" in host and not sent["host"].startswith("["):
        sent["host"] = f"[{host}]" if port == default_port else f"[{host}]:{port}"
    timeout = urllib3.Timeout(
        connect=settings.WEBHOOK_CONNECT_TIMEOUT_SECONDS, read=settings.WEBHOOK_TIMEOUT_SECONDS
    )
    pool: urllib3.HTTPConnectionPool
    if parts.scheme == "https":  # to the address checked, with the name for TLS
        pool = urllib3.HTTPSConnectionPool(
            str(address), port, timeout=timeout, retries=False, maxsize=1,
            server_hostname=host, assert_hostname=host, cert_reqs="CERT_REQUIRED",
        )  # fmt: skip
    else:
        pool = urllib3.HTTPConnectionPool(
            str(address), port, timeout=timeout, retries=False, maxsize=1
        )
    try:
        response = pool.urlopen(
            "POST", path, body=body.encode(), headers=sent, redirect=False,
            retries=False, preload_content=False, assert_same_host=False,
        )  # fmt: skip
        try:
            excerpt = response.read(RESPONSE_EXCERPT, decode_content=True)
        finally:
            response.release_conn()
    except urllib3.exceptions.NewConnectionError as exc:  # a ConnectTimeoutError subclass
        return Outcome(None, elapsed(), "connection_error", _reason(exc))
    except urllib3.exceptions.TimeoutError:
        return Outcome(None, elapsed(), "timeout")
    except urllib3.exceptions.HTTPError as exc:
        return Outcome(None, elapsed(), "connection_error", _reason(exc))
    finally:
        pool.close()
    status = response.status
    error = "redirect_not_followed" if 300 <= status < 400 else ""
    return Outcome(
        status, elapsed(), error, excerpt.decode("utf-8", "replace"),
        retry_after(response.headers.get("retry-after")) if status in (408, 429, 503) else None,
    )  # fmt: skip


def _reason(exc: Exception) -> str:
    reason = getattr(exc, "reason", None) or exc
    return str(reason)[:RESPONSE_EXCERPT]


def retry_after(value: str | None) -> int | None:
    """Retry-After in seconds: a number of seconds, or an HTTP date (RFC 9110 §10.2.3)."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return int(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0, int((when - datetime.now(UTC)).total_seconds()))
