"""URL converters. ``<id:…>``: a database id, at most 18 digits (below 2**63), so that a
longer number is no URL of ours (404) instead of an integer the database cannot hold (500)."""

from __future__ import annotations

from django.urls import register_converter


class IdConverter:
    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")
