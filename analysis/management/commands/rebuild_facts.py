from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from analysis import services
from records.models import Club, Match


class Command(BaseCommand):
    help = (
        "Rebuild the statistics facts of verified and illegal matches from their stored logs "
        "(after a change of docs/statistics.md): one club's, or every club's."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--club", type=int, help="only the matches of this club (its id)")

    def handle(self, *args: Any, **options: Any) -> None:
        matches = Match.objects.filter(status__in=services.FACT_STATUSES).order_by("pk")
        if options["club"] is not None:
            if not Club.objects.filter(pk=options["club"]).exists():
                raise CommandError(f"no club with id {options['club']}")
            matches = matches.filter(club_id=options["club"])
        ids = list(matches.values_list("pk", flat=True))
        changed = 0
        # the bar draws on the raw stream: Django's OutputWrapper would add a newline per update
        for match_id in tqdm(ids, desc="rebuild_facts", unit="match", file=self.stderr._out):
            before = Match.objects.values_list("status", flat=True).get(pk=match_id)
            changed += services.rebuild_facts(match_id=match_id).status != before
        self.stdout.write(f"{len(ids)} matches rebuilt; {changed} changed verdict")
