from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from analysis import services
from analysis.tasks import verify_match


class Command(BaseCommand):
    help = "Re-queue matches stuck in queued or verifying (the periodic sweeper, run by hand)."

    def handle(self, *args: Any, **options: Any) -> None:
        ids = services.sweep_stuck_matches()
        for match_id in ids:
            verify_match.delay(match_id)
        self.stdout.write(f"re-queued {len(ids)} stuck matches")
