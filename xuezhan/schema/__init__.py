"""The round-log format's JSON Schema (``log-v1.json``) and structural validation.

A valid document passes through compiled validators (fastjsonschema), which cost little:
one for the document with events left open, and one per event type, picked by the event's
``type`` (anything else falls to the full check), all cut from the published schema so
that it stays the single source of truth.
(The published ``if``/``then`` per event type would make the compiled validator raise and
catch six exceptions per event.) Only an invalid document is re-checked with
:mod:`jsonschema` to collect every error with its JSON path, e.g.
``$.rounds[0].events[12].tile``.
"""

from __future__ import annotations

import copy
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
def _fast_validators() -> tuple[Any, dict[str, Any]]:
    schema = copy.deepcopy(log_schema())
    definitions = schema["definitions"]
    event = definitions["event"]
    per_type = {
        block["if"]["properties"]["type"]["const"]: fastjsonschema.compile(
            _inline_leaves({**block["then"], "definitions": definitions}))
        for block in event["allOf"]
    }
    # events are left to the per-type validators: checking each one twice costs more
    definitions["event"] = {}
    return fastjsonschema.compile(_inline_leaves(schema)), per_type


_LEAVES = ("#/definitions/tile", "#/definitions/seat", "#/definitions/three",
           "#/definitions/event")


def _inline_leaves(node: Any, definitions: dict[str, Any] | None = None) -> Any:
    """Replace references to the small leaf definitions by the definitions themselves:
    fastjsonschema formats a path string for every call through a ``$ref``, which would
    cost more than the check for each of a round's hundred-odd tiles."""
    if definitions is None:
        definitions = node["definitions"]
    if isinstance(node, dict):
        ref = node.get("$ref")
        if ref in _LEAVES:
            return _inline_leaves(definitions[ref.rsplit("/", 1)[1]], definitions)
        return {k: _inline_leaves(v, definitions) for k, v in node.items()}
    if isinstance(node, list):
        return [_inline_leaves(v, definitions) for v in node]
    return node


def _fast_valid(doc: object) -> bool:
    whole, per_type = _fast_validators()
    try:
        whole(doc)
        for round_doc in doc["rounds"]:  # type: ignore[index]
            for event in round_doc["events"]:
                kind = event.get("type") if type(event) is dict else None
                check = per_type.get(kind) if type(kind) is str else None
                if check is None:
                    return False
                check(event)
    except fastjsonschema.JsonSchemaException:
        return False
    return True


@cache
def _full_validator() -> jsonschema.Draft7Validator:
    return jsonschema.Draft7Validator(log_schema())


def validate_document(doc: object) -> list[SchemaIssue]:
    """Every structural problem of ``doc`` (an empty list when it is well formed).

    >>> validate_document({"format": "xuezhan-log"})[0].path
    '$'
    """
    if _fast_valid(doc):
        return []
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
