"""The round-log format's JSON Schema (``log-v1.json``) and structural validation.

A valid document passes through a compiled validator (fastjsonschema), which costs little;
only an invalid one is re-checked with :mod:`jsonschema` to collect every error with its
JSON path, e.g. ``$.rounds[0].events[12].tile``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import fastjsonschema
import jsonschema


@dataclass(frozen=True)
class SchemaIssue:
    """One structural problem: where it is and what is wrong."""

    path: str
    message: str


@cache
def log_schema() -> dict[str, Any]:
    """The JSON Schema of FORMAT.md version 1."""
    text = resources.files(__package__).joinpath("log-v1.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@cache
def _fast_validator() -> Any:
    return fastjsonschema.compile(log_schema())


@cache
def _full_validator() -> jsonschema.Draft7Validator:
    return jsonschema.Draft7Validator(log_schema())


def validate_document(doc: object) -> list[SchemaIssue]:
    """Every structural problem of ``doc`` (an empty list when it is well formed).

    >>> validate_document({"format": "xuezhan-log"})[0].path
    '$'
    """
    try:
        _fast_validator()(doc)
        return []
    except fastjsonschema.JsonSchemaException:
        pass
    issues = []
    for error in _full_validator().iter_errors(doc):
        issues.extend(_leaf_issues(error))
    issues.sort(key=lambda i: (i.path, i.message))
    return list(dict.fromkeys(issues))


def _leaf_issues(error: jsonschema.ValidationError) -> list[SchemaIssue]:
    # oneOf/anyOf failures carry their real reasons in the context; report the deepest ones
    # so that a bad tile inside a payment names the tile, not "is not valid under any".
    if error.context:
        deepest = max(len(e.absolute_path) for e in error.context)
        if deepest > len(error.absolute_path):
            leaves = [e for e in error.context if len(e.absolute_path) == deepest]
            return [issue for e in leaves for issue in _leaf_issues(e)]
    return [SchemaIssue(error.json_path, _short(error))]


def _short(error: jsonschema.ValidationError) -> str:
    message = error.message
    return message if len(message) <= 200 else message[:197] + "..."


def canonical_bytes(doc: object) -> bytes:
    """The canonical form of a document, for hashing: sorted keys, no spaces, UTF-8."""
    return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
