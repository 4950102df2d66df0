"""The events of a round as small value objects, and their JSON form (docs/format.md).

Actions compare and hash by value; treat them as immutable. They are not frozen
dataclasses (python-chess's ``Move`` is not either): a replay makes one per event, and a
frozen dataclass costs three times as much to construct.

>>> action_from_json({"type": "discard", "actor": 0, "tile": "9s"})
Discard(actor=0, tile=Tile.parse('9s'))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from xuezhan.errors import LogFormatError
from xuezhan.hand import KongKind
from xuezhan.tiles import SUIT_LETTERS, TILES, Tile, parse_tiles

_TILE_NAMED = {str(t): t for t in TILES}


@dataclass(slots=True, unsafe_hash=True)
class Exchange:
    """换三张: the die and the three tiles each seat gives (and, optionally, receives)."""

    type: ClassVar[str] = "exchange"
    die: int
    give: tuple[tuple[Tile, ...], ...]
    receive: tuple[tuple[Tile, ...], ...] | None = None
    actor: ClassVar[None] = None


@dataclass(slots=True, unsafe_hash=True)
class DingQue:
    """定缺: the void suit of each seat (0 m, 1 p, 2 s)."""

    type: ClassVar[str] = "dingque"
    suits: tuple[int, ...]
    actor: ClassVar[None] = None


@dataclass(slots=True, unsafe_hash=True)
class Draw:
    type: ClassVar[str] = "draw"
    actor: int
    tile: Tile


@dataclass(slots=True, unsafe_hash=True)
class Discard:
    type: ClassVar[str] = "discard"
    actor: int
    tile: Tile


@dataclass(slots=True, unsafe_hash=True)
class Peng:
    """碰: ``actor`` claims ``tile`` discarded by ``target``."""

    type: ClassVar[str] = "peng"
    actor: int
    target: int
    tile: Tile


@dataclass(slots=True, unsafe_hash=True)
class Gang:
    """杠: a direct kong on ``target``'s discard, an added kong on one's peng, or a
    concealed kong. ``kind`` is a :class:`~xuezhan.hand.KongKind`; either spelling is
    accepted (``Gang(0, "ming", t, 1).kind is KongKind.DIRECT``)."""

    type: ClassVar[str] = "gang"
    actor: int
    kind: KongKind
    tile: Tile
    target: int | None = None

    def __post_init__(self) -> None:
        self.kind = KongKind.parse(self.kind)


@dataclass(slots=True, unsafe_hash=True)
class Hu:
    """胡: ``target`` is the discarder (or the robbed konger); None when self-drawn."""

    type: ClassVar[str] = "hu"
    actor: int
    tile: Tile
    target: int | None = None


@dataclass(slots=True, unsafe_hash=True)
class Pass:
    """Letting a discard (or a robbable kong) go: a decision, not an event of the log.

    :meth:`~xuezhan.table.Table.legal_actions` offers it where it matters — to a seat
    that could claim or win and is not bound to win; playing it changes nothing, the
    pass is registered when the next event closes the window.
    """

    type: ClassVar[str] = "pass"
    actor: int


Action = Exchange | DingQue | Draw | Discard | Peng | Gang | Hu


def action_from_json(obj: dict[str, Any]) -> Action:
    """Read one event of a schema-valid document.

    :raises LogFormatError: when a field does not have the expected shape.
    """
    try:
        kind = obj["type"]
        if kind == "draw":
            return Draw(obj["actor"], _TILE_NAMED.get(obj["tile"]) or Tile.parse(obj["tile"]))
        if kind == "discard":
            return Discard(obj["actor"], _TILE_NAMED.get(obj["tile"]) or Tile.parse(obj["tile"]))
        if kind == "peng":
            return Peng(obj["actor"], obj["target"], Tile.parse(obj["tile"]))
        if kind == "gang":
            return Gang(obj["actor"], obj["kind"], Tile.parse(obj["tile"]), obj.get("target"))
        if kind == "hu":
            return Hu(obj["actor"], Tile.parse(obj["tile"]), obj.get("target"))
        if kind == "exchange":
            receive = obj.get("receive")
            return Exchange(
                obj["die"],
                tuple(tuple(parse_tiles(g)) for g in obj["give"]),
                None if receive is None else tuple(tuple(parse_tiles(g)) for g in receive),
            )
        if kind == "dingque":
            return DingQue(tuple(SUIT_LETTERS.index(s) for s in obj["suits"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise LogFormatError(f"malformed {obj.get('type', 'event')!s} event: {exc}") from None
    raise LogFormatError(f"unknown event type {kind!r}")


def action_to_json(action: Action) -> dict[str, Any]:
    """The round-log form of an action (docs/format.md)."""
    if isinstance(action, Exchange):
        out: dict[str, Any] = {"type": "exchange", "die": action.die,
                               "give": [[str(t) for t in g] for g in action.give]}
        if action.receive is not None:
            out["receive"] = [[str(t) for t in g] for g in action.receive]
        return out
    if isinstance(action, DingQue):
        return {"type": "dingque", "suits": [SUIT_LETTERS[s] for s in action.suits]}
    out = {"type": action.type, "actor": action.actor}
    if isinstance(action, Gang):
        out["kind"] = action.kind.log
    if isinstance(action, Peng | Gang | Hu) and action.target is not None:
        out["target"] = action.target
    out["tile"] = str(action.tile)
    return out

