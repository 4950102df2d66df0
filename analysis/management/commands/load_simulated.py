"""Load a large simulated club: bots' matches, uploaded and verified like any other."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from analysis import services as analysis_services
from records import services
from records.models import Club
from xuezhan.sim.simulate import match_seed, simulate_match

SIM_CLUB = "Simulated club"


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
        parser.add_argument(
            "--distinct",
            type=int,
            default=0,
            help="simulate only this many matches and seat other players at them again "
            "(the bots are slow; each copy is still uploaded and verified); 0: all distinct",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        per_match, n_players = options["rounds_per_match"], options["players"]
        if n_players < 4:
            raise CommandError("--players must be at least 4")
        if not 1 <= per_match <= 64:
            raise CommandError("--rounds-per-match must be 1-64")
        matches = max(1, -(-options["rounds"] // per_match))
        club = self._club()
        handles = [f"sim{k:03d}" for k in range(1, n_players + 1)]
        rng = random.Random(options["seed"])
        end = datetime.now(UTC).replace(hour=20, minute=0, second=0, microsecond=0)
        span = timedelta(weeks=options["weeks"])
        templates: list[dict[str, Any]] = []
        counts: dict[str, int] = {}
        bar = tqdm(
            total=matches * per_match, desc="load_simulated", unit="round", file=self.stderr._out
        )
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
        self.stdout.write(f"{club.name} #{club.pk}: {matches} matches ({summary})")

    def _club(self) -> Club:
        owner, _ = get_user_model().objects.get_or_create(username="sim-owner")
        club = Club.objects.filter(name=SIM_CLUB, memberships__user=owner).first()
        return club or services.create_club(name=SIM_CLUB, owner=owner)

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
