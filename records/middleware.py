"""Refuse oversized bodies before anything reads them; give each request an id."""

from __future__ import annotations

import uuid
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse

from records.errors import too_large_response
from records.logs import SANE_ID, request_id

# A multipart upload of a document at the limit carries some framing on top.
MULTIPART_SLACK = 64 * 1024
BULK_SUFFIX = "/matches/bulk/"


class UploadLimitMiddleware:
    """Answer 413 (JSON) to a request whose Content-Length exceeds the upload limit (a
    bulk upload's own limit, BULK_MAX_BYTES, for the bulk endpoint, which reads its body as
    a stream, a line at a time).

    Django itself would raise RequestDataTooBig only when the body is read, and turn it into
    an HTML 400; multipart file parts are not counted by Django at all.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        bulk = request.path.endswith(BULK_SUFFIX) and request.path.startswith("/api/")
        limit = settings.BULK_MAX_BYTES if bulk else settings.UPLOAD_MAX_BYTES + MULTIPART_SLACK
        if length > limit:
            return too_large_response(request, limit=limit if bulk else None)
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        if isinstance(exc, RequestDataTooBig):
            return too_large_response(request)
        return None


class RequestIdMiddleware:
    """Give each request an id (the client's X-Request-ID if sane, else a new one), put it
    on every log record of the request and on the response; a verification the request
    queues carries it on (analysis.tasks)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        given = request.headers.get("X-Request-ID", "")
        rid = given if SANE_ID.match(given) else uuid.uuid4().hex
        token = request_id.set(rid)
        try:
            response = self.get_response(request)
        finally:
            request_id.reset(token)
        response["X-Request-ID"] = rid
        return response
