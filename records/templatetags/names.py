"""Names on pages (issue 27, finding 8): ``{{ club.name|name }}`` in text, isolated in a
``<bdi>`` so that a right-to-left name cannot reorder the words around it, and
``{{ club.name|name_text }}`` where no element may go (``<title>``, ``<option>``,
attributes), isolated by U+2068 … U+2069. Both write out invisible and direction-changing
characters stored before names were checked (``\\u202e``) instead of obeying them."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from records.names import visible

register = template.Library()

FIRST_STRONG_ISOLATE, POP_DIRECTIONAL_ISOLATE = "\u2068", "\u2069"


@register.filter(name="name")
def name(value: object) -> SafeString | str:
    if value is None or value == "":
        return ""
    return format_html("<bdi>{}</bdi>", visible(str(value)))


@register.filter
def name_text(value: object) -> str:
    if value is None or value == "":
        return ""
    return f"{FIRST_STRONG_ISOLATE}{visible(str(value))}{POP_DIRECTIONAL_ISOLATE}"
