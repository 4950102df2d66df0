"""The storage migrations of rulesets and reviews (records/0010_rulesets_once,
analysis/0016_review_compressed, analysis/0017_verification_ruleset) undone and done
again on stored rows: every value reads back as it was."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from analysis import services
from analysis.models import Verification
from records.models import Match, Ruleset, ruleset_rules
from tests.records.documents import make_document
from xuezhan.sim.simulate import simulate_match

#: the schema before the three migrations
BEFORE = [("records", "0009_match_list_indexes"), ("analysis", "0014_compact_params_no_report")]


def _migrate(targets: list[tuple[str, str]]) -> Any:
    """Migrate to ``targets``; return the models as they are there."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


def _stored(apps: Any) -> dict[str, Any]:
    """The rulesets and reviews as the columns of the schema before held them."""
    match = apps.get_model("records", "Match")
    verification = apps.get_model("analysis", "Verification")
    history = apps.get_model("analysis", "HistoricalMatch")
    return {
        "matches": {m.pk: m.ruleset for m in match.objects.all()},
        "verifications": {v.match_id: (v.ruleset, v.review) for v in verification.objects.all()},
        "history": sorted((h.id, h.ruleset) for h in history.objects.all()),
    }


def _read() -> dict[str, Any]:
    """The rulesets and reviews as the models read them now."""
    return {
        "matches": {m.pk: m.ruleset for m in Match.objects.all()},
        "verifications": {v.match_id: (v.ruleset, v.review) for v in Verification.objects.all()},
        "history": sorted((h.id, ruleset_rules(h.stored_ruleset_id))
                          for h in Match.history.all()),  # type: ignore[attr-defined]
    }  # fmt: skip


@pytest.mark.django_db(transaction=True)
def test_rulesets_and_reviews_move_back_into_their_rows_and_out_again(upload: Any) -> None:
    online = simulate_match(5, 1, "online")
    online["players"] = ["ann", "bo", "cy", "di"]
    matches = [upload(make_document(1)), upload(online), upload(make_document(2))]
    for match in matches:
        services.verify_match(match_id=match.pk)
    services.store_review(match_id=matches[1].pk)
    now = _read()
    assert now["verifications"][matches[1].pk][1] is not None  # a review to move
    assert len(now["history"]) == 3 and Ruleset.objects.count() == 2
    leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()
    try:
        assert _stored(_migrate(BEFORE)) == now
    finally:
        _migrate(leaves)
    assert _read() == now and Ruleset.objects.count() == 2
