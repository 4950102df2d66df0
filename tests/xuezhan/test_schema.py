from __future__ import annotations

import copy
from typing import Any

from xuezhan.schema import canonical_bytes, log_schema, validate_document

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


def test_the_schema_names_every_event_type() -> None:
    types = log_schema()["definitions"]["event"]["properties"]["type"]["enum"]
    assert types == ["exchange", "dingque", "draw", "discard", "peng", "gang", "hu"]


def test_a_tile_with_a_trailing_newline_is_not_a_tile() -> None:
    # a regex's $ matches before a final newline: the length bound closes that gap
    doc = copy.deepcopy(MINIMAL)
    doc["rounds"][0]["events"][0]["tile"] = "9s\n"
    doc["rounds"][0]["hands"][1][0] = "2m\n"
    assert paths(doc) == ["$.rounds[0].events[0].tile", "$.rounds[0].hands[1][0]"]
