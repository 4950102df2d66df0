from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from analysis.tasks import sweep_and_requeue


class Command(BaseCommand):
    help = (
        "Re-queue matches whose verification lease ran out, or whose queued message was "
        "lost (what celery beat runs every VERIFY_SWEEP_INTERVAL_SECONDS), by hand."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdout.write(f"re-queued {sweep_and_requeue()} stuck matches")
