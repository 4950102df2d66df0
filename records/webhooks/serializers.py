"""API shapes of the webhooks."""
# ruff: noqa: RUF012  (Django and DRF declare options as mutable class attributes)

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework import serializers

from records.models import WebhookAttempt, WebhookDelivery, WebhookEndpoint
from records.webhooks.addresses import AddressRefused, check_url
from records.webhooks.events import EVENTS


class WebhookSerializer(serializers.ModelSerializer[WebhookEndpoint]):
    url = serializers.URLField(
        max_length=2000,
        help_text="Where the events are POSTed: https:// (or http://), a public address.",
    )
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=list(EVENTS)),
        min_length=1,
        max_length=len(EVENTS),
        help_text="The event types to send: " + ", ".join(EVENTS) + ".",
    )
    failing_since = serializers.DateTimeField(
        read_only=True, allow_null=True,
        help_text="The first failed delivery since the last success (null: none).",
    )  # fmt: skip
    disabled_reason = serializers.CharField(
        read_only=True, help_text="'failing' when it was disabled for failing a day; else ''."
    )

    class Meta:
        model = WebhookEndpoint
        fields = ["id", "url", "events", "description", "enabled", "created_at",
                  "failing_since", "disabled_reason"]
        read_only_fields = ["id", "created_at"]
        extra_kwargs = {"description": {"max_length": 200}}

    def validate_url(self, url: str) -> str:
        try:
            check_url(url)
        except AddressRefused as exc:
            raise serializers.ValidationError(str(exc)) from None
        return url

    def validate_events(self, events: list[str]) -> list[str]:
        if len(set(events)) != len(events):
            raise serializers.ValidationError(_("an event is listed twice"))
        return events

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        club = self.context.get("club")
        full = club is not None and club.webhooks.count() >= settings.WEBHOOKS_PER_CLUB
        if self.instance is None and full:
            raise serializers.ValidationError(
                _("a club has at most %(count)d webhooks") % {"count": settings.WEBHOOKS_PER_CLUB}
            )
        return attrs


class WebhookSecretSerializer(WebhookSerializer):
    """An endpoint with its signing secret: in the answer that creates it or rotates it."""

    secret = serializers.CharField(
        read_only=True,
        help_text="whsec_…: verify each delivery's webhook-signature with it "
        "(standardwebhooks). Shown only here.",
    )

    class Meta(WebhookSerializer.Meta):
        fields = [*WebhookSerializer.Meta.fields, "secret"]


class AttemptSerializer(serializers.ModelSerializer[WebhookAttempt]):
    """One attempt of a delivery."""

    delivery = serializers.IntegerField(source="delivery_id", read_only=True)
    message_id = serializers.CharField(
        source="delivery.message_id", read_only=True, help_text="The webhook-id header."
    )
    event = serializers.CharField(source="delivery.event", read_only=True)
    attempt = serializers.IntegerField(source="number", read_only=True)
    delivered_at = serializers.DateTimeField(
        source="at", read_only=True, help_text="When this attempt was sent."
    )
    status_code = serializers.IntegerField(
        read_only=True, allow_null=True, help_text="The answer's status; null: none came."
    )
    error = serializers.CharField(
        read_only=True,
        help_text="Without a status: timeout, connection_error, address_refused; "
        "redirect_not_followed for a 3xx; else ''.",
    )
    succeeded = serializers.BooleanField(read_only=True)
    delivery_status = serializers.ChoiceField(
        source="delivery.status", read_only=True, choices=WebhookDelivery.Status.choices
    )
    next_attempt_at = serializers.DateTimeField(
        source="delivery.next_attempt_at", read_only=True, allow_null=True,
        help_text="A pending delivery's next try.",
    )  # fmt: skip

    class Meta:
        model = WebhookAttempt
        fields = ["id", "delivery", "message_id", "event", "attempt", "delivered_at",
                  "status_code", "latency_ms", "error", "response", "succeeded", "by_hand",
                  "delivery_status", "next_attempt_at"]
        read_only_fields = fields


class QueuedDeliverySerializer(serializers.Serializer[Any]):
    """A delivery queued (a test event, a resend): its attempts follow in ``deliveries/``."""

    delivery = serializers.IntegerField(source="pk")
    message_id = serializers.CharField()
    event = serializers.CharField()
    status = serializers.ChoiceField(choices=WebhookDelivery.Status.choices)
