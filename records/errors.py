"""Errors answered as JSON: the API never lets a client's mistake become a 500.

Every 4xx and 5xx of the API has one shape, the problem shape (``DocumentErrorSerializer``)::

    {"type": "a stable code", "detail": "a sentence", "errors": [{"path": "$.x", "message": …}]}

plus, for some types, one more field (``limit``, ``match``, ``retry_after``).
"""

from __future__ import annotations

import math
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views import defaults
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from records.wording import reader_text, schema_problem
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
        error = {"path": exc.path, "message": reader_text(exc.code, exc.sentence),
                 "code": exc.code}
        if isinstance(exc, IntegralFloat):
            return cls("invalid_document", _off_format_sentence(1), [error])
        plain = isinstance(exc, NotJSON | NotUTF8)
        detail = _("The body is not valid JSON.") if plain else _("The body is not strict JSON.")
        return cls("invalid_json", detail, [error])

    @classmethod
    def off_format(cls, issues: list[SchemaIssue]) -> DocumentError:
        """The schema's problems: the first MAX_ISSUES, saying so when there are more (look
        for one more than that to know)."""
        detail = (
            _("The document does not follow the log format (the first %(count)d problems).")
            % {"count": MAX_ISSUES}
            if len(issues) > MAX_ISSUES
            else _off_format_sentence(len(issues))
        )
        return cls(
            "invalid_document",
            detail,
            [{**schema_problem(i), "code": "schema"} for i in issues[:MAX_ISSUES]],
        )


def _off_format_sentence(count: int) -> str:
    return ngettext(
        "The document does not follow the log format (%(count)d problem).",
        "The document does not follow the log format (%(count)d problems).",
        count,
    ) % {"count": count}


class MatchConflict(DocumentError):
    """The club has a match with this document's ``match_id`` but different content.

    Never a silent overwrite nor a silent drop: a correction is a new ``match_id`` (or the
    correction flow), so the client is told which match holds the id.
    """

    def __init__(self, match_id: int, source_match_id: str) -> None:
        super().__init__(
            "conflict",
            _("Match %(match)d of this club already has match_id %(source)s with different "
              "content. Upload a correction under a new match_id.")
            % {"match": match_id, "source": repr(source_match_id)},
            [{"path": "$.match_id",
              "message": _("already used by match %(match)d") % {"match": match_id}}],
        )
        self.match_id = match_id

    def as_json(self) -> dict[str, Any]:
        return {**super().as_json(), "match": self.match_id}


class UnknownFormat(exceptions.NotAcceptable):
    """A ``?format=`` the endpoint does not have (records.tables): 406, naming those it has."""

    def __init__(self, asked: str, formats: list[str]) -> None:
        self.asked, self.formats = asked, formats
        super().__init__(
            _("There is no format %(asked)s here: ask for one of %(formats)s.")
            % {"asked": repr(asked), "formats": ", ".join(formats)}
        )

    def as_json(self) -> dict[str, Any]:
        message = _("one of: %(formats)s") % {"formats": ", ".join(self.formats)}
        body = problem("not_acceptable", str(self.detail), [{"path": "$.format",
                                                             "message": message}])
        return {**body, "formats": self.formats}


class UploadTooLarge(Exception):
    """A body or file over UPLOAD_MAX_BYTES (or another ``limit``)."""

    def __init__(self, limit: int | None = None) -> None:
        super().__init__()
        self.limit = limit

    def as_json(self) -> dict[str, Any]:
        return too_large_json(self.limit)


def problem(kind: str, detail: str, errors: list[dict[str, str]] | None = None) -> dict[str, Any]:
    return {"type": kind, "detail": detail, "errors": errors or []}


def too_large_json(limit: int | None = None) -> dict[str, Any]:
    limit = settings.UPLOAD_MAX_BYTES if limit is None else limit
    body = problem(
        "payload_too_large",
        _("The request body is larger than the limit of %(limit)d bytes.") % {"limit": limit},
    )
    return {**body, "limit": limit}


def too_large_response(request: HttpRequest, limit: int | None = None) -> HttpResponse:
    """JSON under /api/; a page with the limit and a way back elsewhere (the upload form)."""
    if request.path.startswith("/api/"):
        return JsonResponse(too_large_json(limit), status=413)
    context = {"limit": settings.UPLOAD_MAX_BYTES, "back": request.path}
    return render(request, "413.html", context, status=413)


# DRF's codes, renamed where they would say less than they could
_KINDS = {"invalid": "invalid_request", "error": "invalid_request"}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler (status and headers such as WWW-Authenticate and Retry-After), with
    every body in the problem shape; an oversized body is a 413, not Django's HTML 400."""
    if isinstance(exc, UploadTooLarge):
        return Response(exc.as_json(), status=413)
    if isinstance(exc, RequestDataTooBig):
        return Response(too_large_json(), status=413)
    if isinstance(exc, MatchConflict):
        return Response(exc.as_json(), status=409)
    if isinstance(exc, UnknownFormat):
        return Response(exc.as_json(), status=406)
    if isinstance(exc, DocumentError):
        return Response(exc.as_json(), status=400)
    if isinstance(exc, SuspiciousOperation):  # e.g. too many multipart fields
        return Response(problem("bad_request", _("The request was refused as malformed.")), 400)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(exc, exceptions.APIException):
        response.data = api_problem(exc)
    return response


def api_problem(exc: exceptions.APIException) -> dict[str, Any]:
    kind = _KINDS.get(exc.default_code, exc.default_code)
    if isinstance(exc, exceptions.ValidationError):
        errors = list(_flatten(exc.detail, "$"))
        detail = ngettext(
            "The request is not valid (%(count)d problem).",
            "The request is not valid (%(count)d problems).",
            len(errors),
        ) % {"count": len(errors)}
        return problem(kind, detail, errors)
    body = problem(kind, str(exc.detail))
    wait = getattr(exc, "wait", None)  # Throttled's; not in the stubs
    if isinstance(exc, exceptions.Throttled) and wait is not None:
        body["retry_after"] = math.ceil(wait)
    return body


def _flatten(detail: Any, path: str) -> Any:
    """``{"role": ["bad"]}`` as ``[{"path": "$.role", "message": "bad"}]``, nested too."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            if key == "non_field_errors":
                yield from _flatten(value, path)
            else:  # a list's items are keyed by index (DRF's ListField)
                yield from _flatten(value, f"{path}[{key}]" if isinstance(key, int)
                                    else f"{path}.{key}")
    elif isinstance(detail, list):
        for index, value in enumerate(detail):
            # a list of messages is one field's; a list of objects is an array's items
            yield from _flatten(value, path if isinstance(value, str) else f"{path}[{index}]")
    else:
        yield {"path": path, "message": str(detail)}


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """JSON under /api/, the usual page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse(problem("not_found", _("Not found.")), status=404)
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse(problem("server_error", _("Server error.")), status=500)
    return defaults.server_error(request)
