"""The round-log format's JSON Schema (``log-v1.json``) and structural validation.

Validation is one pass over the document in pieces, each checked by a validator compiled
with fastjsonschema and cut from the published schema, so that it stays the single source
of truth: the document with its rounds left open, each round with its events left open,
and each event by the validator of its ``type`` (the published ``if``/``then`` per event
type would make a compiled validator raise and catch six exceptions per event). A valid
document therefore costs little. Only a piece that fails is re-checked with
:mod:`jsonschema`, to name each problem with its JSON path (``$.rounds[0].events[12].tile``);
the pass stops after :data:`MAX_ISSUES` problems, so that a bad document is reported in
time linear in its size, never by a walk of every error of a large document. Arrays longer
than the format allows are refused before their items are looked at.

Whole numbers written as floats (``1.0``) satisfy JSON Schema's ``integer``, but a seat, a
die or a base must be an ``int`` before the engine indexes with it: a valid document is
also checked for them, at the integer positions the schema declares.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

import fastjsonschema
import jsonschema
import orjson

#: validation stops after this many problems: enough to fix a document, cheap to find
MAX_ISSUES = 20
# what the compiled validators take for a JSON array (a document built by hand may hold
# tuples): every array they pass is walked here too
_ARRAYS = (list, tuple)


@dataclass(frozen=True)
class SchemaIssue:
    """One structural problem: where it is and what is wrong — as an English ``message``,
    and as data for other languages: the rule that failed (``code``: the JSON Schema
    keyword, or ``too_long``, ``float``, ``too_deep``) and its ``params`` (``required``:
    ``name``; ``additionalProperties``: ``names``; ``type``: ``expected``; ``enum``/``const``:
    ``allowed``; ``minItems``/``maxItems``/``too_long``: ``count`` and ``limit``;
    ``minimum``/``maximum``: ``limit``; ``float``: ``value``)."""

    path: str
    message: str
    code: str = field(default="", compare=False)
    params: dict[str, Any] = field(default_factory=dict, compare=False)


@cache
def log_schema() -> dict[str, Any]:
    """The JSON Schema of the log format, version 1."""
    text = resources.files(__package__).joinpath("log-v1.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def json_path(parts: Iterator[str | int] | tuple[str | int, ...] | list[str | int]) -> str:
    """The JSON path of a position, in the notation of the reports.

    >>> json_path(["rounds", 0, "events", 12, "tile"])
    '$.rounds[0].events[12].tile'
    >>> json_path(["a b"])
    '$["a b"]'
    """
    path = "$"
    for part in parts:
        if isinstance(part, int):
            path += f"[{part}]"
        elif part.isidentifier():
            path += f".{part}"
        else:
            path += f"[{json.dumps(part, ensure_ascii=False)}]"
    return path


# -- the pieces ------------------------------------------------------------------------

@dataclass(frozen=True)
class _Piece:
    """A part of the schema: a compiled check, and the full schema to name its errors."""

    check: Callable[[object], object]
    full: jsonschema.Draft7Validator

    def passes(self, value: object) -> bool:
        try:
            self.check(value)
        except fastjsonschema.JsonSchemaException:
            return False
        return True

    def issues(self, value: object, prefix: str) -> list[SchemaIssue]:
        found = [issue for error in self.full.iter_errors(value)
                 for issue in _leaf_issues(error, prefix)]
        return sorted(set(found), key=lambda i: (i.path, i.message))


@dataclass(frozen=True)
class _Pieces:
    document: _Piece
    round: _Piece
    event: _Piece
    per_type: dict[str, Callable[[object], object]]


@cache
def _pieces() -> _Pieces:
    schema = copy.deepcopy(log_schema())
    definitions = schema["definitions"]
    open_round = {**definitions["round"]}
    open_round["properties"] = {**open_round["properties"], "events": {
        **open_round["properties"]["events"], "items": {}}}
    open_document = {**schema, "properties": {**schema["properties"], "rounds": {
        **schema["properties"]["rounds"], "items": {}}}}

    def piece(node: dict[str, Any]) -> _Piece:
        full = {**node, "definitions": definitions}
        return _Piece(fastjsonschema.compile(_inline_leaves(full)),
                      jsonschema.Draft7Validator(full))

    per_type = {
        block["if"]["properties"]["type"]["const"]: fastjsonschema.compile(
            _inline_leaves({**block["then"], "definitions": definitions}))
        for block in definitions["event"]["allOf"]
    }
    return _Pieces(piece(open_document), piece(open_round), piece(definitions["event"]),
                   per_type)


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


# -- validation ------------------------------------------------------------------------

def validate_document(doc: object, limit: int = MAX_ISSUES) -> list[SchemaIssue]:
    """The structural problems of ``doc``, at most ``limit`` of them (none when it is well
    formed), ordered by path.

    >>> validate_document({"format": "xuezhan-log"})[0].path
    '$'
    """
    issues = _over_long(doc, limit)
    if not issues:
        issues = _structure(doc, limit)
    if not issues:
        issues = integral_floats(doc)[:limit]
    return sorted(issues, key=_path_order)


def _over_long(doc: object, limit: int) -> list[SchemaIssue]:
    """Arrays over the format's limits, found before any of their items is validated."""
    schema = log_schema()
    if not isinstance(doc, dict) or not isinstance(doc.get("rounds"), _ARRAYS):
        return []
    rounds = doc["rounds"]
    most = schema["properties"]["rounds"]["maxItems"]
    if len(rounds) > most:
        return [SchemaIssue("$.rounds", f"{len(rounds)} rounds; the format allows at most "
                                        f"{most} in one document", "too_long",
                            {"count": len(rounds), "limit": most})]
    found = []
    round_fields = schema["definitions"]["round"]["properties"]
    result_fields = schema["definitions"]["result"]["properties"]
    events_most, payments_most = (round_fields["events"]["maxItems"],
                                  result_fields["payments"]["maxItems"])
    for r, round_doc in enumerate(rounds):
        if not isinstance(round_doc, dict):
            continue
        events = round_doc.get("events")
        if isinstance(events, _ARRAYS) and len(events) > events_most:
            found.append(SchemaIssue(f"$.rounds[{r}].events", f"{len(events)} events; the "
                                     f"format allows at most {events_most} in one round",
                                     "too_long", {"count": len(events), "limit": events_most}))
        result = round_doc.get("result")
        payments = result.get("payments") if isinstance(result, dict) else None
        if isinstance(payments, _ARRAYS) and len(payments) > payments_most:
            found.append(SchemaIssue(
                f"$.rounds[{r}].result.payments", f"{len(payments)} payments; the format "
                f"allows at most {payments_most} in one round", "too_long",
                {"count": len(payments), "limit": payments_most}))
    return found[:limit]


def _structure(doc: object, limit: int) -> list[SchemaIssue]:
    pieces = _pieces()
    found = [] if pieces.document.passes(doc) else pieces.document.issues(doc, "$")
    rounds = doc.get("rounds") if isinstance(doc, dict) else None
    if not isinstance(rounds, _ARRAYS):
        return found[:limit]
    per_type, event_piece = pieces.per_type, pieces.event
    for r, round_doc in enumerate(rounds):
        if len(found) >= limit:
            break
        if not pieces.round.passes(round_doc):
            found += pieces.round.issues(round_doc, f"$.rounds[{r}]")
        events = round_doc.get("events") if isinstance(round_doc, dict) else None
        if not isinstance(events, _ARRAYS):
            continue
        for i, event in enumerate(events):
            kind = event.get("type") if type(event) is dict else None
            check = per_type.get(kind) if type(kind) is str else None
            try:
                if check is not None:
                    check(event)
                    continue
            except fastjsonschema.JsonSchemaException:
                pass
            found += event_piece.issues(event, f"$.rounds[{r}].events[{i}]")
            if len(found) >= limit:
                break
    return found[:limit]


def _path_order(issue: SchemaIssue) -> tuple[tuple[int, int | str], ...]:
    """Order paths as the document does: ``[2]`` before ``[10]``."""
    parts: list[tuple[int, int | str]] = []
    for token in issue.path[1:].replace("[", ".[").split("."):
        if token.startswith("[") and token[1:-1].isdigit():
            parts.append((0, int(token[1:-1])))
        elif token:
            parts.append((1, token))
    return (*parts, (2, issue.message))


def _leaf_issues(error: jsonschema.ValidationError, prefix: str) -> list[SchemaIssue]:
    # oneOf/anyOf failures carry their real reasons in the context; report the deepest ones
    # so that a bad tile inside a payment names the tile, not "is not valid under any".
    if error.context:
        deepest = max(len(e.absolute_path) for e in error.context)
        if deepest > len(error.absolute_path):
            leaves = [e for e in error.context if len(e.absolute_path) == deepest]
            return [issue for e in leaves for issue in _leaf_issues(e, prefix)]
    return [issue_of(error, prefix)]


def issue_of(error: jsonschema.ValidationError, prefix: str = "$") -> SchemaIssue:
    """One jsonschema error as an issue: its path under ``prefix``, message, rule and
    parameters."""
    return SchemaIssue(prefix + error.json_path[1:], _message(error), str(error.validator),
                       _params(error))


def _params(error: jsonschema.ValidationError) -> dict[str, Any]:
    """The facts a sentence of the failed rule needs (SchemaIssue lists them)."""
    rule, instance = error.validator, error.instance
    value: Any = error.validator_value
    if rule == "required" and isinstance(instance, dict):
        missing = [name for name in value if name not in instance]
        return {"name": missing[0] if missing else None}
    if rule == "additionalProperties" and isinstance(instance, dict):
        known = error.schema.get("properties", {}) if isinstance(error.schema, dict) else {}
        return {"names": sorted(str(k) for k in instance if k not in known)}
    if rule == "type":
        return {"expected": value}
    if rule == "enum":
        return {"allowed": list(value)}
    if rule == "const":
        return {"allowed": [value]}
    if rule in ("minItems", "maxItems") and isinstance(instance, _ARRAYS):
        return {"count": len(instance), "limit": value}
    if rule in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        return {"limit": value}
    return {}


_JSON_KINDS = {dict: "an object", list: "an array", str: "a string", int: "a number",
               float: "a number"}


def _message(error: jsonschema.ValidationError) -> str:
    """jsonschema's message, but a long value is described, never printed."""
    instance, rule = error.instance, error.validator
    if rule in ("maxItems", "minItems") and isinstance(instance, _ARRAYS):
        bound = "at most" if rule == "maxItems" else "at least"
        items = "item" if len(instance) == 1 else "items"
        return f"{len(instance)} {items}; {bound} {error.validator_value} expected"
    message = error.message
    shown = repr(instance)
    if len(shown) > 40 and message.startswith(shown):
        message = _JSON_KINDS.get(type(instance), "a value") + message[len(shown):]
    return message if len(message) <= 200 else message[:197] + "..."


# -- whole numbers written as floats ---------------------------------------------------

_INTEGER = "integer"
_Trie = dict[str | int, Any]  # a position's children, or _INTEGER at an integer


@cache
def _integer_positions() -> _Trie:
    """Where the schema wants integers, as a tree: keys and item positions, ``*`` for
    every item of an array, the event types' fields merged."""
    schema = log_schema()

    def positions(node: dict[str, Any]) -> Any:
        ref = node.get("$ref")
        if ref is not None:
            return positions(schema["definitions"][ref.rsplit("/", 1)[1]])
        if node.get("type") == "integer":
            return _INTEGER
        children: _Trie = {}
        subs: list[tuple[str | int, dict[str, Any]]] = list(node.get("properties", {}).items())
        items = node.get("items")
        if isinstance(items, dict):
            subs.append(("*", items))
        elif isinstance(items, list):
            subs += list(enumerate(items))
        for combinator in ("allOf", "anyOf", "oneOf"):
            for branch in node.get(combinator, ()):
                merge(children, positions(branch.get("then", branch)))
        for place, sub in subs:
            found = positions(sub)
            if found:
                merge(children, {place: found})
        return children

    def merge(into: _Trie, more: Any) -> None:
        for key, value in (more or {}).items():
            if isinstance(value, dict) and isinstance(into.get(key), dict):
                merge(into[key], value)
            else:
                into.setdefault(key, value)

    found: _Trie = positions(schema)
    return found


def integral_floats(doc: object) -> list[SchemaIssue]:
    """Integer fields written as floats, e.g. ``"actor": 1.0``, in document order.

    >>> [i.path for i in integral_floats({"rounds": [{"dealer": 2.0, "dice": [1, 6.0]}]})]
    ['$.rounds[0].dealer', '$.rounds[0].dice[1]']
    """
    return [SchemaIssue(json_path(parts), f"{value!r} is written as a float; this field "
                                          f"takes an integer{_as_int(value)}", "float",
                        {"value": value})
            for parts, value in _floats(doc, _integer_positions())]


def _as_int(value: float) -> str:
    return f" ({int(value)})" if abs(value) < 1e15 else ""


def _floats(value: object, trie: Any) -> list[tuple[list[str | int], float]]:
    """The float leaves of ``value`` at the integer positions of ``trie``, with their paths."""
    if trie is _INTEGER:
        return [([], value)] if type(value) is float else []
    found: list[tuple[list[str | int], float]] = []
    if isinstance(value, dict):
        for key, sub in trie.items():
            if type(key) is str and key in value:
                found += [([key, *p], v) for p, v in _floats(value[key], sub)]
    elif isinstance(value, _ARRAYS):
        every = trie.get("*")
        if every is _INTEGER or (type(every) is dict and all(
                leaf is _INTEGER for leaf in every.values())):
            found += _flat_floats(value, every)
        elif every is not None:
            for i, item in enumerate(value):
                found += [([i, *p], v) for p, v in _floats(item, every)]
        for key, sub in trie.items():
            if type(key) is int and key < len(value):
                found += [([key, *p], v) for p, v in _floats(value[key], sub)]
    return found


def _flat_floats(items: list[Any] | tuple[Any, ...],
                 every: Any) -> list[tuple[list[str | int], float]]:
    # the common shapes (events, dice, deltas): a loop without a call per item
    found: list[tuple[list[str | int], float]] = []
    if every is _INTEGER:
        return [([i], v) for i, v in enumerate(items) if type(v) is float]
    keys = [k for k in every if type(k) is str]
    places = [k for k in every if type(k) is int]
    for i, item in enumerate(items):
        if type(item) is dict:
            for key in keys:
                if type(item.get(key)) is float:
                    found.append(([i, key], item[key]))
        elif isinstance(item, _ARRAYS):
            found += [([i, k], item[k]) for k in places
                      if k < len(item) and type(item[k]) is float]
    return found


def canonical_bytes(doc: object) -> bytes:
    """The canonical form of a document, for hashing: sorted keys, no spaces, UTF-8 —
    what ``json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False)``
    writes, encoded (``content_sha256`` is its hash: the definition never changes).

    orjson writes the same bytes ten times faster (keys in code-point order, the same
    escapes) except for floats, which it may write in another form (``1e-7`` for
    ``1e-07``). Every float it writes is a value (at the start, or after ``:``, ``,`` or
    ``[``) of digits then a ``.`` or an ``e``: where its text has no such run there was no
    float, and the text is the canonical one. Else (a float, or a string that looks like
    one) and where orjson refuses (an integer past 64 bits, a lone surrogate) the
    standard library writes it.

    >>> canonical_bytes({"b": [1.5, "x"], "a": "中"}).decode()
    '{"a":"中","b":[1.5,"x"]}'
    """
    try:
        fast = orjson.dumps(doc, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # orjson.JSONEncodeError is one
        fast = None
    if fast is not None and not _may_hold_a_float(fast):
        return fast
    return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


_DIGIT_THEN_POINT_OR_E = re.compile(rb"[0-9][.eE]")


def _may_hold_a_float(text: bytes) -> bool:
    """Whether compact JSON ``text`` has a value that starts like a float: digits (after a
    ``-``) at the start or after ``:``, ``,`` or ``[``, then a ``.`` or an ``e``. Each
    hit of the quick pattern (a hex id in a string has many) is looked at backwards."""
    for hit in _DIGIT_THEN_POINT_OR_E.finditer(text):
        start = hit.start()
        while start > 0 and 0x30 <= text[start - 1] <= 0x39:
            start -= 1
        if start > 0 and text[start - 1] == 0x2D:  # "-"
            start -= 1
        if start == 0 or text[start - 1] in b":,[":
            return True
    return False


# -- the lean verifier's checks ----------------------------------------------------------

@dataclass(frozen=True)
class LeanChecks:
    """Compiled checks for a verifier that looks at the tiles itself (xuezhan.fastpath):
    the document with its rounds open, a round with its events and the tiles of its hands
    and wall open (their counts still checked), and each event type's own. Each answers
    only yes or no; a no sends the document to :func:`validate_document` for its issues."""

    document: Callable[[object], bool]
    round: Callable[[object], bool]
    event: dict[str, Callable[[object], bool]]


@cache
def lean_checks() -> LeanChecks:
    pieces = _pieces()
    definitions = copy.deepcopy(log_schema()["definitions"])
    lean_round = definitions["round"]
    fields = lean_round["properties"]
    fields["events"] = {**fields["events"], "items": {}}
    fields["hands"] = {**fields["hands"], "items": {**fields["hands"]["items"], "items": {}}}
    fields["wall"] = {**fields["wall"], "items": {}}
    round_check = fastjsonschema.compile(_inline_leaves({**lean_round,
                                                        "definitions": definitions}))
    return LeanChecks(_yes_no(pieces.document.check), _yes_no(round_check),
                      {kind: _yes_no(check) for kind, check in pieces.per_type.items()})


def _yes_no(check: Callable[[object], object]) -> Callable[[object], bool]:
    def passes(value: object) -> bool:
        try:
            check(value)
        except fastjsonschema.JsonSchemaException:
            return False
        return True
    return passes
