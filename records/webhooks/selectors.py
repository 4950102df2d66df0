"""Reads of the webhooks."""

from __future__ import annotations

from django.db.models import QuerySet

from records.models import Club, WebhookAttempt, WebhookEndpoint


def club_webhooks(club: Club) -> QuerySet[WebhookEndpoint]:
    return WebhookEndpoint.objects.filter(club=club).order_by("pk")


def attempts(endpoint: WebhookEndpoint) -> QuerySet[WebhookAttempt]:
    return (
        WebhookAttempt.objects.filter(delivery__endpoint=endpoint)
        .select_related("delivery")
        .order_by("-at", "-pk")
    )


def disabled_webhooks(club: Club) -> QuerySet[WebhookEndpoint]:
    """Endpoints disabled for failing: the club's admins are told on its pages."""
    return WebhookEndpoint.objects.filter(club=club, enabled=False, disabled_reason="failing")
