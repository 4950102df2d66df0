"""The one export convention (docs/apps.md, "Tables"): every list and statistic that has a
table answers ``?format=json|csv|ndjson``.

- ``json`` (or no ``format``): the endpoint's usual answer, as the schema documents it (a
  list is paginated); asked for by name, it also gets a ``Content-Disposition`` file name.
- ``csv`` and ``ndjson``: the endpoint's table, every row the filters select (no pages),
  streamed, with a ``Content-Disposition`` file name; the columns are documented and the
  same in both (an ndjson line is one row as a JSON object, with JSON types).
- any other value: 406, naming the formats there are (never a 404).
- ``?export=csv`` is the deprecated alias of ``?format=csv`` (answers carry
  ``Deprecation: true`` and a ``Link`` to the new form).

One CSV writer serves every table, and it neutralises formulas (OWASP, "CSV Injection"): a
text cell that begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a
leading ``'``, so that no spreadsheet runs a handle such as ``=HYPERLINK(…)`` as a
formula. Numbers are numbers, not formulas, and stay as they are (``-12``, ``-3.50``).
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

import orjson
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.utils.http import urlencode
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.request import Request
from rest_framework.settings import api_settings

from records.errors import UnknownFormat

#: every format of the convention, in the order the 406 names them
FORMATS = ("json", "csv", "ndjson")
MEDIA_TYPES = {
    "json": "application/json",
    "csv": "text/csv; charset=utf-8",
    "ndjson": "application/x-ndjson",
}
#: OWASP's list: the characters a spreadsheet reads as the start of a formula
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


@dataclass(frozen=True)
class Table:
    """What an endpoint exports: a file name (without extension), its columns in order, and
    its rows (mappings; a missing column is an empty cell). ``rows`` may be a generator:
    it is consumed once, while the answer streams."""

    name: str
    columns: Sequence[str]
    rows: Iterable[Mapping[str, Any]]


def asked_format(request: Request | HttpRequest, formats: Sequence[str] = FORMATS) -> str | None:
    """The format asked for, ``None`` when none was (the usual JSON).

    :raises UnknownFormat: a format this endpoint does not have (406, naming ``formats``).
    """
    params = request.query_params if isinstance(request, Request) else request.GET
    value = params.get("format")
    if value is None and "export" in params:  # the deprecated alias
        value = params.get("export")
    if value is None:
        return None
    if value not in formats:
        raise UnknownFormat(value, list(formats))
    return value


def is_deprecated_alias(request: Request | HttpRequest) -> bool:
    params = request.query_params if isinstance(request, Request) else request.GET
    return "format" not in params and "export" in params


def cell(value: Any) -> Any:
    """A value as a CSV cell: numbers as they are, ``None`` empty, booleans ``true``/``false``,
    lists and objects as JSON, and text beginning with a formula character prefixed with
    ``'`` (unless the whole text is a plain number, such as ``-3.50``)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float | Decimal):
        return value
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, list | tuple | dict):
        value = orjson.dumps(value).decode()
    text = str(value)
    if text.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(text):
        return "'" + text
    return text


class _Line:
    """A file-like object that hands back what csv.writer wrote, a line at a time."""

    def write(self, text: str) -> str:
        return text


def csv_chunks(table: Table) -> Iterator[bytes]:
    """The table as CSV (RFC 4180: CRLF line ends, text cells quoted), line by line."""
    writer = csv.writer(_Line(), quoting=csv.QUOTE_NONNUMERIC, lineterminator="\r\n")
    yield writer.writerow([cell(c) for c in table.columns]).encode()
    for row in table.rows:
        yield writer.writerow([cell(row.get(c)) for c in table.columns]).encode()


def ndjson_chunks(table: Table) -> Iterator[bytes]:
    """The table as JSON lines: one object per row, the columns in order."""
    for row in table.rows:
        yield orjson.dumps(
            {c: row.get(c) for c in table.columns}, default=_json_default
        ) + b"\n"


def _json_default(value: Any) -> Any:
    if isinstance(value, Decimal):
        return str(value)
    raise TypeError(f"not JSON: {type(value).__name__}")


def attachment(response: HttpResponse | StreamingHttpResponse, name: str, extension: str) -> None:
    """Name the file the answer is saved as (``name`` is ASCII: ids and words)."""
    response["Content-Disposition"] = f'attachment; filename="{name}.{extension}"'


def table_response(table: Table, fmt: str, request: Request | HttpRequest) -> StreamingHttpResponse:
    """A ``csv`` or ``ndjson`` answer of ``table``, streamed, with its file name."""
    chunks = csv_chunks(table) if fmt == "csv" else ndjson_chunks(table)
    response = StreamingHttpResponse(chunks, content_type=MEDIA_TYPES[fmt])
    attachment(response, table.name, fmt)
    mark_deprecated(response, request)
    return response


def named_json(response: Any, name: str, fmt: str | None, request: Request | HttpRequest) -> Any:
    """The usual JSON answer; asked for as ``?format=json``, with its file name too."""
    if fmt == "json":
        attachment(response, name, "json")
    mark_deprecated(response, request)
    return response


def mark_deprecated(response: Any, request: Request | HttpRequest) -> None:
    """``?export=csv`` still works, and says that it is deprecated (RFC 9745 Deprecation
    header) and where its successor is."""
    if not is_deprecated_alias(request):
        return
    params = request.query_params if isinstance(request, Request) else request.GET
    query: dict[str, str] = {k: str(v) for k, v in params.items() if k != "export"}
    query["format"] = str(params.get("export", "csv"))
    response["Deprecation"] = "true"
    response["Link"] = f'<{request.path}?{urlencode(query)}>; rel="successor-version"'


class _WithoutFormatOverride:
    """DRF's settings, but ``?format=`` is the table's, not a renderer's: DRF would answer
    404 for a format no renderer has."""

    URL_FORMAT_OVERRIDE = None

    def __getattr__(self, name: str) -> Any:
        return getattr(api_settings, name)


class TableNegotiation(DefaultContentNegotiation):
    """Content negotiation of the endpoints with a table: by Accept only."""

    settings = _WithoutFormatOverride()  # type: ignore[assignment]


def format_parameter(formats: Sequence[str] = FORMATS, default: str = "json") -> list[Any]:
    """The schema's ``format`` and ``export`` parameters of an endpoint with a table."""
    return [
        OpenApiParameter(
            "format", OpenApiTypes.STR, enum=list(formats),
            description=f"The answer's format (default {default}); csv and ndjson stream "
            "every row the filters select, with a file name (docs/apps.md, Tables).",
        ),
        OpenApiParameter(
            "export", OpenApiTypes.STR, enum=["csv"], deprecated=True,
            description="Deprecated alias of format=csv.",
        ),
    ]  # fmt: skip


def table_responses(json_body: Any, *, formats: Sequence[str] = FORMATS) -> dict[Any, Any]:
    """The schema's 200 answers of an endpoint with a table, and its 406."""
    responses: dict[Any, Any] = {}
    if "json" in formats:
        responses[(200, "application/json")] = json_body
    if "csv" in formats:
        responses[(200, "text/csv")] = OpenApiResponse(OpenApiTypes.STR, "The table as CSV.")
    if "ndjson" in formats:
        responses[(200, "application/x-ndjson")] = OpenApiResponse(
            OpenApiTypes.STR, "The table as JSON lines, one row per line."
        )
    return responses
