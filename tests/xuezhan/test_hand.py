from __future__ import annotations

import struct

import pytest

from xuezhan import hand as hand_module
from xuezhan.hand import (
    PUNGS_ONLY,
    TERMINALS,
    Meld,
    MeldKind,
    SuitKeys,
    holds_suits,
    is_ready,
    is_seven_pairs,
    is_winning,
    readings,
    waits,
)
from xuezhan.tiles import Tile, counts_of, format_tiles, parse_tiles


def c(text: str) -> list[int]:
    return counts_of(parse_tiles(text))


def w(text: str, void: int | None = None) -> str:
    return format_tiles(waits(c(text), void))


# -- melds -------------------------------------------------------------------------


@pytest.mark.parametrize("kind, is_kong, size", [
    (MeldKind.PENG, False, 3), (MeldKind.MING, True, 4), (MeldKind.JIA, True, 4),
    (MeldKind.AN, True, 4)])
def test_a_meld_knows_whether_it_is_a_kong_and_its_size(kind: MeldKind, is_kong: bool,
                                                        size: int) -> None:
    meld = Meld(kind, Tile.parse("5p"), source=None if kind is MeldKind.AN else 2)
    assert (meld.is_kong, meld.size) == (is_kong, size)
    assert str(meld) == f"{kind.value} 5p"


def test_meld_kinds_are_the_log_spellings() -> None:
    assert [k.value for k in MeldKind] == ["peng", "ming", "jia", "an"]
    assert MeldKind("jia") is MeldKind.JIA and MeldKind.AN == "an"


def test_melds_are_frozen_values() -> None:
    a = Meld(MeldKind.PENG, Tile.parse("5p"), 1)
    assert a == Meld(MeldKind.PENG, Tile.parse("5p"), 1)
    with pytest.raises(AttributeError):
        a.tile = Tile.parse("6p")  # type: ignore[misc]


# -- the win test -------------------------------------------------------------------


@pytest.mark.parametrize("hand", [
    "23445677m345789p",      # 基本胡 (the Chengdu rules)
    "111333444m66677p",      # 对对胡
    "11223345678999m",       # 清一色
    "111222333m78999p",      # 幺九: 123·123·123·789·99
    "11123777888999m",       # 清幺九
    "123333m45566799s",      # 带根
    "11m",                   # four melds and the pair
    "123m44p",               # three melds
    "11122233344455m",
])
def test_four_sets_and_a_pair_win(hand: str) -> None:
    assert is_winning(c(hand))


@pytest.mark.parametrize("hand", [
    "11334466m557799p",      # 七对
    "11222244m557788p",      # 龙七对: a four-of-a-kind is two pairs
    "11112222333344m",       # three fours and a pair
])
def test_seven_pairs_win_with_fours_counting_as_two_pairs(hand: str) -> None:
    assert is_winning(c(hand))
    assert is_seven_pairs(c(hand))


@pytest.mark.parametrize("hand", [
    "11334466m5577p",        # 12 tiles of pairs: seven pairs needs all 14 concealed
    "1133446m5577p",
    "12345678m1234p",
    "11m22m",
    "",
    "1m",
    "111m",                  # a set without the pair
    "11m22p",                # two pairs
    "1112223334445m5p",
])
def test_other_shapes_do_not_win(hand: str) -> None:
    assert not is_winning(c(hand))


def test_a_hand_holding_its_void_suit_never_wins() -> None:
    hand = c("23445677m345789p")
    assert is_winning(hand, void=2)
    assert not is_winning(hand, void=0)
    assert not is_winning(hand, void=1)
    assert not is_winning(c("11334466m557799p"), void=1)


def test_counts_may_be_a_tuple() -> None:
    assert is_winning(tuple(c("11m")))
    assert waits(tuple(c("1m"))) == [Tile.parse("1m")]


def walked(key: bytes) -> int:
    node = hand_module._WALK
    for n in key:
        node = node[n]
    assert isinstance(node, int)
    return node


def test_the_suit_walk_gives_the_state_of_every_suit_in_the_table() -> None:
    # every key of the table, and every key a tile more or less than one (most of
    # those complete nothing): the walk is_winning reads and the dictionary agree
    is_winning(c("11m"))  # builds the tables
    table = hand_module._STATE
    for key in table:
        assert walked(key) == table[key]
        near = bytearray(key)
        for r in range(9):
            for d in (-1, 1):
                if 0 <= near[r] + d < hand_module._WALK_WIDTH:
                    near[r] += d
                    assert walked(bytes(near)) == table.get(bytes(near), hand_module._NO_WIN)
                    near[r] -= d


def test_counts_the_walk_cannot_take_are_read_from_the_suit_keys() -> None:
    assert not is_winning([6] + [0] * 26)             # no suit holds six of a rank
    assert is_winning([3, 3, 3, 3, 2] + [0] * 22)     # 111·222·333·444·55
    with pytest.raises(struct.error):
        is_winning([0] * 26)                          # not 27 kinds
    with pytest.raises(ValueError):
        is_winning([256] + [0] * 26)


def test_is_winning_before_the_walk_is_built_reads_the_suit_keys(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hand_module, "_WALK", ())
    assert is_winning(c("123m456m789m234p55p"))
    assert is_winning(c("11223344556677m"))
    assert not is_winning(c("123m456m789m234p56p"))


def test_kept_suit_keys_follow_the_tiles_in_and_out() -> None:
    keys = SuitKeys(c("1112345678999m"))
    assert not keys.is_winning()
    keys.add(Tile.parse("5m"))
    assert keys.is_winning()
    assert not keys.is_winning(void=0)
    keys.remove(Tile.parse("9m"), 2)
    assert not keys.is_winning()        # 111·234·55·678·9
    keys.add(Tile.parse("9m"), 2)
    assert keys.is_winning()
    assert keys.keys == SuitKeys(c("11123455678999m")).keys


def test_kept_suit_keys_win_with_seven_pairs_and_not_with_their_void() -> None:
    keys = SuitKeys(c("11334466m557799p"))
    assert keys.is_winning() and keys.is_winning(void=2)
    assert not keys.is_winning(void=1)


def test_kept_suit_keys_follow_a_key_set_by_hand() -> None:
    # a suit's state goes with its key object, so a key replaced without add() is
    # still read afresh
    keys = SuitKeys(c("123m456m789m234p5p"))
    assert not keys.is_winning()
    keys.keys[1] = SuitKeys(c("23455p")).keys[1]
    assert keys.is_winning()


# -- waits ------------------------------------------------------------------------


@pytest.mark.parametrize("hand, expected", [
    ("1112345678999m", "123456789m"),    # 九莲宝灯: all nine
    ("2344567m345789p", "147m"),
    ("23m456789m11p555p", "147m"),
    ("111333444m6667p", "578p"),
    ("1133446m557799p", "6m"),           # seven pairs
    ("1122334m", "14m"),                 # sets (1, 4) and nothing more
    ("11223344556677m", ""),             # 14 tiles: complete, not a wait shape
    ("1m", "1m"),                        # four melds: the pair wait
    ("13m", ""),
    ("5m", "5m"),
])
def test_waits_are_every_tile_that_completes_the_hand(hand: str, expected: str) -> None:
    assert w(hand) == format_tiles(parse_tiles(expected))


def test_a_wait_may_be_a_tile_the_player_holds_all_four_of() -> None:
    # 1111m: only a fifth 1m would complete it; a shape wait that can never arrive
    assert w("1111m234p567p789p") == "1m"
    assert is_winning(c("11111m234p567p789p"))
    # peng 5p and the fourth 5p in hand, waiting on it as the pair
    assert w("5p") == "5p"


def test_seven_pairs_wait_on_a_third_copy_makes_a_four() -> None:
    assert w("111m3355m557799p") == "1m"


def test_seven_pairs_and_sets_waits_are_merged() -> None:
    assert w("11223344m5566p9p") == "9p"       # seven pairs only
    assert w("11223344m55667p") == "47p"       # 7p both ways, 4p as sets only


def test_waits_are_empty_when_the_void_suit_is_held() -> None:
    assert w("2344567m345789p", void=1) == ""
    assert w("2344567m345789p", void=2) == "147m"


def test_ready_means_some_wait() -> None:
    assert is_ready(c("2344567m345789p"))
    assert not is_ready(c("2344567m345789p"), void=1)
    assert not is_ready(c("1357m2468p13579s"))


# -- readings (the features scoring needs) -----------------------------------------


def test_readings_see_111222333_as_pungs_and_as_chows() -> None:
    mask = readings(c("111222333m78999p"))
    assert mask >> TERMINALS & 1            # 123·123·123·789·99
    assert readings(c("111222333m444p99p")) >> (PUNGS_ONLY | TERMINALS) & 0 == 0
    assert readings(c("111222333m444p99p")) >> PUNGS_ONLY & 1  # 111·222·333·444 pungs
    assert readings(c("12m")) == 0


def test_readings_of_a_fifth_copy_use_the_plain_recursion() -> None:
    assert readings(c("11111m234p567p789p")) == 1 << 0   # 111·11: no feature holds


# -- suits ------------------------------------------------------------------------


def test_holds_suits_counts_hand_and_melds() -> None:
    assert holds_suits(c("123m456m")) == 1
    assert holds_suits(c("123m456m"), [Meld(MeldKind.PENG, Tile.parse("5p"), 1)]) == 2
    assert holds_suits(c("1m1p1s")) == 3
