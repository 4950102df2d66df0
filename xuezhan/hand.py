"""Hand shapes: melds, the win test and waits, all table-driven (向听 is in
:mod:`xuezhan.shanten`, built on the same suit keys).

Sets never cross suits, so a hand is complete exactly when each suit is: either a
few sets, or a few sets and the one pair. Every complete suit shape (at most four
sets and a pair, at most four copies of a rank) is enumerated once per process, on
first use (well under a second), into look-up tables. Each suit has one small
state number (complete as sets, as sets and the pair, or as pairs only): the win test
is three look-ups of it, a sum and a tuple index, and the waits a handful more. From
27 counts the state is read by walking nine nested tuples a suit (``_WALK``), one
index a count; on the suit keys a table keeps (:class:`SuitKeys`) it is a dict look-up,
and only for the suits changed since the last test.

>>> from xuezhan.tiles import counts_of, parse_tiles
>>> is_winning(counts_of(parse_tiles("123m456m789m234p55p")))
True
>>> [str(t) for t in waits(counts_of(parse_tiles("1112345678999m")))]
['1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m']
"""

from __future__ import annotations

import struct
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations_with_replacement, product
from typing import Any

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


class KongKind(StrEnum):
    """The three kongs: the engine's one vocabulary for them.

    The value is the spelling of the settlement, the ruleset (``kong_payments``,
    ``kong_fan``) and the report's reason codes (``kong_direct``...); :attr:`log` is the
    log's ``gang`` kind (docs/format.md) and :attr:`meld` the meld it makes. This is the
    single mapping between the spellings:

    =========  =========  ==========
    value      log        meld
    =========  =========  ==========
    direct     ming       MING 直杠
    added      jia        JIA 补杠
    concealed  an         AN 暗杠
    =========  =========  ==========

    >>> KongKind.parse("ming") is KongKind.DIRECT, KongKind.ADDED.log, str(KongKind.CONCEALED)
    (True, 'jia', 'concealed')
    """

    DIRECT = "direct"
    """直杠 (明杠, 刮风): a kong on another's discard, holding three."""
    ADDED = "added"
    """补杠 (续杠, 刮风): the fourth tile added to one's own peng."""
    CONCEALED = "concealed"
    """暗杠 (下雨): four drawn tiles declared together."""

    @property
    def log(self) -> str:
        """The log's spelling (``ming``, ``jia``, ``an``)."""
        return _KONG_LOG[self]

    @classmethod
    def parse(cls, text: str) -> KongKind:
        """Either spelling; :raises ValueError: for anything else."""
        found = _KONG_BY_NAME.get(text)
        if found is None:
            raise ValueError(f"unknown kong kind {text!r} (ming, jia, an)")
        return found


_KONG_LOG = {KongKind.DIRECT: "ming", KongKind.ADDED: "jia", KongKind.CONCEALED: "an"}
_KONG_BY_NAME: dict[str, KongKind] = {**{v: k for k, v in _KONG_LOG.items()},
                                      **{k.value: k for k in KongKind}}


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


# -- the tables -------------------------------------------------------------------

#: A reading's features, as a 2-bit number f: bit 1 — every set is a pung (对对胡);
#: bit 0 — every set and the pair hold a 1 or a 9 (幺九). A suit's value in the shape
#: table is a 4-bit mask with bit f set when some reading of the suit has features f.
PUNGS_ONLY = 2
TERMINALS = 1
_ALL_FEATURES = 3

#: one C call splits 27 counts (as bytes) into the three suits' 9-byte keys
_split = struct.Struct("9s9s9s").unpack
_EMPTY = bytes(9)

_BUILD_LOCK = threading.Lock()
#: 9-byte suit key -> 0 (complete as sets) or 1 (complete as sets and the pair)
_COMPLETE: dict[bytes, int] = {}

#: The win test's suit state: one small integer a suit whose three sum to a number that
#: says whether the hand wins. Low 4 bits: 0 complete as sets, 1 as sets and the pair,
#: 3 neither (the three sum to 1 exactly when one suit holds the pair and the others
#: are sets). High bits: the suit's pairs when it is nothing but pairs (a four is two),
#: else 8 (the three sum to 7 exactly for seven pairs).
_SETS_BITS = 4
_NOT_SETS = 3
_NOT_PAIRS = 8
#: the state of a suit key missing from _STATE: it can take part in no win
_NO_WIN = _NOT_SETS | _NOT_PAIRS << _SETS_BITS
#: 9-byte suit key -> its state, for every suit that can take part in a win
_STATE: dict[bytes, int] = {}
#: sum of three suit states -> whether the hand wins
_WINS: tuple[bool, ...] = tuple(
    t & (1 << _SETS_BITS) - 1 == 1 or t >> _SETS_BITS == 7 for t in range(3 * _NO_WIN + 1))
_state_of = _STATE.get
#: the counts a suit walk reads (0 to 5: a fifth copy is kept for the waits, see _build)
_WALK_WIDTH = 6
#: _STATE as a walk: _WALK[n0][n1]...[n8] is the state of the suit counts n0..n8 (a
#: count of 6 or more is an IndexError); empty until the tables are built
_WALK: tuple[Any, ...] = ()
#: 9-byte suit key -> mask of the ranks whose addition makes the suit complete as sets
#: (filled in as keys are met: see _wait_mask)
_WAIT_SETS: dict[bytes, int] = {}
#: 9-byte suit key -> mask of the ranks whose addition makes it sets and the pair
_WAIT_PAIR: dict[bytes, int] = {}
#: 9-byte suit key of counts 0, 2 and 4 only -> its number of pairs (seven pairs)
_PAIRS: dict[bytes, int] = {}
#: 9-byte suit key -> features mask of its complete readings (PUNGS_ONLY, TERMINALS)
_FEATURES: dict[bytes, int] = {}


def _build() -> None:
    """Enumerate every complete suit shape (at most four sets and a pair) once.

    The tables are keyed by the suit's 9 counts as bytes, not by a base-5 number of
    them: CPython turns 27 counts into bytes and splits them into the
    three suits in two C calls (~0.3 µs), while base-5 arithmetic on them costs
    ~1 µs, which would be most of the win test. Shapes with a fifth
    copy of a rank (no real hand has one) are kept for the waits, so that a wait on a
    tile the player holds all four of is still found: a shape wait (docs/rules.md §3).
    """
    with _BUILD_LOCK:
        if _COMPLETE:
            return
        complete: dict[bytes, int] = {}
        features: dict[bytes, int] = {}
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
                _add_shape(complete, features, counts, flags, 0)
                for r in range(9):
                    if counts[r] <= 3:
                        counts[r] += 2
                        pair_flags = flags if r in (0, 8) else flags & ~TERMINALS
                        _add_shape(complete, features, counts, pair_flags, 1)
                        counts[r] -= 2
        double = bytes([0, 2, 4]) + bytes(253)
        for halves in product(b"\x00\x01\x02", repeat=9):
            key = bytes(halves)
            _PAIRS[key.translate(double)] = sum(key)
        _FEATURES.update(features)
        _STATE.update(_states(complete))
        global _WALK
        _WALK = _walk_of(_STATE)
        # last: a filled _COMPLETE is what says the tables are ready (one C call under
        # the GIL, so another thread never sees it half filled)
        _COMPLETE.update(complete)


def _states(complete: dict[bytes, int]) -> dict[bytes, int]:
    """The win test's state of every suit key that is complete or seven pairs' part
    (at most seven pairs: more cannot be in a 14-tile hand).

    Smallest suits first: a dict's entries lie in insertion order, and the suits of real
    hands are mostly small (a 14-tile hand rarely holds more than 9 tiles of a suit), so
    the few thousand entries they meet share a little of the cache instead of being
    strewn among the 20,000 or so 14-tile shapes (the win test from counts measured 7 to
    20 % faster so on a loaded machine).
    """
    pairs = {k: n for k, n in _PAIRS.items() if n <= 7}
    keys = [*complete, *(k for k in pairs if k not in complete)]
    keys.sort(key=sum)
    return {k: complete.get(k, _NOT_SETS) | pairs.get(k, _NOT_PAIRS) << _SETS_BITS
            for k in keys}


def _walk_of(states: dict[bytes, int]) -> tuple[Any, ...]:
    """The suit states as nine levels of nested tuples, one level a rank: a tuple of
    ``_WALK_WIDTH`` items, one a count of the rank, each the tuple for the next rank
    (the last rank's items are the states).

    Built from the last rank up, with equal tuples shared: a tuple stands for what the
    rest of the suit can still become, and few such futures exist, so the 34,000 keys
    of _STATE fold into under a thousand small tuples that stay in the processor's
    cache, where three dictionary look-ups a hand each reach for memory of their own.
    A prefix no key has leads to the level's ``missing`` tuple, whose every count
    leads to the next one's and in the end to _NO_WIN.
    """
    missing: Any = _NO_WIN
    level: dict[bytes, Any] = dict(states)
    for rank in range(8, -1, -1):
        children: dict[bytes, list[Any]] = {}
        for key, node in level.items():
            prefix = key[:rank]
            row = children.get(prefix)
            if row is None:
                row = children[prefix] = [missing] * _WALK_WIDTH
            row[key[rank]] = node
        # The items are shared already, so two rows are equal when their items are the
        # same objects: comparing ids spares hashing nested tuples all the way down
        # (a tuple's hash is not cached).
        shared: dict[tuple[int, ...], tuple[Any, ...]] = {}
        level = {}
        for prefix, row in children.items():
            same = tuple(row) if rank == 8 else tuple(map(id, row))
            level[prefix] = shared.setdefault(same, tuple(row))
        missing = (missing,) * _WALK_WIDTH
    root: tuple[Any, ...] = level[b""]
    return root


def _add_shape(complete: dict[bytes, int], features: dict[bytes, int], counts: list[int],
               flags: int, pair: int) -> None:
    key = bytes(counts)
    top = max(key)
    if top <= 4:
        complete[key] = pair
        features[key] = features.get(key, 0) | 1 << flags
    elif top == 5 and key.count(5) == 1:
        complete.setdefault(key, pair)  # a fifth copy: only a shape wait reaches it


def _wait_mask(key: bytes, pair: int) -> int:
    """The ranks whose addition makes the suit complete (with the pair if ``pair``);
    filled in on first sight of a suit key, then a look-up."""
    table = _WAIT_PAIR if pair else _WAIT_SETS
    mask = table.get(key)
    if mask is None:
        mask = 0
        grown = bytearray(key)
        for r in range(9):
            if grown[r] <= 4:
                grown[r] += 1
                if _COMPLETE.get(bytes(grown)) == pair:
                    mask |= 1 << r
                grown[r] -= 1
        table[key] = mask
    return mask


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
    the ``void`` suit is never winning; the caller checks the melds for it. Counts are
    numbers of tiles, never negative (not checked: −1 would read as 5).

    >>> from xuezhan.tiles import counts_of, parse_tiles
    >>> is_winning(counts_of(parse_tiles("11223344556677m")))
    True
    >>> is_winning(counts_of(parse_tiles("11223344556677m")), void=0)
    False
    """
    if void is None:
        # Each suit's state by its walk (see _walk_of): 27 tuple indexes in a row cost
        # less than turning 27 ints into bytes, and touch only a few small, shared
        # tuples. Anything the walk cannot take — a count over 5, a length other than
        # 27, the tables not yet built — goes the way of the suit keys below.
        try:
            (c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15, c16, c17,
             c18, c19, c20, c21, c22, c23, c24, c25, c26) = counts
            state: int = (_WALK[c0][c1][c2][c3][c4][c5][c6][c7][c8]
                          + _WALK[c9][c10][c11][c12][c13][c14][c15][c16][c17]
                          + _WALK[c18][c19][c20][c21][c22][c23][c24][c25][c26])
            return _WINS[state]
        except (IndexError, TypeError, ValueError):
            pass
    return _winning_split(counts, void)


def _winning_split(counts: Sequence[int], void: int | None) -> bool:
    """:func:`is_winning` by the three suit keys: the void test, and whatever the walk
    cannot take (it raises what the conversion to bytes raises)."""
    a, b, c = _split(bytearray(counts))
    if void is not None and (a, b, c)[void] != _EMPTY:
        return False
    if not _STATE:
        _build()
    return _WINS[_state_of(a, _NO_WIN) + _state_of(b, _NO_WIN) + _state_of(c, _NO_WIN)]


def winning_keys(a: bytes, b: bytes, c: bytes, void: int | None = None) -> bool:
    """:func:`is_winning` on the three suit keys (see :class:`SuitKeys`)."""
    if void is not None and (a, b, c)[void] != _EMPTY:
        return False
    if not _STATE:
        _build()
    return _WINS[_state_of(a, _NO_WIN) + _state_of(b, _NO_WIN) + _state_of(c, _NO_WIN)]


def waits(counts: Sequence[int], void: int | None = None) -> list[Tile]:
    """Every tile kind that completes the concealed counts (13 − 3·melds tiles), in
    tile order, including a kind of which the player holds all four (a shape wait
    that can never arrive). Empty when the hand holds a tile of the ``void`` suit.

    >>> from xuezhan.tiles import counts_of, parse_tiles
    >>> [str(t) for t in waits(counts_of(parse_tiles("1111m234p567p789p")))]
    ['1m']
    """
    k0, k1, k2 = _split(bytearray(counts))
    return waits_keys(k0, k1, k2, void)


def waits_keys(k0: bytes, k1: bytes, k2: bytes, void: int | None = None) -> list[Tile]:
    """:func:`waits` on the three suit keys (see :class:`SuitKeys`)."""
    if not _COMPLETE:
        _build()
    if void is not None and (k0, k1, k2)[void] != _EMPTY:
        return []
    a = _INFO.get(k0) or _suit_info(k0)
    b = _INFO.get(k1) or _suit_info(k1)
    c = _INFO.get(k2) or _suit_info(k2)
    sa, sb, sc = a[0], b[0], c[0]
    out: list[Tile] = []
    # The tile goes to one suit; the other two must be complete already, with at most
    # one pair between them; with none, the tile's suit must take the pair.
    if sb is not None and sc is not None and sb + sc < 2:
        out += _TILES_OF_MASK[a[3][sb + sc]]
    if sa is not None and sc is not None and sa + sc < 2:
        out += _TILES_OF_MASK[512 + b[3][sa + sc]]
    if sa is not None and sb is not None and sa + sb < 2:
        out += _TILES_OF_MASK[1024 + c[3][sa + sb]]
    if a[1] + b[1] + c[1] == 13:
        # seven pairs: six pairs (a four is two) and one single (or three of a kind)
        odd = a[2] | b[2] << 9 | c[2] << 18
        if odd and not odd & (odd - 1):
            tile = TILES[odd.bit_length() - 1]
            if tile not in out:
                out.append(tile)
                out.sort()
    # no void-suit tile can be a wait: the void suit is empty, and one tile never
    # completes an empty suit
    return out


_Info = tuple[int | None, int, int, tuple[int, int]]
#: 9-byte suit key -> (state: None incomplete, 0 sets, 1 sets and the pair; its tile
#: count; the ranks it holds an odd number of times; (the ranks that complete it as sets
#: and the pair, the ranks that complete it as sets) — picked by the number of pairs the
#: other suits hold), filled in as keys are met
_INFO: dict[bytes, _Info] = {}


def _suit_info(key: bytes) -> _Info:
    info = (_COMPLETE.get(key), sum(key), sum(1 << r for r, n in enumerate(key) if n & 1),
            (_wait_mask(key, 1), _wait_mask(key, 0)))
    _INFO[key] = info
    return info


class SuitKeys:
    """A hand's three per-suit keys, kept up to date as tiles move.

    The win test and the waits are look-ups by suit key; a table that keeps these
    keys for each player as tiles come and go pays two small byte edits per move
    instead of re-deriving the keys from 27 counts at every check. Each suit's
    win-test state (see ``_STATE``) is remembered with the key object it belongs to:
    a move costs nothing more, the first win test after it looks up the one suit that
    changed, and a test on an unchanged hand is three identity checks and a sum.

    >>> from xuezhan.tiles import counts_of, parse_tiles
    >>> keys = SuitKeys(counts_of(parse_tiles("1112345678999m")))
    >>> keys.add(Tile.parse("5m"))
    >>> keys.is_winning()
    True
    """

    __slots__ = ("_known", "keys")

    def __init__(self, counts: Sequence[int] = ()) -> None:
        raw = bytearray(counts) if counts else bytearray(27)
        self.keys: list[bytes] = list(_split(raw))
        self._known: _Known = _UNKNOWN

    def add(self, tile: int, n: int = 1) -> None:
        suit, rank = divmod(tile, 9)
        key = bytearray(self.keys[suit])
        key[rank] += n
        self.keys[suit] = bytes(key)

    def remove(self, tile: int, n: int = 1) -> None:
        self.add(tile, -n)

    def copy(self) -> SuitKeys:
        new = SuitKeys.__new__(SuitKeys)
        new.keys = list(self.keys)
        new._known = self._known
        return new

    def is_winning(self, void: int | None = None) -> bool:
        """:func:`is_winning` of the hand these keys hold."""
        keys = self.keys
        k0, k1, k2 = keys
        if void is not None and keys[void] != _EMPTY:
            return False
        a, b, c, s0, s1, s2 = self._known
        # a key is replaced, never edited, as the hand changes: the same object is the
        # same suit
        if a is not k0 or b is not k1 or c is not k2:
            s0, s1, s2 = self._learn(k0, k1, k2)
        return _WINS[s0 + s1 + s2]

    def _learn(self, k0: bytes, k1: bytes, k2: bytes) -> tuple[int, int, int]:
        """The three suit states, looked up again for the suits whose key changed."""
        if not _STATE:
            _build()
        a, b, c, s0, s1, s2 = self._known
        if a is not k0:
            s0 = _state_of(k0, _NO_WIN)
        if b is not k1:
            s1 = _state_of(k1, _NO_WIN)
        if c is not k2:
            s2 = _state_of(k2, _NO_WIN)
        self._known = (k0, k1, k2, s0, s1, s2)
        return s0, s1, s2

    def waits(self, void: int | None = None) -> list[Tile]:
        k = self.keys
        return waits_keys(k[0], k[1], k[2], void)


#: three suit keys and the win-test state of each
_Known = tuple[bytes | None, bytes | None, bytes | None, int, int, int]
_UNKNOWN: _Known = (None, None, None, 0, 0, 0)


def is_ready(counts: Sequence[int], void: int | None = None) -> bool:
    """下叫 / 听牌: some tile completes the concealed counts (13 − 3·melds tiles)."""
    return bool(waits(counts, void))


def readings(counts: Sequence[int]) -> int:
    """The features of every sets-and-pair reading of the concealed counts, as a mask
    (bit f set when some reading has features f: :data:`PUNGS_ONLY`, :data:`TERMINALS`);
    0 when there is no such reading. ``111222333m`` reads both as pungs and as chows.
    """
    if not _COMPLETE:
        _build()
    pairs = 0
    mask = 1 << _ALL_FEATURES
    for key in _split(bytearray(counts)):
        m = _FEATURES.get(key) if max(key) <= 4 else _features_slow(list(key))
        if not m:
            return 0
        if sum(key) % 3 == 2:
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
