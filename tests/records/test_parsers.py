from __future__ import annotations

from typing import Any

import pytest

from records.parsers import JSONError, loads_strict, nesting_depth


@pytest.mark.parametrize(
    ("raw", "depth"),
    [
        (b"1", 0),
        (b"[]", 1),
        (b'{"a": [[1], "]]]"]}', 3),
        (b'["\\"[[[["]', 1),
        (b"[" * 50 + b"]" * 50, 50),
    ],
)
def test_nesting_depth_ignores_brackets_in_strings(raw: bytes, depth: int) -> None:
    assert nesting_depth(raw) == depth


def test_it_parses_plain_json() -> None:
    assert loads_strict(b'{"a": [1, 2.5, "x", null, true]}') == {"a": [1, 2.5, "x", None, True]}


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b'{"a": 1, "a": 2}', "duplicate key 'a'"),
        (b'{"x": NaN}', "NaN is not valid JSON"),
        (b'{"x": -Infinity}', "-Infinity is not valid JSON"),
        (b"[" * 2000 + b"]" * 2000, "nested 2000 levels deep"),
        (b'{"events": [', "Expecting value"),
        (b"\xff\xfe", "not UTF-8"),
        (b"", "Expecting value"),
        (b'{"x": 1e400}', "number 1e400 is too large"),
        (b'{"x": ["a\\u0000b"]}', "may not contain"),
        (b'{"x\\u0000": 1}', "may not contain"),
        (b'{"x": "\\ud800"}', "unpaired surrogates"),
    ],
)
def test_it_refuses(raw: bytes, message: str) -> None:
    with pytest.raises(JSONError, match=message):
        loads_strict(raw, max_depth=32)


def test_it_refuses_duplicates_deep_inside() -> None:
    with pytest.raises(JSONError, match="duplicate key 'tile'"):
        loads_strict(b'{"rounds": [{"events": [{"tile": "1m", "tile": "2m"}]}]}', max_depth=32)


def test_paired_surrogates_are_fine() -> None:
    assert loads_strict(b'"\\ud83c\\udc00"', max_depth=32) == "\U0001f000"


@pytest.mark.django_db
@pytest.mark.parametrize("value", ["mi\x00a", "\x00"])
def test_a_nul_in_a_multipart_field_is_a_400_naming_the_field(
    club: Any, cast: Any, api_client: Any, value: str
) -> None:
    # PostgreSQL cannot even compare a string holding NUL: it must never reach a query
    response = api_client(cast["adam"]).post(
        f"/api/v1/clubs/{club.pk}/invitations/", {"username": value}, format="multipart"
    )
    assert response.status_code == 400
    assert "username" in response.json()["detail"] and "NUL" in response.json()["detail"]
