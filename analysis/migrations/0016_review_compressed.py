"""The decision review's summaries stored zstd-compressed (records.fields.CompressedJSONField):
~12 KB of JSON a match, ~2.5 KB as ``jsonb``, ~1.35 KB compressed (docs/scaling.md,
"Storage"). They are read only in Python and filtered only by whether they are there.

Forward: a column of the compressed summaries beside the ``jsonb`` one, filled in batches
of ids, then the ``jsonb`` column dropped and the new one named ``review``. Backward: the
``jsonb`` column again, filled from the compressed one, which is then dropped.
"""

from typing import Any

from django.db import migrations

import records.fields

BATCH = 500

HELP = ("The decision review's summaries (xuezhan.review): `seats`, each seat over the match, "
        "and `rounds`, each round's four; null when the engine could not review.")


def _copy(apps: Any, source: str, target: str) -> None:
    """Each verification's ``source`` into its empty ``target``, a batch of ids at a time
    (an interrupted run, run again, takes up the rows it left)."""
    Verification = apps.get_model("analysis", "Verification")
    last = 0
    while True:
        rows = list(
            Verification.objects.filter(
                pk__gt=last, **{f"{source}__isnull": False, f"{target}__isnull": True}
            ).order_by("pk").only("pk", source)[:BATCH]
        )
        if not rows:
            return
        for row in rows:
            setattr(row, target, getattr(row, source))
        Verification.objects.bulk_update(rows, [target])
        last = rows[-1].pk


def compress_reviews(apps: Any, schema_editor: Any) -> None:
    _copy(apps, "review", "packed_review")


def expand_reviews(apps: Any, schema_editor: Any) -> None:
    _copy(apps, "packed_review", "review")


class Migration(migrations.Migration):
    # each batch commits on its own (PostgreSQL refuses to alter a table whose rows this
    # transaction changed); every data step is idempotent: an interrupted run is run again
    atomic = False

    dependencies = [
        ("analysis", "0015_payment_lines_per_round"),
    ]

    operations = [
        migrations.AddField(
            model_name="verification",
            name="packed_review",
            field=records.fields.CompressedJSONField(blank=True, null=True, help_text=HELP),
        ),
        migrations.RunPython(compress_reviews, expand_reviews, elidable=False),
        migrations.RemoveField(model_name="verification", name="review"),
        migrations.RenameField(
            model_name="verification", old_name="packed_review", new_name="review"
        ),
    ]
