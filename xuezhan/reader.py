"""The one strict JSON reader: what the CLI and the service accept as a document.

Python's ``json`` keeps the last of duplicate keys, reads ``NaN`` and ``Infinity``, turns
``1e400`` into infinity, recurses once per nesting level and answers a 5,000-digit integer
with advice about the interpreter. Here each of those is a :class:`ReadError` with a
stable code, the JSON path of the offending value and a plain sentence. Strings holding
``\\u0000`` or an unpaired surrogate are refused too: they are no text a log needs, and
not every store or terminal can hold them. :func:`read_document` also refuses whole
numbers written as floats in the log format's integer fields (``"actor": 1.0``).

The checks cost little on a good document: nesting is measured on the bytes, the strings
are looked at only when the bytes hold a suspicious escape, and a refusal's path is found
by a second, marking parse that runs only after a refusal.

>>> read_json(b'{"a": [1, 2.5]}')
{'a': [1, 2.5]}
>>> read_json(b'{"a": 1, "a": 2}')
Traceback (most recent call last):
...
xuezhan.reader.DuplicateKey: $.a: the key "a" appears twice in one object
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from typing import Any, ClassVar

from xuezhan.errors import LogFormatError
from xuezhan.schema import integral_floats, json_path

#: nesting of arrays and objects allowed (a log nests six deep)
MAX_DEPTH = 32
#: digits allowed in an integer (every integer of a log has a handful)
MAX_INTEGER_DIGITS = 100


class ReadError(LogFormatError):
    """Text that is not a readable document; ``code`` is stable, ``path`` is a JSON path
    (``$`` when the problem is the text as a whole) and ``sentence`` says what is wrong."""

    code: ClassVar[str] = "unreadable"

    def __init__(self, path: str, sentence: str) -> None:
        self.path = path
        self.sentence = sentence
        super().__init__(f"{path}: {sentence}", [(path, sentence)])

    def at(self, path: str) -> ReadError:
        """The same refusal at ``path``."""
        return type(self)(path, self.sentence)


class NotUTF8(ReadError):
    code = "not_utf8"


class NotJSON(ReadError):
    code = "not_json"


class TooDeep(ReadError):
    code = "too_deep"


class DuplicateKey(ReadError):
    code = "duplicate_key"


class NonFiniteNumber(ReadError):
    code = "non_finite_number"


class IntegerTooLong(ReadError):
    code = "integer_too_long"


class UnstorableString(ReadError):
    code = "unstorable_string"


class IntegralFloat(ReadError):
    code = "integral_float"


#: every refusal: code -> meaning
CODES: dict[str, str] = {
    NotUTF8.code: "the bytes are not UTF-8 text",
    NotJSON.code: "the text is not JSON (the sentence gives the line and column)",
    TooDeep.code: "arrays and objects are nested deeper than the reader's limit",
    DuplicateKey.code: "an object names the same key twice",
    NonFiniteNumber.code: "NaN, Infinity, or a number too large for a 64-bit float",
    IntegerTooLong.code: f"an integer of more than {MAX_INTEGER_DIGITS} digits",
    UnstorableString.code: "a string holds \\u0000 or an unpaired UTF-16 surrogate",
    IntegralFloat.code: "an integer field of the log format holds a float such as 1.0",
}


class _Refusal(Exception):
    """Raised by the parse hooks, which cannot know the path; carries the error."""

    def __init__(self, error: ReadError) -> None:
        self.error = error


class _Mark:
    """What the marking parse leaves where a refused value was."""

    __slots__ = ("error",)

    def __init__(self, error: ReadError) -> None:
        self.error = error


def read_json(raw: bytes | str, max_depth: int = MAX_DEPTH) -> Any:
    """Parse strict JSON: UTF-8 bytes (a byte-order mark is skipped), or text.

    :raises ReadError: one of its subclasses, naming the path and the reason.
    """
    return _read(raw, max_depth)[0]


def read_document(raw: bytes | str, max_depth: int = MAX_DEPTH) -> Any:
    """Parse a log document: strict JSON with no float in an integer field of the format.
    Its structure is not checked here (``xuezhan.schema.validate_document`` does that).

    >>> read_document(b'{"rounds": [{"events": [{"actor": 1.0}]}]}')
    Traceback (most recent call last):
    ...
    xuezhan.reader.IntegralFloat: $.rounds[0].events[0].actor: 1.0 is written as a float; \
this field takes an integer (1)

    :raises ReadError: one of its subclasses, naming the path and the reason.
    """
    value, integral_float_seen = _read(raw, max_depth)
    if integral_float_seen:
        found = integral_floats(value)
        if found:
            raise IntegralFloat(found[0].path, found[0].message)
    return value


def _read(raw: bytes | str, max_depth: int) -> tuple[Any, bool]:
    if isinstance(raw, str):
        text, data = raw, raw.encode("utf-8", "surrogatepass")
    else:
        data = raw
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise NotUTF8("$", f"the bytes are not UTF-8 text ({exc.reason} at byte "
                               f"{exc.start})") from None
    if _too_deep(data, max_depth):
        raise TooDeep("$", f"arrays and objects are nested more than {max_depth} "
                           "levels deep")
    integral: list[float] = []
    hooks = _hooks(_refuse, integral)
    if _LONG_DIGITS not in data.translate(_DIGITS_AS_ZERO):
        del hooks["parse_int"]  # no integer can be too long: let the parser read them
    try:
        value = json.loads(text, **hooks)
    except _Refusal as refusal:
        raise _locate(text, refusal.error) from None
    except json.JSONDecodeError as exc:
        raise _not_json(text, exc) from None
    except RecursionError:  # only with a max_depth above the interpreter's own limit
        raise TooDeep("$", "arrays and objects are nested too deep to read") from None
    if _SUSPECT_ESCAPE.search(data) or (isinstance(raw, str) and _UNSTORABLE.search(raw)):
        _check_strings(value)
    return value, bool(integral)


# -- the hooks -------------------------------------------------------------------------

def _refuse(error: ReadError) -> Any:
    raise _Refusal(error)


def _hooks(refused: Callable[[ReadError], Any], integral: list[float]) -> dict[str, Any]:
    """``json.loads`` hooks that hand each refused value to ``refused`` (which raises, or
    returns what stands in the value's place) and note whole floats in ``integral``."""
    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        obj = dict(items)
        if len(obj) < len(items):
            seen: set[str] = set()
            for key, _value in items:
                if key in seen:
                    obj[key] = refused(DuplicateKey(
                        "$", f"the key {_quoted(key)} appears twice in one object"))
                seen.add(key)
        return obj

    def constant(name: str) -> Any:
        return refused(NonFiniteNumber("$", f"{name} is not a JSON number"))

    def integer(digits: str) -> Any:
        count = len(digits) - digits.startswith("-")
        if count > MAX_INTEGER_DIGITS:
            return refused(IntegerTooLong("$", f"an integer of {count} digits; integers of "
                                               f"more than {MAX_INTEGER_DIGITS} are not read"))
        return int(digits)

    def number(digits: str) -> Any:
        value = float(digits)
        if math.isinf(value):
            shown = digits if len(digits) <= 20 else digits[:17] + "..."
            return refused(NonFiniteNumber("$", f"the number {shown} is too large for a "
                                                "64-bit float"))
        if value.is_integer():
            integral.append(value)
        return value

    return {"object_pairs_hook": pairs, "parse_constant": constant, "parse_int": integer,
            "parse_float": number}


def _locate(text: str, refused: ReadError) -> ReadError:
    """The first refusal in document order, with its path: a second parse leaves marks
    (``refused``, the one the first parse met, stands if none is found)."""
    try:
        value = json.loads(text, **_hooks(_Mark, []))
    except json.JSONDecodeError as exc:  # text past the refused value is not JSON either
        return _not_json(text, exc)
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(value, ())]
    while stack:
        node, parts = stack.pop()
        if isinstance(node, _Mark):
            return node.error.at(json_path(parts))
        if isinstance(node, dict):
            stack.extend((v, (*parts, k)) for k, v in reversed(node.items()))
        elif isinstance(node, list):
            stack.extend((v, (*parts, i)) for i, v in reversed(list(enumerate(node))))
    return refused


def _not_json(text: str, exc: json.JSONDecodeError) -> NotJSON:
    if not text.strip():
        return NotJSON("$", "not valid JSON: the text is empty")
    reason = exc.msg[:1].lower() + exc.msg[1:]
    return NotJSON("$", f"not valid JSON: {reason} at line {exc.lineno}, column {exc.colno}")


def _quoted(key: str) -> str:
    shown = json.dumps(key, ensure_ascii=False)
    return shown if len(shown) <= 40 else shown[:37] + '..."'


# -- nesting and strings ---------------------------------------------------------------

_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_NOT_BRACKETS_OR_QUOTES = bytes(b for b in range(256) if b not in b'[]{}"')
_ONE_BRACKET = bytes.maketrans(b"{}", b"[]")


def _too_deep(data: bytes, limit: int) -> bool:
    """Whether arrays and objects in ``data`` nest more than ``limit`` deep, brackets in
    strings aside. Each pass removes the innermost level (C loops, no Python per byte);
    an unbalanced text stops early and is left to the parser to refuse."""
    if b"\\" in data:  # an escaped quote: strings need a real scan
        outside = _STRING.sub(b"", data)
    else:  # quotes alternate: every other piece between them is outside a string
        outside = b"".join(data.translate(None, _NOT_BRACKETS_OR_QUOTES).split(b'"')[0::2])
    brackets = outside.translate(_ONE_BRACKET, _NOT_BRACKETS)
    for _ in range(limit):
        fewer = brackets.replace(b"[]", b"")
        if len(fewer) == len(brackets):
            return False
        brackets = fewer
    return bool(brackets)


_DIGITS_AS_ZERO = bytes.maketrans(bytes(range(256)), bytes(
    48 if 48 <= b <= 57 else 32 for b in range(256)))
_LONG_DIGITS = b"0" * (MAX_INTEGER_DIGITS + 1)

# a NUL or a surrogate can reach a string only through a \u escape
_SUSPECT_ESCAPE = re.compile(rb"\\u(?:0000|[dD][89a-fA-F])")
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def _check_strings(value: Any) -> None:
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(value, ())]
    while stack:
        node, parts = stack.pop()
        if isinstance(node, str):
            _check_string(node, parts)
        elif isinstance(node, dict):
            for key, item in node.items():
                _check_string(key, (*parts, key))
                stack.append((item, (*parts, key)))
        elif isinstance(node, list):
            stack.extend((item, (*parts, i)) for i, item in enumerate(node))


def _check_string(text: str, parts: tuple[str | int, ...]) -> None:
    found = _UNSTORABLE.search(text)
    if found is None:
        return
    what = ("\\u0000 (NUL)" if found.group() == "\x00"
            else f"an unpaired surrogate \\u{ord(found.group()):04x}")
    raise UnstorableString(json_path(parts), f"a string holds {what}, which a document may "
                                             "not contain")
