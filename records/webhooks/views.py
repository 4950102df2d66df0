"""The webhooks API (club admins): register, list, change, delete, rotate the secret, send
a test event, read the attempts, send a delivery again."""


from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import BaseSerializer

from records.models import Membership, WebhookAttempt, WebhookDelivery, WebhookEndpoint
from records.permissions import ClubMixin, signed_in
from records.webhooks import selectors, services, tasks
from records.webhooks.serializers import (
    AttemptSerializer,
    QueuedDeliverySerializer,
    WebhookSecretSerializer,
    WebhookSerializer,
)

ADMIN = Membership.Role.ADMIN
METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")
ALL_ADMIN: dict[str, str] = {m: ADMIN for m in METHODS}


class WebhookMixin(ClubMixin):
    roles = ALL_ADMIN

    def endpoint(self) -> WebhookEndpoint:
        found = selectors.club_webhooks(self.club).filter(pk=self.kwargs["webhook_id"]).first()
        if found is None:
            raise Http404("No such webhook.")
        return found


class WebhookList(WebhookMixin, generics.ListCreateAPIView[WebhookEndpoint]):
    """The club's webhooks (admins). POST registers one: the answer holds its signing
    ``secret``, shown this once."""

    queryset = WebhookEndpoint.objects.none()
    serializer_class = WebhookSerializer

    def get_queryset(self) -> QuerySet[WebhookEndpoint]:
        return selectors.club_webhooks(self.club)

    def get_serializer_context(self) -> dict[str, Any]:
        return {**super().get_serializer_context(), "club": self.club}

    @extend_schema(
        request=WebhookSerializer,
        responses={201: OpenApiResponse(WebhookSecretSerializer, "Registered; keep the secret.")},
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        body = WebhookSerializer(data=request.data, context={"club": self.club})
        body.is_valid(raise_exception=True)
        endpoint = services.create_endpoint(
            club=self.club, by=signed_in(request), **body.validated_data
        )
        data = WebhookSecretSerializer(endpoint).data
        data["secret"] = endpoint.secret
        return Response(data, status=status.HTTP_201_CREATED)


class WebhookDetail(WebhookMixin, generics.RetrieveUpdateDestroyAPIView[WebhookEndpoint]):
    """One webhook: change its URL, events, description; enable or disable it; delete it
    (its deliveries go with it)."""

    queryset = WebhookEndpoint.objects.none()
    serializer_class = WebhookSerializer
    lookup_url_kwarg = "webhook_id"

    def get_queryset(self) -> QuerySet[WebhookEndpoint]:
        return selectors.club_webhooks(self.club)

    def get_serializer_context(self) -> dict[str, Any]:
        return {**super().get_serializer_context(), "club": self.club}

    def perform_update(self, serializer: BaseSerializer[WebhookEndpoint]) -> None:
        assert serializer.instance is not None
        services.change_endpoint(endpoint=serializer.instance, **serializer.validated_data)

    def perform_destroy(self, instance: WebhookEndpoint) -> None:
        services.delete_endpoint(endpoint=instance)


class WebhookRotate(WebhookMixin, generics.GenericAPIView[WebhookEndpoint]):
    """A new signing secret; the previous one signs deliveries too for 24 hours."""

    queryset = WebhookEndpoint.objects.none()
    serializer_class = WebhookSecretSerializer

    @extend_schema(request=None, responses={200: WebhookSecretSerializer})
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        endpoint = services.rotate_secret(endpoint=self.endpoint())
        data = WebhookSecretSerializer(endpoint).data
        data["secret"] = endpoint.secret
        return Response(data)


class WebhookTest(WebhookMixin, generics.GenericAPIView[WebhookEndpoint]):
    """Send a ``webhook.test`` event to this endpoint now (enabled or not); its attempt
    shows in ``deliveries/``."""

    queryset = WebhookEndpoint.objects.none()
    serializer_class = QueuedDeliverySerializer

    @extend_schema(request=None, responses={202: QueuedDeliverySerializer})
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        item = services.send_test(endpoint=self.endpoint())
        tasks.queue(item.pk, by_hand=True)
        return Response(QueuedDeliverySerializer(item).data, status=status.HTTP_202_ACCEPTED)


class WebhookDeliveries(WebhookMixin, generics.ListAPIView[WebhookAttempt]):
    """Every attempt of this endpoint's deliveries, newest first: the event, the attempt's
    number, when, the status code (or the error), latency and the answer's start."""

    queryset = WebhookAttempt.objects.none()
    serializer_class = AttemptSerializer

    def get_queryset(self) -> QuerySet[WebhookAttempt]:
        return selectors.attempts(self.endpoint())


class WebhookResend(WebhookMixin, generics.GenericAPIView[WebhookDelivery]):
    """Send a delivery again, now, with the same webhook-id (even to a disabled endpoint:
    a way to see whether it works again before enabling it)."""

    queryset = WebhookDelivery.objects.none()
    serializer_class = QueuedDeliverySerializer

    @extend_schema(request=None, responses={202: QueuedDeliverySerializer})
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        endpoint = self.endpoint()
        item = endpoint.deliveries.filter(pk=self.kwargs["delivery_id"]).first()
        if item is None:
            raise Http404("No such delivery.")
        services.resend(item=item)
        tasks.queue(item.pk, by_hand=True)
        return Response(QueuedDeliverySerializer(item).data, status=status.HTTP_202_ACCEPTED)
