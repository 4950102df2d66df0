"""A payment line's params stored compactly, without their repeated keys (docs/scaling.md,
"Storage"; an upload's bytes are compressed by ``records.fields``).

A payment line's params were ``jsonb`` with every key spelled out, five lines a round: a
third of the database (~330 B a line). They are stored as the JSON text of arrays: an
object whose keys are one of :data:`SHAPES` becomes ``[shape number, value, …]`` in the
shape's order, a list becomes ``[0, item, …]``, anything else stays as it is (an object of
another shape keeps its keys: a new engine's params are stored whole until their shape is
added here). Reading gives the objects back with their keys in ``jsonb``'s order (shorter
keys first, then by their bytes), as the ``jsonb`` column gave them: the API's bytes do not
change.
"""

from __future__ import annotations

import json
from typing import Any

from django.db import models

from records.fields import jsonb_order

#: The payment params' object shapes (their keys in jsonb's order), by number less one.
#: Append only: a stored value names its shape by its place in this tuple.
SHAPES: tuple[tuple[str, ...], ...] = (
    ("fan", "capped", "points", "add_ons", "max_fan", "patterns"),  # a win's score
    ("fan", "name"),  # a scoring pattern
    ("base", "tile", "payer", "score", "amount", "points", "winner", "after_kong",
     "self_draw_bonus"),  # win_self_drawn
    ("base", "tile", "payer", "score", "amount", "points", "winner", "kong_discard",
     "dian_gang_hua"),  # win_discard
    ("kind", "seat", "tile", "event"),  # a kong
    ("base", "kong", "payer", "units", "amount", "konger"),  # kong money
    ("fan", "name", "count", "total"),  # a score's add-on
    ("fan", "base", "mode", "wait", "payee", "payer", "value", "amount"),  # ting_check
    ("base", "payee", "payer", "amount", "payee_value", "payer_value"),  # price_difference
    ("pig", "base", "payee", "amount", "penalty"),  # flower_pig
    ("kong", "amount", "konger", "kong_payer"),  # tax_refund
    ("base", "tile", "payer", "score", "amount", "points", "winner"),  # win_rob_kong
    ("kong", "tile", "scope", "amount", "konger", "winner", "transferred"),  # call_transfer
    ("base", "tile", "payer", "score", "amount", "points", "winner", "after_kong",
     "kong_discard", "dian_gang_hua"),  # win_discard after a kong
)  # fmt: skip
_NUMBERS = {shape: number for number, shape in enumerate(SHAPES, start=1)}
_LIST = 0


def pack(value: Any) -> Any:
    """``value`` with its objects of a known shape and its lists as numbered arrays."""
    if isinstance(value, dict):
        keys = tuple(sorted(value, key=jsonb_order))
        number = _NUMBERS.get(keys)
        if number is None:
            return {key: pack(value[key]) for key in keys}
        return [number, *(pack(value[key]) for key in keys)]
    if isinstance(value, list | tuple):
        return [_LIST, *(pack(item) for item in value)]
    return value


def unpack(value: Any) -> Any:
    """The value :func:`pack` was given (objects' keys in jsonb's order)."""
    if isinstance(value, list):
        head, *items = value
        if head == _LIST:
            return [unpack(item) for item in items]
        return dict(zip(SHAPES[head - 1], map(unpack, items), strict=True))
    if isinstance(value, dict):
        return {key: unpack(item) for key, item in value.items()}
    return value


def dumps(value: Any) -> str:
    """The text stored for ``value``: :func:`pack`'s JSON, without spaces."""
    return json.dumps(pack(value), ensure_ascii=False, separators=(",", ":"))


def loads(text: str) -> Any:
    return unpack(json.loads(text))


class CompactJSONField(models.TextField):  # type: ignore[type-arg]
    """A JSON value stored as :func:`dumps`' text and read back as the value. A text given
    is taken as already packed (the verification packs its rows itself, for COPY)."""

    def from_db_value(self, value: str | None, expression: Any, connection: Any) -> Any:
        return None if value is None else loads(value)

    def to_python(self, value: Any) -> Any:
        return loads(value) if isinstance(value, str) else value

    def get_prep_value(self, value: Any) -> Any:
        if value is None or isinstance(value, str):
            return value
        return dumps(value)

    def value_to_string(self, obj: Any) -> str:
        return dumps(self.value_from_object(obj))
