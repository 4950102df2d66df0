"""The API's JSON parser: the engine's strict reader (:mod:`xuezhan.reader`) for every body.

Python's ``json`` silently keeps the last of duplicate keys, accepts ``NaN`` and recurses
once per nesting level (a 1,000-deep body raised RecursionError, which DRF's parser turned
into a 500). The reader refuses all of these, and the strings PostgreSQL cannot store, with
a stable code, the JSON path and a sentence; here a refusal becomes DRF's 400.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import DataAndFiles, JSONParser, MultiPartParser

from xuezhan.reader import ReadError, read_json

# what PostgreSQL cannot store in text (the reader refuses the same in JSON strings)
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


class StrictJSONParser(JSONParser):
    """DRF's JSON parser, strict (see the module docstring).

    It subclasses JSONParser so that DRF reads the body through ``request.body``, which
    enforces DATA_UPLOAD_MAX_MEMORY_SIZE.
    """

    media_type = "application/json"

    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        try:
            return read_json(stream.read(), max_depth=settings.UPLOAD_MAX_DEPTH)
        except ReadError as exc:
            raise ParseError(f"JSON parse error at {exc.path}: {exc.sentence}") from None


class StrictMultiPartParser(MultiPartParser):
    """DRF's multipart parser, refusing in form fields what the JSON reader refuses in strings.

    A NUL character reaches PostgreSQL as an error (not storable, not even comparable), so
    it is a 400 here, naming the field, whatever the view does with the value.
    """

    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> DataAndFiles[Any, Any]:
        parsed = super().parse(stream, media_type, parser_context)
        for name, values in parsed.data.lists():
            if _UNSTORABLE.search(name) or any(_UNSTORABLE.search(v) for v in values):
                raise ParseError(
                    f"Multipart form parse error - field {name[:40]!r}: "
                    "values may not contain NUL characters or unpaired surrogates"
                )
        return parsed
