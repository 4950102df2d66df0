"""The API's JSON parser: the engine's strict reader (:mod:`xuezhan.reader`) for every body.

Python's ``json`` silently keeps the last of duplicate keys, accepts ``NaN`` and recurses
once per nesting level (a 1,000-deep body raised RecursionError, which DRF's parser turned
into a 500). The reader refuses all of these, and the strings PostgreSQL cannot store, with
a stable code, the JSON path and a sentence; here a refusal becomes DRF's 400.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from xuezhan.reader import ReadError, read_json


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
