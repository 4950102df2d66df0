"""Deadlocks and serialization failures (issue 27, finding 9): every task that writes
retries them with backoff, and the ratings recomputation no longer takes a lock that
deadlocked against a writer holding one of the club's matches."""

from __future__ import annotations

import threading
import time
from typing import Any

import psycopg
import pytest
from django.db import OperationalError

from analysis import tasks as analysis_tasks
from analysis.league import services as league_services
from analysis.league import tasks as league_tasks
from analysis.models import PlayerRating
from tests.analysis.league.data import settled_match, win
from tests.conftest import needs_postgres

ABCD = ("a", "b", "c", "d")


def _deadlock() -> OperationalError:
    """What Django raises for PostgreSQL's deadlock: its OperationalError from psycopg's."""
    try:
        raise psycopg.errors.DeadlockDetected("deadlock detected")
    except psycopg.errors.DeadlockDetected as cause:
        error = OperationalError("deadlock detected")
        error.__cause__ = cause
        return error


@pytest.mark.parametrize(
    "task",
    [league_tasks.recompute_ratings, league_tasks.attach_to_nights,
     analysis_tasks.verify_match, analysis_tasks.review_match, analysis_tasks.review_matches],
    ids=lambda t: t.name,
)
def test_every_task_that_writes_retries_a_deadlock_or_serialization_failure_with_backoff(
    task: Any,
) -> None:
    assert OperationalError in task.autoretry_for  # Django's for both psycopg errors
    assert issubclass(psycopg.errors.DeadlockDetected, psycopg.OperationalError)
    assert issubclass(psycopg.errors.SerializationFailure, psycopg.OperationalError)
    assert task.retry_backoff and task.max_retries >= 3 and task.acks_late


@pytest.mark.django_db
def test_a_ratings_recomputation_lost_to_a_deadlock_is_retried_and_stored(
    club: Any, monkeypatch: Any, eager_tasks: None
) -> None:
    settled_match(club, ABCD, [win(0, 1, 8)], day="2026-11-03")
    real = league_services.recompute_ratings
    calls: list[int] = []

    def once_deadlocked(*, club_id: int) -> int:
        calls.append(club_id)
        if len(calls) == 1:
            raise _deadlock()
        return real(club_id=club_id)

    monkeypatch.setattr(league_services, "recompute_ratings", once_deadlocked)
    league_tasks.recompute_ratings.apply(args=[club.pk])
    assert calls == [club.pk, club.pk]
    assert PlayerRating.objects.filter(club=club).count() == 4


@needs_postgres
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_ratings_recomputed_while_a_writer_holds_a_match_and_asks_for_the_club_do_not_deadlock(
    club: Any,
) -> None:
    """The writer (a correction: its match FOR UPDATE, then a row that refers to the club,
    FOR KEY SHARE on the club) and the recomputation (the club locked, then its rating
    steps, FOR KEY SHARE on each match) once waited on each other: PostgreSQL aborted one."""
    from tests.analysis.test_worker import test_database_url

    match = settled_match(club, ABCD, [win(0, 1, 8)], day="2026-11-03")
    outcome: dict[str, Any] = {}

    def recompute() -> None:
        from django.db import connection

        try:
            outcome["rated"] = league_services.recompute_ratings(club_id=club.pk)
        except Exception as exc:
            outcome["error"] = exc
        finally:
            connection.close()

    with (
        psycopg.connect(test_database_url()) as writer,
        psycopg.connect(test_database_url(), autocommit=True) as watch,
    ):
        writer.execute("SET lock_timeout = '10s'")
        writer.execute("SELECT id FROM records_match WHERE id = %s FOR UPDATE", [match.pk])
        thread = threading.Thread(target=recompute)
        thread.start()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not _waiting(watch):
            time.sleep(0.05)
        assert _waiting(watch), "the recomputation never reached the writer's match"
        try:
            writer.execute("SELECT id FROM records_club WHERE id = %s FOR KEY SHARE", [club.pk])
            writer.commit()
        except psycopg.errors.DeadlockDetected as exc:  # what main did
            outcome["writer"] = exc
            writer.rollback()
        thread.join(30)
    assert "writer" not in outcome and "error" not in outcome, outcome
    assert outcome["rated"] == 1


def _waiting(conn: Any) -> bool:
    row = conn.execute(
        "SELECT count(*) FROM pg_stat_activity "
        "WHERE datname = current_database() AND wait_event_type = 'Lock'"
    ).fetchone()
    return bool(row[0])
