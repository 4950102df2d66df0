"""The webhooks' pages: admins only, add (the secret shown once), change, test, rotate,
resend, delete; in 简体中文 too."""

from __future__ import annotations

from typing import Any

import pytest

from records.models import WebhookAttempt, WebhookEndpoint
from tests.languages import in_chinese
from tests.records.webhooks.receiver import Receiver


def page(club: Any, rest: str = "") -> str:
    return f"/clubs/{club.pk}/webhooks/{rest}"


@pytest.mark.parametrize(("user", "status"), [("mia", 403), ("nora", 404)])
def test_only_admins_reach_the_webhooks_pages(
    user: str, status: int, client: Any, cast: Any, club: Any
) -> None:
    client.force_login(cast[user])
    assert client.get(page(club)).status_code == status
    assert client.post(page(club), {"url": "https://93.184.215.14/",
                                    "events": ["match.verified"]}).status_code == status
    assert not WebhookEndpoint.objects.exists()


def test_an_admin_adds_a_webhook_and_sees_its_secret_once(
    client: Any, cast: Any, club: Any, receiver: Receiver
) -> None:
    client.force_login(cast["adam"])
    text = client.post(page(club), {"url": receiver.url, "events": ["match.verified"],
                                    "enabled": "on"}).content.decode()
    endpoint = WebhookEndpoint.objects.get()
    assert endpoint.secret in text and endpoint.events == ["match.verified"]
    again = client.get(page(club)).content.decode()
    assert endpoint.secret not in again and receiver.url.split("?")[0] in again


def test_a_private_url_is_refused_on_the_page_naming_why(
    client: Any, cast: Any, club: Any
) -> None:
    client.force_login(cast["adam"])
    text = client.post(page(club), {"url": "http://10.0.0.1/", "events": ["match.verified"]}
                       ).content.decode()
    assert "private or reserved address" in text and not WebhookEndpoint.objects.exists()


def test_an_admin_tests_rotates_resends_changes_and_deletes(
    client: Any, cast: Any, club: Any, receiver: Receiver, eager_tasks: None,
    django_capture_on_commit_callbacks: Any,
) -> None:
    client.force_login(cast["adam"])
    client.post(page(club), {"url": receiver.url, "events": ["match.verified"], "enabled": "on"})
    endpoint = WebhookEndpoint.objects.get()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(page(club, f"{endpoint.pk}/test/"))
    detail = client.get(page(club, f"{endpoint.pk}/")).content.decode()
    assert "webhook.test" in detail and "204" in detail and len(receiver.received) == 1
    attempt = WebhookAttempt.objects.get()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(page(club, f"{endpoint.pk}/deliveries/{attempt.delivery_id}/resend/"))
    assert len(receiver.received) == 2
    old = endpoint.secret
    rotated = client.post(page(club, f"{endpoint.pk}/rotate-secret/")).content.decode()
    endpoint.refresh_from_db()
    assert endpoint.secret != old and endpoint.secret in rotated
    client.post(page(club, f"{endpoint.pk}/"), {"url": receiver.url,
                                               "events": ["match.failed", "match.illegal"]})
    endpoint.refresh_from_db()
    assert endpoint.events == ["match.failed", "match.illegal"] and not endpoint.enabled
    client.post(page(club, f"{endpoint.pk}/delete/"))
    assert not WebhookEndpoint.objects.exists()


def test_the_webhooks_page_speaks_chinese(client: Any, cast: Any, club: Any) -> None:
    client.force_login(cast["adam"])
    text = client.get(page(club), HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
    assert in_chinese("Add a webhook") in text and in_chinese("Events") in text
    club_page = client.get(f"/clubs/{club.pk}/", HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
    assert page(club) in club_page
