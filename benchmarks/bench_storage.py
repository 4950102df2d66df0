"""What the service's rows cost on disk, per 100k rounds (issue 28 item 3: ≤ 330 MB all told).

Reads the database of DATABASE_URL (PostgreSQL) as it is: fill it first with a simulated
club (``manage.py load_simulated --bulk --rounds 10000 --distinct 200``: documents, reports
and every derived row, as the upload and the verification write them). Prints, for each
table holding rows per match, round or seat, its ``pg_total_relation_size`` (heap, TOAST
and indexes) and each of its indexes, scaled to 100k rounds by the rounds in the database,
then the total against the goal. The reference of the same run is the total itself: the
figures are shares of the database, not times, so the load average matters little (printed
all the same).

``--cost N`` times, on N of the database's matches, what the compact forms cost in CPU
against the replay of the same match (the verification's own work, the reference): packing
each round's payment lines and keeping their details (the verification's write), compressing
the upload's bytes (the upload), reading them back into the document (the verification's
read), compressing a decision review and reading it back (the review's store, its pages) and
the report rebuilt on demand (``Verification.report``: one replay).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/xuezhan_storage \\
        python benchmarks/bench_storage.py [--vacuum] [--cost 200]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.db import connection  # noqa: E402

from analysis import compact, services  # noqa: E402
from analysis.models import Verification, engine_report  # noqa: E402
from records import fields  # noqa: E402
from records.models import Match  # noqa: E402

GOAL_MB = 330.0
#: the tables that grow with the rounds (the clubs', players' and users' rows do not), and
#: the rulesets the matches refer to (a row per distinct ruleset)
TABLES = (
    "records_match", "records_ruleset", "records_round", "records_seat",
    "analysis_verification", "analysis_violation", "analysis_roundsettlement",
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
    if args.cost:
        _cost(args.cost)
    return 0


def _cost(n: int) -> None:
    """CPU per match of each compact form's work, against the match's replay."""
    raws = [bytes(r) for r in Match.objects.order_by("pk").values_list("raw", flat=True)[:n]]
    docs = [services._parse(raw) for raw in raws]
    reports = [engine_report(doc) for doc in docs]
    rounds = [r["payments"] for report in reports for r in report["rounds"]]
    lines = [p for r in rounds for p in r]
    stored_lines = [services._lines_text(r) for r in rounds]
    packed = [fields.compress(raw) for raw in raws]
    reviews = [r for r in Verification.objects.order_by("match_id").values_list(
        "review", flat=True)[:n] if r is not None]  # fmt: skip
    stored_reviews = [fields.dump_json(r) for r in reviews]
    steps = {
        "replay (the reference)": lambda: [engine_report(doc) for doc in docs],
        "lines packed, detail kept": lambda: [services._lines_text(r) for r in rounds],
        "lines read back": lambda: [compact.loads_lines(text) for text in stored_lines],
        "bytes compressed (upload)": lambda: [fields.compress(raw) for raw in raws],
        "bytes read into the document": lambda: [services._parse(fields.decompress(b))
                                                 for b in packed],
        "review compressed (its store)": lambda: [fields.dump_json(r) for r in reviews],
        "review read back": lambda: [fields.load_json(b) for b in stored_reviews],
    }  # fmt: skip
    spent = {name: _best_of(3, step) / len(raws) for name, step in steps.items()}
    reference = spent["replay (the reference)"]
    print(
        f"CPU per match ({len(raws)} matches, {len(lines) / len(raws):.0f} payment lines "
        f"each; load average {_load()}):"
    )
    for name, seconds in spent.items():
        print(f"  {name:32s} {seconds * 1000:8.2f} ms  {seconds / reference:6.3f}× the replay")


def _best_of(repeat: int, step: Any) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        step()
        best = min(best, time.process_time() - start)
    return best


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
    parser.add_argument("--cost", type=int, default=0, help="time the compact forms on N matches")
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(main())
