"""Player statistics (docs/statistics.md): exact values from the hand-made logs, and
invariants over simulated matches checked against a plain recomputation from the
engine's reports."""

from __future__ import annotations

from collections import Counter
from datetime import date
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.records.documents import data_documents

pytestmark = pytest.mark.django_db

CORPUS = data_documents()


@pytest.fixture
def verified(upload: Any) -> Any:
    """``verified(doc)``: upload a document and verify it; returns the Match."""
    from analysis import services

    def do(doc: dict[str, Any]) -> Any:
        match = services.verify_match(match_id=upload(doc).pk)
        assert match.status in ("verified", "illegal"), match.last_error
        return match

    return do


def stats_of(club: Any, handle: str, **filters: Any) -> dict[str, Any]:
    from analysis.stats import figures
    from records.models import Player

    player = Player.objects.get(club=club, handle=handle)
    return figures.player_stats(club, player, figures.Filters(**filters))


def test_call_transfer_counts_in_for_the_winner_and_out_for_the_konger(
    club: Any, verified: Any
) -> None:
    verified(CORPUS["kong_discard_won_call_transfer_online"])
    konger, winner = stats_of(club, "bob"), stats_of(club, "dave")
    assert konger["stats"]["call_transfer_out"] == {"count": 1, "amount": 6}
    assert winner["stats"]["call_transfer_in"] == {"count": 1, "amount": 6}
    assert konger["stats"]["kong_income"] == {"gross": 6, "net": 0}
    assert konger["stats"]["kongs"]["concealed"]["numerator"] == 1
    assert winner["stats"]["kong_discard_win_rate"]["numerator"] == 1
    assert konger["stats"]["deal_ins"] == 1


def test_a_drawn_round_counts_tax_refund_flower_pig_and_ting_check_with_price_difference(
    club: Any, verified: Any
) -> None:
    verified(CORPUS["drawn_round_pig_ting_check_refund_chengdu"])
    alice, bob, carol, dave = (
        stats_of(club, h)["stats"] for h in ("alice", "bob", "carol", "dave")
    )
    assert alice["tax_refunds"] == {"count": 3, "amount": 6}
    assert alice["kong_income"] == {"gross": 6, "net": 0}
    assert bob["flower_pig"] == {"count": 1, "amount": 48}
    assert alice["ting_check_paid"] == {"count": 1, "amount": 5}
    assert bob["ting_check_paid"] == {"count": 1, "amount": 5}  # the pig pays 查叫 too
    assert carol["ting_check_received"] == {"count": 1, "amount": 2}
    assert carol["ting_check_paid"] == {"count": 1, "amount": 3}  # 补差价 to seat 3
    assert dave["ting_check_received"] == {"count": 1, "amount": 11}
    assert [s["draw_rate"]["value"] for s in (alice, bob, carol, dave)] == [1, 1, 1, 1]
    ready = [s["ready_at_draw_rate"]["numerator"] for s in (alice, bob, carol, dave)]
    assert ready == [0, 0, 1, 1]


def test_a_robbed_kong_is_a_deal_in_for_the_konger_and_no_kong(club: Any, verified: Any) -> None:
    verified(CORPUS["rob_kong_chengdu"])
    konger, robber = stats_of(club, "bob")["stats"], stats_of(club, "dave")["stats"]
    assert konger["robbed_kongs"] == 1
    assert konger["kongs"]["added"]["numerator"] == 0
    assert konger["kong_income"] == {"gross": 0, "net": 0}
    assert konger["deal_ins"] == 2  # the robbed kong and the 9m
    assert konger["claim_rate"]["numerator"] == 1  # the peng
    assert robber["rob_kong_win_rate"] == {
        "value": 1.0,
        "numerator": 1,
        "denominator": 1,
        "low_sample": True,
    }


def test_a_multiple_win_is_one_deal_in_and_one_win_each(club: Any, verified: Any) -> None:
    verified(CORPUS["multiple_win_two_winners_chengdu"])
    discarder = stats_of(club, "dave")["stats"]
    assert discarder["deal_ins"] == 2  # the double win on 5s, then the 5p
    assert discarder["average_deal_in"]["numerator"] == 7
    assert [stats_of(club, h)["stats"]["wins"] for h in ("alice", "bob", "carol")] == [1, 1, 1]
    assert discarder["last_standing_rate"]["numerator"] == 1


def test_head_to_head_nets_are_what_each_paid_the_other(club: Any, verified: Any) -> None:
    verified(CORPUS["multiple_win_two_winners_chengdu"])
    rows = {r["handle"]: r for r in stats_of(club, "dave")["head_to_head"]}
    assert {h: (r["rounds"], r["net"]) for h, r in rows.items()} == {
        "alice": (1, -1),
        "bob": (1, -2),
        "carol": (1, -4),
    }


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_decomposition_adds_up_to_net_for_every_hand_made_log(
    name: str, club: Any, verified: Any
) -> None:
    from records.errors import DocumentError

    try:
        verified(CORPUS[name])
    except DocumentError:
        return  # refused at upload: no facts
    for handle in CORPUS[name]["players"]:  # each log's own players
        result = stats_of(club, handle, include_illegal=True)
        parts = result["decomposition"]
        assert sum(v for k, v in parts.items() if k != "net") == parts["net"]
        assert parts["net"] == result["stats"]["net"]


def test_rebuild_facts_rewrites_the_facts_from_the_stored_log(club: Any, verified: Any) -> None:
    from django.core.management import call_command

    from analysis.models import SeatResult

    verified(CORPUS["rob_kong_chengdu"])
    SeatResult.objects.update(deal_ins=0, robbed_kongs=0)
    call_command("rebuild_facts", stdout=None)
    assert stats_of(club, "bob")["stats"]["deal_ins"] == 2
    assert stats_of(club, "bob")["stats"]["robbed_kongs"] == 1


# -- simulated matches against a plain recomputation -------------------------------------


def _recompute(
    reports: list[dict[str, Any]], docs: list[dict[str, Any]], handle: str
) -> dict[str, Any]:
    """The statistics of one player, recomputed in plain Python from the engine's reports."""
    n: Counter[str] = Counter()
    for doc, report in zip(docs, reports, strict=True):
        if handle not in doc["players"] or not report["legal"]:
            continue
        seat = doc["players"].index(handle)
        for round_doc, r in zip(doc["rounds"], report["rounds"], strict=True):
            if r["incomplete"]:
                continue
            facts = r["seats"][seat]
            n["rounds"] += 1
            n["net"] += r["deltas"][seat]
            n["wins"] += facts["won"]
            n["self_draw_wins"] += facts["won"] and facts["self_drawn"]
            n["dealer_rounds"] += round_doc["dealer"] == seat
            n["first"] += facts["win_order"] == 1
            n["fan"] += facts["fan"] or 0
            n["kong_income"] += facts["kong_income"]
            for p in r["payments"]:
                if p["reason"].startswith("win_") and p["payee"] == seat:
                    n["win_received"] += p["amount"]
            discards_won = {
                (e["target"], i)
                for i, e in enumerate(round_doc["events"])
                if e["type"] == "hu" and e.get("target") == seat
            }
            n["deal_ins"] += len(_windows(round_doc, discards_won))
    return n


def _windows(round_doc: dict[str, Any], wins: set[tuple[int, int]]) -> set[int]:
    """The discards or kongs the given wins were on (their event indexes)."""
    found = set()
    for _, index in wins:
        back = index
        while round_doc["events"][back]["type"] == "hu":
            back -= 1
        found.add(back)
    return found


@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(seed=st.integers(0, 10_000), rounds=st.integers(1, 3))
def test_every_statistic_equals_a_recomputation_from_the_engines_reports(
    seed: int, rounds: int, club: Any, verified: Any
) -> None:
    from analysis.models import SeatResult
    from records.models import Match
    from xuezhan.replay import verify_document
    from xuezhan.sim.simulate import simulate_match

    Match.objects.filter(club=club).delete()  # hypothesis reuses the club between examples
    docs = [simulate_match(seed + k, rounds) for k in range(2)]
    for doc in docs:
        doc.pop("match_id", None)
        doc["base"] = 1 + seed % 3
        verified(doc)
    reports = [verify_document(doc).to_dict() for doc in docs]
    match_nets: Counter[int] = Counter()
    for handle in {h for doc in docs for h in doc["players"]}:
        want = _recompute(reports, docs, handle)
        result = stats_of(club, handle)
        got = result["stats"]
        assert got["rounds"] == want["rounds"]
        assert got["net"] == want["net"]
        assert got["wins"] == want["wins"]
        assert got["self_draw_wins"] == want["self_draw_wins"]
        assert got["dealer_rounds"] == want["dealer_rounds"]
        assert got["first_win_rate"]["numerator"] == want["first"]
        assert got["average_fan"]["numerator"] == want["fan"]
        assert got["average_win"]["numerator"] == want["win_received"]
        assert got["kong_income"]["gross"] == want["kong_income"]
        assert got["deal_ins"] == want["deal_ins"]
        parts = result["decomposition"]
        assert sum(v for k, v in parts.items() if k != "net") == parts["net"] == got["net"]
    for row in SeatResult.objects.values("match_id", "delta"):
        match_nets[row["match_id"]] += row["delta"]
    assert set(match_nets.values()) <= {0}


def test_date_filters_partition_the_rounds(club: Any, verified: Any) -> None:
    from xuezhan.sim.simulate import simulate_match

    days = [
        "2026-10-01T20:00:00+00:00",
        "2026-10-08T20:00:00+00:00",
        "2026-10-15T23:59:00+00:00",
        "2026-10-20T00:00:00+00:00",
    ]
    for k, played_at in enumerate(days):
        doc = simulate_match(100 + k, 2)
        doc.pop("match_id", None)
        doc["played_at"] = played_at
        verified(doc)
    handles = {h for k in range(4) for h in simulate_match(100 + k, 2)["players"]}
    a, b, c = date(2026, 10, 1), date(2026, 10, 15), date(2026, 10, 31)
    for handle in handles:
        first = stats_of(club, handle, start=a, end=b - date.resolution)["stats"]
        second = stats_of(club, handle, start=b, end=c)["stats"]
        whole = stats_of(club, handle, start=a, end=c)["stats"]
        for key in ("rounds", "net", "wins", "deal_ins", "active_turns", "dealer_rounds"):
            assert first[key] + second[key] == whole[key], key


def test_load_simulated_loads_about_the_rounds_asked_for_over_the_weeks() -> None:
    from io import StringIO

    from django.core.management import call_command

    from analysis.models import SeatResult
    from records.models import Club, Player

    out = StringIO()
    call_command(
        "load_simulated",
        "--rounds",
        "6",
        "--players",
        "5",
        "--rounds-per-match",
        "2",
        "--distinct",
        "2",
        "--weeks",
        "3",
        stdout=out,
        stderr=StringIO(),
    )
    club = Club.objects.get(name="Simulated club")
    assert "3 matches (3 verified)" in out.getvalue()
    assert SeatResult.objects.filter(club=club).count() == 6 * 4
    assert Player.objects.filter(club=club).count() <= 5
    days = set(SeatResult.objects.filter(club=club).values_list("played_at", flat=True))
    assert len(days) == 3
