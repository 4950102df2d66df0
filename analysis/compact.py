"""A payment line's params stored compactly, without their repeated keys, and a round's
lines packed together into one text (:func:`dumps_lines`, below) (docs/scaling.md,
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
    is taken as already packed. The payment rows' params were one (migration 0014 names it;
    0015 moved the rows into ``RoundSettlement.lines``)."""

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


# --- a round's payment lines, in one text (RoundSettlement.lines) ---------------------
#
# A line per row cost ~218 B and two index entries, ~5 a round. A round's lines are stored
# as the JSON text ``[shared, line, …]``:
#
# - ``shared``: the packed values (arrays) that the round's params repeat, each written
#   once (the win's score its three self-draw lines carry); params name one as ``[-k]``
#   (the k-th, from 1: a packed array starts with 0 or a shape number, never below 0);
# - a line is ``[reason, params]`` when the params name its payer, payee and amount (as
#   every line of today's engine does: :data:`ROLES`), else ``[reason, params, payer,
#   payee, amount]``, and a sixth item, its sentence, where the params do not give it
#   (``Payment.stored_detail``); ``reason`` is its number in :data:`LINE_REASONS` (or the
#   code itself, for a reason not there);
# - a line that is the one before it paid by another seat (the same params but their
#   payer) is that seat's number alone: a self-draw's second and third payers.

#: payment reasons by number less one. Append only: stored lines name them by number.
LINE_REASONS: tuple[str, ...] = (
    "win_self_drawn", "win_discard", "win_rob_kong",
    "kong_direct", "kong_added", "kong_concealed",
    "call_transfer", "kong_refund",
    "flower_pig", "ting_check", "price_difference", "tax_refund", "false_win",
)  # fmt: skip
_REASON_NUMBERS = {reason: number for number, reason in enumerate(LINE_REASONS, start=1)}
#: per reason, the params' keys that name the line's payer and payee (the amount is
#: ``amount``), as xuezhan.settlement.describe documents them
ROLES: dict[str, tuple[str, str]] = {
    "win_self_drawn": ("payer", "winner"), "win_discard": ("payer", "winner"),
    "win_rob_kong": ("payer", "winner"), "kong_direct": ("payer", "konger"),
    "kong_added": ("payer", "konger"), "kong_concealed": ("payer", "konger"),
    "call_transfer": ("konger", "winner"), "kong_refund": ("konger", "kong_payer"),
    "flower_pig": ("pig", "payee"), "ting_check": ("payer", "payee"),
    "price_difference": ("payer", "payee"), "tax_refund": ("konger", "kong_payer"),
    "false_win": ("payer", "payee"),
}  # fmt: skip
#: a repeated value whose repr is shorter than this is written again rather than shared
_SHARED_MIN = 10
_LINE_FIELDS = ("payer", "payee", "amount")
#: the text of a round without lines
NO_LINES = "[[]]"


def _text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _implied(line: dict[str, Any]) -> bool:
    """Whether the line's params name its payer, payee and amount (ints, not booleans)."""
    roles, params = ROLES.get(line["reason"]), line.get("params")
    if roles is None or not isinstance(params, dict):
        return False
    keys = (*roles, "amount")
    return all(type(params.get(k)) is int and params[k] == line[f]
               for k, f in zip(keys, _LINE_FIELDS, strict=True))  # fmt: skip


def _again(before: dict[str, Any] | None, line: dict[str, Any]) -> bool:
    """Whether ``line`` is ``before`` paid by another seat: the same params but their payer."""
    if before is None or before["reason"] != line["reason"] or line.get("stored_detail"):
        return False
    if before.get("stored_detail") or not (_implied(before) and _implied(line)):
        return False
    same = {**before["params"], ROLES[line["reason"]][0]: line["payer"]}
    return same == line["params"] and _identical(same, line["params"])  # == first: in C


def _identical(a: Any, b: Any) -> bool:
    """Equal values of the same types all the way down (``1`` is neither ``True`` nor
    ``1.0``: a line read back must give what was stored)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_identical(a[key], b[key]) for key in a)
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(map(_identical, a, b))
    return bool(a == b)


def _count(value: Any, counts: dict[str, int], texts: dict[int, str]) -> None:
    """Count each array of ``value`` by its ``repr`` (kept in ``texts`` by the array's id):
    equal for equal values of the same types (``1`` is not ``True``), and quicker than
    JSON."""
    if isinstance(value, dict):
        for item in value.values():
            _count(item, counts, texts)
    elif isinstance(value, list):
        text = texts[id(value)] = repr(value)
        counts[text] = counts.get(text, 0) + 1
        if counts[text] == 1:  # a repeat's parts were counted with its first
            for item in value[1:]:
                _count(item, counts, texts)


def _share(value: Any, counts: dict[str, int], texts: dict[int, str],
           shared: dict[str, tuple[int, Any]]) -> Any:  # fmt: skip
    """``value`` with its repeated arrays as references into ``shared`` (their ``repr`` →
    their place and the array)."""
    if isinstance(value, dict):
        return {key: _share(item, counts, texts, shared) for key, item in value.items()}
    if not isinstance(value, list):
        return value
    text = texts.get(id(value)) or repr(value)
    if counts.get(text, 0) > 1 and len(text) >= _SHARED_MIN:
        place, _ = shared.setdefault(text, (len(shared), value))
        return [-1 - place]
    return [value[0], *(_share(item, counts, texts, shared) for item in value[1:])]


def dumps_lines(lines: list[dict[str, Any]]) -> str:
    """The text stored for a round's lines, given in order as dicts of ``payer``, ``payee``,
    ``amount``, ``reason``, ``params`` and ``stored_detail`` (empty: the params' sentence)."""
    again = [_again(before, line) for before, line in zip([None, *lines], lines, strict=False)]
    packed = [None if repeated else pack(line.get("params", {}))
              for line, repeated in zip(lines, again, strict=True)]  # fmt: skip
    counts: dict[str, int] = {}
    texts: dict[int, str] = {}
    for value in packed:
        _count(value, counts, texts)
    shared: dict[str, tuple[int, Any]] = {}
    items: list[Any] = []
    for line, value, repeated in zip(lines, packed, again, strict=True):
        if repeated:
            items.append(line["payer"])
            continue
        item = [_REASON_NUMBERS.get(line["reason"], line["reason"]),
                _share(value, counts, texts, shared)]  # fmt: skip
        detail = line.get("stored_detail", "")
        if detail or not _implied(line):
            item += [line[f] for f in _LINE_FIELDS]
        if detail:
            item.append(detail)
        items.append(item)
    return _text([[value for _, value in shared.values()], *items])


def _resolve(value: Any, shared: list[Any]) -> Any:
    if isinstance(value, dict):
        return {key: _resolve(item, shared) for key, item in value.items()}
    if not isinstance(value, list):
        return value
    if len(value) == 1 and type(value[0]) is int and value[0] < 0:
        return shared[-1 - value[0]]
    return [value[0], *(_resolve(item, shared) for item in value[1:])]


def _line(item: list[Any], shared: list[Any]) -> tuple[dict[str, Any], Any]:
    """A line and its params as stored, references resolved."""
    code, value, *rest = item
    reason = LINE_REASONS[code - 1] if isinstance(code, int) else code
    value = _resolve(value, shared)
    params = unpack(value)
    line = {"reason": reason, "params": params, "stored_detail": rest[3] if len(rest) > 3 else ""}
    if rest:
        line.update(zip(_LINE_FIELDS, rest[:3], strict=True))
    else:
        line.update(zip(_LINE_FIELDS, (params[k] for k in (*ROLES[reason], "amount")),
                        strict=True))  # fmt: skip
    return line, value


def loads_lines(text: str) -> list[dict[str, Any]]:
    """The lines :func:`dumps_lines` was given, in order (params' keys in jsonb's order)."""
    shared, *items = json.loads(text)
    lines: list[dict[str, Any]] = []
    value: Any = None
    for item in items:
        if isinstance(item, int):  # the line before, paid by this seat
            before = lines[-1]
            params = unpack(value)  # its own objects: no line shares another's
            params[ROLES[before["reason"]][0]] = item
            lines.append({**before, "payer": item, "params": params})
        else:
            line, value = _line(item, shared)
            lines.append(line)
    return lines
