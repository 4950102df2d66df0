from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from tqdm import tqdm

from analysis import services
from analysis.tasks import verify_match
from records.models import Club, Match


class Command(BaseCommand):
    help = (
        "Verify matches again with the current engine (e.g. after an upgrade): "
        "those of one club, or all of them."
    )

    def add_arguments(self, parser: Any) -> None:
        group = parser.add_mutually_exclusive_group(required=True)
        group.add_argument("--club", type=int, help="the id of the club whose matches to verify")
        group.add_argument("--all", action="store_true", help="every match of every club")
        parser.add_argument(
            "--enqueue",
            action="store_true",
            help="hand the matches to the workers instead of verifying them here",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        matches = Match.objects.order_by("pk")
        if options["club"] is not None:
            if not Club.objects.filter(pk=options["club"]).exists():
                raise CommandError(f"no club with id {options['club']}")
            matches = matches.filter(club_id=options["club"])
        ids = list(matches.values_list("pk", flat=True))
        counts: dict[str, int] = {}
        # the bar draws on the raw stream: Django's OutputWrapper would add a newline per update
        for match_id in tqdm(ids, desc="reverify", unit="match", file=self.stderr._out):
            if options["enqueue"]:
                with transaction.atomic():
                    match = Match.objects.select_for_update().get(pk=match_id)
                    services.requeue_match(match=match)
                    verify_match.delay_on_commit(match_id)
                status = "queued"
            else:
                status = str(services.reverify_match(match_id=match_id).status)
            counts[status] = counts.get(status, 0) + 1
        summary = ", ".join(f"{n} {status}" for status, n in sorted(counts.items())) or "nothing"
        self.stdout.write(f"{len(ids)} {'match' if len(ids) == 1 else 'matches'}: {summary}")
