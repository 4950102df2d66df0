"""The strict reader: each refusal has its own type, a stable code, the JSON path and a
sentence; any text at all either reads or raises the reader's own error."""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xuezhan.cli import main
from xuezhan.errors import LogFormatError, RulesError
from xuezhan.reader import (
    CODES,
    MAX_DEPTH,
    DuplicateKey,
    IntegerTooLong,
    IntegralFloat,
    NonFiniteNumber,
    NotJSON,
    NotUTF8,
    ReadError,
    TooDeep,
    UnstorableString,
    read_document,
    read_json,
)
from xuezhan.replay import verify_document
from xuezhan.rules import Rules
from xuezhan.schema import json_path
from xuezhan.sim.simulate import simulate_match

DOC = simulate_match(3, 2)
RAW = json.dumps(DOC).encode()

REFUSALS = [
    # (rule, text, error type, path, words in the sentence)
    ("not UTF-8", b'{"a": "\xff"}', NotUTF8, "$", "not UTF-8"),
    ("not JSON", b'{"rounds": [', NotJSON, "$", "not valid JSON: expecting value at line 1"),
    ("empty text", b"  \n", NotJSON, "$", "the text is empty"),
    ("trailing text", b"{} {}", NotJSON, "$", "extra data"),
    ("duplicate key", b'{"a": {"b": 1, "b": 1}}', DuplicateKey, "$.a.b", 'the key "b"'),
    ("NaN", b'{"a": [1, NaN]}', NonFiniteNumber, "$.a[1]", "NaN is not a JSON number"),
    ("Infinity", b'{"a": Infinity}', NonFiniteNumber, "$.a", "Infinity is not"),
    ("-Infinity", b'[-Infinity]', NonFiniteNumber, "$[0]", "-Infinity is not"),
    ("float overflow", b'{"a": -1e400}', NonFiniteNumber, "$.a", "-1e400 is too large"),
    ("5,000 digits", b'{"a": ' + b"9" * 5000 + b"}", IntegerTooLong, "$.a",
     "an integer of 5000 digits"),
    ("deep nesting", b"[" * 100_000 + b"]" * 100_000, TooDeep, "$",
     f"nested more than {MAX_DEPTH} levels deep"),
    ("NUL", b'{"a": ["x\\u0000"]}', UnstorableString, "$.a[0]", "\\u0000 (NUL)"),
    ("NUL in a key", b'{"a\\u0000": 1}', UnstorableString, '$["a\\u0000"]', "(NUL)"),
    ("lone surrogate", b'{"a": "\\udc00"}', UnstorableString, "$.a",
     "an unpaired surrogate \\udc00"),
    ("integral float", b'{"rounds": [{"dealer": 1, "events": [{"actor": 2.0}]}]}',
     IntegralFloat, "$.rounds[0].events[0].actor", "2.0 is written as a float"),
]


@pytest.mark.parametrize(("text", "error", "path", "words"), [r[1:] for r in REFUSALS],
                         ids=[r[0] for r in REFUSALS])
def test_each_refusal_has_its_type_code_path_and_sentence(
        text: bytes, error: type[ReadError], path: str, words: str) -> None:
    with pytest.raises(error) as caught:
        read_document(text)
    assert caught.value.code == error.code and error.code in CODES
    assert caught.value.path == path
    assert words in caught.value.sentence
    assert str(caught.value) == f"{path}: {caught.value.sentence}"
    assert caught.value.issues == [(path, caught.value.sentence)]


def test_a_refusal_is_a_log_format_error_so_every_caller_of_the_engine_catches_it() -> None:
    assert issubclass(ReadError, LogFormatError)


def test_a_5000_digit_integer_never_answers_with_the_interpreters_advice() -> None:
    with pytest.raises(IntegerTooLong) as caught:
        read_json(b"-" + b"1" * 5000)
    assert "sys." not in str(caught.value) and "set_int_max_str_digits" not in str(caught.value)


def test_an_integer_of_the_longest_allowed_length_reads() -> None:
    assert read_json(b"1" * 100) == int("1" * 100)


def test_the_nesting_limit_counts_arrays_and_objects_but_not_brackets_in_strings() -> None:
    at_limit = b'{"a": ' * (MAX_DEPTH - 1) + b'["[[[[", "\\"{{"]' + b"}" * (MAX_DEPTH - 1)
    assert read_json(at_limit) is not None
    with pytest.raises(TooDeep):
        read_json(b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1))
    assert read_json(b"[[[1]]]", max_depth=3) == [[[1]]]
    with pytest.raises(TooDeep, match="more than 2 levels"):
        read_json(b"[[[1]]]", max_depth=2)


def test_a_paired_surrogate_and_a_byte_order_mark_read() -> None:
    assert read_json(b'\xef\xbb\xbf"\\ud83c\\udc00"') == "\U0001f000"


def test_text_and_bytes_read_alike() -> None:
    assert read_document(RAW.decode()) == read_document(RAW) == DOC
    with pytest.raises(UnstorableString):
        read_json('["\ud800"]')


def test_the_first_refusal_in_document_order_is_named() -> None:
    with pytest.raises(NonFiniteNumber) as caught:
        read_json(b'{"a": [1, 2, {"b": NaN}], "c": NaN}')
    assert caught.value.path == "$.a[2].b"


def test_text_broken_after_a_refused_value_is_reported_as_not_json() -> None:
    with pytest.raises(NotJSON):
        read_json(b'{"a": NaN, "b": ')


def test_a_float_outside_the_formats_integer_fields_is_read() -> None:
    assert read_document(b'{"note": 1.0, "rounds": [{"dealer": 0}]}')["note"] == 1.0
    assert read_json(b'{"rounds": [{"dealer": 1.0}]}') == {"rounds": [{"dealer": 1.0}]}


INTEGER_FIELDS = [
    ("base",), ("rounds", 1, "dealer"), ("rounds", 0, "dice", 1),
    ("rounds", 0, "events", 0, "die"), ("rounds", 1, "events", 5, "actor"),
]


@pytest.mark.parametrize("where", INTEGER_FIELDS, ids=json_path)
def test_every_integer_field_of_the_format_refuses_a_whole_float(where: tuple[Any, ...]) -> None:
    doc = copy.deepcopy(DOC)
    target = doc
    for step in where[:-1]:
        target = target[step]
    target[where[-1]] = float(target.get(where[-1], 1) if isinstance(target, dict)
                              else target[where[-1]])
    with pytest.raises(IntegralFloat) as caught:
        read_document(json.dumps(doc))
    assert caught.value.path == json_path(where)


def test_the_reader_does_not_check_the_structure() -> None:
    assert read_document(b'{"format": "something else"}') == {"format": "something else"}


def test_a_document_built_by_hand_with_a_float_seat_is_reported_not_a_crash() -> None:
    doc = copy.deepcopy(DOC)
    doc["rounds"][0]["events"][4]["actor"] = 1.0
    report = verify_document(doc)
    assert [(v.code, v.round, v.event) for v in report.violations] == [("schema", 0, 4)]


# -- the command line ------------------------------------------------------------------

@pytest.mark.parametrize(("text", "words"), [
    (RAW.replace(b'"actor": 1,', b'"actor": 1.0,', 1), "is written as a float"),
    (RAW.replace(b'"dealer": ', b'"dealer": 0, "dealer": ', 1), 'the key "dealer" appears'),
    (RAW.replace(b'"version": 1', b'"version": ' + b"4" * 5000), "an integer of 5000 digits"),
], ids=["integral float", "duplicate key", "5,000 digits"])
def test_the_cli_exits_2_on_text_the_reader_refuses_naming_the_path(
        text: bytes, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "match.json"
    path.write_bytes(text)
    assert main(["verify", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("xuezhan verify: $.") and words in err


# -- any text at all -------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.text(max_size=3), inner, max_size=3),
    max_leaves=12,
)


def _read_or_refuse(text: bytes | str) -> Any:
    try:
        return read_document(text)
    except ReadError as exc:
        assert exc.code in CODES and exc.path.startswith("$") and exc.sentence
        return exc


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=60) | st.text(max_size=60))
def test_any_text_reads_or_raises_the_readers_own_error(text: bytes | str) -> None:
    _read_or_refuse(text)


@settings(max_examples=300, deadline=None)
@given(value=JSON_VALUES, cut=st.integers(min_value=0, max_value=200),
       splice=st.sampled_from(["", "NaN", "[", "]", "}", '"', ",", '{"a":1,"a":2}', "1.0",
                               "9" * 120, "\\u0000", "\\ud800"]))
def test_any_mangled_json_reads_or_raises_the_readers_own_error(
        value: Any, cut: int, splice: str) -> None:
    text = json.dumps(value)
    _read_or_refuse(text[:cut] + splice + text[cut:])


@settings(max_examples=200, deadline=None)
@given(JSON_VALUES)
def test_json_the_reader_accepts_reads_back_as_written(value: Any) -> None:
    result = _read_or_refuse(json.dumps(value))
    if not isinstance(result, ReadError):
        assert json.dumps(result) == json.dumps(value)
    else:  # what json.dumps writes is refused only for a value the reader does not take
        assert isinstance(result, NonFiniteNumber | UnstorableString | IntegerTooLong)
        assert not isinstance(result, NonFiniteNumber) or any(
            isinstance(x, float) and not math.isfinite(x) for x in _leaves(value))


def _leaves(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [leaf for item in value.values() for leaf in _leaves(item)]
    if isinstance(value, list):
        return [leaf for item in value for leaf in _leaves(item)]
    return [value]


def test_a_ruleset_written_as_json_text_is_read_by_the_same_strict_reader() -> None:
    with pytest.raises(RulesError, match='the key "max_fan" appears twice'):
        Rules.from_json('{"max_fan": 4, "max_fan": 5}')
    assert Rules.from_json('{"max_fan": 4}').max_fan == 4
