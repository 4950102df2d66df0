"""The bulk upload API: ``POST …/matches/bulk/`` with ``application/x-ndjson``."""
# ruff: noqa: RUF012  (Django and DRF declare options as mutable class attributes)

from __future__ import annotations

import hashlib
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, serializers
from rest_framework.exceptions import UnsupportedMediaType
from rest_framework.parsers import BaseParser
from rest_framework.request import Request
from rest_framework.response import Response

from records.bulk import services
from records.idempotency import IDEMPOTENCY_PARAMETER, idempotent
from records.models import Match
from records.permissions import ClubMixin, signed_in
from records.serializers import DocumentErrorSerializer, MatchSerializer
from records.throttles import UploadThrottle

MEDIA_TYPES = ("application/x-ndjson", "application/jsonl")


class NDJSONParser(BaseParser):
    """Declares the media type for the schema; the view reads the stream itself."""

    media_type = "application/x-ndjson"

    def parse(self, stream: Any, media_type: str | None = None,
              parser_context: Any = None) -> Any:  # fmt: skip
        return None


class LineResultSerializer(serializers.Serializer[Any]):
    line = serializers.IntegerField(help_text="The line's number in the body, from 1.")
    result = serializers.ChoiceField(choices=["stored", "duplicate", "conflict", "invalid"])
    match = serializers.IntegerField(
        required=False, help_text="stored, duplicate: the match; conflict: the one holding "
        "the match_id."
    )
    status = serializers.ChoiceField(choices=Match.Status.choices, required=False)
    detail = MatchSerializer(required=False, help_text="stored: the match, as an upload answers.")
    error = DocumentErrorSerializer(
        required=False, help_text="invalid, conflict: the error a single upload answers."
    )


class BulkResultSerializer(serializers.Serializer[Any]):
    results = LineResultSerializer(many=True)
    counts = serializers.DictField(
        child=serializers.IntegerField(), help_text="How many lines had each result."
    )
    truncated = serializers.BooleanField(
        help_text="A limit was reached: the last result says which; nothing after was read."
    )


def stream_fingerprint(request: Request) -> str:
    """The request's identity as the bulk upload hashes it, reading the whole stream."""
    digest = hashlib.sha256(f"{request.method} {request.path}\n".encode())
    for chunk in iter(lambda: request._request.read(65536), b""):
        digest.update(chunk)
    return digest.hexdigest()


class BulkUpload(ClubMixin, generics.GenericAPIView[Match]):
    """Upload many documents at once: ``application/x-ndjson``, one document per line (at
    most BULK_MAX_LINES lines and BULK_MAX_BYTES bytes; each line at most UPLOAD_MAX_BYTES).
    Each line is stored or refused on its own — nothing of a bad line is stored, and the
    others stand — and the answer has one result per line, in order."""

    queryset = Match.objects.none()
    serializer_class = BulkResultSerializer
    parser_classes = [NDJSONParser]
    # a bulk upload counts once against UPLOAD_RATE_LIMIT (docs/apps.md)
    throttle_scope = "uploads"
    throttle_classes = [UploadThrottle]

    @extend_schema(
        request={"application/x-ndjson": OpenApiTypes.STR},
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={
            200: OpenApiResponse(BulkResultSerializer, "One result per line, in order."),
            409: OpenApiResponse(DocumentErrorSerializer,
                                 "The same Idempotency-Key is still being answered."),
            413: OpenApiResponse(DocumentErrorSerializer,
                                 "Content-Length over BULK_MAX_BYTES: nothing was read."),
            422: OpenApiResponse(DocumentErrorSerializer,
                                 "This Idempotency-Key was used with another body."),
            429: OpenApiResponse(DocumentErrorSerializer, "Too many uploads; see Retry-After."),
        },
    )  # fmt: skip
    @idempotent(stream_fingerprint, streamed=True)
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        content_type = (request.content_type or "").split(";")[0].strip()
        if content_type not in MEDIA_TYPES:
            raise UnsupportedMediaType(content_type)
        prefix = f"{request.method} {request.path}\n".encode()
        bulk = services.upload_lines(
            club=self.club, stream=request._request, uploaded_by=signed_in(request),
            prefix=prefix,
        )  # fmt: skip
        response = Response({"results": bulk.results, "counts": bulk.counts(),
                             "truncated": bulk.truncated})
        response.body_sha256 = bulk.digest.hexdigest()  # type: ignore[attr-defined]
        return response
