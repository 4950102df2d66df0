"""What the service's rows cost on disk, per 100k rounds (issue 28 item 3: ≤ 330 MB all told).

Reads the database of DATABASE_URL (PostgreSQL) as it is: fill it first with a simulated
club (``manage.py load_simulated --bulk --rounds 10000 --distinct 200``: documents, reports
and every derived row, as the upload and the verification write them). Prints, for each
table holding rows per match, round or seat, its ``pg_total_relation_size`` (heap, TOAST
and indexes) and each of its indexes, scaled to 100k rounds by the rounds in the database,
then the total against the goal. The reference of the same run is the total itself: the
figures are shares of the database, not times, so the load average matters little (printed
all the same).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/xuezhan_storage \\
        python benchmarks/bench_storage.py [--vacuum]
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.db import connection  # noqa: E402

GOAL_MB = 330.0
#: the tables that grow with the rounds (the clubs', players' and users' rows do not)
TABLES = (
    "records_match", "records_round", "records_seat", "analysis_verification",
    "analysis_violation", "analysis_roundsettlement", "analysis_payment",
    "analysis_seatresult", "analysis_playerday", "analysis_playerdaypattern",
    "analysis_pairday", "analysis_playermatch", "analysis_bookmatch", "analysis_bookday",
    "analysis_historicalmatch", "analysis_historicalseat",
)  # fmt: skip


def main() -> int:
    args = _arguments()
    if connection.vendor != "postgresql":
        print("bench_storage needs PostgreSQL (DATABASE_URL)")
        return 2
    with connection.cursor() as cursor:
        if args.vacuum:  # dead rows of a migration's rewrite would count otherwise
            for table in TABLES:
                cursor.execute(f"VACUUM FULL ANALYZE {connection.ops.quote_name(table)}")
        cursor.execute("SELECT count(*) FROM records_round")
        rounds = cursor.fetchone()[0] or 1
        cursor.execute("SELECT count(*) FROM records_match")
        matches = cursor.fetchone()[0]
        scale = 100_000 / rounds / 2**20
        print(f"load average {_load()}; {rounds} rounds, {matches} matches in the database")
        print(
            f"per 100k rounds, MB: {'table':26s} {'total':>8s} {'heap':>8s} {'toast':>8s} "
            f"{'indexes':>8s} {'rows/round':>10s} {'B/row':>6s}"
        )
        total = 0.0
        for table in TABLES:
            total += _table(cursor, table, rounds, scale)
    verdict = "met" if total <= GOAL_MB else "NOT met"
    print(f"  {'all told':45s} {total:8.1f}   (goal ≤ {GOAL_MB:.0f} MB: {verdict})")
    return 0


def _table(cursor: object, table: str, rounds: int, scale: float) -> float:
    cursor.execute("SELECT to_regclass(%s)", [table])  # type: ignore[attr-defined]
    if cursor.fetchone()[0] is None:  # type: ignore[attr-defined]
        return 0.0
    cursor.execute(  # type: ignore[attr-defined]
        "SELECT pg_total_relation_size(c.oid), pg_relation_size(c.oid), "
        "coalesce(pg_total_relation_size(nullif(c.reltoastrelid, 0)), 0), "
        "pg_indexes_size(c.oid), (SELECT count(*) FROM "
        + connection.ops.quote_name(table)
        + ") FROM pg_class c WHERE c.oid = %s::regclass",
        [table],
    )
    whole, heap, toast, indexes, count = cursor.fetchone()  # type: ignore[attr-defined]
    per_row = whole / count if count else 0
    print(
        f"  {'':19s}{table:26s} {whole * scale:8.1f} {heap * scale:8.1f} "
        f"{toast * scale:8.1f} {indexes * scale:8.1f} {count / rounds:10.2f} {per_row:6.0f}"
    )
    cursor.execute(  # type: ignore[attr-defined]
        "SELECT i.indexrelid::regclass::text, pg_relation_size(i.indexrelid) "
        "FROM pg_index i WHERE i.indrelid = %s::regclass ORDER BY 2 DESC",
        [table],
    )
    for name, size in cursor.fetchall():  # type: ignore[attr-defined]
        print(f"  {'':21s}index {name:38s} {size * scale:8.1f}")
    return float(whole * scale)


def _load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--vacuum", action="store_true", help="VACUUM FULL the tables first (after a migration)"
    )
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(main())
