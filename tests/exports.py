"""Reading the answers of the one export convention (records.tables) in tests."""

from __future__ import annotations

import csv
import io
import json
from typing import Any


def body(response: Any) -> str:
    """The whole text of an answer, streamed or not."""
    if getattr(response, "streaming", False):
        return b"".join(response.streaming_content).decode()
    return str(response.content.decode())


def csv_rows(response: Any) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(body(response))))


def ndjson_rows(response: Any) -> list[Any]:
    return [json.loads(line) for line in body(response).splitlines()]
