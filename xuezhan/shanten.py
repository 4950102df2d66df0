"""向听 (shanten) and 进张 (ukeire): how far a hand is from a winning shape, and which
draws bring it closer.

**Definition.** A hand's concealed counts ``H`` (27 kinds, in the engine's tile order
m1–m9, p1–p9, s1–s9) with ``melds`` declared sets need ``g = 4 − melds`` more sets and
a pair, or — only when ``melds == 0`` — seven pairs, a four-of-a-kind counting as two
pairs (docs/rules.md §3; riichi counts it as one). Over every
winning 14 − 3·melds tile shape ``W``, let ``missing`` be the fewest tiles of ``W`` that
``H`` lacks. Then

    shanten(H) = missing − 1

so −1 is complete (a winning hand: nothing missing), 0 ready (听牌: one tile short)
and so on. For the two sizes that occur in play this is the usual count: a 14 − 3·melds
hand is −1 when it wins and otherwise one less than the tiles it must swap; a 13 − 3·melds
hand is 0 when some draw completes it. Any other size gets the same definition, and so
the same formula: a smaller hand also needs a tile for every slot its own tiles cannot
fill (``shanten([0] * 27) == 13``), a larger one is measured by its best 14 − 3·melds
sub-hand. The shape ``W`` may hold a fifth copy of a kind, as the win test's waits do: a
hand waiting only on a tile it holds all four of is still ready, on a wait that can
never arrive (docs/rules.md §3, ready).

**Void suit.** With ``void`` given, ``W`` must hold no tile of that suit (定缺: a hand
with a void-suit tile never wins), so each void tile held has to go: with ``v`` of them,
a 14 − 3·melds hand is at least ``v − 1`` and a 13 − 3·melds hand at least ``v``. This is
the shanten of the hand without its void tiles, counted in the size of the whole hand.

**How.** Sets never cross suits, so each suit's 9 counts (a 9-byte key, as in
:mod:`xuezhan.hand`) are read once into a *profile*: for 0–4 blocks and with or without
the pair, the best ``2·sets + partial sets`` they make, its pairs (seven pairs) and its
tile count. There are only a few hundred distinct profiles; two suits' profiles combine
into another, and the answer for the three is one more look-up, so a call is five
dictionary look-ups once the keys have been seen. Everything is filled in lazily and
stays small: a suit key per distinct suit met, about a thousand profiles.

**Speed and memory.** The four tables every shanten reads are plain dicts, read without
a check: a miss raises ``KeyError``, the public function fills the entry it names and
tries again (:func:`_retry`), so a warm call costs what precomputed per-suit tables cost
(``benchmarks/bench_shanten.py`` measures both in one run; docs/benchmarks.md). Nothing
is built at import: of the 5⁹ suit keys a table could be asked for, play meets a few
tens of thousands. Every table is emptied when it reaches :data:`TABLE_LIMIT` entries
(the plain ones at :data:`PLAIN_LIMIT`, the same), so memory is bounded whatever stream
of hands comes: about 115 MB at most for the tables keyed by suit keys, while those keyed
by profiles settle at some 20,000 entries each (docs/review.md).

>>> from xuezhan.tiles import counts_of, parse_tiles
>>> shanten(counts_of(parse_tiles("123m456m789m234p55p")))
-1
>>> shanten(counts_of(parse_tiles("123m456m789m234p5p")))
0
>>> shanten(counts_of(parse_tiles("1122m3344p5566s77s")))        # seven pairs
-1
>>> shanten(counts_of(parse_tiles("1111m3344p5566s7s")))         # a four is two pairs
0
>>> shanten(counts_of(parse_tiles("123m456m789m234p5s")), void=2)  # 5s must go
1
>>> [(str(t), n) for t, n in ukeire(counts_of(parse_tiles("123m456m789m23p55s")))]
[('1p', 4), ('4p', 4)]
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from xuezhan.errors import TileCountError, XuezhanError
from xuezhan.hand import SuitKeys, _split
from xuezhan.tiles import COPIES, NUM_KINDS, TILES, Tile


class ShantenInputError(XuezhanError, ValueError):
    """Counts, melds or a void suit that these functions are not defined for."""


#: the most copies of a kind a suit key may hold: a hand holds at most four, and a
#: fifth copy is the shape a wait on a tile held four times reaches
MAX_COPIES = 5
_MAX_MELDS = 4
#: ids are packed two to an int: the left one shifted by this many bits
_SHIFT = 20
_EMPTY = bytes(9)
#: a reading that is impossible (the pair asked of a suit that has none)
_NONE = -100

# A profile is 12 ints: F0[0..4], F1[0..4], pairs, tiles. F_h[b] is the best
# 2·sets + partial sets from at most b blocks (sets and partial sets), with the pair
# taken (h = 1) or not (h = 0); pairs counts a four as two and stops at 7; tiles stops
# at 14. Both caps are where the formulas stop caring.
_Profile = tuple[int, ...]
_PROFILES: list[_Profile] = []
_PROFILE_IDS: dict[_Profile, int] = {}
_MELDS_SHIFT = 2 * _SHIFT + 1  # past _MARK
_ID = (1 << _SHIFT) - 1
#: the other two suits of each suit, in order
_OTHERS = ((1, 2), (0, 2), (0, 1))
#: the _RISES masks after the 10 readings: ranks that make a pair, ranks that may grow
_PAIRING, _ANY = 10, 11
#: a table is emptied when it reaches this many entries (_RISES and _REMOVED: half as
#: many), a guard on the memory. A stream of new hands keeps meeting suit keys (some 35
#: a round reach _RIGHT): at 100–320 bytes an entry, the seven tables keyed by suit keys
#: come to about 115 MB at most (docs/review.md); the three keyed by profiles settle at
#: some 20,000 entries each and are bounded the same way
TABLE_LIMIT = 1 << 17
_LOCK = threading.RLock()

_K = TypeVar("_K")
_V = TypeVar("_V")


class _Table(dict[_K, _V]):
    """A table filled in on a miss: a hit is a plain dictionary look-up, a miss calls
    ``fill`` (with the lock held: ids are handed out in order) and keeps its answer."""

    __slots__ = ("_fill", "_limit")

    def __init__(self, fill: Callable[[_K], _V], limit: int = TABLE_LIMIT) -> None:
        super().__init__()
        self._fill = fill
        self._limit = limit

    def __missing__(self, key: _K) -> _V:
        with _LOCK:
            found = self._fill(key)
            if len(self) >= self._limit:
                self.clear()
            self[key] = found
        return found


def _fill_right(key: bytes) -> int:
    if len(key) != 9 or max(key) > MAX_COPIES:
        raise ShantenInputError(f"at most {MAX_COPIES} copies of a kind: {list(key)}")
    return _intern(_suit_profile(key))


# The four tables every shanten reads are plain dicts, not _Tables: a look-up in a dict
# subclass skips the interpreter's specialised path for dicts and costs some 60 ns more,
# a third of a call at five look-ups a call. A miss raises KeyError instead; the public
# functions catch it, fill the entry it names (_fill_missing) and try again.

#: suit key -> its profile id
_RIGHT: dict[bytes, int] = {}
#: suit key -> its profile id, shifted left (for the left operand of _PAIR)
_LEFT: dict[bytes, int] = {}
#: (id << _SHIFT) + id -> the id of the two profiles combined, shifted left, plus _MARK
#: (so that a key of _ANSWER, which holds a _PAIR value, tells itself from a _PAIR key)
_PAIR: dict[int, int] = {}
#: _PAIR value + id -> the shanten for 0..4 melds
_ANSWER: dict[int, tuple[int, ...]] = {}
_MARK = 1 << (2 * _SHIFT)
#: (the other two suits' id, shifted left) + a suit's profile id + the melds shifted by
#: _MELDS_SHIFT -> the shanten, and which of the suit's _RISES masks make its 进张 (a
#: set, in 2 bytes): a draw in the suit lowers the shanten exactly when it raises a block
#: reading that the best split of the blocks between the two sides uses (see _gain).
#: Profiles settle, so this table does too (like _ANSWER), whatever suit keys come
_GAINS: _Table[int, tuple[int, bytes]] = _Table(
    lambda at: _gain(at >> _SHIFT & _ID, at & _ID, at >> _MELDS_SHIFT & 7))
#: suit key -> 12 rank masks: for each of its 10 block readings (see _readings) the
#: ranks whose extra copy raises it (by one: never more), then the ranks whose extra
#: copy makes one more pair, then the ranks that may take one more copy at all
_RISES: _Table[bytes, tuple[int, ...]] = _Table(lambda key: _rises(key), TABLE_LIMIT // 2)
#: a suit key and the 2 bytes of a _GAINS entry's set of _RISES masks -> their union, the
#: suit's 进张 rank mask (ints and bytes only: nothing the garbage collector must visit)
_UNIONS: _Table[bytes, int] = _Table(lambda at: _union(at))
_FIELD = 16
_FIELD_ONES = sum(1 << (_FIELD * j) for j in range(10))
#: suit key -> the profile ids of the key with one fewer of each rank (−1 for a rank it
#: lacks)
_REMOVED: _Table[bytes, tuple[int, ...]] = _Table(lambda key: _removal(key), TABLE_LIMIT // 2)
#: suit key -> its F0[0..4], F1[0..4], then its 10 block readings (see _readings)
#: packed in one int, a 16-bit field each (none passes 9): which readings a tile raises
#: is one subtraction, and the ranks that raise each, shifted into its field, add up
#: without carries
_BLOCKS: _Table[bytes, tuple[int, ...]] = _Table(lambda key: _blocks(key))


# -- the public functions -------------------------------------------------------------


def shanten(counts: Sequence[int], melds: int = 0, void: int | None = None) -> int:
    """向听 of the concealed ``counts`` (27 kinds, 0–4 copies each) with ``melds``
    declared sets: −1 complete, 0 ready, ``n`` short of ready by ``n`` tiles (see the
    module's definition). With ``void`` (0, 1, 2: a suit), the hand must lose every tile
    of that suit to win.

    >>> from xuezhan.tiles import counts_of, parse_tiles
    >>> shanten(counts_of(parse_tiles("13579m13579p135s")))
    4
    >>> shanten(counts_of(parse_tiles("11m")), melds=4)
    -1
    >>> shanten(counts_of(parse_tiles("123m45p11s")), melds=2, void=2)
    2
    """
    # shanten_keys written out again: calling it would add a tenth to every call
    a, b, c = _split(bytearray(counts))
    if void is not None:
        a, b, c = _drop_suit(a, b, c, void)
    try:
        answers = _ANSWER[_PAIR[_LEFT[a] + _RIGHT[b]] + _RIGHT[c]]
    except KeyError:
        answers = _retry(_answers_of, a, b, c)
    if melds >= 0:  # one comparison: a tuple of five says when melds is above 4
        try:
            return answers[melds]
        except IndexError:
            pass
    raise ShantenInputError(f"melds must be 0 to 4, not {melds!r}")


def shanten_keys(keys: SuitKeys, melds: int = 0, void: int | None = None) -> int:
    """:func:`shanten` of the suit keys a :class:`~xuezhan.hand.SuitKeys` keeps up to
    date as tiles move (the table keeps one per player): the same look-ups without
    reading 27 counts.

    >>> from xuezhan.tiles import counts_of, parse_tiles
    >>> shanten_keys(SuitKeys(counts_of(parse_tiles("123m456m789m234p5p"))))
    0
    """
    a, b, c = keys.keys
    if void is not None:
        a, b, c = _drop_suit(a, b, c, void)
    try:
        answers = _ANSWER[_PAIR[_LEFT[a] + _RIGHT[b]] + _RIGHT[c]]
    except KeyError:
        answers = _retry(_answers_of, a, b, c)
    if melds >= 0:  # one comparison: a tuple of five says when melds is above 4
        try:
            return answers[melds]
        except IndexError:
            pass
    raise ShantenInputError(f"melds must be 0 to 4, not {melds!r}")


def ukeire(counts: Sequence[int], melds: int = 0, void: int | None = None,
           visible: Sequence[int] | None = None) -> list[tuple[Tile, int]]:
    """进张 of a 13 − 3·melds tile hand: every tile kind whose draw lowers its
    :func:`shanten` (with the same ``void``), in tile order, each with the copies still
    unseen: 4 less the copies in ``counts`` and in ``visible`` (27 counts of the tiles
    the player sees elsewhere — rivers, every meld including their own, won hands; see
    :func:`xuezhan.tiles.counts_of`), never below 0.

    A kind with no copy left is still listed, with 0: it is a shape improvement, like a
    wait on a tile held four times (which is listed too). Sum the counts for the number
    of useful tiles (有效牌). Never lists a void-suit tile.

    :raises TileCountError: for a hand of another size (相公).
    :raises ShantenInputError: for more than 4 of a kind, or bad ``melds`` or ``void``.

    >>> from xuezhan.tiles import counts_of, parse_tiles
    >>> hand = counts_of(parse_tiles("1112345678999m"))[:9]
    >>> [n for _, n in ukeire(hand + [0] * 18)]
    [1, 3, 3, 3, 3, 3, 3, 3, 1]
    >>> seen = counts_of(parse_tiles("4444p"))
    >>> [(str(t), n) for t, n in ukeire(counts_of(parse_tiles("123m456m789m23p55s")), 0,
    ...                                 None, seen)]
    [('1p', 4), ('4p', 0)]
    """
    if not 0 <= melds <= _MAX_MELDS:
        raise ShantenInputError(f"melds must be 0 to 4, not {melds!r}")
    size = sum(counts)
    if size != 13 - 3 * melds:
        raise TileCountError(size, 13 - 3 * melds, melds)
    if max(counts) > COPIES:
        raise ShantenInputError("a hand holds at most 4 copies of a kind")
    mask = ukeire_mask(_split(bytes(counts)), melds, void)[1]
    out: list[tuple[Tile, int]] = []
    while mask:  # the kinds in the mask, lowest first
        low = mask & -mask
        mask ^= low
        kind = low.bit_length() - 1
        seen = counts[kind] + (visible[kind] if visible is not None else 0)
        out.append((TILES[kind], COPIES - seen if seen < COPIES else 0))
    return out


def ukeire_mask(keys: Sequence[bytes], melds: int = 0,
                void: int | None = None) -> tuple[int, int]:
    """The :func:`shanten` of the hand with these suit keys (as
    :attr:`~xuezhan.hand.SuitKeys.keys` holds them) and its 进张 as a 27-bit mask (bit
    ``k`` set when drawing kind ``k`` lowers the shanten), for any hand size.

    The same kinds :func:`ukeire` lists, without the copies left: a reviewer ranking
    every discard of every turn needs this at a few look-ups per suit, so each suit's
    mask is kept with the tables (the suit's key against the other two suits' profile).

    >>> from xuezhan.hand import SuitKeys
    >>> from xuezhan.tiles import counts_of, parse_tiles
    >>> base, mask = ukeire_mask(SuitKeys(counts_of(parse_tiles("123m456m789m23p55s"))).keys)
    >>> base, [str(TILES[k]) for k in range(27) if mask >> k & 1]
    (0, ['1p', '4p'])
    """
    if not 0 <= melds <= _MAX_MELDS:
        raise ShantenInputError(f"melds must be 0 to 4, not {melds!r}")
    try:
        return _ukeire_mask(keys, melds, void)
    except KeyError:
        return _retry(_ukeire_mask, keys, melds, void)


def _ukeire_mask(keys: Sequence[bytes], melds: int, void: int | None) -> tuple[int, int]:
    a, b, c = keys
    if void is not None:
        a, b, c = _drop_suit(a, b, c, void)
    shift = melds << _MELDS_SHIFT
    # written out: this runs a dozen times per discard reviewed
    ga = _GAINS[_PAIR[_LEFT[b] + _RIGHT[c]] + _RIGHT[a] + shift]
    gb = _GAINS[_PAIR[_LEFT[a] + _RIGHT[c]] + _RIGHT[b] + shift]
    gc = _GAINS[_PAIR[_LEFT[a] + _RIGHT[b]] + _RIGHT[c] + shift]
    mask = _UNIONS[a + ga[1]] | _UNIONS[b + gb[1]] << 9 | _UNIONS[c + gc[1]] << 18
    if void is not None:
        mask &= ~(0x1FF << (9 * void))
    return ga[0], mask


def discard_masks(keys: Sequence[bytes], melds: int = 0, void: int | None = None,
                  kinds: Sequence[int] | None = None) -> dict[int, tuple[int, int]]:
    """:func:`ukeire_mask` of the hand after each discard: for every kind the hand holds
    (or only those of ``kinds`` it holds), the shanten and the 进张 mask of the hand
    without one of it.

    What a reviewer ranks at every turn: the look-ups of the suits a discard leaves alone
    are shared, which makes this several times cheaper than a call per discard.

    >>> from xuezhan.hand import SuitKeys
    >>> from xuezhan.tiles import counts_of, parse_tiles
    >>> after = discard_masks(SuitKeys(counts_of(parse_tiles("123m456m789m23p55s9s"))).keys)
    >>> [(str(TILES[k]), s, [str(TILES[t]) for t in range(27) if m >> t & 1])
    ...  for k, (s, m) in after.items() if s == 0]
    [('9s', 0, ['1p', '4p'])]
    """
    if not 0 <= melds <= _MAX_MELDS:
        raise ShantenInputError(f"melds must be 0 to 4, not {melds!r}")
    wanted = (1 << NUM_KINDS) - 1
    if kinds is not None:
        wanted = 0
        for kind in kinds:
            wanted |= 1 << kind
    try:
        return _discard_masks(keys, melds, void, wanted)
    except KeyError:
        return _retry(_discard_masks, keys, melds, void, wanted)


def keys_shanten(keys: Sequence[bytes], melds: int = 0, void: int | None = None) -> int:
    """:func:`shanten` of the hand with these suit keys (as
    :attr:`~xuezhan.hand.SuitKeys.keys` holds them, or as a reviewer derives them).

    >>> from xuezhan.hand import SuitKeys
    >>> from xuezhan.tiles import counts_of, parse_tiles
    >>> keys_shanten(SuitKeys(counts_of(parse_tiles("123m456m789m23p55s9s"))).keys, void=2)
    2
    """
    a, b, c = keys
    if void is not None:
        a, b, c = _drop_suit(a, b, c, void)
    try:
        answers = _ANSWER[_PAIR[_LEFT[a] + _RIGHT[b]] + _RIGHT[c]]
    except KeyError:
        answers = _retry(_answers_of, a, b, c)
    if melds >= 0:  # one comparison: a tuple of five says when melds is above 4
        try:
            return answers[melds]
        except IndexError:
            pass
    raise ShantenInputError(f"melds must be 0 to 4, not {melds!r}")


def suit_variant_shantens(keys: Sequence[bytes], suit: int, variants: Sequence[bytes],
                          melds: int = 0) -> list[int]:
    """The :func:`shanten` of the hand with ``suit``'s key replaced by each of
    ``variants`` (the other two suits as they are): the other suits' profile is looked up
    once, each variant is one more look-up — what a reviewer weighing every three tiles
    of a suit to give away needs.

    >>> from xuezhan.hand import SuitKeys
    >>> from xuezhan.tiles import counts_of, parse_tiles
    >>> keys = SuitKeys(counts_of(parse_tiles("123m456m789m23p55s9s"))).keys
    >>> suit_variant_shantens(keys, 2, [bytes([0, 0, 0, 0, 2, 0, 0, 0, 0]), bytes(9)])
    [0, 2]
    """
    if not 0 <= melds <= _MAX_MELDS:
        raise ShantenInputError(f"melds must be 0 to 4, not {melds!r}")
    return _retry(_variant_shantens, keys, suit, variants, melds)


def _variant_shantens(keys: Sequence[bytes], suit: int, variants: Sequence[bytes],
                      melds: int) -> list[int]:
    i, j = _OTHERS[suit]
    pair = _PAIR[_LEFT[keys[i]] + _RIGHT[keys[j]]]
    return [_ANSWER[pair + _RIGHT[v]][melds] for v in variants]


def discard_shantens(keys: Sequence[bytes], melds: int = 0, void: int | None = None
                     ) -> dict[int, int]:
    """The shanten alone of :func:`discard_masks`: for every kind the hand holds, the
    shanten of the hand without one of it.

    A suit's profile with one fewer of each rank is kept per suit key, so this is one
    look-up per kind: a reviewer ranks the discards by it first and asks for the 进张
    only of the few that leave the lowest shanten.

    >>> from xuezhan.hand import SuitKeys
    >>> from xuezhan.tiles import counts_of, parse_tiles
    >>> after = discard_shantens(SuitKeys(counts_of(parse_tiles("123m456m789m23p55s9s"))).keys)
    >>> [(str(TILES[k]), s) for k, s in after.items() if s == 0]
    [('9s', 0)]
    """
    if not 0 <= melds <= _MAX_MELDS:
        raise ShantenInputError(f"melds must be 0 to 4, not {melds!r}")
    return _retry(_discard_shantens, keys, melds, void)


def _discard_shantens(keys: Sequence[bytes], melds: int, void: int | None) -> dict[int, int]:
    a, b, c = keys
    dropped = (a, b, c) if void is None else _drop_suit(a, b, c, void)
    out: dict[int, int] = {}
    for suit in range(3):
        own = keys[suit]
        if own == _EMPTY:
            continue
        if suit == void:  # without its void tiles the hand is the same whichever goes
            found = keys_shanten(keys, melds, void)
            out.update((suit * 9 + r, found) for r in range(9) if own[r])
            continue
        i, j = [t for t in (0, 1, 2) if t != suit]
        pair = _PAIR[_LEFT[dropped[i]] + _RIGHT[dropped[j]]]
        for rank, q in enumerate(_REMOVED[own]):
            if q >= 0:
                out[suit * 9 + rank] = _ANSWER[pair + q][melds]
    return out


def discard_leaders(keys: Sequence[bytes], kinds: Sequence[int], melds: int = 0,
                    void: int | None = None) -> dict[int, tuple[int, int]]:
    """:func:`discard_masks` of the discards among ``kinds`` (kinds the hand holds, at
    least one) that leave the lowest shanten, in the order of ``kinds``: what a reviewer
    needs to judge a discard, in one pass (the shanten of each discard from the suit's
    look-ups, then the masks of the lowest only).

    >>> from xuezhan.hand import SuitKeys
    >>> from xuezhan.tiles import counts_of, parse_tiles
    >>> keys = SuitKeys(counts_of(parse_tiles("123m456m789m23p55s9s"))).keys
    >>> [(str(TILES[k]), s) for k, (s, _) in discard_leaders(keys, [0, 10, 22, 26]).items()]
    [('9s', 0)]
    """
    if not 0 <= melds <= _MAX_MELDS:
        raise ShantenInputError(f"melds must be 0 to 4, not {melds!r}")
    try:
        return _discard_leaders(keys, kinds, melds, void)
    except KeyError:
        return _retry(_discard_leaders, keys, kinds, melds, void)


def _discard_leaders(keys: Sequence[bytes], kinds: Sequence[int], melds: int,
                     void: int | None) -> dict[int, tuple[int, int]]:
    dropped = list(keys)
    if void is not None:
        dropped = list(_drop_suit(keys[0], keys[1], keys[2], void))
    pairs = [_PAIR[_LEFT[dropped[1]] + _RIGHT[dropped[2]]],
             _PAIR[_LEFT[dropped[0]] + _RIGHT[dropped[2]]],
             _PAIR[_LEFT[dropped[0]] + _RIGHT[dropped[1]]]]
    removed = [_REMOVED[k] for k in keys]
    voided = _ANSWER[pairs[void] + _RIGHT[_EMPTY]][melds] if void is not None else 0
    low, leaders, wanted = 99, [], 0
    for kind in kinds:
        suit, rank = divmod(kind, 9)
        if suit == void:
            found = voided
        else:
            q = removed[suit][rank]
            if q < 0:
                raise ShantenInputError(f"the hand holds no {TILES[kind]}")
            found = _ANSWER[pairs[suit] + q][melds]
        if found < low:
            low, leaders, wanted = found, [kind], 1 << kind
        elif found == low:
            leaders.append(kind)
            wanted |= 1 << kind
    masks = _discard_masks(keys, melds, void, wanted)
    return {k: masks[k] for k in leaders}


def _discard_masks(keys: Sequence[bytes], melds: int, void: int | None, wanted: int
                   ) -> dict[int, tuple[int, int]]:
    """:func:`discard_masks` of the kinds in the mask ``wanted``."""
    dropped = list(keys)
    if void is not None:
        dropped[void] = _EMPTY
    keep = ~(0x1FF << (9 * void)) if void is not None else -1
    shift = melds << _MELDS_SHIFT
    out: dict[int, tuple[int, int]] = {}
    for suit in range(3):
        own = keys[suit]
        ranks = wanted >> (9 * suit) & 0x1FF
        if not ranks or own == _EMPTY:
            continue
        if suit == void:  # without its void tiles the hand is the same whichever goes
            found = ukeire_mask(keys, melds, void)
            out.update((suit * 9 + r, found) for r in range(9) if own[r] and ranks >> r & 1)
            continue
        i, j = _OTHERS[suit]
        di, dj = dropped[i], dropped[j]
        pair = _PAIR[_LEFT[di] + _RIGHT[dj]]
        shrunk = bytearray(own)
        while ranks:  # the ranks wanted, lowest first
            low = ranks & -ranks
            ranks ^= low
            rank = low.bit_length() - 1
            if not own[rank]:
                continue
            shrunk[rank] -= 1
            key = bytes(shrunk)
            shrunk[rank] += 1
            gs = _GAINS[pair + _RIGHT[key] + shift]
            # each other suit against this suit's new key and the third, in suit order
            gi = _GAINS[(_PAIR[_LEFT[key] + _RIGHT[dj]] if suit < j
                         else _PAIR[_LEFT[dj] + _RIGHT[key]]) + _RIGHT[di] + shift]
            gj = _GAINS[(_PAIR[_LEFT[di] + _RIGHT[key]] if i < suit
                         else _PAIR[_LEFT[key] + _RIGHT[di]]) + _RIGHT[dj] + shift]
            mask = (_UNIONS[key + gs[1]] << (9 * suit) | _UNIONS[di + gi[1]] << (9 * i)
                    | _UNIONS[dj + gj[1]] << (9 * j))
            out[suit * 9 + rank] = gs[0], mask & keep
    return out


# -- the tables -----------------------------------------------------------------------

_R = TypeVar("_R")
#: the most entries one call can miss, and far more: a call that still misses after
#: this many fills is a bug (a KeyError that no table raised), not a cold table
_RETRIES = 1000


def _retry(fn: Callable[..., _R], *args: Any) -> _R:
    """``fn(*args)``, run again after each entry of the plain tables it missed is filled
    in: a new suit key costs its own entries, then the look-ups run as usual."""
    for _ in range(_RETRIES):
        try:
            return fn(*args)
        except KeyError as exc:
            _fill_missing(exc.args[0])
    raise RuntimeError(f"{fn.__name__} keeps missing table entries")


def _fill_missing(key: object) -> None:
    """Fill the entry of :data:`_RIGHT` and :data:`_LEFT` (a suit key), :data:`_ANSWER`
    (an int with :data:`_MARK`) or :data:`_PAIR` (any other int) that ``key`` missed;
    a table at :data:`PLAIN_LIMIT` entries is emptied first (as a _Table is)."""
    with _LOCK:
        if isinstance(key, bytes):
            found = _RIGHT.get(key)
            if found is None:
                found = _fill_right(key)
                _put(_RIGHT, key, found)
            if key not in _LEFT:
                _put(_LEFT, key, found << _SHIFT)
        elif type(key) is not int:
            raise KeyError(key)
        elif key & _MARK:
            pair, q = key >> _SHIFT & _ID, key & _ID
            _put(_ANSWER, key, _answers(_combine(_PROFILES[pair], _PROFILES[q])))
        else:
            combined = _combine(_PROFILES[key >> _SHIFT], _PROFILES[key & _ID])
            _put(_PAIR, key, _intern(combined) << _SHIFT | _MARK)


#: a plain table is emptied when it reaches this many entries (as a _Table at its limit)
PLAIN_LIMIT = TABLE_LIMIT


def _put(table: dict[_K, _V], key: _K, value: _V) -> None:
    if len(table) >= PLAIN_LIMIT:
        table.clear()
    table[key] = value


def _answers_of(a: bytes, b: bytes, c: bytes) -> tuple[int, ...]:
    """The shanten for 0..4 melds of the suit keys ``a``, ``b``, ``c`` (what :func:`shanten`
    looks up, for :func:`_retry`)."""
    return _ANSWER[_PAIR[_LEFT[a] + _RIGHT[b]] + _RIGHT[c]]



def _drop_suit(a: bytes, b: bytes, c: bytes, void: int) -> tuple[bytes, bytes, bytes]:
    if void == 0:
        return _EMPTY, b, c
    if void == 1:
        return a, _EMPTY, c
    if void == 2:
        return a, b, _EMPTY
    raise ShantenInputError(f"void must be a suit 0, 1 or 2, not {void!r}")


def _readings(f: Sequence[int]) -> tuple[int, ...]:
    """A suit's 10 block readings from its F0[0..4], F1[0..4]: for ``b`` = 0..4 blocks the
    best value when the other side holds the pair or none is made (``max(F0[b],
    F1[b] + 1)``, the pair counting one), then when the other side holds it (``F0[b]``)."""
    a0, a1, a2, a3, a4, p0, p1, p2, p3, p4 = f  # written out: each new suit key costs ten
    return (a0 if a0 > p0 else p0 + 1, a1 if a1 > p1 else p1 + 1, a2 if a2 > p2 else p2 + 1,
            a3 if a3 > p3 else p3 + 1, a4 if a4 > p4 else p4 + 1, a0, a1, a2, a3, a4)


def _gain(pair: int, q: int, melds: int) -> tuple[int, bytes]:
    """The shanten with ``melds`` of the profiles ``pair`` (the other two suits) and ``q``
    (a suit) together, and which of the suit's :data:`_RISES` masks give its 进张: what
    :data:`_GAINS` fills in.

    With ``g = 4 − melds`` sets to make, the blocks give ``V``, the best over the splits
    of ``g`` blocks and the pair of the other side's reading plus the suit's
    (:func:`_readings`); the shanten is ``max(X, Y)``, ``X = 2g − V``, ``Y = 3g + 1 − t``
    (``t`` the tiles, at most 14), and without melds at most the seven pairs' ``max(6 −
    p, 13 − t)``. One more tile of the suit raises each of the suit's readings by 0 or 1
    (remove that copy from the best shape with it: one set or partial set loses one), so
    ``V`` rises exactly when a reading of a best split rises; ``t`` rises unless it is
    at 14, ``p`` when the copy pairs an odd count, unless it is at 7. Which of these
    lower the shanten depends on the profiles alone."""
    x, y = _PROFILES[pair], _PROFILES[q]
    g = 4 - melds
    ours = (*(x[b] for b in range(5)), *(x[5 + b] + 1 for b in range(5)))
    theirs = _readings(y[:10])
    splits = [(ours[5 * h + g - b] + theirs[5 * h + b], 5 * h + b)
              for h in (0, 1) for b in range(g + 1)]
    v = max(value for value, _ in splits)
    tight = tuple(j for value, j in splits if value == v)
    pairs, tiles = min(x[10] + y[10], 7), min(x[11] + y[11], 14)
    more = tiles < 14
    blocks_x, blocks_y = 2 * g - v, 3 * g + 1 - tiles
    sets = max(blocks_x, blocks_y)
    if blocks_x > blocks_y or (blocks_x == blocks_y and more):
        by_sets: tuple[int, ...] = tight
    else:
        by_sets = (_ANY,) if blocks_x < blocks_y and more else ()
    base = sets
    by_pairs: tuple[int, ...] = ()
    if melds == 0:
        seven_x, seven_y = 6 - pairs, 13 - tiles
        seven = max(seven_x, seven_y)
        base = min(sets, seven)
        if seven == base:
            by_pairs = (_ANY,) if seven_x < seven_y else (_PAIRING,) if pairs < 7 else ()
    if sets != base:
        by_sets = ()
    uses = 0
    for j in by_sets + by_pairs:
        uses |= 1 << j
    return base, (1 << _ANY if uses >> _ANY & 1 else uses).to_bytes(2, "little")


def _union(at: bytes) -> int:
    """The :data:`_UNIONS` entry ``at``: the suit key's :data:`_RISES` masks named by
    the set in its last two bytes, put together."""
    uses = int.from_bytes(at[9:], "little")
    out = 0
    for j, mask in enumerate(_RISES[at[:9]]):
        if uses >> j & 1:
            out |= mask
    return out


def _rises(key: bytes) -> tuple[int, ...]:
    """The :data:`_RISES` masks of ``key``, filled in by that table."""
    _RIGHT[key]  # checks the copies
    readings = _BLOCKS[key][10]
    rises = pairing = growing = 0
    grown = bytearray(key)
    for rank in range(9):
        n = grown[rank]
        if n >= MAX_COPIES:
            continue
        growing |= 1 << rank
        if n % 2:
            pairing |= 1 << rank
        grown[rank] = n + 1
        risen = _BLOCKS[bytes(grown)][10] - readings  # a 1 in the field of each one raised
        grown[rank] = n
        assert not risen & ~_FIELD_ONES, "a tile raises a block reading by one at most"
        rises |= risen << rank  # field j gathers the ranks that raise reading j
    return (*(rises >> (_FIELD * j) & 0x1FF for j in range(10)), pairing, growing)


def _packed(f: Sequence[int]) -> int:
    """The readings of F0[0..4], F1[0..4] packed (:func:`_readings`, written out)."""
    a0, a1, a2, a3, a4, p0, p1, p2, p3, p4 = f
    return ((a0 if a0 > p0 else p0 + 1) | (a1 if a1 > p1 else p1 + 1) << 16
            | (a2 if a2 > p2 else p2 + 1) << 32 | (a3 if a3 > p3 else p3 + 1) << 48
            | (a4 if a4 > p4 else p4 + 1) << 64
            | a0 << 80 | a1 << 96 | a2 << 112 | a3 << 128 | a4 << 144)


def _removal(key: bytes) -> tuple[int, ...]:
    """The :data:`_REMOVED` ids of ``key``, filled in by that table."""
    shrunk = bytearray(key)
    ids = []
    for rank in range(9):
        if not shrunk[rank]:
            ids.append(-1)
            continue
        shrunk[rank] -= 1
        ids.append(_RIGHT[bytes(shrunk)])
        shrunk[rank] += 1
    return tuple(ids)


def _intern(profile: _Profile) -> int:
    found = _PROFILE_IDS.get(profile)
    if found is None:
        found = len(_PROFILES)
        _PROFILES.append(profile)
        _PROFILE_IDS[profile] = found
    return found


_EMPTY_BLOCKS = (0, 0, 0, 0, 0, *[_NONE] * 5, _packed((0, 0, 0, 0, 0, *[_NONE] * 5)))


def _blocks(key: bytes) -> tuple[int, ...]:
    """F0[0..4], F1[0..4] of one suit (see _Profile), by the role of its lowest tile: it
    stays single, is the pair, or starts a pung, a chow or a partial set (two of a kind,
    neighbours, a gap) — any of which may be one of the ``b`` blocks; then their readings
    packed. Filled in by :data:`_BLOCKS`."""
    if key == _EMPTY:
        return _EMPTY_BLOCKS
    c = bytearray(key)
    i = next(r for r in range(9) if c[r])
    best = list(_blocks_without(c, (i,)))

    def block(ranks: tuple[int, ...], weight: int) -> None:
        sub = _blocks_without(c, ranks)
        for slot in (1, 2, 3, 4, 6, 7, 8, 9):
            value = weight + sub[slot - 1]
            if value > best[slot]:
                best[slot] = value

    if c[i] >= 2:
        block((i, i), 1)
        sub = _blocks_without(c, (i, i))
        for b in range(5):
            best[5 + b] = max(best[5 + b], sub[b])
    if c[i] >= 3:
        block((i, i, i), 2)
    if i <= 7 and c[i + 1]:
        block((i, i + 1), 1)
        if i <= 6 and c[i + 2]:
            block((i, i + 1, i + 2), 2)
    if i <= 6 and c[i + 2]:
        block((i, i + 2), 1)
    found = tuple(v if v >= 0 else _NONE for v in best[:10])
    return (*found, _packed(found))


def _blocks_without(c: bytearray, ranks: tuple[int, ...]) -> tuple[int, ...]:
    for r in ranks:
        c[r] -= 1
    found = _BLOCKS[bytes(c)]
    for r in ranks:
        c[r] += 1
    return found


def _suit_profile(key: bytes) -> _Profile:
    return (*_BLOCKS[key][:10], min(sum(n // 2 for n in key), 7), min(sum(key), 14))


def _combine(x: _Profile, y: _Profile) -> _Profile:
    """The profile of two suits together: blocks and the one pair shared out between
    them in the best way (the best split of ``b`` blocks, written out: every profile
    pair the tables meet costs one)."""
    x0, x1, x2, x3, x4, p0, p1, p2, p3, p4 = x[:10]
    y0, y1, y2, y3, y4, q0, q1, q2, q3, q4 = y[:10]
    return (
        x0 + y0,
        max(x0 + y1, x1 + y0),
        max(x0 + y2, x1 + y1, x2 + y0),
        max(x0 + y3, x1 + y2, x2 + y1, x3 + y0),
        max(x0 + y4, x1 + y3, x2 + y2, x3 + y1, x4 + y0),
        max(p0 + y0, x0 + q0, _NONE),
        max(p0 + y1, p1 + y0, x0 + q1, x1 + q0, _NONE),
        max(p0 + y2, p1 + y1, p2 + y0, x0 + q2, x1 + q1, x2 + q0, _NONE),
        max(p0 + y3, p1 + y2, p2 + y1, p3 + y0, x0 + q3, x1 + q2, x2 + q1, x3 + q0,
            _NONE),
        max(p0 + y4, p1 + y3, p2 + y2, p3 + y1, p4 + y0, x0 + q4, x1 + q3, x2 + q2, x3 + q1,
            x4 + q0, _NONE),
        min(x[10] + y[10], 7), min(x[11] + y[11], 14))


def _answers(p: _Profile) -> tuple[int, ...]:
    """Shanten for 0..4 melds from a whole hand's profile.

    With ``g`` sets to make, the blocks give ``V = max(F0[g], F1[g] + 1)`` and the
    shape is ``2g − V`` tiles short of ready, provided the hand has a tile to start
    every missing set and the pair; a hand of ``n`` tiles uses at most ``n`` of its own,
    so it is also at least ``3g + 1 − n`` short. Seven pairs alike: ``6 − pairs``, and
    at least ``13 − n``.
    """
    pairs, tiles = p[10], p[11]
    out = []
    for melds in range(_MAX_MELDS + 1):
        g = 4 - melds
        blocks = max(p[g], p[5 + g] + 1)
        value = max(2 * g - blocks, 3 * g + 1 - tiles)
        if melds == 0:
            value = min(value, max(6 - pairs, 13 - tiles))
        out.append(value)
    return tuple(out)

