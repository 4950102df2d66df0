"""A verification's resolved ruleset, and a match's in its history, referred to in
``records.Ruleset`` (records/0010_rulesets_once) instead of held as ``jsonb`` (~1 KB a
verification, the same in nearly every one): ``Verification.ruleset`` reads the rules.

Forward: the references filled in batches, the ``jsonb`` columns dropped. Backward: the
columns again, filled from the rules referred to.
"""

from typing import Any

import django.db.models.deletion
from django.db import migrations, models

from records.migrations import _rulesets

#: the tables of this app that held a ruleset, by model name, and their columns' help
TABLES = {"Verification": "The ruleset the engine resolved.",
          "HistoricalMatch": "The resolved ruleset: every option."}


def refer(apps: Any, schema_editor: Any) -> None:
    for name in TABLES:
        _rulesets.refer(apps, "analysis", name)


def restore(apps: Any, schema_editor: Any) -> None:
    for name in TABLES:
        _rulesets.restore(apps, "analysis", name)


class Migration(migrations.Migration):
    # each batch commits on its own (PostgreSQL refuses to alter a table whose rows this
    # transaction changed); every data step is idempotent: an interrupted run is run again
    atomic = False

    dependencies = [
        ("analysis", "0016_review_compressed"),
        ("records", "0010_rulesets_once"),
    ]

    operations = [
        migrations.AddField(
            model_name="verification",
            name="stored_ruleset",
            field=models.ForeignKey(
                db_index=False, help_text=TABLES["Verification"], null=True,
                on_delete=django.db.models.deletion.PROTECT, related_name="+",
                to="records.ruleset",
            ),
        ),
        migrations.AddField(
            model_name="historicalmatch",
            name="stored_ruleset",
            field=models.ForeignKey(
                blank=True, db_constraint=False, help_text=TABLES["HistoricalMatch"],
                null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name="+",
                to="records.ruleset",
            ),
        ),
        migrations.RunPython(refer, migrations.RunPython.noop, elidable=False),
        *(migrations.AlterField(model_name=name.lower(), name="ruleset",
                                field=models.JSONField(help_text=text, null=True))
          for name, text in TABLES.items()),
        migrations.RunPython(migrations.RunPython.noop, restore, elidable=False),
        migrations.RemoveField(model_name="verification", name="ruleset"),
        migrations.RemoveField(model_name="historicalmatch", name="ruleset"),
    ]
