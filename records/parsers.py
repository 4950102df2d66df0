"""Strict JSON: what the service accepts as a request body or an uploaded document.

Python's ``json`` silently keeps the last of duplicate keys, accepts ``NaN`` and recurses
once per nesting level (a 1,000-deep body raises RecursionError, which DRF's parser turns
into a 500). Here all three are errors with a message, and nesting is limited by a cheap
scan of the bytes before parsing. Values PostgreSQL cannot store (``\u0000`` and lone
surrogates in strings, numbers too large for a float) are refused too, so that a valid
upload is always storable.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import DataAndFiles, JSONParser, MultiPartParser

_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
_BRACKET = re.compile(rb"[\[\]{}]")


class JSONError(ValueError):
    """A body that is not strict JSON; the message says why."""


def nesting_depth(raw: bytes) -> int:
    """The deepest nesting of arrays and objects in ``raw``, ignoring brackets inside strings.

    >>> nesting_depth(b'{"a": [[1], "]]]"]}')
    3
    """
    depth = deepest = 0
    for bracket in _BRACKET.findall(_STRING.sub(b"", raw)):
        if bracket in (b"[", b"{"):
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise JSONError(f"duplicate key {key!r}")
        obj[key] = value
    return obj


def _no_constant(name: str) -> Any:
    raise JSONError(f"{name} is not valid JSON")


def _finite_float(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise JSONError(f"number {text[:20]} is too large")
    return value


def _check_strings(value: Any) -> None:
    """Refuse NUL characters and lone surrogates (the depth is already limited)."""
    if isinstance(value, str):
        if _UNSTORABLE.search(value):
            raise JSONError("strings may not contain \\u0000 or unpaired surrogates")
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_strings(key)
            _check_strings(item)
    elif isinstance(value, list):
        for item in value:
            _check_strings(item)


def loads_strict(raw: bytes, max_depth: int | None = None) -> Any:
    """Parse UTF-8 JSON bytes, refusing duplicate keys, NaN/Infinity and deep nesting.

    :raises JSONError: with a message fit to show the client.
    """
    limit = settings.UPLOAD_MAX_DEPTH if max_depth is None else max_depth
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise JSONError(f"not UTF-8: {exc.reason} at byte {exc.start}") from None
    depth = nesting_depth(raw)
    if depth > limit:
        raise JSONError(f"nested {depth} levels deep; at most {limit} allowed")
    try:
        value = json.loads(
            text,
            object_pairs_hook=_no_duplicates,
            parse_constant=_no_constant,
            parse_float=_finite_float,
        )
        _check_strings(value)
        return value
    except JSONError:
        raise
    except RecursionError:  # unreachable after the depth scan, but never a 500
        raise JSONError("nested too deep") from None
    except ValueError as exc:
        raise JSONError(str(exc)) from None


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
            return loads_strict(stream.read())
        except JSONError as exc:
            raise ParseError(f"JSON parse error - {exc}") from None


class StrictMultiPartParser(MultiPartParser):
    """DRF's multipart parser, refusing in form fields what the JSON parser refuses in strings.

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
