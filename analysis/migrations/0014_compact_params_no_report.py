"""A payment line's params stored compactly (analysis.compact: the JSON text of numbered
arrays instead of ``jsonb`` objects spelling out every key), its English sentence only
where the params do not give it (``Payment.detail`` renders it), and the engine's report no
longer stored: ``Verification.report`` replays the document (docs/scaling.md, "Storage").

Forward, in batches of ids: the column turned to text and each line's params packed; each
line's detail emptied where ``describe`` of its params gives it; the report column dropped.
Backward: the report column again, filled by the engine from the document (the engine of
the code that runs it), the details written out, and the params unpacked into ``jsonb``.
"""

import json
from typing import Any

import django.db.models.deletion
from django.db import migrations, models

import analysis.compact
from analysis.models import stored_detail
from xuezhan.settlement import describe

BATCH = 5000


def _rewrite(schema_editor: Any, change: Any) -> None:
    """``change`` applied to every payment line's params text, a batch of ids at a time."""
    last = 0
    with schema_editor.connection.cursor() as cursor:
        while True:
            cursor.execute(
                "SELECT id, params FROM analysis_payment WHERE id > %s ORDER BY id LIMIT %s",
                [last, BATCH],
            )
            rows = cursor.fetchall()
            if not rows:
                return
            cursor.executemany(
                "UPDATE analysis_payment SET params = %s WHERE id = %s",
                [(change(text), pk) for pk, text in rows],
            )
            last = rows[-1][0]


def _is_packed(text: str) -> bool:
    return not text.lstrip().startswith("{")  # params were always an object


def pack(apps: Any, schema_editor: Any) -> None:
    _rewrite(schema_editor, lambda t: t if _is_packed(t) else analysis.compact.dumps(json.loads(t)))


def unpack(apps: Any, schema_editor: Any) -> None:
    _rewrite(schema_editor, lambda t: json.dumps(analysis.compact.loads(t)) if _is_packed(t) else t)


def _details(schema_editor: Any, change: Any) -> None:
    """``change(reason, params, detail)`` as each line's stored detail, in batches of ids."""
    last = 0
    with schema_editor.connection.cursor() as cursor:
        while True:
            cursor.execute(
                "SELECT id, reason, params, detail FROM analysis_payment WHERE id > %s "
                "ORDER BY id LIMIT %s",
                [last, BATCH],
            )
            rows = cursor.fetchall()
            if not rows:
                return
            changed = [
                (new, pk)
                for pk, reason, params, detail in rows
                if (new := change(reason, analysis.compact.loads(params), detail)) != detail
            ]
            cursor.executemany("UPDATE analysis_payment SET detail = %s WHERE id = %s", changed)
            last = rows[-1][0]


def drop_details(apps: Any, schema_editor: Any) -> None:
    """Each line's detail kept only where its params do not give the same sentence."""
    _details(schema_editor, stored_detail)


def restore_details(apps: Any, schema_editor: Any) -> None:
    _details(schema_editor, lambda r, p, d: d or describe(r, p))


def fill_reports(apps: Any, schema_editor: Any) -> None:
    """Backward: each verification's report replayed from its match's document."""
    from analysis.models import engine_report  # the engine of the code that runs this
    from records.models import document_of

    Verification = apps.get_model("analysis", "Verification")
    Match = apps.get_model("records", "Match")
    for verification in Verification.objects.only("pk", "match_id").iterator(chunk_size=500):
        raw = Match.objects.values_list("raw", flat=True).get(pk=verification.match_id)
        report = engine_report(document_of(raw))
        Verification.objects.filter(pk=verification.pk).update(report=report)


class Migration(migrations.Migration):
    # each batch commits on its own (PostgreSQL refuses to alter a table whose rows this
    # transaction changed); every data step is idempotent: an interrupted run is run again
    atomic = False

    dependencies = [
        ("analysis", "0013_fill_books"),
        ("records", "0008_compressed_raw_no_document"),
    ]

    operations = [
        migrations.AlterField(
            model_name="payment",
            name="params",
            field=analysis.compact.CompactJSONField(
                blank=True,
                default=dict,
                help_text="What explains the line, as data (per reason: "
                "xuezhan.settlement.describe).",
            ),
        ),
        migrations.RunPython(pack, unpack),
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RenameField(
                    model_name="payment", old_name="detail", new_name="stored_detail"
                ),
                migrations.AlterField(
                    model_name="payment",
                    name="stored_detail",
                    field=models.TextField(
                        blank=True,
                        db_column="detail",
                        default="",
                        help_text="The line, explained, where its params do not give it; "
                        "else empty.",
                    ),
                ),
            ],
        ),
        migrations.RunPython(drop_details, restore_details),
        # every read of the players' columns names the rounds first
        migrations.AlterField(
            model_name="payment",
            name="payee_player",
            field=models.ForeignKey(
                db_index=False,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="records.player",
            ),
        ),
        migrations.AlterField(
            model_name="payment",
            name="payer_player",
            field=models.ForeignKey(
                db_index=False,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="records.player",
            ),
        ),
        migrations.AlterField(
            model_name="verification",
            name="report",
            field=models.JSONField(
                null=True, help_text="The engine's report, exactly as `xuezhan verify` prints."
            ),
        ),
        migrations.RunPython(migrations.RunPython.noop, fill_reports),
        migrations.RemoveField(model_name="verification", name="report"),
    ]
