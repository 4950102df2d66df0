"""What a message reads in Chinese, for tests that ask the API in zh-Hans."""

from __future__ import annotations

from typing import Any

from django.utils import translation


def in_chinese(english: str, values: dict[str, Any] | None = None, *, plural: str = "",
               count: int = 1) -> str:
    with translation.override("zh-hans"):
        chinese = (translation.ngettext(english, plural, count) if plural
                   else translation.gettext(english))
    assert chinese != english, english  # left in English, the test would prove nothing
    return chinese % values if values is not None else chinese
