"""Structured logs: one JSON object per line, with the request id of the request (or of the
upload whose verification a task runs) on every record."""

from __future__ import annotations

import contextvars
import json
import logging
import re
from datetime import UTC, datetime
from typing import Any

# The request being served, or the upload's request that a task works for.
request_id: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="")

# An incoming X-Request-ID is kept only if it looks like one (no log injection).
SANE_ID = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")

_STANDARD = set(logging.LogRecord("", 0, "", 0, "", None, None).__dict__) | {"message"}


class RequestIdFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id.get()
        return True


class JsonFormatter(logging.Formatter):
    """``{"time", "level", "logger", "message", "request_id", …extra fields}``."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update(
            {k: v for k, v in record.__dict__.items() if k not in _STANDARD and k != "msg"}
        )
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str, ensure_ascii=False)
