"""The API's JSON parser is the engine's strict reader; a refusal is DRF's 400 naming the path."""

from __future__ import annotations

import io
from typing import Any

import pytest
from rest_framework.exceptions import ParseError

from records.parsers import StrictJSONParser


def parse(raw: bytes) -> object:
    return StrictJSONParser().parse(io.BytesIO(raw))


def test_the_parser_reads_plain_json() -> None:
    assert parse(b'{"a": [1, 2.5, "x", null, true]}') == {"a": [1, 2.5, "x", None, True]}


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b'{"a": {"b": 1, "b": 2}}', 'at $.a.b: the key "b" appears twice'),
        (b'{"x": [NaN]}', "at $.x[0]: NaN is not a JSON number"),
        (b"[" * 2000 + b"]" * 2000, "at $: arrays and objects are nested more than 32"),
        (b'{"x": ' + b"7" * 5000 + b"}", "at $.x: an integer of 5000 digits"),
    ],
)
def test_a_refusal_of_the_reader_is_a_parse_error_naming_the_path(raw: bytes, message: str) -> None:
    with pytest.raises(ParseError, match=message.replace("[", r"\[").replace("$", r"\$")):
        parse(raw)


def test_the_parser_takes_the_depth_limit_from_the_settings(settings: object) -> None:
    settings.UPLOAD_MAX_DEPTH = 2  # type: ignore[attr-defined]
    assert parse(b"[[1]]") == [[1]]
    with pytest.raises(ParseError, match="nested more than 2 levels"):
        parse(b"[[[1]]]")


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
