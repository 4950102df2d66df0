from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from tqdm import tqdm

from analysis import services
from analysis.stats import aggregates, figures
from records.models import Club, Match


class Command(BaseCommand):
    help = (
        "Rebuild the statistics facts of verified and illegal matches from their stored logs "
        "(after a change of docs/statistics.md), and with them the materialised statistics: "
        "one club's, or every club's. --aggregates-only rebuilds just the materialised "
        "statistics from the facts as stored (after a migration adds them)."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--club", type=int, help="only the matches of this club (its id)")
        parser.add_argument(
            "--aggregates-only",
            action="store_true",
            help="rebuild the per-day statistics tables from the stored facts, no replay",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        clubs = Club.objects.order_by("pk")
        if options["club"] is not None:
            if not Club.objects.filter(pk=options["club"]).exists():
                raise CommandError(f"no club with id {options['club']}")
            clubs = clubs.filter(pk=options["club"])
        if options["aggregates_only"]:
            self._aggregates(list(clubs.values_list("pk", flat=True)))
            return
        matches = Match.objects.filter(status__in=services.FACT_STATUSES, club__in=clubs).order_by(
            "pk"
        )
        ids = list(matches.values_list("pk", flat=True))
        changed = 0
        # the bar draws on the raw stream: Django's OutputWrapper would add a newline per update
        for match_id in tqdm(ids, desc="rebuild_facts", unit="match", file=self.stderr._out):
            before = Match.objects.values_list("status", flat=True).get(pk=match_id)
            changed += services.rebuild_facts(match_id=match_id).status != before
        self.stdout.write(f"{len(ids)} matches rebuilt; {changed} changed verdict")

    def _aggregates(self, club_ids: list[int]) -> None:
        for club_id in tqdm(
            club_ids, desc="rebuild_aggregates", unit="club", file=self.stderr._out
        ):
            with transaction.atomic():  # readers see the old rows or the new, never none
                aggregates.rebuild_club(club_id)
            figures.facts_changed(club_id)
        self.stdout.write(f"statistics aggregates of {len(club_ids)} clubs rebuilt")
