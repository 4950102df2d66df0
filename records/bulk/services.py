"""A bulk upload, read a line at a time: each line is a whole upload of its own
(records.services.upload_match, in its own transaction), so a bad line stores nothing and
changes nothing of the others; the results come back in order, one per line."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.utils.translation import gettext as _

from records.errors import DocumentError, MatchConflict, UploadTooLarge, too_large_json
from records.models import Club
from records.serializers import stored_match_data
from records.services import upload_match


class BulkTooLarge(Exception):
    """More lines or bytes than a bulk upload may carry (nothing after the limit is read)."""

    def __init__(self, what: str, limit: int) -> None:
        super().__init__(what)
        self.what, self.limit = what, limit

    def as_json(self) -> dict[str, Any]:
        detail = (
            _("A bulk upload has at most %(limit)d lines: this one and those after it were "
              "not read.") if self.what == "lines" else
            _("A bulk upload has at most %(limit)d bytes: this line and those after it were "
              "not read.")
        ) % {"limit": self.limit}  # fmt: skip
        return {"type": f"too_many_{self.what}", "detail": detail, "errors": [],
                "limit": self.limit}


@dataclass
class Bulk:
    """The results, in line order, and the SHA-256 of everything read (for
    Idempotency-Key: the same body is the same request)."""

    results: list[dict[str, Any]] = field(default_factory=list)
    digest: Any = None
    truncated: bool = False

    def counts(self) -> dict[str, int]:
        counted = {"stored": 0, "duplicate": 0, "conflict": 0, "invalid": 0}  # fmt: skip
        for result in self.results:
            counted[result["result"]] += 1
        return counted


def lines(stream: Iterable[bytes], digest: Any) -> Iterator[tuple[int, bytes]]:
    """The non-blank lines of ``stream`` numbered from 1 (blank ones count, as editors count),
    each hashed into ``digest`` as read; at most BULK_MAX_LINES documents and
    BULK_MAX_BYTES bytes."""
    read = count = 0
    for number, line in enumerate(stream, start=1):
        read += len(line)
        digest.update(line)
        if read > settings.BULK_MAX_BYTES:
            raise BulkTooLarge("bytes", settings.BULK_MAX_BYTES)
        text = line.strip()
        if not text:
            continue
        count += 1
        if count > settings.BULK_MAX_LINES:
            raise BulkTooLarge("lines", settings.BULK_MAX_LINES)
        yield number, text


def upload_lines(
    *, club: Club, stream: Iterable[bytes], uploaded_by: User | None, prefix: bytes
) -> Bulk:
    """Upload each line of ``stream`` as a document; ``prefix`` starts the digest (the
    method and path, as records.idempotency hashes a request)."""
    bulk = Bulk(digest=hashlib.sha256(prefix))
    number = 0
    try:
        for number, raw in lines(stream, bulk.digest):
            bulk.results.append({"line": number, **_one(club, raw, uploaded_by)})
    except BulkTooLarge as exc:  # what came before stands; the rest is not read
        bulk.results.append({"line": number + 1, "result": "invalid", "error": exc.as_json()})
        bulk.truncated = True
    return bulk


def _one(club: Club, raw: bytes, uploaded_by: User | None) -> dict[str, Any]:
    try:
        upload = upload_match(club=club, raw=raw, uploaded_by=uploaded_by)
    except MatchConflict as exc:
        return {"result": "conflict", "match": exc.match_id, "error": exc.as_json()}
    except DocumentError as exc:
        return {"result": "invalid", "error": exc.as_json()}
    except UploadTooLarge:
        body = too_large_json()
        body["detail"] = _("This line is larger than the limit of %(limit)d bytes.") % {
            "limit": settings.UPLOAD_MAX_BYTES}
        return {"result": "invalid", "error": body}
    if upload.created:
        return {"result": "stored", "match": upload.match.pk,
                "status": upload.match.status, "detail": stored_match_data(upload.match)}
    return {"result": "duplicate", "match": upload.match.pk, "status": upload.match.status}
