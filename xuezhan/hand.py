"""Hand shapes: melds, the win test, waits and shanten, all table-driven.

Sets never cross suits, so a hand is complete exactly when each suit is: either a
few sets, or a few sets and the one pair. Every complete suit shape (at most four
sets and a pair, at most four copies of a rank) is enumerated once per process, on
first use (a few hundred milliseconds), into look-up tables; the win test is then
three dictionary look-ups and the waits a handful more.

>>> from xuezhan.tiles import counts_of, parse_tiles
>>> is_winning(counts_of(parse_tiles("123m456m789m234p55p")))
True
>>> [str(t) for t in waits(counts_of(parse_tiles("1112345678999m")))]
['1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m']
>>> shanten(counts_of(parse_tiles("11m22m33p44p55s66s7s")))
0
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations_with_replacement

from xuezhan.tiles import TILES, Tile


class MeldKind(StrEnum):
    """How a meld was made; the values are the log's spelling."""

    PENG = "peng"
    """碰: a pung claimed from a discard."""
    MING = "ming"
    """直杠 (明杠): a kong on a discard, holding three."""
    JIA = "jia"
    """补杠 (续杠): the fourth tile added to one's own peng."""
    AN = "an"
    """暗杠: a concealed kong of four drawn tiles."""


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared pung or kong: always a set of one tile kind, never a chow (no 吃)."""

    kind: MeldKind
    tile: Tile
    source: int | None = None
    """The seat the claimed tile came from (peng, ming), else None."""

    @property
    def is_kong(self) -> bool:
        return self.kind is not MeldKind.PENG

    @property
    def size(self) -> int:
        """Tiles in the meld: 3 or 4."""
        return 3 if self.kind is MeldKind.PENG else 4

    def __str__(self) -> str:
        return f"{self.kind.value} {self.tile}"


SUIT_WEIGHTS: tuple[int, ...] = tuple(5**i for i in range(9))
"""5**rank_index: the weights that turn a suit's 9 counts (0..4) into one integer key."""


def suit_key(counts: Sequence[int], suit: int) -> int:
    """The base-5 key of one suit's counts (``counts`` holds all 27 kinds).

    >>> suit_key([2, 1] + [0] * 25, 0)
    7
    """
    c = counts[suit * 9:suit * 9 + 9]
    return (c[0] + 5 * c[1] + 25 * c[2] + 125 * c[3] + 625 * c[4] + 3125 * c[5]
            + 15625 * c[6] + 78125 * c[7] + 390625 * c[8])


# -- the tables -------------------------------------------------------------------

#: A reading's features, as a 2-bit number f: bit 1 — every set is a pung (对对胡);
#: bit 0 — every set and the pair hold a 1 or a 9 (幺九). A suit's value in the shape
#: table is a 4-bit mask with bit f set when some reading of the suit has features f.
PUNGS_ONLY = 2
TERMINALS = 1
_ALL_FEATURES = 3

_M72 = (1 << 72) - 1
#: bit 0 of every byte of a 27-byte little-endian packed hand: its odd counts
_ODD27 = int.from_bytes(bytes([1] * 27), "little")


class _Tables:
    """Every complete suit shape, enumerated once.

    Two keyings: the public base-5 key (:func:`suit_key`) for the scoring features,
    and, for the two hot paths, the suit's 9 counts packed as bytes into an int
    (``int.from_bytes(bytearray(counts))``): CPython converts 27 counts that way in
    C in ~0.1 µs, while base-5 arithmetic on them costs ~1 µs, which would be most
    of the win test. The packed tables also hold shapes with a fifth copy of a rank
    (no real hand has one) so that a wait on a tile the player holds all four of is
    still found: it is a shape wait (RULES.md §3).
    """

    __slots__ = ("complete", "features", "wait_pair", "wait_sets")

    def __init__(self) -> None:
        #: packed suit key -> 0 (complete as sets) or 1 (complete as sets + the pair)
        self.complete: dict[int, int] = {}
        #: base-5 suit key -> features mask (see PUNGS_ONLY, TERMINALS)
        self.features: dict[int, int] = {}
        #: packed suit key -> mask of ranks whose addition makes the suit sets only
        self.wait_sets: dict[int, int] = {}
        #: packed suit key -> mask of ranks whose addition makes the suit sets + pair
        self.wait_pair: dict[int, int] = {}
        sets = [(r, r, r) for r in range(9)] + [(r, r + 1, r + 2) for r in range(7)]
        for n in range(5):
            for combo in combinations_with_replacement(range(16), n):
                counts = [0] * 9
                flags = _ALL_FEATURES
                for i in combo:
                    a, b, c = sets[i]
                    counts[a] += 1
                    counts[b] += 1
                    counts[c] += 1
                    if a != b:
                        flags &= ~PUNGS_ONLY
                    if a != 0 and c != 8:
                        flags &= ~TERMINALS
                if max(counts, default=0) > 5:
                    continue
                self._add(counts, flags, 0)
                for r in range(9):
                    if counts[r] <= 3:
                        counts[r] += 2
                        self._add(counts, flags if r in (0, 8) else flags & ~TERMINALS, 1)
                        counts[r] -= 2

    def _add(self, counts: list[int], flags: int, pair: int) -> None:
        packed = int.from_bytes(bytes(counts), "little")
        if max(counts) <= 4:
            self.complete[packed] = pair
            key = sum(n * w for n, w in zip(counts, SUIT_WEIGHTS, strict=True))
            self.features[key] = self.features.get(key, 0) | 1 << flags
        elif packed not in self.complete:
            self.complete[packed] = pair  # a fifth copy: only a shape wait reaches it
        waits = self.wait_pair if pair else self.wait_sets
        fives = counts.count(5)
        for r in range(9):
            if counts[r] and (not fives or (fives == 1 and counts[r] == 5)):
                short = packed - (1 << 8 * r)
                waits[short] = waits.get(short, 0) | 1 << r


_TABLES: _Tables | None = None


def _tables() -> _Tables:
    global _TABLES
    if _TABLES is None:
        _TABLES = _Tables()
    return _TABLES


def _and_masks(a: int, b: int) -> int:
    """Feature masks of two suits combined: bit (f & g) for each f of one and g of the other."""
    out = 0
    for f in range(4):
        if a >> f & 1:
            for g in range(4):
                if b >> g & 1:
                    out |= 1 << (f & g)
    return out


_AND: tuple[int, ...] = tuple(_and_masks(a, b) for a in range(16) for b in range(16))

#: for (suit, rank mask): the tiles of that suit whose ranks are in the mask
_TILES_OF_MASK: tuple[tuple[Tile, ...], ...] = tuple(
    tuple(TILES[s * 9 + r] for r in range(9) if mask >> r & 1)
    for s in range(3) for mask in range(512)
)


# -- the win test, waits, readiness ----------------------------------------------


def is_winning(counts: Sequence[int], void: int | None = None) -> bool:
    """Whether the concealed counts (27 kinds, including the winning tile) make a
    winning shape: sets and one pair (melds are sets already, so the caller passes
    only the concealed part, 14 − 3·melds tiles), or seven pairs when there are no
    melds (14 tiles; a four-of-a-kind counts as two pairs). A hand holding a tile of
    the ``void`` suit is never winning; the caller checks the melds for it.

    >>> from xuezhan.tiles import counts_of, parse_tiles
    >>> is_winning(counts_of(parse_tiles("11223344556677m")))
    True
    >>> is_winning(counts_of(parse_tiles("11223344556677m")), void=0)
    False
    """
    t = _TABLES or _tables()
    k = int.from_bytes(bytearray(counts), "little")
    if void is not None and k >> 72 * void & _M72:
        return False
    complete = t.complete
    try:
        if complete[k & _M72] + complete[k >> 72 & _M72] + complete[k >> 144] == 1:
            return True
    except KeyError:
        pass
    return not k & _ODD27 and sum(counts) == 14


def waits(counts: Sequence[int], void: int | None = None) -> list[Tile]:
    """Every tile kind that completes the concealed counts (13 − 3·melds tiles), in
    tile order, including a kind of which the player holds all four (a shape wait
    that can never arrive). Empty when the hand holds a tile of the ``void`` suit.

    >>> from xuezhan.tiles import counts_of, parse_tiles
    >>> [str(t) for t in waits(counts_of(parse_tiles("1111m234p567p789p")))]
    ['1m']
    """
    t = _TABLES or _tables()
    k = int.from_bytes(bytearray(counts), "little")
    keys = (k & _M72, k >> 72 & _M72, k >> 144)
    if void is not None and keys[void]:
        return []
    get = t.complete.get
    status = (get(keys[0]), get(keys[1]), get(keys[2]))
    out: list[Tile] = []
    for s in range(3):
        a = status[(s + 1) % 3]
        b = status[(s + 2) % 3]
        if a is None or b is None or a + b > 1:
            continue
        mask = (t.wait_sets if a + b else t.wait_pair).get(keys[s], 0)
        if mask:
            out.extend(_TILES_OF_MASK[s * 512 + mask])
    odd = k & _ODD27
    if odd and not odd & (odd - 1) and sum(counts) == 13:
        tile = TILES[(odd.bit_length() - 1) // 8]
        if tile not in out:
            out.append(tile)
            out.sort()
    # no void-suit tile can be a wait: the void suit is empty, and one tile never
    # completes an empty suit
    return out


def is_ready(counts: Sequence[int], void: int | None = None) -> bool:
    """下叫 / 听牌: some tile completes the concealed counts (13 − 3·melds tiles)."""
    return bool(waits(counts, void))


def readings(counts: Sequence[int]) -> int:
    """The features of every sets-and-pair reading of the concealed counts, as a mask
    (bit f set when some reading has features f: :data:`PUNGS_ONLY`, :data:`TERMINALS`);
    0 when there is no such reading. ``111222333m`` reads both as pungs and as chows.
    """
    t = _TABLES or _tables()
    feats = t.features
    pairs = 0
    mask = 1 << _ALL_FEATURES
    for s in range(3):
        part = counts[s * 9:s * 9 + 9]
        m = feats.get(suit_key(counts, s)) if max(part) <= 4 else _features_slow(list(part))
        if not m:
            return 0
        if sum(counts[s * 9:s * 9 + 9]) % 3 == 2:
            pairs += 1
        mask = _AND[mask * 16 + m]
    return mask if pairs == 1 else 0


def _features_slow(part: list[int], pair: bool = False) -> int:
    """The features mask of one suit by plain recursion, for counts the tables do not
    hold (a fifth copy, reached only by a shape wait)."""
    i = next((r for r in range(9) if part[r]), None)
    if i is None:
        return 1 << _ALL_FEATURES
    out = 0
    terminal = i in (0, 8)
    if part[i] >= 2 and not pair:
        part[i] -= 2
        out |= _strip(_features_slow(part, True), PUNGS_ONLY | (TERMINALS if terminal else 0))
        part[i] += 2
    if part[i] >= 3:
        part[i] -= 3
        out |= _strip(_features_slow(part, pair), PUNGS_ONLY | (TERMINALS if terminal else 0))
        part[i] += 3
    if i <= 6 and part[i + 1] and part[i + 2]:
        for d in range(3):
            part[i + d] -= 1
        out |= _strip(_features_slow(part, pair), TERMINALS if i in (0, 6) else 0)
        for d in range(3):
            part[i + d] += 1
    return out


def _strip(mask: int, keep: int) -> int:
    """A features mask with the features not in ``keep`` cleared from every reading."""
    return _and_masks(mask, 1 << keep)


def is_seven_pairs(counts: Sequence[int]) -> bool:
    """七对: 14 concealed tiles, all in pairs (a four-of-a-kind is two pairs)."""
    return sum(counts) == 14 and all(n % 2 == 0 for n in counts)


def holds_suits(counts: Sequence[int], melds: Sequence[Meld] = ()) -> int:
    """How many suits the hand and melds hold (3: a flower pig, 花猪)."""
    present = {m.tile // 9 for m in melds}
    for s in range(3):
        if any(counts[s * 9:s * 9 + 9]):
            present.add(s)
    return len(present)


# -- shanten ----------------------------------------------------------------------

#: base-5 suit key -> the Pareto-best (sets, partial sets, pair) readings of the suit
_SUIT_OPTIONS: dict[int, tuple[tuple[int, int, int], ...]] = {0: ((0, 0, 0),)}


def _suit_options(key: int) -> tuple[tuple[int, int, int], ...]:
    found = _SUIT_OPTIONS.get(key)
    if found is not None:
        return found
    digits = [key // w % 5 for w in SUIT_WEIGHTS]
    i = next(r for r in range(9) if digits[r])
    w = SUIT_WEIGHTS[i]
    cands: set[tuple[int, int, int]] = set()

    def take(sub: int, ds: int, dp: int, dh: int) -> None:
        for s, p, h in _suit_options(sub):
            if h + dh <= 1:
                cands.add((s + ds, p + dp, h + dh))

    take(key - w, 0, 0, 0)  # the lowest tile stays single
    if digits[i] >= 2:
        take(key - 2 * w, 0, 1, 0)
        take(key - 2 * w, 0, 0, 1)
    if digits[i] >= 3:
        take(key - 3 * w, 1, 0, 0)
    if i <= 7 and digits[i + 1]:
        take(key - w - 5 * w, 0, 1, 0)
        if i <= 6 and digits[i + 2]:
            take(key - w - 5 * w - 25 * w, 1, 0, 0)
    if i <= 6 and digits[i + 2]:
        take(key - w - 25 * w, 0, 1, 0)
    best = tuple(sorted(
        c for c in cands
        if not any(o != c and o[0] >= c[0] and o[1] >= c[1] and o[2] >= c[2] for o in cands)
    ))
    _SUIT_OPTIONS[key] = best
    return best


def shanten(counts: Sequence[int], melds: int = 0) -> int:
    """向听: how many tiles short of a winning shape the concealed counts are
    (−1 complete, 0 ready), the better of sets-and-pair and, with no melds, seven
    pairs. Shape only: copies the player holds themselves are not excluded.

    >>> from xuezhan.tiles import counts_of, parse_tiles
    >>> shanten(counts_of(parse_tiles("123m456m789m234p55p")))
    -1
    """
    groups = 4 - melds
    o0 = _suit_options(suit_key(counts, 0))
    o1 = _suit_options(suit_key(counts, 1))
    o2 = _suit_options(suit_key(counts, 2))
    best = 0
    for s0, p0, h0 in o0:
        for s1, p1, h1 in o1:
            if h0 + h1 > 1:
                continue
            for s2, p2, h2 in o2:
                h = h0 + h1 + h2
                if h > 1:
                    continue
                s = min(s0 + s1 + s2, groups)
                p = min(p0 + p1 + p2, groups - s)
                value = 2 * s + p + h
                if value > best:
                    best = value
    result = 2 * groups - best
    if melds == 0:
        pairs = sum(n // 2 for n in counts)
        result = min(result, 6 - min(pairs, 7))
    return result
