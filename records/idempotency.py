"""``Idempotency-Key`` on the POSTs an app retries (uploads, bulk uploads, settle-ups,
corrections): the same key with the same body answers the first answer again, status,
body and all; with another body (or on another endpoint), 422; while the first is still
being answered, 409. Keys are the user's own and kept IDEMPOTENCY_TTL_SECONDS (24 h)
(IETF draft-ietf-httpapi-idempotency-key-header). An answer of 5xx is not kept: the
request may be tried again with the same key.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.http import HttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import exceptions
from rest_framework.request import Request

from records.models import IdempotencyKey
from records.permissions import signed_in

HEADER = "Idempotency-Key"
#: the schema's header parameter and answers of an idempotent POST
IDEMPOTENCY_PARAMETER = OpenApiParameter(
    HEADER, OpenApiTypes.STR, location=OpenApiParameter.HEADER,
    description="1–255 characters: the same key and body answer the first answer again "
    "(kept 24 h); another body, 422.",
)  # fmt: skip
IDEMPOTENCY_RESPONSES = {
    409: OpenApiResponse(description="A request with this Idempotency-Key is still being "
                         "answered (or a conflict of the operation itself)."),
    422: OpenApiResponse(description="This Idempotency-Key was used with another request."),
}  # fmt: skip
#: a request still being answered after this long is taken to have died
IN_FLIGHT_SECONDS = 600


class KeyReused(exceptions.APIException):
    status_code = 422
    default_code = "idempotency_key_reused"
    default_detail = "This Idempotency-Key was used with another request."


class KeyInFlight(exceptions.APIException):
    status_code = 409
    default_code = "idempotency_key_in_flight"
    default_detail = "A request with this Idempotency-Key is still being answered."


def body_fingerprint(request: Request) -> str:
    """The SHA-256 of the method, the path and the body (read once, as Django keeps it)."""
    digest = hashlib.sha256(f"{request.method} {request.path}\n".encode())
    digest.update(request._request.body)
    return digest.hexdigest()


def idempotent(
    fingerprint: Callable[[Request], str] = body_fingerprint, *, streamed: bool = False
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorate a DRF view's ``post``: with an Idempotency-Key header, the first answer is
    kept and replayed. ``fingerprint`` reads the request's identity. A ``streamed`` view
    (the bulk upload) reads its body itself, hashing it as it goes, and hands the hash on
    its answer (``body_sha256``); ``fingerprint`` then reads the stream only to compare a
    retry with the answer kept."""

    def decorate(post: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(post)
        def wrapper(view: Any, request: Request, *args: Any, **kwargs: Any) -> Any:
            key = request.headers.get(HEADER)
            if key is None:
                return post(view, request, *args, **kwargs)
            if not 1 <= len(key) <= 255 or not key.isprintable():
                raise exceptions.ValidationError(
                    {"Idempotency-Key": [_("1 to 255 printable characters")]}
                )
            known = None if streamed else fingerprint(request)
            row, replay = _begin(request, key, lambda r: known or fingerprint(r))
            if replay is not None:
                return replay
            try:
                response = post(view, request, *args, **kwargs)
            except Exception as exc:
                response = view.handle_exception(exc)
            response = view.finalize_response(request, response, *args, **kwargs)
            if hasattr(response, "render"):
                response.render()
            _finish(row, known or getattr(response, "body_sha256", None), response)
            return response

        return wrapper

    return decorate


def _begin(
    request: Request, key: str, fingerprint: Callable[[Request], str]
) -> tuple[IdempotencyKey | None, HttpResponse | None]:
    now = timezone.now()
    user = signed_in(request)
    IdempotencyKey.objects.filter(
        user=user, key=key, created_at__lt=now - timedelta(seconds=settings.IDEMPOTENCY_TTL_SECONDS)
    ).delete()
    try:
        with transaction.atomic():
            row = IdempotencyKey.objects.create(
                user=user, key=key, scope=f"{request.method} {request.path}"[:300],
                fingerprint="", created_at=now,
            )  # fmt: skip
        return row, None
    except IntegrityError:
        pass
    row = IdempotencyKey.objects.get(user=user, key=key)
    if row.status_code is None:
        if (now - row.created_at).total_seconds() < IN_FLIGHT_SECONDS:
            raise KeyInFlight(_("A request with this Idempotency-Key is still being answered."))
        row.created_at = now  # the first died: this one takes the key over
        row.save(update_fields=["created_at"])
        return row, None
    if row.scope != f"{request.method} {request.path}"[:300] or row.fingerprint != fingerprint(
        request
    ):
        raise KeyReused(_("This Idempotency-Key was used with another request; use a new key."))
    replay = HttpResponse(bytes(row.response or b""), status=row.status_code,
                          content_type=row.content_type or None)
    replay["Idempotent-Replayed"] = "true"
    return None, replay


def _finish(row: IdempotencyKey | None, fingerprint: str | None, response: Any) -> None:
    if row is None:
        return
    if response.status_code >= 500 or getattr(response, "streaming", False) or not fingerprint:
        row.delete()  # not kept (or the body was never read): the request may be tried again
        return
    row.fingerprint = fingerprint
    row.status_code = response.status_code
    row.response = bytes(response.content)
    row.content_type = response.get("Content-Type", "")
    row.save(update_fields=["fingerprint", "status_code", "response", "content_type"])
