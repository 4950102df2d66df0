"""Property tests: the table-driven hand analysis agrees with a plain brute force."""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from xuezhan import hand as hand_module
from xuezhan.fan import WinContext, score_win
from xuezhan.hand import (
    Meld,
    MeldKind,
    SuitKeys,
    is_ready,
    is_winning,
    waits,
    winning_keys,
)
from xuezhan.rules import Rules
from xuezhan.shanten import shanten
from xuezhan.tiles import TILES, counts_of

FAST = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


# -- the reference: recursive decomposition, written plainly ------------------------


def ref_sets(counts: list[int], pair_needed: bool) -> bool:
    """Can ``counts`` be split into sets (pungs, chows within a suit) and, if
    ``pair_needed``, exactly one pair? Any number of copies is allowed."""
    first = next((t for t in range(27) if counts[t]), None)
    if first is None:
        return not pair_needed
    if pair_needed and counts[first] >= 2:
        counts[first] -= 2
        ok = ref_sets(counts, False)
        counts[first] += 2
        if ok:
            return True
    if counts[first] >= 3:
        counts[first] -= 3
        ok = ref_sets(counts, pair_needed)
        counts[first] += 3
        if ok:
            return True
    if first % 9 <= 6 and counts[first + 1] and counts[first + 2]:
        for d in range(3):
            counts[first + d] -= 1
        ok = ref_sets(counts, pair_needed)
        for d in range(3):
            counts[first + d] += 1
        if ok:
            return True
    return False


def ref_winning(counts: list[int]) -> bool:
    n = sum(counts)
    if n % 3 == 2 and ref_sets(list(counts), True):
        return True
    return n == 14 and all(c % 2 == 0 for c in counts)


def ref_waits(counts: list[int]) -> list[int]:
    out = []
    for t in range(27):
        grown = list(counts)
        grown[t] += 1
        if ref_winning(grown):
            out.append(t)
    return out


# -- generators -------------------------------------------------------------------


@st.composite
def random_hands(draw: st.DrawFn, extra: int = 2) -> tuple[list[int], int]:
    """A random hand of 13 + extra − 3·melds tiles from the suits drawn, ≤ 4 copies each."""
    melds = draw(st.integers(0, 4))
    suits = draw(st.sampled_from([(0,), (0, 1), (1, 2), (0, 1, 2)]))
    kinds = [s * 9 + r for s in suits for r in range(9)]
    pool = [t for t in kinds for _ in range(4)]
    n = 13 + extra - 3 * melds - 1
    picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=n, max_size=n, unique=True))
    return counts_of(pool[i] for i in picks), melds


@st.composite
def winning_hands(draw: st.DrawFn) -> tuple[list[int], int]:
    """Sets and a pair (or, sometimes, seven pairs), ≤ 4 copies each."""
    suits = draw(st.sampled_from([(0,), (0, 1), (0, 2), (0, 1, 2)]))
    kind = st.sampled_from([s * 9 + r for s in suits for r in range(9)])
    counts = [0] * 27
    if draw(st.integers(0, 5)) == 0:
        for t in draw(st.lists(kind, min_size=7, max_size=7)):
            counts[t] += 2
        assume(max(counts) <= 4)
        return counts, 0
    melds = draw(st.integers(0, 4))
    for _ in range(4 - melds):
        t = draw(kind)
        if t % 9 <= 6 and draw(st.booleans()):
            for d in range(3):
                counts[t + d] += 1
        else:
            counts[t] += 3
    counts[draw(kind)] += 2
    assume(max(counts) <= 4)
    return counts, melds


@st.composite
def ready_hands(draw: st.DrawFn) -> tuple[list[int], int]:
    counts, melds = draw(winning_hands())
    out = draw(st.sampled_from([t for t in range(27) if counts[t]]))
    counts[out] -= 1
    return counts, melds


# -- properties -------------------------------------------------------------------


@FAST
@given(random_hands())
def test_is_winning_agrees_with_the_reference_on_random_hands(hand: tuple[list[int], int]) -> None:
    counts, _ = hand
    assert is_winning(counts) == ref_winning(counts)


hand_module._build()
#: every suit shape the win test knows (complete, or seven pairs' part), in order
SUIT_SHAPES = sorted(hand_module._STATE)


@FAST
@given(st.lists(st.sampled_from(SUIT_SHAPES), min_size=3, max_size=3),
       st.integers(0, 26), st.integers(0, 6))
def test_is_winning_from_counts_agrees_with_the_suit_keys(
        suits: list[bytes], kind: int, count: int) -> None:
    # the walk over 27 counts and the dictionary of suit keys are two readings of one
    # table: on three known suit shapes (a win when one holds the pair, or seven pairs)
    # with one count set anew, fifth copies (a shape wait) and impossible sixth ones
    # included
    counts = list(b"".join(suits))
    counts[kind] = count
    assert is_winning(counts) == winning_keys(*SuitKeys(counts).keys)


@FAST
@given(winning_hands())
def test_is_winning_agrees_with_the_reference_on_winning_hands(
        hand: tuple[list[int], int]) -> None:
    counts, _ = hand
    assert is_winning(counts) == ref_winning(counts) is True


@FAST
@given(random_hands(extra=1))
def test_waits_agree_with_the_reference_on_random_hands(hand: tuple[list[int], int]) -> None:
    counts, _ = hand
    assert [int(t) for t in waits(counts)] == ref_waits(counts)


@FAST
@given(ready_hands())
def test_waits_agree_with_the_reference_on_ready_hands(hand: tuple[list[int], int]) -> None:
    counts, _ = hand
    found = [int(t) for t in waits(counts)]
    assert found == ref_waits(counts)
    assert found


@FAST
@given(st.one_of(random_hands(), winning_hands()))
def test_shanten_is_minus_one_exactly_when_winning(hand: tuple[list[int], int]) -> None:
    counts, melds = hand
    assert (shanten(counts, melds) == -1) == is_winning(counts)
    assert shanten(counts, melds) >= -1


@FAST
@given(st.one_of(random_hands(extra=1), ready_hands()))
def test_shanten_is_zero_exactly_when_ready(hand: tuple[list[int], int]) -> None:
    counts, melds = hand
    assert (shanten(counts, melds) == 0) == is_ready(counts)
    assert shanten(counts, melds) >= 0


@FAST
@given(st.one_of(winning_hands(), random_hands()), st.integers(0, 2))
def test_a_void_tile_is_never_winning_and_otherwise_changes_nothing(
        hand: tuple[list[int], int], void: int) -> None:
    counts, _ = hand
    holds_void = any(counts[void * 9:void * 9 + 9])
    assert is_winning(counts, void) == (ref_winning(counts) and not holds_void)


@FAST
@given(ready_hands(), st.integers(0, 2))
def test_waits_with_a_void_are_empty_or_unchanged(hand: tuple[list[int], int], void: int) -> None:
    counts, _ = hand
    holds_void = any(counts[void * 9:void * 9 + 9])
    assert waits(counts, void) == ([] if holds_void else waits(counts))


@st.composite
def moves(draw: st.DrawFn) -> list[tuple[int, int]]:
    """Tiles in (+1) and out (−1) of a hand, as a table moves them (the test skips a
    move that would make a fifth copy or a hand of more than 14 tiles)."""
    return draw(st.lists(st.tuples(st.integers(0, 26), st.sampled_from([1, -1])),
                         max_size=30))


@FAST
@given(st.one_of(winning_hands(), ready_hands(), random_hands()), moves(),
       st.one_of(st.none(), st.integers(0, 2)))
def test_kept_suit_keys_win_and_wait_as_the_reference_after_every_move(
        hand: tuple[list[int], int], steps: list[tuple[int, int]], void: int | None) -> None:
    counts, _ = hand
    keys = SuitKeys(counts)
    for tile, n in steps:
        if not 0 <= counts[tile] + n <= 4 or sum(counts) + n > 14:
            continue  # no fifth copy, no hand of more than 14 tiles
        counts[tile] += n
        keys.add(tile, n)
        holds_void = void is not None and any(counts[void * 9:void * 9 + 9])
        assert keys.is_winning(void) == (ref_winning(counts) and not holds_void)
        assert keys.is_winning(void) == is_winning(counts, void)
        if sum(counts) % 3 == 1:
            assert [int(t) for t in keys.waits(void)] == ([] if holds_void else ref_waits(counts))


@FAST
@given(st.one_of(winning_hands(), ready_hands()), moves())
def test_a_copy_of_kept_keys_moves_on_its_own(hand: tuple[list[int], int],
                                              steps: list[tuple[int, int]]) -> None:
    counts, _ = hand
    keys = SuitKeys(counts)
    before = keys.is_winning()
    copy = keys.copy()
    for tile, n in steps:
        if 0 <= counts[tile] + n <= 4 and sum(counts) + n <= 14:
            counts[tile] += n
            copy.add(tile, n)
            copy.is_winning()
    assert copy.is_winning() == ref_winning(counts)
    assert keys.is_winning() == before


PRESETS = [Rules.preset("chengdu"), Rules.preset("online"),
           Rules.preset("chengdu").with_options({"fan_system": "additive", "root": "all"})]


@FAST
@given(winning_hands(), st.randoms(use_true_random=False), st.sampled_from(PRESETS),
       st.booleans())
def test_score_is_independent_of_tile_order_meld_order_and_suit_names(
        hand: tuple[list[int], int], rnd: object, rules: Rules, self_drawn: bool) -> None:
    import random
    assert isinstance(rnd, random.Random)
    counts, n_melds = hand
    # the melds: pungs/kongs of tiles not already in hand 4 times
    tiles = [t for t in range(27) if counts[t] == 0]
    kinds = list(MeldKind)
    melds = [Meld(rnd.choice(kinds), TILES[t]) for t in rnd.sample(tiles, n_melds)]
    win = rnd.choice([t for t in range(27) if counts[t]])
    ctx = WinContext(self_drawn=self_drawn)
    base = score_win(counts, melds, win, None, rules, ctx)

    shuffled = [TILES[t] for t in range(27) for _ in range(counts[t])]
    rnd.shuffle(shuffled)
    reordered = list(melds)
    rnd.shuffle(reordered)
    assert score_win(counts_of(shuffled), reordered, win, None, rules, ctx) == base

    perm = [0, 1, 2]
    rnd.shuffle(perm)

    def move(t: int) -> int:
        return perm[t // 9] * 9 + t % 9

    renamed = [0] * 27
    for t in range(27):
        renamed[move(t)] = counts[t]
    renamed_melds = [Meld(m.kind, TILES[move(m.tile)]) for m in melds]
    assert score_win(renamed, renamed_melds, move(win), None, rules, ctx) == base
