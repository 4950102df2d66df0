"""The club's ratings follow its verdicts through ``verdict_stored`` (analysis.league.tasks):
the verification never calls the league."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache

from analysis import services
from analysis.league import tasks
from records.models import Match
from tests.records.documents import make_document

pytestmark = pytest.mark.django_db


@pytest.fixture
def queued_ratings(monkeypatch: Any) -> list[int]:
    """The club ids whose ratings task was sent (not run)."""
    sent: list[int] = []
    monkeypatch.setattr(tasks.recompute_ratings, "delay", lambda club_id: sent.append(club_id))
    return sent


def test_verdicts_queue_one_ratings_recomputation_until_it_starts(
    queued_ratings: list[int],
) -> None:
    cache.delete(tasks._ratings_key(7))
    for _ in range(3):
        tasks.rate_club_soon(7)
    assert queued_ratings == [7]
    cache.delete(tasks._ratings_key(7))  # what the task does as it starts
    tasks.rate_club_soon(7)
    assert queued_ratings == [7, 7]


def test_the_ratings_task_lets_the_next_verdict_queue_another(monkeypatch: Any) -> None:
    monkeypatch.setattr("analysis.league.services.recompute_ratings", lambda club_id: 0)
    cache.set(tasks._ratings_key(8), 1)
    tasks.recompute_ratings.apply(args=[8]).get()
    assert cache.get(tasks._ratings_key(8)) is None


def test_the_ratings_task_keeps_the_name_queued_messages_carry() -> None:
    assert tasks.recompute_ratings.name == "analysis.tasks.recompute_ratings"


def test_a_stored_verdict_reaches_the_league_through_the_signal(
    club: Any, upload: Any, queued_ratings: list[int], django_capture_on_commit_callbacks: Any,
) -> None:
    cache.delete(tasks._ratings_key(club.pk))
    match = upload(make_document())
    assert queued_ratings == []
    with django_capture_on_commit_callbacks(execute=True):
        services.verify_match(match_id=match.pk)
    assert Match.objects.get(pk=match.pk).status == Match.Status.VERIFIED
    assert queued_ratings == [club.pk]


def test_the_verification_core_does_not_import_the_league() -> None:
    import ast
    from pathlib import Path

    core = Path(services.__file__).parent
    for module in ("services.py", "tasks.py", "leases.py", "signals.py", "facts.py"):
        tree = ast.parse((core / module).read_text(encoding="utf-8"))
        imported = {node.module for node in ast.walk(tree)
                    if isinstance(node, ast.ImportFrom) and node.module}
        imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                     for alias in node.names}
        assert not {name for name in imported if name.startswith("analysis.league")}, module
