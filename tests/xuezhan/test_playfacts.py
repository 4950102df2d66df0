"""Play facts (docs/statistics.md): turns, claims, deal-ins, exchange and void choices."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from xuezhan.playfacts import play_facts
from xuezhan.rules import Rules

DATA = Path(__file__).resolve().parents[1] / "data"


def facts_of(name: str) -> list[Any]:
    doc = json.loads((DATA / name).read_text(encoding="utf-8"))
    return play_facts(doc["rounds"][0], Rules.from_json(doc.get("ruleset", "chengdu")))


def round_doc(events: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "dealer": 0,
        "hands": ["123456789m1122p9s", "123456789p1122s", "123456789s1122m", "345678m345678p3s"],
        "events": events,
    }


OFF = Rules.from_json({"exchange": "off"})
VOIDS = {"type": "dingque", "suits": ["s", "m", "p", "s"]}


def test_a_kong_replacement_draw_is_no_new_turn_and_the_dealer_starts_with_one() -> None:
    events = [
        VOIDS,
        {"type": "discard", "actor": 0, "tile": "9s"},
        {"type": "draw", "actor": 1, "tile": "9p"},
        {"type": "gang", "actor": 1, "kind": "an", "tile": "9p"},
        {"type": "draw", "actor": 1, "tile": "5s"},
    ]
    facts = play_facts(round_doc(events), OFF)
    assert [f["active_turns"] for f in facts] == [1, 1, 0, 0]
    assert facts[1]["kongs_concealed"] == 1


def test_starting_shanten_counts_the_void_suit_as_tiles_to_lose() -> None:
    facts = play_facts(round_doc([VOIDS]), OFF)
    # seat 3 holds four sets and 3s, void s: the 3s must go, then a pair: one away from ready
    assert facts[3]["starting_shanten"] == 1
    # the dealer's 14 tiles: 123456789m 1122p, and 9s to lose: ready once it is gone
    assert facts[0]["starting_shanten"] == 0
    assert facts[0]["void_fewest"] is True and facts[3]["void_fewest"] is True


def test_the_void_is_cleared_on_the_turn_its_last_tile_is_discarded() -> None:
    events = [VOIDS, {"type": "discard", "actor": 0, "tile": "9s"}]
    facts = play_facts(round_doc(events), OFF)
    assert facts[0]["void_cleared_turn"] == 1
    assert facts[1]["void_cleared_turn"] == 0  # void m, and no m tile after the deal
    assert facts[3]["void_cleared_turn"] is None  # still holds its 3s


def test_a_robbed_kong_is_a_deal_in_and_no_kong_for_the_konger() -> None:
    facts = facts_of("rob_kong_chengdu.json")
    assert (facts[1]["kongs_added"], facts[1]["robbed_kongs"], facts[1]["pengs"]) == (0, 1, 1)
    assert facts[1]["deal_ins"] == 2


def test_a_double_win_on_one_discard_is_one_deal_in() -> None:
    facts = facts_of("multiple_win_two_winners_chengdu.json")
    assert [f["deal_ins"] for f in facts] == [0, 0, 0, 2]


def test_the_exchange_choice_is_read_against_the_dealt_hand() -> None:
    facts = facts_of("drawn_round_pig_ting_check_refund_chengdu.json")
    assert all(f["exchange_shortest"] is not None for f in facts)
    assert all(f["void_is_given"] is not None for f in facts)
