"""Season standings: which matches count, ranking methods, each tie-break, movement."""

from __future__ import annotations

from datetime import date
from fractions import Fraction
from typing import Any

import pytest

from analysis.league import selectors, services
from analysis.models import Season
from records.models import Match
from tests.analysis.league.data import settled_match, tsumo, win

pytestmark = pytest.mark.django_db

ABCD = ("a", "b", "c", "d")


@pytest.fixture
def season(club: Any, cast: Any) -> Season:
    return services.save_season(
        club=club,
        by=cast["adam"],
        name="Autumn 2026",
        starts_on=date(2026, 11, 1),
        ends_on=date(2026, 11, 30),
        ruleset="chengdu",
        tie_breaks=[],
    )


def table(season: Season) -> dict[str, Any]:
    rows = selectors.standings(season).rows
    return {row.handle: row for row in rows}


def ranks(season: Season) -> dict[str, int | None]:
    return {handle: row.rank for handle, row in table(season).items()}


def test_standings_rank_by_net_points_by_default(club: Any, season: Season) -> None:
    settled_match(club, ABCD, [win(0, 1, 8), tsumo(2, 1)])
    rows = table(season)
    assert {h: r.net for h, r in rows.items()} == {"a": 7, "b": -9, "c": 3, "d": -1}
    assert ranks(season) == {"a": 1, "c": 2, "d": 3, "b": 4}
    assert rows["a"].matches == 1 and rows["a"].rounds == 2
    assert [r.handle for r in selectors.standings(season).rows] == ["a", "c", "d", "b"]


def test_only_complete_rounds_count(club: Any, season: Season) -> None:
    settled_match(club, ABCD, [win(0, 1, 8), win(1, 0, 20)], incomplete=(1,))
    rows = table(season)
    assert rows["a"].net == 8 and rows["a"].rounds == 1


def test_illegal_matches_count_only_when_accepted_and_the_season_opts_in(
    club: Any, cast: Any, season: Season
) -> None:
    match = settled_match(club, ABCD, [win(0, 1, 8)], status=Match.Status.ILLEGAL)
    assert table(season) == {}
    services.accept_match(match=match, by=cast["adam"], reason="table agreed the misdeal")
    assert table(season) == {}
    season.include_accepted = True
    season.save()
    assert table(season)["a"].net == 8
    services.withdraw_acceptance(match=match)
    assert table(season) == {}


def test_accepting_a_match_needs_a_reason_and_an_illegal_match(club: Any, cast: Any) -> None:
    legal = settled_match(club, ABCD, [win(0, 1, 8)])
    with pytest.raises(services.LeagueError, match="only an illegal match"):
        services.accept_match(match=legal, by=cast["adam"], reason="why not")
    illegal = settled_match(club, ABCD, [win(0, 1, 8)], status=Match.Status.ILLEGAL)
    with pytest.raises(services.LeagueError, match="reason"):
        services.accept_match(match=illegal, by=cast["adam"], reason="  ")


def test_matches_under_another_ruleset_are_listed_apart_not_counted(
    club: Any, season: Season
) -> None:
    other = settled_match(club, ABCD, [win(0, 1, 8)], ruleset="online")
    settled_match(club, ABCD, [win(1, 0, 2)])
    assert table(season)["b"].net == 2
    assert list(selectors.season_other_ruleset_matches(season)) == [other]


def test_matches_outside_the_dates_count_only_when_assigned_by_hand(
    club: Any, cast: Any, season: Season
) -> None:
    late = settled_match(club, ABCD, [win(0, 1, 8)], day="2026-12-05")
    assert table(season) == {}
    services.assign_match(season=season, match=late, by=cast["adam"])
    assert table(season)["a"].net == 8
    services.unassign_match(season=season, match=late)
    assert table(season) == {}


def test_placement_points_are_shared_evenly_by_tied_places(club: Any, season: Season) -> None:
    season.method = Season.Method.PLACEMENT
    season.placement_points = [4, 2, 1, 0]
    season.save()
    settled_match(club, ABCD, [tsumo(0, 1)])  # a 1st; b, c, d share 2nd-4th: 1 each
    settled_match(club, ABCD, [win(1, 2, 3)], day="2026-11-10")  # b 1st; a, d share 1.5
    rows = table(season)
    points = {h: r.placement_points for h, r in rows.items()}
    assert points == {"a": Fraction(11, 2), "b": 5, "c": 1, "d": Fraction(5, 2)}
    assert ranks(season) == {"a": 1, "b": 2, "d": 3, "c": 4}
    assert rows["b"].placements == [1, 1, 0, 0] and rows["c"].placements == [0, 1, 0, 1]


def test_tie_break_wins_ranks_more_first_places_higher(club: Any, season: Season) -> None:
    settled_match(club, ABCD, [tsumo(0, 1)])  # a +3 (1st), b -1
    settled_match(club, ABCD, [tsumo(2, 3), win(1, 3, 4)])  # a -3, b +1 (2nd)
    assert table(season)["a"].net == table(season)["b"].net == 0
    assert ranks(season)["a"] == ranks(season)["b"]
    season.tie_breaks = ["wins"]
    season.save()
    assert (ranks(season)["a"], ranks(season)["b"]) == (2, 3)


def test_tie_break_net_per_round_ranks_fewer_rounds_for_the_same_net_higher(
    club: Any, season: Season
) -> None:
    settled_match(club, ("a", "c", "d", "e"), [win(0, 1, 4)])
    settled_match(club, ("b", "c", "d", "e"), [win(0, 2, 2), win(0, 3, 2)])
    season.tie_breaks = ["wins"]
    season.save()
    assert ranks(season)["a"] == ranks(season)["b"] == 1  # same net, one win each
    season.tie_breaks = ["wins", "net_per_round"]
    season.save()
    assert (ranks(season)["a"], ranks(season)["b"]) == (1, 2)


def test_tie_break_deal_ins_per_round_ranks_fewer_deal_ins_higher(
    club: Any, season: Season
) -> None:
    # b deals in to c; a pays d as much without dealing in (a kong, say)
    settled_match(club, ABCD, [win(2, 1, 4), [(0, 3, 4, False)]])
    rows = table(season)
    assert rows["a"].net == rows["b"].net == -4
    assert (rows["a"].deal_ins, rows["b"].deal_ins) == (0, 1)
    season.tie_breaks = ["deal_ins_per_round"]
    season.save()
    assert (ranks(season)["a"], ranks(season)["b"]) == (3, 4)


def test_tie_break_head_to_head_ranks_who_took_points_from_the_other_higher(
    club: Any, season: Season
) -> None:
    settled_match(club, ABCD, [[(1, 0, 5, False)], win(1, 2, 5), win(1, 3, 5)])
    rows = table(season)
    assert rows["a"].net == rows["b"].net == 5
    season.tie_breaks = ["head_to_head"]
    season.save()
    rows = table(season)
    assert (rows["a"].rank, rows["b"].rank) == (1, 2)
    assert (rows["a"].head_to_head, rows["b"].head_to_head) == (5, -5)


def test_tie_breaks_apply_in_the_order_the_season_lists_them(club: Any, season: Season) -> None:
    settled_match(club, ("a", "c", "d", "e"), [win(0, 1, 2), win(0, 1, 2), win(0, 1, 2)])
    settled_match(club, ("b", "c", "d", "e"), [tsumo(3, 4), win(0, 2, 10)])
    # a: +6 over 3 rounds, one match won; b: +6 over 2 rounds, placed 2nd
    season.tie_breaks = ["wins", "net_per_round"]
    season.save()
    assert ranks(season)["a"] < ranks(season)["b"]  # type: ignore[operator]
    season.tie_breaks = ["net_per_round", "wins"]
    season.save()
    assert ranks(season)["b"] < ranks(season)["a"]  # type: ignore[operator]


def test_players_no_tie_break_separates_share_the_rank(club: Any, season: Season) -> None:
    settled_match(club, ABCD, [win(0, 2, 3), win(1, 3, 3)])
    season.tie_breaks = list(selectors.TIE_BREAK_NAMES)
    season.save()
    assert ranks(season) == {"a": 1, "b": 1, "c": 3, "d": 3}


def test_players_below_the_minimum_matches_are_listed_unranked(club: Any, season: Season) -> None:
    settled_match(club, ABCD, [win(0, 1, 8)])
    settled_match(club, ("a", "b", "c", "e"), [win(0, 3, 1)], day="2026-11-10")
    season.min_matches = 2
    season.save()
    rows = selectors.standings(season).rows
    assert [(r.handle, r.rank) for r in rows] == [
        ("a", 1), ("c", 2), ("b", 3), ("d", None), ("e", None),
    ]  # fmt: skip


def test_movement_counts_places_gained_since_the_previous_match_day(
    club: Any, season: Season
) -> None:
    settled_match(club, ABCD, [win(0, 1, 5)], day="2026-11-03")
    settled_match(club, ABCD, [win(1, 0, 10)], day="2026-11-10")
    rows = table(season)
    assert {h: (r.rank, r.previous_rank, r.movement) for h, r in rows.items()} == {
        "b": (1, 4, 3), "c": (2, 2, 0), "d": (2, 2, 0), "a": (4, 1, -3),
    }  # fmt: skip


def test_a_player_new_on_the_last_match_day_has_no_movement(club: Any, season: Season) -> None:
    settled_match(club, ABCD, [win(0, 1, 5)], day="2026-11-03")
    settled_match(club, ("a", "b", "c", "e"), [win(3, 0, 1)], day="2026-11-10")
    assert table(season)["e"].movement is None


def test_a_season_cannot_end_before_it_starts(club: Any, cast: Any) -> None:
    with pytest.raises(services.LeagueError, match="ends_on"):
        services.save_season(
            club=club,
            by=cast["adam"],
            name="Backwards",
            starts_on=date(2026, 11, 30),
            ends_on=date(2026, 11, 1),
            ruleset="chengdu",
        )
