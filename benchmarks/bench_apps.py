"""Benchmark what apps use (docs/apps.md) against references in the same run, against the
database of DATABASE_URL (PostgreSQL; a throwaway database: it creates clubs).

1. Bulk upload of ``--matches`` simulated documents in one ``matches/bulk/`` request,
   against the same documents uploaded one request each (``matches/``): the reference.
2. The ndjson export of the club (every match, its document, verdict and settlement),
   against reading the same matches through the paginated JSON list (200 a page), which
   carries no document: the reference.
3. The CSV writer with formula neutralisation (records.tables.csv_chunks) on a table of
   ``--rows`` rows of hostile and plain text, against Python's csv.DictWriter.
4. A verification batch's cost of the webhook receivers (analysis/events.py) for a club
   without webhooks: ``verify_matches`` with the receivers connected, against disconnected.

Every figure is wall time through Django's test client or in-process (no network), printed
with the ratio and the load average. Tasks run in-process (no broker).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/xuezhan_apps_bench \\
        python benchmarks/bench_apps.py [--matches 100] [--rows 100000]
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.pop("CELERY_BROKER_URL", None)  # tasks in-process: the timings are the web's

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402

from analysis import services as verification  # noqa: E402
from analysis.events import announce_verdicts  # noqa: E402
from analysis.signals import verdict_stored  # noqa: E402
from analysis.tasks import queue_verification  # noqa: E402
from records import services  # noqa: E402
from records.models import Match  # noqa: E402
from records.signals import match_needs_verifying  # noqa: E402
from records.tables import Table, csv_chunks  # noqa: E402
from xuezhan.sim.simulate import simulate_match  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        print(f"note: running on {connection.vendor}, not PostgreSQL", file=sys.stderr)
    call_command("migrate", verbosity=0)
    settings.ALLOWED_HOSTS.append("testserver")  # Django's test client
    user = get_user_model().objects.get_or_create(username="bench-apps")[0]
    client = Client()
    client.force_login(user)
    docs = [json.dumps(simulate_match(args.seed * 1000 + i, rounds=4)).encode()
            for i in range(args.matches)]
    print(f"load average {os.getloadavg()[0]:.2f} (1 min) at the start; "
          f"{args.matches} matches of 4 rounds")

    # 1. bulk against single uploads (each club new: every document is new in it); the
    # verification waits (no receiver), as it would for a worker
    match_needs_verifying.disconnect(dispatch_uid="analysis.verify")
    singles = services.create_club(name="bench singles", owner=user)
    bulk = services.create_club(name="bench bulk", owner=user)
    start = time.perf_counter()
    for raw in docs:
        answer = client.post(f"/api/v1/clubs/{singles.pk}/matches/", raw,
                             content_type="application/json")
        assert answer.status_code == 201, answer.content
    one_by_one = time.perf_counter() - start
    start = time.perf_counter()
    answer = client.post(f"/api/v1/clubs/{bulk.pk}/matches/bulk/", b"\n".join(docs),
                         content_type="application/x-ndjson")
    at_once = time.perf_counter() - start
    assert answer.json()["counts"]["stored"] == args.matches, answer.content[:300]
    match_needs_verifying.connect(queue_verification, dispatch_uid="analysis.verify")
    _line("1. upload (the verification queued)", "bulk", at_once, "one by one", one_by_one,
          args.matches, "matches")

    # 4. the webhook receivers on a club without webhooks
    ids = list(Match.objects.filter(club=bulk).order_by("pk").values_list("pk", flat=True))
    half = len(ids) // 2
    timings = {}
    for label, batch, connected in (("with", ids[:half], True), ("without", ids[half:], False)):
        if not connected:
            verdict_stored.disconnect(dispatch_uid="analysis.events.verdicts")
        start = time.perf_counter()
        for i in range(0, len(batch), 8):
            verification.verify_matches(match_ids=batch[i:i + 8], force=True)
        timings[label] = time.perf_counter() - start
    verdict_stored.connect(announce_verdicts, dispatch_uid="analysis.events.verdicts")
    _line("4. verification, batches of 8", "with receivers", timings["with"], "without",
          timings["without"], half, "matches")
    # 2. export against the list
    start = time.perf_counter()
    exported = b"".join(client.get(f"/api/v1/clubs/{bulk.pk}/matches/export/").streaming_content)
    export = time.perf_counter() - start
    start = time.perf_counter()
    url: str | None = f"/api/v1/clubs/{bulk.pk}/matches/?page_size=200"
    listed = 0
    while url:
        page = client.get(url).json()
        listed += len(page["results"])
        url = page["next"]
    listing = time.perf_counter() - start
    assert exported.count(b"\n") == listed == args.matches
    _line(f"2. read every match ({len(exported) / 1e6:.1f} MB of ndjson)", "export", export,
          "JSON list, no document", listing, args.matches, "matches")

    # 3. the CSV writer against DictWriter
    rows = [{"handle": "=cmd|' /C calc'!A0" if i % 3 == 0 else f"player {i}", "net": -i,
             "note": "+1" if i % 5 == 0 else "ok"} for i in range(args.rows)]
    columns = ["handle", "net", "note"]
    start = time.perf_counter()
    ours = sum(len(chunk) for chunk in csv_chunks(Table("t", columns, rows)))
    neutralised = time.perf_counter() - start
    start = time.perf_counter()
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns)
    writer.writeheader()
    writer.writerows(rows)
    plain = time.perf_counter() - start
    assert ours > len(out.getvalue())  # quotes and the neutralising apostrophes
    _line("3. CSV", "neutralised, streamed", neutralised, "csv.DictWriter", plain, args.rows,
          "rows")

    print(f"load average {os.getloadavg()[0]:.2f} (1 min) at the end")
    return 0


def _line(what: str, name: str, seconds: float, reference: str, ref_seconds: float,
          count: int, unit: str) -> None:
    print(f"{what}: {name} {seconds:.2f} s ({count / seconds:.0f} {unit}/s), {reference} "
          f"{ref_seconds:.2f} s ({count / ref_seconds:.0f} {unit}/s): "
          f"ratio {seconds / ref_seconds:.2f}")


if __name__ == "__main__":
    sys.exit(main())
