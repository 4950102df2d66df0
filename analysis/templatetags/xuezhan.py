"""Template filters: the engine's identifiers by name, and people counted from 1."""

from __future__ import annotations

from django import template

from analysis import labels

register = template.Library()


@register.filter
def label(identifier: str | None, kind: str) -> str:
    """``{{ code|label:"violation" }}``: the name of an identifier in the page language."""
    return labels.label(kind, identifier)


@register.filter
def ordinal(index: int | None) -> str:
    """A 0-based index as people count it (round 1, event 1); "—" for none."""
    return "—" if index is None else str(index + 1)


@register.filter
def ruleset(value: object, name: str = "") -> str:
    """``{{ match.ruleset|ruleset:match.ruleset_name }}``: the ruleset in words."""
    return labels.ruleset_text(value, name)
