"""An upload's bytes stored compressed (zstd, records.fields), and the parsed document no
longer stored beside them: ``Match.document`` reads the bytes (docs/scaling.md, "Storage").

Forward: each match's bytes compressed, in batches, then the ``document`` column dropped.
Backward: the column again, filled from the bytes, then the bytes decompressed.
"""

from typing import Any

from django.db import migrations, models

import records.fields
from xuezhan.reader import read_document

BATCH = 500


def _rewrite(schema_editor: Any, change: Any) -> None:
    """``change`` applied to every match's stored bytes, a batch of ids at a time."""
    last = 0
    with schema_editor.connection.cursor() as cursor:
        while True:
            cursor.execute(
                "SELECT id, raw FROM records_match WHERE id > %s ORDER BY id LIMIT %s",
                [last, BATCH],
            )
            rows = cursor.fetchall()
            if not rows:
                return
            cursor.executemany(
                "UPDATE records_match SET raw = %s WHERE id = %s",
                [(change(bytes(raw)), pk) for pk, raw in rows],
            )
            last = rows[-1][0]


def compress(apps: Any, schema_editor: Any) -> None:
    def once(raw: bytes) -> bytes:
        return raw if raw[:4] == records.fields.ZSTD_MAGIC else records.fields.compress(raw)

    _rewrite(schema_editor, once)


def decompress(apps: Any, schema_editor: Any) -> None:
    _rewrite(schema_editor, records.fields.decompress)


def fill_documents(apps: Any, schema_editor: Any) -> None:
    """Backward: the ``document`` column read from the bytes, as the upload read them."""
    Match = apps.get_model("records", "Match")
    rows = Match.objects.only("pk", "raw").order_by("pk")
    for match in rows.iterator(chunk_size=BATCH):
        Match.objects.filter(pk=match.pk).update(document=read_document(match.raw, max_depth=1000))


class Migration(migrations.Migration):
    # each batch commits on its own (PostgreSQL refuses to alter a table whose rows this
    # transaction changed); every data step is idempotent: an interrupted run is run again
    atomic = False

    dependencies = [
        ("records", "0007_user_settings"),
        # 0009 sets the column's compression: it must find the column
        ("analysis", "0009_lz4_compression"),
    ]

    operations = [
        migrations.AlterField(
            model_name="match",
            name="raw",
            field=records.fields.CompressedBinaryField(help_text="The uploaded bytes, verbatim."),
        ),
        migrations.RunPython(compress, decompress, elidable=False),
        migrations.AlterField(
            model_name="match",
            name="document",
            field=models.JSONField(help_text="The parsed document.", null=True),
        ),
        migrations.RunPython(migrations.RunPython.noop, fill_documents),
        migrations.RemoveField(model_name="match", name="document"),
    ]
