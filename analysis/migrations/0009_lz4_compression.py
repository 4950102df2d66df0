"""Compress the large values (an upload's document and bytes, a verification's report) with
lz4 rather than PostgreSQL's default pglz: on the pipeline's documents (~37 KB) lz4 halves
the server's CPU to store one (2.3 → 1.2 ms) for rows about a quarter larger
(docs/deploy.md, "PostgreSQL settings"). Values already stored keep their compression.

PostgreSQL 14 or later built with lz4 (Debian's and the official images are); on any other
server, and on other databases, this does nothing.
"""

from collections.abc import Callable
from typing import Any

from django.db import migrations

COLUMNS = {
    "records_match": ("document", "raw"),
    "analysis_verification": ("report",),
    "analysis_matchdocumentversion": ("document", "raw"),
}


def _lz4_available(schema_editor: Any) -> bool:
    if schema_editor.connection.vendor != "postgresql":
        return False
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            "SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'"
        )
        row = cursor.fetchone()
    return bool(row and row[0])


def _compress_with(method: str) -> Callable[[Any, Any], None]:
    def run(apps: Any, schema_editor: Any) -> None:
        if not _lz4_available(schema_editor):
            return
        quote = schema_editor.quote_name
        for table, columns in COLUMNS.items():
            changes = ", ".join(f"ALTER COLUMN {quote(c)} SET COMPRESSION {method}" for c in columns)
            schema_editor.execute(f"ALTER TABLE {quote(table)} {changes}")

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("analysis", "0008_stats_aggregate_keys"),
        ("records", "0002_invitations_tokens_lease"),
    ]

    operations = [migrations.RunPython(_compress_with("lz4"), _compress_with("default"))]
