"""The score-sheet form's checks: the engine's next dealer, problems in words, payments."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.league.sheets.checks import check_sheet
from xuezhan.sheet import settle_sheet

PLAYERS = ["ann", "ben", "cai", "dan"]


def sheet(*rounds: dict[str, Any], players: list[str] | None = None) -> dict[str, Any]:
    return {"format": "xuezhan-sheet", "version": 1, "ruleset": "chengdu",
            "players": PLAYERS if players is None else players, "rounds": list(rounds)}


def win(seat: int, tile: str = "5m", **extra: Any) -> dict[str, Any]:
    return {"type": "win", "seat": seat, "tile": tile, "pattern": "ping_hu", **extra}


# the rule book's cases (docs/rules.md §2.1): the round, who deals next, and the words
SCENARIOS = {
    "the first winner deals": (
        {"dealer": 0, "events": [win(2, **{"from": 1}), win(3)]}, 2, "cai won first"),
    "a self-drawn first win": ({"dealer": 1, "events": [win(0)]}, 0, "ann won first"),
    "the discarder of a multiple win deals": (
        {"dealer": 0, "events": [win(1, **{"from": 3}), win(2, **{"from": 3},
                                                              with_previous=True)]},
        3, "several on dan's discard"),
    "the konger robbed by two deals": (
        {"dealer": 2, "events": [
            {"type": "kong", "seat": 0, "kind": "concealed", "tile": "9p"},
            win(1, **{"from": 0}, rob_kong=True), win(3, **{"from": 0}, rob_kong=True,
                                                       with_previous=True)]},
        0, "several on ann's discard"),
    "a later multiple win does not count": (
        {"dealer": 0, "events": [win(2), win(1, **{"from": 3}),
                                 win(0, **{"from": 3}, with_previous=True)]},
        2, "cai won first"),
    "nobody won: the dealer stays": (
        {"dealer": 3, "events": [], "drawn": True, "ready": [{"seat": 1, "fan": 1}],
         "flower_pigs": [2]}, 3, "Nobody won: dan deals again"),
    "an unfinished round names nobody": (
        {"dealer": 1, "events": [win(2)], "incomplete": True}, None, "did not finish"),
}


@pytest.mark.parametrize("case", list(SCENARIOS))
def test_the_form_s_next_dealer_is_the_engine_s_in_every_case_of_the_rule_book(
    case: str,
) -> None:
    round_doc, expected, words = SCENARIOS[case]
    with translation.override("en"):
        checked = check_sheet(sheet(round_doc))
    engine = settle_sheet(sheet(round_doc)).rounds[0].settlement.next_dealer
    assert checked.rounds[0].next_dealer == engine == expected
    assert words in checked.rounds[0].rule


def test_a_round_dealt_by_the_engine_s_next_dealer_is_no_problem_and_another_is() -> None:
    first = SCENARIOS["the discarder of a multiple win deals"][0]
    with translation.override("en"):
        good = check_sheet(sheet(first, {"dealer": 3, "events": []}))
        bad = check_sheet(sheet(first, {"dealer": 1, "events": []}))
    assert good.legal
    (problem,) = bad.problems
    assert not problem.blocking and problem.round == 1
    assert problem.text == "Round 2: ben deals, but the round before makes dan the dealer."


seat = st.integers(0, 3)


@st.composite
def rounds(draw: st.DrawFn) -> dict[str, Any]:
    events: list[dict[str, Any]] = []
    won: list[int] = []
    for _ in range(draw(st.integers(0, 4))):
        if draw(st.booleans()):
            events.append({"type": "kong", "seat": draw(seat), "kind": "concealed",
                           "tile": "1s"})
            continue
        left = [s for s in range(4) if s not in won]
        if len(won) == 3:
            break
        winner = draw(st.sampled_from(left))
        event = win(winner)
        if draw(st.booleans()):
            others = [s for s in left if s != winner]
            event["from"] = draw(st.sampled_from(others))
            previous = events[-1] if events else None
            if (previous and previous["type"] == "win" and previous.get("from") == event["from"]
                    and draw(st.booleans())):
                event["with_previous"] = True
        events.append(event)
        won.append(winner)
    return {"dealer": draw(seat), "events": events}


@settings(max_examples=150, deadline=None)
@given(round_doc=rounds())
def test_on_any_round_the_form_s_next_dealer_is_the_engine_s(round_doc: dict[str, Any]) -> None:
    engine = settle_sheet(sheet(round_doc)).rounds[0].settlement.next_dealer
    with translation.override("en"):
        assert check_sheet(sheet(round_doc)).rounds[0].next_dealer == engine


def test_a_sheet_without_players_says_so_and_does_not_claim_everything_adds_up() -> None:
    with translation.override("en"):
        checked = check_sheet(sheet({"dealer": 0, "events": [win(1)]}, players=["", "", "", ""]))
    assert checked.blocking and not checked.legal
    assert [p.text for p in checked.problems] == [
        "East: choose a player.", "South: choose a player.", "West: choose a player.",
        "North: choose a player."]
    assert checked.rounds[0].settled  # the round itself still settles, by seat


def test_a_win_without_its_tile_or_pattern_names_the_round_the_player_and_the_field() -> None:
    with translation.override("en"):
        checked = check_sheet(sheet({"dealer": 0, "events": [win(0)]},
                                    {"dealer": 0, "events": [{"type": "win", "seat": 2}]}))
    assert [p.text for p in checked.problems] == [
        "Round 2, cai's win: pick the winning tile.",
        "Round 2, cai's win: choose its pattern or give its fan."]
    assert [(p.round, p.event, p.field) for p in checked.problems] == [(1, 0, "tile"),
                                                                         (1, 0, "pattern")]
    assert checked.rounds[0].settled and not checked.rounds[1].settled
    assert checked.totals == checked.rounds[0].totals


def test_problems_read_in_chinese_with_no_code_or_path() -> None:
    with translation.override("zh-hans"):
        checked = check_sheet(sheet({"dealer": 0, "events": [{"type": "win", "seat": 2}]},
                                    {"dealer": 2, "events": [win(0, fan=9, add_ons={"gen": 1})]}))
    texts = [p.text for p in checked.problems]
    assert texts and all("$" not in t and "_" not in t for t in texts)
    assert all(any("\u4e00" <= ch <= "\u9fff" for ch in t) for t in texts)
    assert "第 1 局" in texts[0]


def test_each_round_shows_its_payments_in_words_and_the_running_totals() -> None:
    with translation.override("en"):
        checked = check_sheet(sheet({"dealer": 0, "events": [win(1, **{"from": 3})]},
                                    {"dealer": 1, "events": [win(1)]}))
    first, second = checked.rounds
    assert first.deltas == [0, 1, 0, -1] and first.totals == [0, 1, 0, -1]
    assert second.totals == [-1, 4, -1, -2] and checked.totals == second.totals
    (payment,) = first.payments
    assert payment["label"] == "Win on a discard (dian pao)" and "dan" in payment["text"]
    assert checked.legal
