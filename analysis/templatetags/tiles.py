"""``{% tile "5p" %}``: a tile as the viewer draws it, for any page.

The tile is a text tile ("5" over "筒") holding an SVG face from the project's sprite
(static/xuezhan/tiles.svg); the face shows once static/xuezhan/tiles.js has put the
sprite into the page, so a page using the tag loads ``xuezhan/tiles.css`` and
``xuezhan/tiles.js`` (with ``data-sprite``), as docs/board.md shows. Without them, or
without SVG, the text tile is what is seen. Its name for screen readers is
:func:`tile_name` ("五筒" / "5 Dots").
"""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import pgettext

from analysis import labels

register = template.Library()

SUITS = "mps"
SUIT_CHARS = {"m": "万", "p": "筒", "s": "条"}


def _rank(number: str) -> str:
    # one entry per rank so that Chinese reads 五筒, not 5筒
    ranks = {
        "1": pgettext("tile rank", "1"), "2": pgettext("tile rank", "2"),
        "3": pgettext("tile rank", "3"), "4": pgettext("tile rank", "4"),
        "5": pgettext("tile rank", "5"), "6": pgettext("tile rank", "6"),
        "7": pgettext("tile rank", "7"), "8": pgettext("tile rank", "8"),
        "9": pgettext("tile rank", "9"),
    }
    return ranks[number]


def is_tile(tile: object) -> bool:
    return isinstance(tile, str) and len(tile) == 2 and tile[0] in "123456789" and tile[1] in SUITS


def tile_name(tile: str) -> str:
    """A tile's name in the page language, for screen readers: 五筒, "5 Dots"."""
    if not is_tile(tile):
        return "?"
    return pgettext("tile, for screen readers", "{rank} {suit}").format(
        rank=_rank(tile[0]), suit=labels.label("suit", tile[1]))


def tile_names() -> dict[str, str]:
    """The 27 tiles' names in the page language (for the scripts)."""
    return {f"{n}{s}": tile_name(f"{n}{s}") for s in SUITS for n in range(1, 10)}


@register.simple_tag
def tile(tile: str, extra: str = "") -> SafeString:
    """``{% tile "5p" %}`` or ``{% tile t "small" %}``: one tile, its face and its text."""
    if not is_tile(tile):
        return format_html('<span class="tile suit-x {}" role="img" aria-label="?"><b>?</b><i></i>'
                           "</span>", extra)
    return format_html(
        '<span class="tile suit-{suit}{extra}" role="img" aria-label="{name}">'
        '<svg class="face" aria-hidden="true" focusable="false"><use href="#tile-{tile}"></use>'
        "</svg><b>{rank}</b><i>{char}</i></span>",
        suit=tile[1], extra=f" {extra}" if extra else "", name=tile_name(tile), tile=tile,
        rank=tile[0], char=SUIT_CHARS[tile[1]])
