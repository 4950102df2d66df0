from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xuezhan.schema import (
    MAX_ISSUES,
    SchemaIssue,
    canonical_bytes,
    log_schema,
    validate_document,
)

MINIMAL: dict[str, Any] = {
    "format": "xuezhan-log", "version": 1, "players": ["a", "b", "c", "d"],
    "rounds": [{"dealer": 0, "hands": [["1m"] * 14, ["2m"] * 13, ["3m"] * 13, ["4m"] * 13],
                "events": [{"type": "discard", "actor": 0, "tile": "9s"}]}],
}


def paths(doc: Any) -> list[str]:
    return [i.path for i in validate_document(doc)]


def test_a_well_formed_document_has_no_issues() -> None:
    assert validate_document(MINIMAL) == []


def test_a_bad_tile_is_reported_with_its_json_path() -> None:
    doc = copy.deepcopy(MINIMAL)
    doc["rounds"][0]["events"][0]["tile"] = "0z"
    assert paths(doc) == ["$.rounds[0].events[0].tile"]


def test_seat_four_is_out_of_range() -> None:
    doc = copy.deepcopy(MINIMAL)
    doc["rounds"][0]["events"][0]["actor"] = 4
    assert paths(doc) == ["$.rounds[0].events[0].actor"]


def test_every_error_is_reported_not_only_the_first() -> None:
    doc = copy.deepcopy(MINIMAL)
    doc["rounds"][0]["dealer"] = "east"
    doc["rounds"][0]["events"].append({"type": "peng", "actor": 1, "tile": "9s"})
    doc["players"] = ["a"]
    assert paths(doc) == ["$.players", "$.rounds[0].dealer", "$.rounds[0].events[1]"]


def test_an_unknown_event_field_is_rejected() -> None:
    doc = copy.deepcopy(MINIMAL)
    doc["rounds"][0]["events"][0]["tiles"] = "9s"
    assert paths(doc) == ["$.rounds[0].events[0]"]


def test_a_bad_tile_in_a_recorded_payment_names_the_payment() -> None:
    doc = copy.deepcopy(MINIMAL)
    doc["rounds"][0]["result"] = {"payments": [[0, 5, 2, "x"]]}
    assert paths(doc) == ["$.rounds[0].result.payments[0][1]"]


def test_non_objects_are_reported_at_the_root() -> None:
    for doc in (None, [], "x", 3):
        assert paths(doc) == ["$"]


def test_the_canonical_form_ignores_key_order_and_spacing() -> None:
    a = {"b": 1, "a": [1, {"y": 2, "x": 3}]}
    b = {"a": [1, {"x": 3, "y": 2}], "b": 1}
    assert canonical_bytes(a) == canonical_bytes(b) == b'{"a":[1,{"x":3,"y":2}],"b":1}'


def _stdlib_canonical(doc: Any) -> bytes:
    """The canonical form's definition (docs/format.md): what content_sha256 hashes."""
    return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.text()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
    max_leaves=30,
)


@settings(max_examples=1000)
@given(_JSON_VALUES)
def test_the_canonical_form_is_the_standard_librarys_whatever_the_values(doc: Any) -> None:
    """content_sha256 never changes meaning: keys in code-point order, escapes, floats in
    Python's form, integers past 64 bits — byte for byte the definition."""
    assert canonical_bytes(doc) == _stdlib_canonical(doc)


def test_the_canonical_form_of_floats_is_pythons_not_orjsons() -> None:
    doc = {"small": 1e-07, "large": 1e16, "whole": 3.0, "name": "1e5 rounds"}
    assert canonical_bytes(doc) == _stdlib_canonical(doc)
    assert b'"small":1e-07' in canonical_bytes(doc)


def test_a_lone_surrogate_has_no_canonical_form() -> None:
    with pytest.raises(UnicodeEncodeError):
        canonical_bytes({"name": "\ud800"})


def test_the_schema_names_every_event_type() -> None:
    types = log_schema()["definitions"]["event"]["properties"]["type"]["enum"]
    assert types == ["exchange", "dingque", "draw", "discard", "peng", "gang", "hu"]


def test_a_tile_with_a_trailing_newline_is_not_a_tile() -> None:
    # a regex's $ matches before a final newline: the length bound closes that gap
    doc = copy.deepcopy(MINIMAL)
    doc["rounds"][0]["events"][0]["tile"] = "9s\n"
    doc["rounds"][0]["hands"][1][0] = "2m\n"
    assert paths(doc) == ["$.rounds[0].events[0].tile", "$.rounds[0].hands[1][0]"]


def test_an_over_long_rounds_array_is_refused_before_its_rounds_are_looked_at() -> None:
    doc = copy.deepcopy(MINIMAL)
    doc["rounds"] = [None] * 65  # items the full walk would report one by one
    assert validate_document(doc) == [
        SchemaIssue("$.rounds", "65 rounds; the format allows at most 64 in one document")]


def test_an_over_long_events_array_is_refused_before_its_events_are_looked_at() -> None:
    doc = copy.deepcopy(MINIMAL)
    doc["rounds"][0]["events"] = ["not an event"] * 401
    doc["players"] = "not even checked"
    assert paths(doc) == ["$.rounds[0].events"]
    assert validate_document(doc)[0].message.startswith("401 events; the format allows")


def test_at_most_the_limit_of_problems_is_reported_the_first_in_document_order() -> None:
    doc = copy.deepcopy(MINIMAL)
    doc["rounds"] = [copy.deepcopy(doc["rounds"][0]) for _ in range(12)]
    for round_doc in doc["rounds"]:
        round_doc["events"] = [{"type": "discard", "actor": 0, "tile": "0z"}] * 3
    assert len(validate_document(doc)) == MAX_ISSUES
    assert paths(doc)[:4] == ["$.rounds[0].events[0].tile", "$.rounds[0].events[1].tile",
                              "$.rounds[0].events[2].tile", "$.rounds[1].events[0].tile"]
    assert paths(doc)[-1] == "$.rounds[6].events[1].tile"
    assert len(validate_document(doc, limit=2)) == 2


def test_paths_are_ordered_as_the_document_not_as_strings() -> None:
    doc = copy.deepcopy(MINIMAL)
    doc["rounds"] = [copy.deepcopy(doc["rounds"][0]) for _ in range(11)]
    doc["rounds"][10]["dealer"] = 9
    doc["rounds"][2]["dealer"] = 9
    assert paths(doc) == ["$.rounds[2].dealer", "$.rounds[10].dealer"]


def test_whole_floats_in_integer_fields_are_problems_after_the_structure_is_sound() -> None:
    doc = copy.deepcopy(MINIMAL)
    doc["base"] = 2.0
    doc["rounds"][0]["events"][0]["actor"] = 0.0
    doc["rounds"][0]["result"] = {"payments": [[1, 0.0, 2, "x"], {"payer": 1, "payee": 0,
                                                                  "amount": 2.0}]}
    assert paths(doc) == ["$.base", "$.rounds[0].events[0].actor",
                          "$.rounds[0].result.payments[0][1]",
                          "$.rounds[0].result.payments[1].amount"]
    assert validate_document(doc)[0].message == (
        "2.0 is written as a float; this field takes an integer (2)")


def test_a_float_outside_the_integer_fields_is_no_problem() -> None:
    doc = {**copy.deepcopy(MINIMAL), "note": 1.0}
    assert validate_document(doc) == []


def test_a_long_value_of_the_wrong_type_is_described_not_printed() -> None:
    doc = copy.deepcopy(MINIMAL)
    doc["players"] = {f"p{i}": i for i in range(100)}
    [issue] = validate_document(doc)
    assert issue == SchemaIssue("$.players", "an object is not of type 'array'")


def test_tuples_in_a_document_built_by_hand_are_validated_like_lists() -> None:
    doc = copy.deepcopy(MINIMAL)
    doc["rounds"][0]["events"] = ({"type": "discard", "actor": 0.0, "tile": "9s"},)
    doc["rounds"] = tuple(doc["rounds"])
    assert paths(doc) == ["$.rounds[0].events[0].actor"]
    doc["rounds"][0]["events"] = ({"type": "discard", "actor": 0, "tile": "0z"},)
    assert paths(doc) == ["$.rounds[0].events[0].tile"]
