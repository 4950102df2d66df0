"""Tiles and their notation.

A tile is one of 27 kinds: ranks 1-9 of three suits, 万 ``m``, 筒 ``p`` and 条 ``s``.
Internally a tile is a small integer (``suit * 9 + rank - 1``) so that hands can be
count vectors; :class:`Tile` is an ``int`` subclass that prints in the usual notation.

>>> parse_tiles("123m55p")
[Tile.parse('1m'), Tile.parse('2m'), Tile.parse('3m'), Tile.parse('5p'), Tile.parse('5p')]
>>> format_tiles(parse_tiles("1万 2筒 3条 3条"))
'1m2p33s'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import IntEnum

from xuezhan.errors import InvalidTileError

SUIT_LETTERS = "mps"
SUIT_NAMES_ZH = "万筒条"
_SUIT_ALIASES = {
    "m": 0, "万": 0, "萬": 0,
    "p": 1, "筒": 1, "饼": 1, "餅": 1,
    "s": 2, "条": 2, "條": 2, "索": 2,
}
NUM_KINDS = 27
COPIES = 4


class Suit(IntEnum):
    """The three suits, numbered as in the tile index."""

    M = 0
    """万 characters."""
    P = 1
    """筒 dots."""
    S = 2
    """条 bamboo."""

    @classmethod
    def parse(cls, text: object) -> Suit:
        """Read ``m``/``p``/``s`` (or 万/筒/条).

        :raises InvalidTileError: for anything else.
        """
        if isinstance(text, str) and text.strip() in _SUIT_ALIASES:
            return cls(_SUIT_ALIASES[text.strip()])
        raise InvalidTileError(text, "bad suit")


class Tile(int):
    """One tile kind; ``str(tile)`` is ``"5m"`` and ``repr`` evaluates back."""

    __slots__ = ()

    @property
    def suit(self) -> Suit:
        return Suit(self // 9)

    @property
    def rank(self) -> int:
        return self % 9 + 1

    def __str__(self) -> str:
        return _NAMES[self]

    def __repr__(self) -> str:
        return f"Tile.parse('{_NAMES[self]}')"

    @property
    def zh(self) -> str:
        """The Chinese name, e.g. ``5万``."""
        return f"{self.rank}{SUIT_NAMES_ZH[self // 9]}"

    @staticmethod
    def parse(text: object) -> Tile:
        """Read one tile: ``"5m"``, ``"5万"``.

        :raises InvalidTileError: naming the bad token.
        """
        if isinstance(text, str):
            found = _BY_NAME.get(text)
            if found is not None:
                return found
            stripped = text.strip()
            if len(stripped) == 2 and stripped[0] in "123456789" and stripped[1] in _SUIT_ALIASES:
                return TILES[_SUIT_ALIASES[stripped[1]] * 9 + int(stripped[0]) - 1]
        raise InvalidTileError(text)



TILES: tuple[Tile, ...] = tuple(Tile(i) for i in range(NUM_KINDS))
_NAMES = tuple(f"{i % 9 + 1}{SUIT_LETTERS[i // 9]}" for i in range(NUM_KINDS))
_BY_NAME = {name: TILES[i] for i, name in enumerate(_NAMES)}
#: all 108 tiles of a set, in index order
FULL_SET: tuple[Tile, ...] = tuple(t for t in TILES for _ in range(COPIES))

_GROUP = re.compile(r"([1-9]+)\s*([mps万萬筒饼餅条條索])")
_JUNK = re.compile(r"[\s,]+")


def parse_tiles(text: str | Iterable[object]) -> list[Tile]:
    """Read a hand: compact ``"123m456p11s"``, spaced ``"1万 2筒 3条"``, or a list of tiles.

    :raises InvalidTileError: naming the first token that is not a tile.
    """
    if not isinstance(text, str):
        return [t if type(t) is Tile else Tile.parse(t) for t in text]
    tiles: list[Tile] = []
    pos = 0
    while pos < len(text):
        skip = _JUNK.match(text, pos)
        if skip:
            pos = skip.end()
            continue
        group = _GROUP.match(text, pos)
        if group is None:
            bad = _JUNK.split(text[pos:], maxsplit=1)[0]
            raise InvalidTileError(bad)
        suit = _SUIT_ALIASES[group.group(2)]
        tiles.extend(TILES[suit * 9 + int(d) - 1] for d in group.group(1))
        pos = group.end()
    return tiles


def format_tiles(tiles: Iterable[int]) -> str:
    """Write tiles compactly, sorted, digits before their suit letter."""
    ordered = sorted(tiles)
    parts: list[str] = []
    for suit in range(3):
        ranks = "".join(str(t % 9 + 1) for t in ordered if t // 9 == suit)
        if ranks:
            parts.append(ranks + SUIT_LETTERS[suit])
    return "".join(parts)


def counts_of(tiles: Iterable[int]) -> list[int]:
    """The 27-slot count vector of some tiles."""
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[t] += 1
    return counts

