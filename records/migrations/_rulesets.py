"""The data steps of ``records/0010_rulesets_once`` and ``analysis/0017_verification_ruleset``:
a table's rulesets moved out of its ``jsonb`` column ``ruleset`` into ``records.Ruleset``,
referred to by key from ``stored_ruleset``, and back. (Not a migration: the loader skips
modules whose name starts with "_".)

Both walk the table a batch of primary keys at a time and write only rows not done yet:
an interrupted run, run again, takes up where it stopped.
"""

from collections import defaultdict
from typing import Any

from django.db.models import JSONField, Value

from records.models import ruleset_key

BATCH = 2000


def _batches(model: Any, *fields: str) -> Any:
    """The table's rows as (pk, *fields), a batch at a time, in primary key order."""
    pk = model._meta.pk.attname
    last = None
    while True:
        rows = model.objects.order_by(pk)
        if last is not None:
            rows = rows.filter(**{f"{pk}__gt": last})
        batch = list(rows.values_list(pk, *fields)[:BATCH])
        if not batch:
            return
        yield batch
        last = batch[-1][0]


def refer(apps: Any, app_label: str, model_name: str) -> None:
    """Each row's ``ruleset`` stored once in the Ruleset table, and referred to."""
    Ruleset = apps.get_model("records", "Ruleset")
    model = apps.get_model(app_label, model_name)
    pk = model._meta.pk.attname
    for batch in _batches(model, "ruleset", "stored_ruleset_id"):
        rows: dict[str, list[Any]] = defaultdict(list)
        rules: dict[str, Any] = {}
        for row_id, ruleset, stored in batch:
            if stored is None and ruleset is not None:
                key = ruleset_key(ruleset)
                rules[key] = ruleset
                rows[key].append(row_id)
        Ruleset.objects.bulk_create(
            [Ruleset(key=key, rules=rules[key]) for key in sorted(rules)], ignore_conflicts=True
        )
        for key, ids in rows.items():
            model.objects.filter(**{f"{pk}__in": ids}).update(stored_ruleset_id=key)


def restore(apps: Any, app_label: str, model_name: str) -> None:
    """Backward: each row's ``ruleset`` column filled from the rules it refers to (JSON
    ``null`` where it refers to none, as the engine's report gave it)."""
    Ruleset = apps.get_model("records", "Ruleset")
    model = apps.get_model(app_label, model_name)
    pk = model._meta.pk.attname
    for batch in _batches(model, "ruleset", "stored_ruleset_id"):
        rows: dict[str | None, list[Any]] = defaultdict(list)
        for row_id, ruleset, stored in batch:
            if ruleset is None:
                rows[stored].append(row_id)
        rules = dict(Ruleset.objects.filter(pk__in=[k for k in rows if k]).values_list(
            "key", "rules"))  # fmt: skip
        for key, ids in rows.items():
            value = rules[key] if key else Value(None, JSONField())
            model.objects.filter(**{f"{pk}__in": ids}).update(ruleset=value)
