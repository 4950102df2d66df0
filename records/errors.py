"""Errors answered as JSON: the API never lets a client's mistake become a 500."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


class DocumentError(Exception):
    """An upload that is not a valid document. ``errors`` lists ``{"path", "message"}``."""

    def __init__(self, kind: str, detail: str, errors: list[dict[str, str]]) -> None:
        super().__init__(detail)
        self.kind = kind
        self.detail = detail
        self.errors = errors

    def as_json(self) -> dict[str, Any]:
        return {"type": self.kind, "detail": self.detail, "errors": self.errors}


class MatchConflict(DocumentError):
    """The club has a match with this document's ``match_id`` but different content.

    Never a silent overwrite nor a silent drop: a correction is a new ``match_id`` (or the
    correction flow), so the client is told which match holds the id.
    """

    def __init__(self, match_id: int, source_match_id: str) -> None:
        super().__init__(
            "conflict",
            f"Match {match_id} of this club already has match_id {source_match_id!r} with "
            "different content. Upload a correction under a new match_id.",
            [{"path": "$.match_id", "message": f"already used by match {match_id}"}],
        )
        self.match_id = match_id

    def as_json(self) -> dict[str, Any]:
        return {**super().as_json(), "match": self.match_id}


class UploadTooLarge(Exception):
    """A body or file over UPLOAD_MAX_BYTES."""

    def as_json(self) -> dict[str, Any]:
        return too_large_json()


def too_large_json() -> dict[str, Any]:
    limit = settings.UPLOAD_MAX_BYTES
    return {
        "type": "payload_too_large",
        "detail": f"The request body is larger than the limit of {limit} bytes.",
        "limit": limit,
    }


def too_large_response(request: HttpRequest) -> JsonResponse:
    return JsonResponse(too_large_json(), status=413)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler, plus: an oversized body is a 413 with a JSON body, not Django's HTML 400."""
    if isinstance(exc, RequestDataTooBig | UploadTooLarge):
        return Response(too_large_json(), status=413)
    if isinstance(exc, MatchConflict):
        return Response(exc.as_json(), status=409)
    if isinstance(exc, DocumentError):
        return Response(exc.as_json(), status=400)
    if isinstance(exc, SuspiciousOperation):  # e.g. too many multipart fields
        return Response({"type": "bad_request", "detail": str(exc)}, status=400)
    return drf_exception_handler(exc, context)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """JSON under /api/, the usual page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Not found."}, status=404)
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Server error."}, status=500)
    return defaults.server_error(request)
