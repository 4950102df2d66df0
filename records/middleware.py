"""Refuse oversized bodies before anything reads them; give each request an id; answer
a dependency's outage 503, naming it."""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from records.dependencies import unavailable
from records.errors import problem, too_large_response
from records.logs import SANE_ID, request_id
from records.metrics import DEPENDENCY_DOWN

log = logging.getLogger(__name__)

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


#: what a client is told to wait before trying again after a dependency's outage (seconds):
#: Redis restarts in about that; a longer outage answers 503 again
RETRY_AFTER_OUTAGE = 5


class DependencyMiddleware:
    """Answer 503 (JSON under /api/, a page elsewhere) naming the dependency that is away
    (the cache, the broker, the database: records.dependencies) instead of a 500, with
    Retry-After, a warning in the log and ``xuezhan_dependency_unavailable_total``.

    An API view's exception reaches here after DRF's handler declined it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        dependency = unavailable(exc)
        if dependency is None:
            return None
        DEPENDENCY_DOWN.labels(dependency).inc()
        log.warning("a dependency is unavailable: answered 503",
                    extra={"dependency": dependency, "error": repr(exc), "path": request.path})
        return unavailable_response(request, dependency)


def unavailable_response(request: HttpRequest, dependency: str) -> HttpResponse:
    names = {"cache": _("the cache"), "broker": _("the task queue"), "database": _("the database")}
    detail = _("The service is unavailable for a moment (%(dependency)s is not answering). "
               "Please try again shortly.") % {"dependency": names.get(dependency, dependency)}
    if request.path.startswith("/api/"):
        body = {**problem("service_unavailable", detail), "dependency": dependency,
                "retry_after": RETRY_AFTER_OUTAGE}
        response: HttpResponse = JsonResponse(body, status=503)
    else:
        try:
            response = render(request, "503.html", {"detail": detail}, status=503)
        except Exception:  # the page itself needs the dependency (the database: the session)
            response = HttpResponse(detail, status=503, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(RETRY_AFTER_OUTAGE)
    return response
