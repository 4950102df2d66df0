"""The materialised statistics (analysis.stats.aggregates): every figure read from the day rows
equals the same figure read from the seat rows, whatever the filter, and stays so when a
match is verified again, moved to another day or deleted; the decision-review statistics
(docs/statistics.md) equal a recount of the engine's review."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import needs_postgres

pytestmark = pytest.mark.django_db

DAYS = [
    "2026-09-28T23:30:00+00:00",  # a Monday night: the week and the day change soon after
    "2026-09-29T00:10:00+00:00",
    "2026-10-05T12:00:00+00:00",
    "2026-11-02T08:00:00+00:00",
]


@pytest.fixture
def verified(upload: Any) -> Any:
    from analysis import services

    def do(doc: dict[str, Any]) -> Any:
        match = services.verify_match(match_id=upload(doc).pk)
        assert match.status in ("verified", "illegal"), match.last_error
        services.store_review(match_id=match.pk)  # the task that follows the verdict
        return match

    return do


def _both(club: Any, **filters: Any) -> list[tuple[Any, Any]]:
    """Each player's statistics from the day rows and from the seat rows."""
    from analysis.stats import figures
    from records.models import Player

    chosen = figures.Filters(**filters)
    return [
        (
            figures.player_stats(club, p, chosen, period, source="aggregates"),
            figures.player_stats(club, p, chosen, period, source="facts"),
        )
        for p in Player.objects.filter(club=club)
        for period in ("week", "month")
    ]


def _assert_sources_agree(club: Any, **filters: Any) -> None:
    from analysis.stats import figures

    for days, facts in _both(club, **filters):
        assert days == facts
    chosen = figures.Filters(**filters)
    from_days = figures.club_table(club, chosen, "aggregates")
    assert from_days == figures.club_table(club, chosen, "facts")


FILTERS = [
    {},
    {"include_illegal": True},
    {"start": date(2026, 9, 29)},
    {"end": date(2026, 9, 28), "include_illegal": True},
    {"start": date(2026, 10, 1), "end": date(2026, 10, 31)},
    {"ruleset": "online", "include_illegal": True},
    {"ruleset": "chengdu"},
]


@settings(
    max_examples=3,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(seed=st.integers(0, 10_000))
def test_statistics_from_the_day_rows_equal_those_from_the_seat_rows(
    seed: int, club: Any, verified: Any
) -> None:
    from records.models import Match
    from xuezhan.sim.simulate import simulate_match

    Match.objects.filter(club=club).delete()  # hypothesis reuses the club between examples
    for k, played_at in enumerate(DAYS):
        ruleset = "online" if k == 2 else "chengdu"
        doc = simulate_match(seed + k, 2, ruleset, chaos=0.3 if k == 3 else 0.0)
        doc.pop("match_id", None)
        doc["played_at"] = played_at
        verified(doc)
    for filters in FILTERS:
        _assert_sources_agree(club, **filters)


def test_stats_after_a_reverify_equal_the_stats_before(club: Any, verified: Any) -> None:
    from analysis import services
    from xuezhan.sim.simulate import simulate_match

    matches = []
    for k, played_at in enumerate(DAYS[:3]):
        doc = simulate_match(300 + k, 2)
        doc.pop("match_id", None)
        doc["played_at"] = played_at
        matches.append(verified(doc))
    before = _both(club)
    services.reverify_match(match_id=matches[1].pk)
    services.store_review(match_id=matches[1].pk)  # the review follows in its own task
    assert _both(club) == before


def test_a_match_moved_to_another_day_leaves_its_old_day(club: Any, verified: Any) -> None:
    from analysis import services
    from analysis.models import PlayerDay
    from analysis.stats import figures
    from xuezhan.sim.simulate import simulate_match

    doc = simulate_match(41, 2)
    doc.pop("match_id", None)
    doc["played_at"] = DAYS[0]
    match = verified(doc)
    old_day = date(2026, 9, 28)
    assert PlayerDay.objects.filter(day=old_day).exists()
    match.played_at = match.played_at + timedelta(days=10)
    match.save(update_fields=["played_at"])
    services.reverify_match(match_id=match.pk)
    assert not PlayerDay.objects.filter(day=old_day).exists()
    assert set(PlayerDay.objects.values_list("day", flat=True)) == {old_day + timedelta(days=10)}
    _assert_sources_agree(club)
    before_the_move = figures.Filters(end=old_day)
    for seat in match.seats.all():
        assert figures.player_stats(club, seat.player, before_the_move)["stats"]["rounds"] == 0


def test_a_deleted_match_leaves_the_day_rows(club: Any, verified: Any) -> None:
    from analysis.models import PairDay, PlayerDay, PlayerDayPattern, PlayerMatch
    from xuezhan.sim.simulate import simulate_match

    kept = []
    for k in range(2):
        doc = simulate_match(500 + k, 2)
        doc.pop("match_id", None)
        doc["played_at"] = DAYS[0]  # the same day: the remaining match's rows stay
        kept.append(verified(doc))
    kept[0].delete()
    _assert_sources_agree(club)
    kept[1].delete()
    for model in (PlayerDay, PlayerDayPattern, PairDay, PlayerMatch):
        assert not model.objects.exists()


def _day_tables() -> dict[str, list[tuple[Any, ...]]]:
    """Every derived row, without ids, in key order."""
    from analysis.models import PairDay, PlayerDay, PlayerDayPattern, PlayerMatch

    return {
        model.__name__: sorted(
            tuple(row.values())
            for row in model.objects.values(
                *(f.attname for f in model._meta.concrete_fields if not f.primary_key)
            )
        )
        for model in (PlayerDay, PlayerDayPattern, PairDay, PlayerMatch)
    }


def test_matches_verified_one_after_another_on_one_day_equal_the_seat_rows(
    club: Any, verified: Any
) -> None:
    from analysis.stats import aggregates
    from xuezhan.sim.simulate import simulate_match

    players = None
    for k in range(6):
        doc = simulate_match(800 + k, 2, chaos=0.3 if k == 4 else 0.0)
        doc.pop("match_id", None)
        players = players or doc["players"]
        doc["players"] = players if k % 3 else doc["players"]  # the same four, and others
        doc["played_at"] = DAYS[0]
        verified(doc)
    for filters in FILTERS:
        _assert_sources_agree(club, **filters)
    added = _day_tables()
    aggregates.rebuild_club(club.pk)
    assert _day_tables() == added


def test_matches_verified_in_one_batch_count_as_those_verified_one_after_another(
    club: Any, upload: Any
) -> None:
    """One statement adds a whole batch's sums (analysis.stats.aggregates.add_matches): the same
    day rows as a rebuild from the seat rows, shared players and an illegal match included."""
    from analysis import services
    from analysis.stats import aggregates
    from tests.records.documents import illegal_document
    from xuezhan.sim.simulate import simulate_match

    docs = []
    for k in range(6):
        doc = simulate_match(800 + k, 2, chaos=0.3 if k == 4 else 0.0)
        doc.pop("match_id", None)
        doc["players"] = docs[0]["players"] if docs and k % 3 else doc["players"]
        doc["played_at"] = DAYS[k % 2]
        docs.append(doc)
    docs.append({**illegal_document(35), "played_at": DAYS[0]})
    with _not_queued():
        ids = [upload(doc).pk for doc in docs]
    matches = services.verify_matches(match_ids=ids)
    assert [m.pk for m in matches] == ids
    assert {m.status for m in matches} == {"verified", "illegal"}
    for filters in FILTERS:
        _assert_sources_agree(club, **filters)
    added = _day_tables()
    aggregates.rebuild_club(club.pk)
    assert _day_tables() == added


def test_a_first_verification_only_adds_to_the_day_rows(
    club: Any, verified: Any, upload: Any
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from analysis import services
    from xuezhan.sim.simulate import simulate_match

    docs = [simulate_match(820 + k, 2) for k in range(2)]
    for doc in docs:
        doc.pop("match_id", None)
        doc["players"] = docs[0]["players"]
        doc["played_at"] = DAYS[0]
    verified(docs[0])
    with _not_queued():
        match = upload(docs[1])
    with CaptureQueriesContext(connection) as first:
        services.verify_match(match_id=match.pk)
    assert [q["sql"] for q in first.captured_queries if "DELETE" in q["sql"].upper()] == []
    _assert_sources_agree(club)


def _one_day_of_matches(n: int, seed: int) -> list[dict[str, Any]]:
    from xuezhan.sim.simulate import simulate_match

    docs = [simulate_match(seed + k, 1) for k in range(n)]
    for doc in docs:
        doc.pop("match_id", None)
        doc["players"] = docs[0]["players"]
        doc["played_at"] = DAYS[0]
    return docs


def _queries_of(call: Any) -> list[str]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        call()
    return [q["sql"] for q in captured.captured_queries]


def test_a_first_verification_costs_the_same_queries_however_full_its_day(
    club: Any, upload: Any
) -> None:
    from analysis import services

    docs = _one_day_of_matches(4, 840)
    with _not_queued():
        matches = [upload(doc) for doc in docs]
    counts = [len(_queries_of(lambda m=m: services.verify_match(match_id=m.pk))) for m in matches]
    assert len(set(counts)) == 1, counts  # the 4th as few as the 1st: no rebuild of the day
    _assert_sources_agree(club)


def test_a_stored_review_adds_its_sums_without_rebuilding_the_day(
    club: Any, upload: Any
) -> None:
    from analysis import services
    from analysis.stats import aggregates

    docs = _one_day_of_matches(3, 860)
    with _not_queued():
        matches = [upload(doc) for doc in docs]
    for m in matches:
        services.verify_match(match_id=m.pk)
    reviews = [_queries_of(lambda m=m: services.store_review(match_id=m.pk)) for m in matches]
    assert all(not any("DELETE" in sql.upper() for sql in r) for r in reviews)
    assert len({len(r) for r in reviews}) == 1  # the 3rd review as few as the 1st
    _assert_sources_agree(club)
    added = _day_tables()
    aggregates.rebuild_club(club.pk)
    assert _day_tables() == added


class _not_queued:
    """Uploads stay unverified (the upload signal's receiver is off) until the block ends."""

    def __enter__(self) -> None:
        from records.signals import match_needs_verifying

        match_needs_verifying.disconnect(dispatch_uid="analysis.verify")

    def __exit__(self, *exc: Any) -> None:
        from analysis.tasks import queue_verification
        from records.signals import match_needs_verifying

        match_needs_verifying.connect(queue_verification, dispatch_uid="analysis.verify")


def test_rebuild_aggregates_only_rewrites_the_day_rows_from_the_facts(
    club: Any, verified: Any
) -> None:
    from django.core.management import call_command

    from analysis.models import PairDay, PlayerDay
    from xuezhan.sim.simulate import simulate_match

    for k in range(2):
        doc = simulate_match(700 + k, 2)
        doc.pop("match_id", None)
        doc["played_at"] = DAYS[k]
        verified(doc)
    PlayerDay.objects.all().delete()
    PairDay.objects.update(net=0)
    call_command("rebuild_facts", "--aggregates-only", stdout=None, stderr=None)
    _assert_sources_agree(club)


def test_load_demo_fills_the_day_rows_a_database_from_before_them_lacks(
    settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from django.core.management import call_command

    from analysis.models import PairDay, PlayerDay, PlayerDayPattern, PlayerMatch
    from records.models import Club

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    with django_capture_on_commit_callbacks(execute=True):
        call_command("load_demo", "--matches", "2", "--rounds", "2", stdout=None)
    verified = _day_tables()
    assert verified["PlayerDay"]
    for model in (PlayerDay, PlayerDayPattern, PairDay, PlayerMatch):
        model.objects.all().delete()  # as before migration 0007
    call_command("load_demo", "--matches", "2", "--rounds", "2", stdout=None)
    assert _day_tables() == verified
    _assert_sources_agree(Club.objects.get())


# -- the decision review's statistics ----------------------------------------------------


def _review_recount(doc: dict[str, Any], seat: int) -> tuple[int, int, int]:
    """(discards best or equal, discards, 进张 lost) of one seat, from the engine's review."""
    from xuezhan.review import review_document

    good = total = lost = 0
    for review in review_document(doc):
        for d in review.decisions:
            if d.seat == seat and d.kind == "discard" and d.verdict != "passed":
                total += 1
                good += d.verdict in ("best", "equal")
                lost += d.loss
    return good, total, lost


def test_review_statistics_recount_the_reviewed_discards(club: Any, verified: Any) -> None:
    from analysis.stats import figures
    from records.models import Player
    from xuezhan.sim.simulate import simulate_match

    docs = [simulate_match(900 + k, 2) for k in range(2)]
    for doc in docs:
        doc.pop("match_id", None)
        verified(doc)
    for player in Player.objects.filter(club=club):
        good = total = lost = 0
        for doc in docs:
            if player.handle in doc["players"]:
                g, t, ll = _review_recount(doc, doc["players"].index(player.handle))
                good, total, lost = good + g, total + t, lost + ll
        got = figures.player_stats(club, player, figures.Filters())["stats"]
        assert total > 0
        assert got["best_discard_rate"]["numerator"] == good
        assert got["best_discard_rate"]["denominator"] == total
        assert got["ukeire_lost_per_discard"]["numerator"] == lost
        assert got["ukeire_lost_per_discard"]["denominator"] == total


def test_a_match_without_review_counts_no_reviewed_discard(club: Any, verified: Any) -> None:
    from analysis.models import Verification
    from analysis.stats import aggregates, figures
    from records.models import Player
    from xuezhan.sim.simulate import simulate_match

    doc = simulate_match(950, 1)
    doc.pop("match_id", None)
    match = verified(doc)
    Verification.objects.filter(match=match).update(review=None)
    aggregates.refresh_match(match.pk)  # as the review task does once it has stored one
    for player in Player.objects.filter(club=club):
        got = figures.player_stats(club, player, figures.Filters())["stats"]
        assert got["best_discard_rate"]["denominator"] == 0
        assert got["best_discard_rate"]["value"] is None
        assert got["ukeire_lost_per_discard"]["value"] is None


def test_the_review_statistics_can_rank_the_leaderboard() -> None:
    from analysis.stats import figures

    assert {"best_discard_rate", "ukeire_lost_per_discard"} <= set(figures.stat_keys())


@needs_postgres
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_verifications_sharing_a_players_day_at_once_both_count(club: Any, upload: Any) -> None:
    import threading
    import time

    from django.db import connection, transaction

    from analysis import services
    from xuezhan.sim.simulate import simulate_match

    docs = [simulate_match(60 + k, 1) for k in range(2)]
    for doc in docs:
        doc.pop("match_id", None)
        doc["players"] = docs[0]["players"]
        doc["played_at"] = DAYS[0]
    first, second = (upload(doc) for doc in docs)  # verified at once (eager tasks)
    held, errors = threading.Event(), []

    def run(match_id: int, before: Any, after: Any) -> None:
        try:
            with transaction.atomic():
                before()
                services.reverify_match(match_id=match_id)
                after()  # the first holds its transaction open: the second must wait
        except Exception as exc:  # reported by the assertion below
            errors.append(exc)
        finally:
            connection.close()

    threads = [
        threading.Thread(
            target=run, args=(first.pk, lambda: None, lambda: (held.set(), time.sleep(1)))
        ),
        threading.Thread(target=run, args=(second.pk, held.wait, lambda: None)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert errors == []
    _assert_sources_agree(club)


@needs_postgres
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("adding_first", [True, False])
def test_a_first_verification_racing_a_rebuild_of_its_keys_is_not_lost(
    club: Any, upload: Any, adding_first: bool
) -> None:
    import threading
    import time

    from django.db import connection, transaction

    from analysis import services
    from xuezhan.sim.simulate import simulate_match

    docs = [simulate_match(70 + k, 1) for k in range(2)]
    for doc in docs:
        doc.pop("match_id", None)
        doc["players"] = docs[0]["players"]
        doc["played_at"] = DAYS[0]
    counted = upload(docs[0])  # verified (eager tasks): its day is rebuilt below
    with _not_queued():
        new = upload(docs[1])  # its first verification adds to the same keys
    held, errors = threading.Event(), []

    def run(job: Any, before: Any, after: Any) -> None:
        try:
            with transaction.atomic():
                before()
                job()
                after()  # the first holds its transaction open while the second starts
        except Exception as exc:  # reported by the assertion below
            errors.append(exc)
        finally:
            connection.close()

    def add() -> None:
        services.verify_match(match_id=new.pk)

    def rebuild() -> None:
        services.reverify_match(match_id=counted.pk)

    jobs = (add, rebuild) if adding_first else (rebuild, add)
    hold = lambda: (held.set(), time.sleep(1))  # noqa: E731
    threads = [
        threading.Thread(target=run, args=(jobs[0], lambda: None, hold)),
        threading.Thread(target=run, args=(jobs[1], held.wait, lambda: None)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert errors == []
    _assert_sources_agree(club)
