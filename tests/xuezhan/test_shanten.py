"""向听 and 进张 (xuezhan.shanten) against a plain brute force over winning shapes."""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xuezhan import shanten as shanten_module
from xuezhan.errors import TileCountError
from xuezhan.hand import SuitKeys, is_ready, is_winning
from xuezhan.shanten import (
    ShantenInputError,
    discard_leaders,
    discard_masks,
    discard_shantens,
    keys_shanten,
    shanten,
    shanten_keys,
    ukeire,
    ukeire_mask,
)
from xuezhan.tiles import counts_of, parse_tiles

FAST = settings(max_examples=120, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def c(text: str) -> list[int]:
    return counts_of(parse_tiles(text))


# -- the reference: the definition, enumerated ----------------------------------------

#: every set a winning shape can hold: a pung of each kind, a chow from each rank 1–7
SETS: list[tuple[int, ...]] = [(k, k, k) for k in range(27)] + [
    (s * 9 + r, s * 9 + r + 1, s * 9 + r + 2) for s in range(3) for r in range(7)]


def ref_shanten(counts: list[int], melds: int = 0, void: int | None = None) -> int:
    """Tiles missing from the closest winning shape, less one. A shape is 4 − melds sets
    and a pair (any copies, none of the void suit), or seven pairs without melds; what
    the hand holds of it is counted set by set, each set taking what it can of the tiles
    the earlier ones left."""
    allowed = [k for k in range(27) if k // 9 != void]
    groups = 4 - melds
    size = 3 * groups + 2
    best = 0

    def place(start: int, left: int, rest: list[int], held: int) -> None:
        nonlocal best
        if held + 3 * left + 2 <= best:
            return
        if left == 0:
            best = max(best, held + max(min(rest[k], 2) for k in allowed) if allowed else held)
            return
        # a set holding none of the hand stands for every such set
        place(len(SETS), left - 1, rest, held)
        for i in range(start, len(SETS)):
            tiles = SETS[i]
            if tiles[0] // 9 == void or not any(rest[t] for t in tiles):
                continue
            taken = []
            for t in tiles:
                if rest[t]:
                    rest[t] -= 1
                    taken.append(t)
            place(i, left - 1, rest, held + len(taken))
            for t in taken:
                rest[t] += 1

    place(0, groups, list(counts), 0)
    if melds == 0:
        best = max(best, ref_pairs_held(tuple(counts[k] if k // 9 != void else 0
                                              for k in range(27))))
    return size - best - 1


def ref_pairs_held(counts: tuple[int, ...]) -> int:
    """The most tiles of the hand that seven pairs (a kind may give two) can hold."""

    @cache
    def held(kind: int, pairs: int) -> int:
        if kind == 27:
            return 0 if pairs == 0 else -99
        return max(min(counts[kind], 2 * n) + held(kind + 1, pairs - n)
                   for n in range(min(pairs, 2) + 1))

    return held(0, 7)


def ref_improving(counts: list[int], melds: int, void: int | None) -> list[int]:
    """Every kind whose draw lowers the shanten, by trying all 27."""
    base = shanten(counts, melds, void)
    out = []
    for k in range(27):
        grown = list(counts)
        grown[k] += 1
        if shanten(grown, melds, void) < base:
            out.append(k)
    return out


# -- generators -----------------------------------------------------------------------


@st.composite
def hands(draw: st.DrawFn, extra: int | None = None) -> tuple[list[int], int]:
    """A hand of 13 − 3·melds tiles (+ 1 if ``extra``), ≤ 4 copies, from the suits drawn,
    often clustered on a few ranks so that sets and pairs occur."""
    melds = draw(st.integers(0, 4))
    more = draw(st.integers(0, 1)) if extra is None else extra
    suits = draw(st.sampled_from([(0,), (0, 1), (1, 2), (0, 1, 2)]))
    width = draw(st.integers(4, 9))
    kinds = [s * 9 + r for s in suits for r in range(width)]
    pool = [t for t in kinds for _ in range(4)]
    n = 13 + more - 3 * melds
    picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=n, max_size=n, unique=True))
    return counts_of(pool[i] for i in picks), melds


# -- the definition ---------------------------------------------------------------------


@FAST
@given(hands())
def test_shanten_is_the_tiles_missing_from_the_closest_winning_shape_less_one(
        hand: tuple[list[int], int]) -> None:
    counts, melds = hand
    assert shanten(counts, melds) == ref_shanten(counts, melds)


@FAST
@given(hands(), st.integers(0, 2))
def test_with_a_void_suit_the_winning_shape_holds_none_of_it(
        hand: tuple[list[int], int], void: int) -> None:
    counts, melds = hand
    assert shanten(counts, melds, void) == ref_shanten(counts, melds, void)


@FAST
@given(hands(), st.integers(0, 2))
def test_every_void_tile_held_must_go(hand: tuple[list[int], int], void: int) -> None:
    counts, melds = hand
    held = sum(counts[void * 9:void * 9 + 9])
    size = sum(counts)
    floor = held - 1 if size == 14 - 3 * melds else held
    assert shanten(counts, melds, void) >= floor
    assert shanten(counts, melds, void) >= shanten(counts, melds)


@FAST
@given(hands(), st.one_of(st.none(), st.integers(0, 2)))
def test_kept_suit_keys_give_the_same_shanten(hand: tuple[list[int], int],
                                             void: int | None) -> None:
    counts, melds = hand
    assert shanten_keys(SuitKeys(counts), melds, void) == shanten(counts, melds, void)


@st.composite
def wall_hands(draw: st.DrawFn) -> tuple[list[int], int]:
    """A hand of 13 − 3·melds tiles (+ 0 or 1) drawn from the whole wall, uniformly — or,
    half the time without melds, pairs first (a seven-pairs shape, fours included)."""
    melds = draw(st.integers(0, 4))
    n = 13 + draw(st.integers(0, 1)) - 3 * melds
    if melds == 0 and draw(st.booleans()):
        kinds = draw(st.lists(st.integers(0, 26), min_size=n // 2, max_size=n // 2))
        tiles = [k for k in kinds for _ in range(2)]
        tiles += draw(st.lists(st.integers(0, 26), min_size=n - len(tiles),
                               max_size=n - len(tiles)))
        counts = counts_of(tiles)
        if max(counts) <= 4:
            return counts, melds
    wall = [k for k in range(27) for _ in range(4)]
    picks = draw(st.lists(st.integers(0, 107), min_size=n, max_size=n, unique=True))
    return counts_of(wall[i] for i in picks), melds


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(wall_hands(), st.one_of(st.none(), st.integers(0, 2)))
def test_the_table_shanten_is_the_reference_shanten_on_random_hands(
        hand: tuple[list[int], int], void: int | None) -> None:
    # the tables (suit profiles combined) against the definition enumerated, on hands
    # from the whole wall and seven-pairs shapes, with and without a void suit
    counts, melds = hand
    expected = ref_shanten(counts, melds, void)
    assert shanten(counts, melds, void) == expected
    assert shanten_keys(SuitKeys(counts), melds, void) == expected
    assert keys_shanten(SuitKeys(counts).keys, melds, void) == expected


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(wall_hands(), st.one_of(st.none(), st.integers(0, 2)))
def test_ukeire_is_the_reference_shanten_of_every_draw(
        hand: tuple[list[int], int], void: int | None) -> None:
    counts, melds = hand
    if sum(counts) != 13 - 3 * melds:
        counts = list(counts)
        counts[max(range(27), key=lambda k: counts[k])] -= 1
    base = ref_shanten(counts, melds, void)
    drawn = [k for k in range(27)
             if ref_shanten([n + (k == t) for t, n in enumerate(counts)], melds, void) < base]
    assert [int(t) for t, _ in ukeire(counts, melds, void)] == drawn


def test_a_call_on_empty_tables_fills_what_it_misses_and_answers_as_a_warm_one() -> None:
    rnd = random.Random(29)
    hands = [[min(t, 4) for t in counts_of(rnd.sample(range(27), 13))] for _ in range(20)]
    warm = [(shanten(h, 0, 1), shanten_keys(SuitKeys(h)), ukeire(h, 0, 2)) for h in hands]
    for plain in (shanten_module._RIGHT, shanten_module._LEFT, shanten_module._PAIR,
                  shanten_module._ANSWER):
        plain.clear()
    cold = [(shanten(h, 0, 1), shanten_keys(SuitKeys(h)), ukeire(h, 0, 2)) for h in hands]
    assert cold == warm


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 26), min_size=0, max_size=12), st.integers(0, 4))
def test_other_sizes_follow_the_same_definition(tiles: list[int], melds: int) -> None:
    counts = counts_of(tiles)
    if max(counts, default=0) <= 4:
        assert shanten(counts, melds) == ref_shanten(counts, melds)


@FAST
@given(hands(extra=1))
def test_minus_one_exactly_when_the_win_test_says_winning(hand: tuple[list[int], int]) -> None:
    counts, melds = hand
    assert (shanten(counts, melds) == -1) == is_winning(counts)


@FAST
@given(hands(extra=0))
def test_zero_exactly_when_some_tile_completes_the_hand(hand: tuple[list[int], int]) -> None:
    counts, melds = hand
    assert (shanten(counts, melds) == 0) == is_ready(counts)
    assert shanten(counts, melds) >= 0


# -- known hands ------------------------------------------------------------------------


@pytest.mark.parametrize("hand, melds, expected", [
    ("23445677m345789p", 0, -1),
    ("2344567m345789p", 0, 0),
    ("1133446m557799p", 0, 0),            # seven pairs, ready
    ("11334469m55779p", 0, 1),
    ("1357m2468p13579s", 0, 4),           # four gapped partial sets
    ("147m258p369s1478m", 0, 3),          # seven pairs: three pairs so far
    ("123m456p78s55s", 1, 0),
    ("123m456p7s9s15s", 1, 1),
    ("1m", 4, 0),
    ("11m", 4, -1),
    ("1111m234p567p789p", 0, 0),          # the wait is the fifth 1m: a shape wait
])
def test_known_hands(hand: str, melds: int, expected: int) -> None:
    assert shanten(c(hand), melds) == expected


def test_a_four_of_a_kind_is_two_of_the_seven_pairs() -> None:
    assert shanten(c("1111m2233p4455s66s")) == -1
    assert shanten(c("1111m2222p3333s4s")) == 0       # 6 pairs: waits on 4s
    assert shanten(c("1111m2233p4455s6s")) == 0


def test_seven_pairs_need_a_hand_without_melds() -> None:
    assert shanten(c("113355m7799p115s")) == 0
    # with a meld the five pairs are partial sets and the pair: two tiles short of ready
    assert shanten(c("113355m7799p"), melds=1) == 2


def test_fewer_tiles_still_need_a_tile_for_every_empty_slot() -> None:
    assert shanten([0] * 27) == 13
    assert shanten([0] * 27, melds=4) == 1
    assert shanten(c("123m"), melds=0) == 10


def test_void_tiles_count_against_the_hand() -> None:
    assert shanten(c("123m456m789m234p5s"), void=2) == 1
    assert shanten(c("123m456m789m234p55s"), void=2) == 1
    assert shanten(c("123m456m789m55p12s"), void=2) == 2
    assert shanten(c("123m456m789m234p5s"), void=1) == 3


def test_bad_input_is_an_error_naming_it() -> None:
    with pytest.raises(ShantenInputError, match="melds"):
        shanten([0] * 27, 5)
    with pytest.raises(ShantenInputError, match="melds"):
        shanten([0] * 27, -1)
    with pytest.raises(ShantenInputError, match="void"):
        shanten([0] * 27, 0, 3)
    with pytest.raises(ShantenInputError, match="copies"):
        shanten([6] + [0] * 26)


# -- ukeire -----------------------------------------------------------------------------


@FAST
@given(hands(extra=0), st.one_of(st.none(), st.integers(0, 2)),
       st.lists(st.integers(0, 4), min_size=27, max_size=27))
def test_ukeire_lists_every_kind_that_lowers_the_shanten_with_its_unseen_copies(
        hand: tuple[list[int], int], void: int | None, visible: list[int]) -> None:
    counts, melds = hand
    found = ukeire(counts, melds, void, visible)
    assert [int(t) for t, _ in found] == ref_improving(counts, melds, void)
    assert all(n == max(4 - counts[t] - visible[t], 0) for t, n in found)


def test_ukeire_lists_kinds_with_no_copy_left_with_zero() -> None:
    hand = c("123m456m789m23p55s")
    assert [(str(t), n) for t, n in ukeire(hand)] == [("1p", 4), ("4p", 4)]
    seen = c("1p4444p")
    assert [(str(t), n) for t, n in ukeire(hand, visible=seen)] == [("1p", 3), ("4p", 0)]
    # a wait on the fifth copy of a kind held four times
    assert [(str(t), n) for t, n in ukeire(c("1111m234p567p789p"))] == [("1m", 0)]


def test_ukeire_counts_seven_pairs_and_never_a_void_tile() -> None:
    pairs = ukeire(c("11m22m33p44p55s66s7s"))
    assert [str(t) for t, _ in pairs] == ["7s"]
    assert all(t // 9 != 2 for t, _ in ukeire(c("123m456m789m23p55s"), void=2))


def test_ukeire_needs_a_hand_of_thirteen_less_three_per_meld() -> None:
    with pytest.raises(TileCountError, match="14 concealed tiles"):
        ukeire(c("123m456m789m23p555s"))
    with pytest.raises(TileCountError, match="expected 10"):
        ukeire(c("123m456m789m23p55s"), melds=1)
    with pytest.raises(ShantenInputError, match="melds"):
        ukeire(c("123m456m789m23p55s"), melds=-1)
    with pytest.raises(ShantenInputError, match="copies"):
        ukeire([5] + [0] * 25 + [8])


# -- the look-ups a reviewer makes ----------------------------------------------------


@FAST
@given(st.lists(st.integers(0, 26), min_size=1, max_size=14), st.integers(0, 2),
       st.one_of(st.none(), st.integers(0, 2)))
def test_discard_shantens_are_the_shantens_of_the_hand_without_each_kind(
        tiles: list[int], melds: int, void: int | None) -> None:
    counts = [min(tiles.count(k), 4) for k in range(27)]
    keys = SuitKeys(counts).keys
    after = discard_shantens(keys, melds, void)
    assert sorted(after) == [k for k in range(27) if counts[k]]
    for kind, found in after.items():
        kept = list(counts)
        kept[kind] -= 1
        assert found == shanten(kept, melds, void) == discard_masks(keys, melds, void)[kind][0]
    assert keys_shanten(keys, melds, void) == shanten(counts, melds, void)


def drawn_improving(counts: list[int], melds: int, void: int | None) -> list[int]:
    return [k for k in ref_improving(counts, melds, void) if k // 9 != void]


@FAST
@given(st.lists(st.integers(0, 26), min_size=0, max_size=15), st.integers(0, 4),
       st.one_of(st.none(), st.integers(0, 2)))
def test_the_ukeire_mask_holds_every_kind_whose_draw_lowers_the_shanten_at_any_size(
        tiles: list[int], melds: int, void: int | None) -> None:
    counts = [min(tiles.count(k), 4) for k in range(27)]
    keys = SuitKeys(counts).keys
    base, mask = ukeire_mask(keys, melds, void)  # filling the tables in, then from them
    assert ukeire_mask(keys, melds, void) == (base, mask)
    assert base == shanten(counts, melds, void)
    assert [k for k in range(27) if mask >> k & 1] == drawn_improving(counts, melds, void)


@FAST
@given(hands(), st.one_of(st.none(), st.integers(0, 2)))
def test_discard_masks_are_the_ukeire_masks_of_the_hand_without_each_kind(
        hand: tuple[list[int], int], void: int | None) -> None:
    counts, melds = hand
    keys = SuitKeys(counts).keys
    found = discard_masks(keys, melds, void)  # filling the tables in, then from them
    assert discard_masks(keys, melds, void) == found
    for kind, (after, mask) in found.items():
        kept = list(counts)
        kept[kind] -= 1
        assert after == shanten(kept, melds, void)
        assert [k for k in range(27) if mask >> k & 1] == drawn_improving(kept, melds, void)


@FAST
@given(hands(extra=1), st.one_of(st.none(), st.integers(0, 2)), st.randoms())
def test_discard_leaders_are_the_discards_of_the_kinds_given_at_the_lowest_shanten(
        hand: tuple[list[int], int], void: int | None, rnd: random.Random) -> None:
    counts, melds = hand
    keys = SuitKeys(counts).keys
    held = [k for k in range(27) if counts[k]]
    kinds = rnd.sample(held, rnd.randint(1, len(held)))
    after = discard_masks(keys, melds, void)
    low = min(after[k][0] for k in kinds)
    found = discard_leaders(keys, kinds, melds, void)
    assert list(found) == [k for k in kinds if after[k][0] == low]
    assert all(found[k] == after[k] for k in found)


def test_tables_emptied_at_their_limit_give_the_same_answers(
        monkeypatch: pytest.MonkeyPatch) -> None:
    rnd = random.Random(11)
    hands = [[min(t, 4) for t in counts_of(rnd.sample(range(27), 13))] for _ in range(30)]
    expected = [(ukeire_mask(SuitKeys(h).keys), discard_masks(SuitKeys(h).keys, 0, 1))
                for h in hands]
    for table in (shanten_module._BLOCKS, shanten_module._RISES, shanten_module._UNIONS,
                  shanten_module._REMOVED, shanten_module._GAINS):
        table.clear()
        monkeypatch.setattr(table, "_limit", 3)  # emptied again and again, even mid-fill
    for plain in (shanten_module._RIGHT, shanten_module._LEFT, shanten_module._PAIR,
                  shanten_module._ANSWER):
        plain.clear()
    # the plain tables are filled between tries of a call: one call must fit (it needs a
    # few dozen entries at most), and they are emptied again and again between calls
    monkeypatch.setattr(shanten_module, "PLAIN_LIMIT", 64)
    found = [(ukeire_mask(SuitKeys(h).keys), discard_masks(SuitKeys(h).keys, 0, 1))
             for h in hands]
    assert found == expected
    assert all(len(t) <= 3 for t in (shanten_module._RISES, shanten_module._BLOCKS))
    assert all(len(t) <= 64 for t in (shanten_module._RIGHT, shanten_module._PAIR))
