"""Table seating (analysis/league/seating.py): pure computation, no database.

The properties hold for every number of players (4–64) and rounds: everyone plays or sits
out once a round, sit-outs are spread (nobody twice before everyone once), the reported
repeated pairs are the seating's own and never below the bound, winds are even.
"""

from __future__ import annotations

import itertools
import subprocess
import sys
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.league.seating import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    SeatingError,
    lower_bound,
    meetings,
    repeated_pairs,
    seat,
    seat_spread,
)

players = st.integers(MIN_PLAYERS, MAX_PLAYERS)
rounds = st.integers(1, 10)
seeds = st.integers(0, 2**31)


@settings(max_examples=40, deadline=None)
@given(n=players, r=rounds, seed=seeds)
def test_every_player_plays_or_sits_out_once_a_round(n: int, r: int, seed: int) -> None:
    ids = [100 + 7 * i for i in range(n)]
    s = seat(ids, r, seed)
    assert len(s.rounds) == len(s.sitting_out) == r
    for tables, out in zip(s.rounds, s.sitting_out, strict=True):
        assert all(len(table) == 4 for table in tables)
        present = [p for table in tables for p in table] + list(out)
        assert sorted(present) == sorted(ids)
        assert len(out) == n % 4 and len(tables) == n // 4


@settings(max_examples=40, deadline=None)
@given(n=players, r=rounds, seed=seeds)
def test_nobody_sits_out_twice_before_everyone_has_sat_out_once(
    n: int, r: int, seed: int
) -> None:
    """Those sitting out in one round sit out together: a k-th time only if, this round
    included, everyone has sat out k − 1 times."""
    s = seat(range(n), r, seed)
    times = Counter({p: 0 for p in range(n)})
    for out in s.sitting_out:
        times.update(out)
        assert all(times[p] - 1 <= min(times.values()) for p in out)
        assert max(times.values()) - min(times.values()) <= 1


@settings(max_examples=40, deadline=None)
@given(n=players, r=rounds, seed=seeds)
def test_the_repeated_pairs_reported_are_the_seating_s_own_and_not_below_the_bound(
    n: int, r: int, seed: int
) -> None:
    s = seat(range(n), r, seed)
    met = Counter()
    for tables in s.rounds:
        for table in tables:
            met.update(itertools.combinations(sorted(table), 2))
    assert s.repeated_pairs == sum(times - 1 for times in met.values())
    assert s.lower_bound == lower_bound(n, r) <= s.repeated_pairs


@settings(max_examples=40, deadline=None)
@given(n=players, r=rounds, seed=seeds)
def test_every_player_has_each_wind_as_evenly_as_their_rounds_allow(
    n: int, r: int, seed: int
) -> None:
    s = seat(range(n), r, seed)
    winds: dict[int, Counter[int]] = {p: Counter() for p in range(n)}
    for tables in s.rounds:
        for table in tables:
            for wind, p in enumerate(table):
                winds[p][wind] += 1
    for counts in winds.values():
        played = sum(counts.values())
        assert all(played // 4 <= counts[w] <= -(-played // 4) for w in range(4))
    assert s.seat_spread == seat_spread(s.rounds) <= 1


@settings(max_examples=25, deadline=None)
@given(seed=seeds, r=st.integers(1, 5))
def test_sixteen_players_play_up_to_five_rounds_with_no_pair_meeting_twice(
    seed: int, r: int
) -> None:
    s = seat(range(16), r, seed)
    assert s.repeated_pairs == 0 and max(meetings(s.rounds).values()) == 1


def test_sixteen_by_five_meets_every_pair_exactly_once() -> None:
    met = meetings(seat(range(1, 17), 5, seed=3).rounds)
    assert len(met) == 16 * 15 // 2 and set(met.values()) == {1}


@pytest.mark.parametrize("n", [63, 64])
def test_sixty_four_players_for_ten_rounds_meet_nobody_twice(n: int) -> None:
    assert seat(range(n), 10, seed=1).repeated_pairs == 0


def test_the_same_seed_gives_the_same_seating_whatever_the_order_of_the_players() -> None:
    ids = list(range(1, 14))
    assert seat(ids, 4, seed=5) == seat(list(reversed(ids)), 4, seed=5)
    assert seat(ids, 4, seed=5) != seat(ids, 4, seed=6)


def test_four_players_meet_every_round_and_the_bound_says_so() -> None:
    s = seat([1, 2, 3, 4], 3)
    assert s.repeated_pairs == s.lower_bound == 6 * 2


@pytest.mark.parametrize(("n", "r"), [(8, 2), (8, 3), (12, 2)])
def test_the_bound_is_never_above_the_best_seating_found_by_trying_them_all(
    n: int, r: int
) -> None:
    """With four players at a table and fewer than four tables, two rounds always share
    pairs (the pigeonhole part of the bound); trying every seating finds the true least."""
    everyone = range(n)
    partitions = list(_partitions(list(everyone)))
    best = min(repeated_pairs([partitions[0], *rest])
               for rest in itertools.product(partitions, repeat=r - 1))
    assert lower_bound(n, r) <= best
    assert seat(everyone, r, seed=0).repeated_pairs == best


def _partitions(people: list[int]) -> list[list[tuple[int, ...]]]:
    if not people:
        return [[]]
    first, rest = people[0], people[1:]
    out = []
    for mates in itertools.combinations(rest, 3):
        left = [p for p in rest if p not in mates]
        out += [[(first, *mates), *tail] for tail in _partitions(left)]
    return out


@pytest.mark.parametrize(
    ("players", "rounds", "why"),
    [([1, 2, 3], 2, "4 to 64 players"), (list(range(65)), 2, "4 to 64 players"),
     ([1, 1, 2, 3, 4], 2, "listed twice"), ([1, 2, 3, 4], 0, "1 to 24 rounds"),
     ([1, 2, 3, 4], 25, "1 to 24 rounds")],
)
def test_it_refuses_what_no_seating_can_be_made_for(
    players: list[int], rounds: int, why: str
) -> None:
    with pytest.raises(SeatingError, match=why):
        seat(players, rounds)


def test_the_seating_module_imports_no_django() -> None:
    code = ("import sys; import analysis.league.seating; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('django', 'rest_framework', 'celery', 'records')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"
