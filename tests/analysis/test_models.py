"""The keys of the seat rows and the derived rows (docs/scaling.md, "Storage"): each row is
keyed by what it is about, with no surrogate id (analysis/0018_seat_facts_slimmer)."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.loader import MigrationLoader

from analysis.models import (
    BookDay,
    BookMatch,
    PairDay,
    PlayerDay,
    PlayerDayPattern,
    PlayerMatch,
    SeatResult,
)
from tests.conftest import needs_postgres
from xuezhan.sim.simulate import simulate_match

pytestmark = pytest.mark.django_db

KEYED = (SeatResult, PlayerDay, PlayerDayPattern, PairDay, PlayerMatch, BookMatch, BookDay)


def _rows(model: Any) -> list[tuple[Any, ...]]:
    names = [f.attname for f in model._meta.concrete_fields]
    return sorted(model._default_manager.values_list(*names), key=repr)


def _columns(table: str) -> list[str]:
    with connection.cursor() as cursor:
        return [c.name for c in connection.introspection.get_table_description(cursor, table)]


def test_a_round_has_one_seat_row_per_seat(uploaded: Any) -> None:
    uploaded(simulate_match(3, 2))
    row = SeatResult.objects.first()
    assert row is not None and row.pk == (row.round_id, row.seat)
    assert SeatResult.objects.get(pk=(row.round_id, row.seat)).delta == row.delta
    fields = SeatResult._meta.concrete_fields
    twin = SeatResult(**{f.attname: getattr(row, f.attname) for f in fields})
    with pytest.raises(IntegrityError), transaction.atomic():
        SeatResult.objects.bulk_create([twin])


@needs_postgres
@pytest.mark.postgres
def test_the_migration_keeps_every_row_keyed_by_ids_and_by_keys_again(uploaded: Any) -> None:
    """Backward then forward on rows a verification and its review wrote (PostgreSQL: the
    test's transaction takes the tables' changes back)."""
    uploaded(simulate_match(5, 2))
    before = {model: _rows(model) for model in KEYED}
    assert all(before.values())
    with connection.cursor() as cursor:  # the rows' deferred checks, before their tables change
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    migration = importlib.import_module("analysis.migrations.0018_seat_facts_slimmer")
    node = ("analysis", "0018_seat_facts_slimmer")
    loader = MigrationLoader(connection)
    with connection.schema_editor() as editor:
        migration.keyed_by_ids(loader.project_state(node, at_end=False).apps, editor)
    assert all("id" in _columns(model._meta.db_table) for model in KEYED)
    assert {model: _rows(model) for model in KEYED} == before
    with connection.schema_editor() as editor:
        migration.keyed_by_their_keys(loader.project_state(node).apps, editor)
    assert not any("id" in _columns(model._meta.db_table) for model in KEYED)
    assert {model: _rows(model) for model in KEYED} == before


def test_a_seat_row_is_held_to_its_match_through_its_round_and_goes_with_it(
    uploaded: Any,
) -> None:
    """The database checks a seat row's round, not the match, club and player copied from
    it (a bulk load's commit checked each of them per row); Django still deletes the rows
    with their match."""
    from records.models import Match

    match = Match.objects.get(pk=uploaded(simulate_match(4, 2)))
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, "analysis_seatresult")
    checked = {c["foreign_key"][0] for c in constraints.values() if c["foreign_key"]}
    assert checked == {"records_round"}
    assert SeatResult.objects.filter(match=match).count() == 4 * 2
    match.delete()
    assert not SeatResult.objects.exists()
