"""The webhooks' routes: ``api_urls`` and ``page_urls``, included by config/urls.py."""

from django.urls import URLPattern, path

import records.converters  # noqa: F401  (registers <id:…>)
from records.webhooks import pages, views

CLUB = "clubs/<id:club_id>/"
HOOK = CLUB + "webhooks/<id:webhook_id>/"

api_urls: list[URLPattern] = [
    path(CLUB + "webhooks/", views.WebhookList.as_view(), name="webhook-list"),
    path(HOOK, views.WebhookDetail.as_view(), name="webhook-detail"),
    path(HOOK + "rotate-secret/", views.WebhookRotate.as_view(), name="webhook-rotate"),
    path(HOOK + "test/", views.WebhookTest.as_view(), name="webhook-test"),
    path(HOOK + "deliveries/", views.WebhookDeliveries.as_view(), name="webhook-deliveries"),
    path(HOOK + "deliveries/<id:delivery_id>/resend/", views.WebhookResend.as_view(),
         name="webhook-resend"),
]

page_urls: list[URLPattern] = [
    path(CLUB + "webhooks/", pages.webhook_list, name="webhook-list"),
    path(HOOK, pages.webhook_detail, name="webhook-detail"),
    path(HOOK + "test/", pages.webhook_test, name="webhook-test"),
    path(HOOK + "rotate-secret/", pages.webhook_rotate, name="webhook-rotate"),
    path(HOOK + "delete/", pages.webhook_delete, name="webhook-delete"),
    path(HOOK + "deliveries/<id:delivery_id>/resend/", pages.webhook_resend,
         name="webhook-resend"),
]
