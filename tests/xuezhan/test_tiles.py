from __future__ import annotations

import pytest

from xuezhan.errors import InvalidTileError
from xuezhan.tiles import (
    FULL_SET,
    TILES,
    Suit,
    Tile,
    counts_of,
    format_tiles,
    parse_tiles,
)


def test_there_are_27_kinds_and_108_tiles() -> None:
    assert len(TILES) == 27
    assert len(FULL_SET) == 108
    assert all(FULL_SET.count(t) == 4 for t in TILES)


@pytest.mark.parametrize("text, suit, rank", [("1m", Suit.M, 1), ("5p", Suit.P, 5),
                                              ("9s", Suit.S, 9), ("5万", Suit.M, 5),
                                              ("2筒", Suit.P, 2), ("3条", Suit.S, 3)])
def test_a_tile_reads_its_suit_and_rank(text: str, suit: Suit, rank: int) -> None:
    tile = Tile.parse(text)
    assert (tile.suit, tile.rank) == (suit, rank)


def test_a_tile_prints_in_notation_and_repr_evaluates_back() -> None:
    tile = Tile.parse("7s")
    assert str(tile) == "7s"
    assert eval(repr(tile)) == tile
    assert tile.zh == "7条"


def test_compact_hands_put_digits_before_their_suit() -> None:
    assert [str(t) for t in parse_tiles("123m456p11s")] == [
        "1m", "2m", "3m", "4p", "5p", "6p", "1s", "1s"]


def test_chinese_suit_names_and_lists_are_accepted() -> None:
    assert parse_tiles("1万 2筒 3条") == parse_tiles("1m2p3s")
    assert parse_tiles(["1m", "2p", "3s"]) == parse_tiles("1m2p3s")


def test_format_sorts_and_groups_by_suit() -> None:
    assert format_tiles(parse_tiles("9s1m5p1m")) == "11m5p9s"


@pytest.mark.parametrize("bad", ["0m", "1z", "12", "m", "10m", "1m 2x", "東"])
def test_a_bad_hand_raises_one_error_type_naming_the_token(bad: str) -> None:
    with pytest.raises(InvalidTileError) as info:
        parse_tiles(bad)
    assert repr(info.value.token) in str(info.value)


@pytest.mark.parametrize("bad", ["0z", "", 5, None, "5mm"])
def test_a_bad_single_tile_raises_invalid_tile_error(bad: object) -> None:
    with pytest.raises(InvalidTileError):
        Tile.parse(bad)


def test_invalid_tile_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        Tile.parse("0m")


def test_counts_round_trip() -> None:
    tiles = parse_tiles("1123m99p")
    counts = counts_of(tiles)
    assert [TILES[k] for k, n in enumerate(counts) for _ in range(n)] == tiles


def test_suit_parse_accepts_letters_and_names() -> None:
    assert Suit.parse("p") is Suit.P
    assert Suit.parse("条") is Suit.S
    with pytest.raises(InvalidTileError):
        Suit.parse("z")
