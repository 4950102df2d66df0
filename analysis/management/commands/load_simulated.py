"""Load a large simulated club: bots' matches, uploaded and verified like any other.

``--bulk`` makes the same club fast (benchmarks, migrations: docs/scaling.md), a batch of
1,000 matches a transaction. The distinct documents: the records' rows in a few multi-row
INSERTs, the engine run once per document, and the verification's own writing
(``analysis.services.store_verified``). The copies of them (``--distinct``): copies of
their template's rows (``analysis.copies``: its report, review and play facts do not
depend on who sat at the table nor when), their verdicts announced once at the end. What
it writes is what the upload and the verification write (tests/analysis/league/
test_books.py checks that row by row).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from tqdm import tqdm

from analysis import copies as copies_
from analysis import services as analysis_services
from records import services
from records.models import Club, Match, Round, Seat, store_ruleset
from records.services import _club_players
from xuezhan.schema import canonical_bytes
from xuezhan.sim.simulate import match_seed, simulate_match

SIM_CLUB = "Simulated club"
BATCH = 1000  # matches written per transaction with --bulk
#: the copies' batches written at once, each in its own connection and transaction: while
#: one waits for the database, another remaps its rows (docs/scaling.md)
WRITERS = 2


class Command(BaseCommand):
    help = (
        "Create (or fill) a club of simulated players with about --rounds rounds of "
        "simulated matches, spread over --weeks weeks, each uploaded and verified."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--rounds", type=int, default=1000, help="rounds in all")
        parser.add_argument("--players", type=int, default=24, help="players in the club")
        parser.add_argument("--rounds-per-match", type=int, default=8)
        parser.add_argument("--weeks", type=int, default=26, help="weeks the matches span")
        parser.add_argument("--seed", type=int, default=2026)
        parser.add_argument("--ruleset", default="chengdu")
        parser.add_argument("--club", default=SIM_CLUB, help="the club's name (sim-owner's)")
        parser.add_argument(
            "--distinct",
            type=int,
            default=0,
            help="simulate only this many matches and seat other players at them again "
            "(the bots are slow; each copy is still uploaded and verified); 0: all distinct",
        )
        parser.add_argument(
            "--bulk",
            action="store_true",
            help="write the rows in batches (the engine once per distinct document)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        per_match, n_players = options["rounds_per_match"], options["players"]
        if n_players < 4:
            raise CommandError("--players must be at least 4")
        if not 1 <= per_match <= 64:
            raise CommandError("--rounds-per-match must be 1-64")
        matches = max(1, -(-options["rounds"] // per_match))
        club = self._club(options["club"])
        handles = [f"sim{k:03d}" for k in range(1, n_players + 1)]
        rng = random.Random(options["seed"])
        end = datetime.now(UTC).replace(hour=20, minute=0, second=0, microsecond=0)
        span = timedelta(weeks=options["weeks"])
        templates: list[dict[str, Any]] = []
        counts: dict[str, int] = {}
        bar = tqdm(
            total=matches * per_match, desc="load_simulated", unit="round", file=self.stderr._out
        )
        if options["bulk"]:
            self._bulk(club, matches, options, rng, end, span, counts, bar)
            matches = 0  # written
        for index in range(matches):
            doc = self._document(index, options, templates)
            doc["players"] = rng.sample(handles, 4)
            doc["match_id"] = f"sim-{options['seed']}-{index}"
            doc["played_at"] = (end - span * rng.random()).isoformat()
            raw = json.dumps(doc, ensure_ascii=False).encode()
            upload = services.upload_match(club=club, raw=raw, uploaded_by=None)
            status = "exists"
            if upload.created:
                status = str(analysis_services.verify_match(match_id=upload.match.pk).status)
            counts[status] = counts.get(status, 0) + 1
            bar.update(per_match)
        bar.close()
        summary = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
        self.stdout.write(f"{club.name} #{club.pk}: {sum(counts.values())} matches ({summary})")

    def _club(self, name: str) -> Club:
        owner, _ = get_user_model().objects.get_or_create(username="sim-owner")
        club = Club.objects.filter(name=name, memberships__user=owner).first()
        return club or services.create_club(name=name, owner=owner)

    def _bulk(
        self,
        club: Club,
        matches: int,
        options: dict[str, Any],
        rng: random.Random,
        end: datetime,
        span: timedelta,
        counts: dict[str, int],
        bar: Any,
    ) -> None:
        """The same matches (the same draws of ``rng``), written a batch at a time: the
        distinct documents uploaded and verified as a batch (``_bulk``), and the copies of
        them as copies of their rows (``analysis.copies``)."""
        handles = [f"sim{k:03d}" for k in range(1, options["players"] + 1)]
        distinct, seed = options["distinct"], options["seed"]
        templates: list[dict[str, Any]] = []
        docs: list[dict[str, Any]] = []
        copies: list[tuple[int, list[str], str, str]] = []  # (template index, ...)
        read: dict[int, copies_.Template] = {}
        stored: dict[int, str] = {}  # the copies' verdicts, announced once at the end
        writers = Writers(WRITERS if _may_write_apart() else 1)
        try:
            for index in range(matches):
                if distinct and index >= distinct:
                    players = rng.sample(handles, 4)
                    played_at = (end - span * rng.random()).isoformat()
                    copies.append((index % distinct, players, f"sim-{seed}-{index}", played_at))
                else:
                    doc = self._document(index, options, templates)
                    doc["players"] = rng.sample(handles, 4)
                    doc["match_id"] = f"sim-{seed}-{index}"
                    doc["played_at"] = (end - span * rng.random()).isoformat()
                    docs.append(doc)
                if len(docs) + len(copies) < BATCH and index < matches - 1:
                    continue
                # the documents here (their copies, in this batch or later, read them
                # committed), the copies by the writers
                written = _bulk(club, docs, {}) if docs else 0
                self._count(counts, bar, options, written, len(docs))
                finished = writers.submit(_copies, len(copies), club, copies, seed, read, stored)
                for done, size in finished:
                    self._count(counts, bar, options, done, size)
                docs, copies = [], []
            for done, size in writers.drain():
                self._count(counts, bar, options, done, size)
        finally:
            writers.close()
            copies_.announce(club.pk, stored)

    @staticmethod
    def _count(
        counts: dict[str, int], bar: Any, options: dict[str, Any], written: int, size: int
    ) -> None:
        counts["verified"] = counts.get("verified", 0) + written
        counts["exists"] = counts.get("exists", 0) + size - written
        bar.update(options["rounds_per_match"] * size)

    def _document(
        self, index: int, options: dict[str, Any], templates: list[dict[str, Any]]
    ) -> dict[str, Any]:
        distinct = options["distinct"]
        if distinct and index >= distinct:
            copy: dict[str, Any] = json.loads(json.dumps(templates[index % distinct]))
            return copy
        doc = simulate_match(
            match_seed(options["seed"], index), options["rounds_per_match"], options["ruleset"]
        )
        if distinct:
            templates.append(json.loads(json.dumps(doc)))
        return doc


def _bulk(club: Club, docs: list[dict[str, Any]], outcomes: dict[str, Any]) -> int:
    """Store and verify a batch of documents as uploads and the verification would, in one
    transaction; the matches the club has already are left alone. Returns those written."""
    stored = []
    with transaction.atomic():
        known = set(
            Match.objects.filter(
                club=club, source_match_id__in=[d["match_id"] for d in docs]
            ).values_list("source_match_id", flat=True)
        )
        docs = [d for d in docs if d["match_id"] not in known]
        if not docs:
            return 0
        players = _club_players(club, sorted({h for d in docs for h in d["players"]}))
        for doc in docs:
            raw = json.dumps(doc, ensure_ascii=False).encode()
            parsed = services.parse_document(raw)
            rules, played_at = services.check_document(parsed)
            canonical = canonical_bytes(parsed)
            stored.append((parsed, Match(
                club=club, raw=raw, raw_sha256=hashlib.sha256(raw).hexdigest(),
                content_sha256=hashlib.sha256(canonical).hexdigest(),
                source_match_id=parsed.get("match_id"),
                stored_ruleset_id=store_ruleset(rules.to_json()),
                ruleset_name=rules.preset_name, played_at=played_at,
            )))  # fmt: skip
        matches = Match.objects.bulk_create([m for _, m in stored])
        Seat.objects.bulk_create(
            Seat(match=m, seat=i, player=players[h])
            for (doc, m) in stored
            for i, h in enumerate(doc["players"])
        )
        Round.objects.bulk_create(
            Round(match=m, index=i, dealer=r["dealer"], event_count=len(r["events"]))
            for (doc, m) in stored
            for i, r in enumerate(doc["rounds"])
        )
        engine = {}
        for doc, match in stored:
            # who sat where is no input of the engine's: a copy's outcome is its template's
            key = json.dumps(
                {**doc, "players": None, "match_id": None, "played_at": None}, sort_keys=True
            )
            if key not in outcomes:
                outcomes[key] = analysis_services.run_engine(doc)
            engine[match.pk] = outcomes[key]
        analysis_services.store_verified(matches, engine)
    return len(matches)


def _copies(
    club: Club,
    copies: list[tuple[int, list[str], str, str]],
    seed: int,
    read: dict[int, copies_.Template],
    stored: dict[int, str],
) -> int:
    """Write the copies the club has not got, each as a copy of its template's rows (the
    match of the template's index, written earlier); returns how many it wrote."""
    if not copies:
        return 0
    sources = {f"sim-{seed}-{t}" for t, *_ in copies} | {c[2] for c in copies}
    known = dict(Match.objects.filter(club=club, source_match_id__in=sources)
                 .values_list("source_match_id", "pk"))  # fmt: skip
    wanted = [
        copies_.Copy(known[f"sim-{seed}-{t}"], players, match_id, played_at)
        for t, players, match_id, played_at in copies if match_id not in known
    ]  # fmt: skip
    if not wanted:
        return 0
    written = copies_.store_copies(club, wanted, read)
    stored.update(written)
    return len(written)


def _may_write_apart() -> bool:
    """Other connections see this one's rows only once committed: the copies are written
    apart only on PostgreSQL (SQLite writes one transaction at a time) and outside a
    transaction of the caller's (a test's, say)."""
    return connection.vendor == "postgresql" and not connection.in_atomic_block


class Writers:
    """Batches written by ``n`` threads, each with its own connection (one: in this
    thread, in order). :meth:`submit` and :meth:`drain` give back the finished batches'
    (written, size); at most ``n`` batches are pending, so memory stays a few batches'."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.pool = ThreadPoolExecutor(max_workers=n) if n > 1 else None
        self.pending: list[tuple[Future[int], int]] = []

    def submit(self, fn: Callable[..., int], size: int, *args: Any) -> list[tuple[int, int]]:
        if size == 0:
            return []
        if self.pool is None:
            return [(fn(*args), size)]
        self.pending.append((self.pool.submit(_in_own_connection, fn, *args), size))
        if len(self.pending) < self.n:
            return []
        first, size = self.pending.pop(0)
        return [(first.result(), size)]

    def drain(self) -> list[tuple[int, int]]:
        done = [(future.result(), size) for future, size in self.pending]
        self.pending = []
        return done

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)


def _in_own_connection(fn: Callable[..., int], *args: Any) -> int:
    try:
        return fn(*args)
    finally:
        connection.close()  # the thread's own: a pool's thread outlives the command's use
