"""Rulesets stored once (``records.Ruleset``, named by ``records.models.ruleset_key``) and
referred to by the matches played under them: a match held its resolved ruleset as
``jsonb`` (~1.7 KB), the same in nearly every match of a club (docs/scaling.md, "Storage").
``Match.ruleset`` reads the rules it refers to.

Forward: the table, the matches' reference filled in batches, the ``jsonb`` column dropped.
Backward: the column again, filled from the rules referred to, the reference dropped.
"""

from typing import Any

import django.db.models.deletion
from django.db import migrations, models

from records.migrations import _rulesets

HELP = "The resolved ruleset: every option."


def refer(apps: Any, schema_editor: Any) -> None:
    _rulesets.refer(apps, "records", "Match")


def restore(apps: Any, schema_editor: Any) -> None:
    _rulesets.restore(apps, "records", "Match")


def _reference(null: bool) -> models.ForeignKey:  # type: ignore[type-arg]
    return models.ForeignKey(
        db_index=False, help_text=HELP, null=null,
        on_delete=django.db.models.deletion.PROTECT, related_name="+", to="records.ruleset",
    )  # fmt: skip


class Migration(migrations.Migration):
    # each batch commits on its own (PostgreSQL refuses to alter a table whose rows this
    # transaction changed); every data step is idempotent: an interrupted run is run again
    atomic = False

    dependencies = [
        ("records", "0009_match_list_indexes"),
    ]

    operations = [
        migrations.CreateModel(
            name="Ruleset",
            fields=[
                ("key", models.CharField(help_text="ruleset_key(rules)", max_length=16,
                                         primary_key=True, serialize=False)),
                ("rules", models.JSONField(help_text=HELP)),
            ],
        ),  # fmt: skip
        migrations.AddField(model_name="match", name="stored_ruleset", field=_reference(True)),
        migrations.RunPython(refer, migrations.RunPython.noop, elidable=False),
        migrations.AlterField(model_name="match", name="stored_ruleset", field=_reference(False)),
        migrations.AlterField(
            model_name="match", name="ruleset", field=models.JSONField(help_text=HELP, null=True)
        ),
        migrations.RunPython(migrations.RunPython.noop, restore, elidable=False),
        migrations.RemoveField(model_name="match", name="ruleset"),
    ]
