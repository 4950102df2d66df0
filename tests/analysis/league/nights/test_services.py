"""Nights' services: the settle-up's properties, the night's day in the club's time zone,
the matches an open night takes in as their verdicts arrive."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analysis.league.nights import services
from analysis.models import NightMatch
from records.models import Club
from tests.analysis.league.data import settled_match, tsumo, win

pytestmark = pytest.mark.django_db

PEOPLE = [f"p{i}" for i in range(9)]


@st.composite
def evenings(draw: st.DrawFn) -> list[tuple[tuple[str, ...], list[Any]]]:
    """Matches among up to nine people, each a few rounds of wins of random size."""
    matches = []
    for _ in range(draw(st.integers(1, 4))):
        four = tuple(draw(st.permutations(PEOPLE))[:4])
        rounds = []
        for _ in range(draw(st.integers(1, 3))):
            winner = draw(st.integers(0, 3))
            amount = draw(st.integers(1, 64))
            if draw(st.booleans()):
                rounds.append(tsumo(winner, amount))
            else:
                rounds.append(win(winner, (winner + draw(st.integers(1, 3))) % 4, amount))
        matches.append((four, rounds))
    return matches


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(evening=evenings())
def test_a_night_s_settle_up_sums_to_zero_and_takes_at_most_people_less_one_transfers(
    club: Club, evening: list[tuple[tuple[str, ...], list[Any]]]
) -> None:
    ids = [settled_match(club, four, rounds).pk for four, rounds in evening]
    night = services.create_night(club=club, by=None, matches=ids)
    book = services.night_ledger(night)
    assert sum(b.points for b in book.balances) == 0
    people = [b for b in book.balances if b.points]
    assert len(book.transfers) <= max(len(people) - 1, 0)
    left = {b.player: b.points for b in book.balances}
    for t in book.transfers:
        left[t.payer] += t.points
        left[t.payee] -= t.points
    assert set(left.values()) <= {0}
    # paying every transfer leaves nothing to settle
    players = {p.pk: p for p in club.players.all()}
    for t in book.transfers:
        services.mark_paid(night, payer=players[t.payer], payee=players[t.payee],
                           points=t.points, by=None)
    assert services.night_ledger(night).transfers == []


@pytest.mark.parametrize(("zone", "moment", "day"), [
    ("Asia/Shanghai", "2026-11-03T12:00:00+00:00", "2026-11-03"),  # 20:00 in Chengdu
    ("Asia/Shanghai", "2026-11-03T17:30:00+00:00", "2026-11-03"),  # 01:30 the next morning
    ("Asia/Shanghai", "2026-11-03T22:30:00+00:00", "2026-11-04"),  # 06:30: a new day
    ("Europe/London", "2026-11-04T01:30:00+00:00", "2026-11-03"),
    ("America/Los_Angeles", "2026-11-04T06:00:00+00:00", "2026-11-03"),  # 22:00 there
])
def test_a_night_s_day_runs_from_six_to_six_in_the_club_s_time_zone(
    club: Club, zone: str, moment: str, day: str
) -> None:
    club.time_zone = zone
    assert services.night_day(club, datetime.fromisoformat(moment)) == date.fromisoformat(day)


def test_an_open_night_takes_in_the_matches_of_its_day_as_their_verdicts_arrive(
    club: Club, cast: Any, upload: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from analysis.services import verify_match
    from tests.records.documents import make_document

    night = services.create_night(club=club, by=cast["adam"], day=date(2026, 11, 5))
    other_day = services.create_night(club=club, by=cast["adam"], day=date(2026, 11, 6))
    doc = make_document(1)
    doc["played_at"] = "2026-11-05T23:30:00+08:00"
    late = make_document(2)
    late["played_at"] = "2026-11-06T02:00:00+08:00"  # still the night of the 5th
    first, second = upload(doc), upload(late)
    with django_capture_on_commit_callbacks(execute=True):  # the verdict's listeners run
        verify_match(match_id=first.pk)  # (tasks are eager here)
        verify_match(match_id=second.pk)
    assert set(NightMatch.objects.filter(night=night).values_list("match_id", flat=True)) == {
        first.pk, second.pk}
    assert not NightMatch.objects.filter(night=other_day).exists()
    assert services.attach_matches([first.pk, second.pk]) == 0  # safe to run twice


def test_a_closed_night_takes_in_nothing_by_itself(club: Club, cast: Any) -> None:
    night = services.create_night(club=club, by=cast["adam"], day=date(2026, 11, 3))
    services.close_night(night, by=cast["adam"])
    match = settled_match(club, ("a", "b", "c", "d"), [win(0, 1, 2)])
    match.played_at = datetime(2026, 11, 3, 12, tzinfo=UTC)
    match.save(update_fields=["played_at"])
    assert services.attach_matches([match.pk]) == 0


def test_attaching_a_batch_of_matches_reads_the_open_nights_once_not_once_per_match(
    club: Club, cast: Any, django_assert_max_num_queries: Any
) -> None:
    night = services.create_night(club=club, by=cast["adam"], day=date(2026, 11, 3))
    matches = [settled_match(club, ("a", "b", "c", "d"), [win(0, 1, 2)]) for _ in range(6)]
    for k, match in enumerate(matches):  # three on the night's day, three on other days
        match.played_at = datetime(2026, 11, 3 + (k % 2) * (k + 1), 12, tzinfo=UTC)
        match.save(update_fields=["played_at"])
    # matches, their seats, the nights, their players; then one insert (and its
    # savepoint's two statements) per match attached
    with django_assert_max_num_queries(4 + 3 * 3):
        assert services.attach_matches([m.pk for m in matches]) == 3
    assert NightMatch.objects.filter(night=night).count() == 3
