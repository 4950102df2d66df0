"""``verdict_stored`` (analysis.signals): its receivers take a whole bulk load at once."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.django_db


def test_the_verdicts_of_a_whole_bulk_load_reach_every_receiver_in_chunks(
    club: Any, cast: Any, upload: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """analysis.copies.announce sends a club's every match at once (125,000 at 1M rounds):
    past PostgreSQL's 65,535 parameters (SQLite's 32,766) in one query, so each receiver
    queries and queues ``analysis.signals.CHUNK`` ids at a time."""
    from analysis import services
    from analysis.models import Verification
    from analysis.signals import publish_verdicts_stored
    from records.models import WebhookDelivery
    from records.webhooks.services import create_endpoint
    from tests.records.documents import simulated

    create_endpoint(club=club, url="https://example.com/hook", events=["match.verified"],
                    by=cast["olga"])  # fmt: skip
    match = upload(simulated(3))
    services.verify_match(match_id=match.pk)
    Verification.objects.filter(match=match).update(review=None)
    WebhookDelivery.objects.all().delete()
    ids = [match.pk, *range(10**6, 10**6 + 70_000)]  # the others are no matches
    with django_capture_on_commit_callbacks(execute=True) as sent:
        publish_verdicts_stored(ids, club_ids=[club.pk])
    assert sent
    assert Verification.objects.get(match=match).review is not None  # reviewed again
    assert WebhookDelivery.objects.filter(event="match.verified").count() == 1
