"""Errors answered as JSON: the API never lets a client's mistake become a 500."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views import defaults
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from xuezhan.reader import IntegralFloat, NotJSON, NotUTF8, ReadError
from xuezhan.schema import MAX_ISSUES, SchemaIssue


class DocumentError(Exception):
    """An upload that is not a valid document. ``errors`` lists ``{"path", "message"}``
    and, where the engine names the rule, its stable ``code``."""

    def __init__(self, kind: str, detail: str, errors: list[dict[str, str]]) -> None:
        super().__init__(detail)
        self.kind = kind
        self.detail = detail
        self.errors = errors

    def as_json(self) -> dict[str, Any]:
        return {"type": self.kind, "detail": self.detail, "errors": self.errors}

    @classmethod
    def unreadable(cls, exc: ReadError) -> DocumentError:
        """The reader's refusal: not JSON, JSON the reader does not take, or (a whole float
        in an integer field) JSON that is no document of the format."""
        error = {"path": exc.path, "message": exc.sentence, "code": exc.code}
        if isinstance(exc, IntegralFloat):
            return cls("invalid_document", "The document does not follow the log format "
                       "(1 problem).", [error])
        plain = isinstance(exc, NotJSON | NotUTF8)
        detail = "The body is not valid JSON." if plain else "The body is not strict JSON."
        return cls("invalid_json", detail, [error])

    @classmethod
    def off_format(cls, issues: list[SchemaIssue]) -> DocumentError:
        """The schema's problems: the first MAX_ISSUES, saying so when there are more (look
        for one more than that to know)."""
        shown = (f"the first {MAX_ISSUES} problems" if len(issues) > MAX_ISSUES
                 else counted(len(issues), "problem"))
        return cls(
            "invalid_document",
            f"The document does not follow the log format ({shown}).",
            [{"path": i.path, "message": i.message, "code": "schema"}
             for i in issues[:MAX_ISSUES]],
        )


def counted(n: int, noun: str) -> str:
    """``1 problem``, ``2 problems``: never "(1 errors)"."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


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


def too_large_response(request: HttpRequest) -> HttpResponse:
    """JSON under /api/; a page with the limit and a way back elsewhere (the upload form)."""
    if request.path.startswith("/api/"):
        return JsonResponse(too_large_json(), status=413)
    context = {"limit": settings.UPLOAD_MAX_BYTES, "back": request.path}
    return render(request, "413.html", context, status=413)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler, plus: an oversized body is a 413 with a JSON body, not Django's HTML 400."""
    if isinstance(exc, RequestDataTooBig | UploadTooLarge):
        return Response(too_large_json(), status=413)
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
