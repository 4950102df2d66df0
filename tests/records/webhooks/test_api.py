"""The webhooks API: who may register, what is refused, test events, attempts, resend."""

from __future__ import annotations

from typing import Any

import pytest
from standardwebhooks.webhooks import Webhook

from records.models import WebhookDelivery, WebhookEndpoint
from tests.records.webhooks.receiver import Receiver


def test_an_admin_registers_a_webhook_and_gets_its_secret_once(
    register: Any, receiver: Receiver, api_client: Any, cast: Any, hooks_url: str
) -> None:
    body = register(receiver.url, ["match.verified", "match.illegal"])
    assert body["secret"].startswith("whsec_") and body["enabled"] is True
    assert body["events"] == ["match.illegal", "match.verified"]
    listed = api_client(cast["adam"]).get(hooks_url).json()["results"]
    assert [w["id"] for w in listed] == [body["id"]] and "secret" not in listed[0]


@pytest.mark.parametrize(("user", "status"), [("mia", 403), ("nora", 404), (None, 401)])
def test_only_admins_see_or_register_webhooks(
    user: str | None, status: int, api_client: Any, cast: Any, hooks_url: str
) -> None:
    client = api_client(cast[user] if user else None)
    assert client.get(hooks_url).status_code == status
    post = client.post(hooks_url, {"url": "https://93.184.215.14/", "events": ["match.verified"]},
                       format="json")
    assert post.status_code == status and not WebhookEndpoint.objects.exists()


@pytest.mark.parametrize(
    "url",
    ["http://127.0.0.1/hook", "http://10.1.2.3/", "http://192.168.1.1/", "http://[::1]/",
     "http://169.254.169.254/latest/meta-data/", "http://localhost:8000/", "ftp://93.184.215.14/",
     "http://user:pw@93.184.215.14/", "http://0.0.0.0/"],
)
def test_a_url_to_a_private_loopback_or_metadata_address_is_refused(
    url: str, api_client: Any, cast: Any, hooks_url: str
) -> None:
    response = api_client(cast["adam"]).post(
        hooks_url, {"url": url, "events": ["match.verified"]}, format="json"
    )
    assert response.status_code == 400 and response.json()["errors"][0]["path"] == "$.url"
    assert not WebhookEndpoint.objects.exists()


def test_metadata_addresses_stay_refused_where_private_ones_are_allowed(
    settings: Any, api_client: Any, cast: Any, hooks_url: str
) -> None:
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True
    client = api_client(cast["adam"])
    ok = client.post(hooks_url, {"url": "http://127.0.0.1:9/", "events": ["match.failed"]},
                     format="json")
    metadata = client.post(hooks_url, {"url": "http://169.254.169.254/", "events":
                                       ["match.failed"]}, format="json")
    assert ok.status_code == 201 and metadata.status_code == 400


@pytest.mark.parametrize(
    ("events", "path"), [([], "$.events"), (["match.nope"], "$.events[0]"),
                         (["match.failed", "match.failed"], "$.events")],
)
def test_events_must_be_known_and_listed_once(
    events: list[str], path: str, receiver: Receiver, api_client: Any, cast: Any, hooks_url: str
) -> None:
    response = api_client(cast["adam"]).post(
        hooks_url, {"url": receiver.url, "events": events}, format="json"
    )
    assert response.status_code == 400 and response.json()["errors"][0]["path"] == path


def test_a_test_event_arrives_signed_and_its_attempt_is_listed(
    register: Any, receiver: Receiver, api_client: Any, cast: Any, hooks_url: str,
    eager_tasks: None, django_capture_on_commit_callbacks: Any,
) -> None:
    hook = register(receiver.url, ["match.verified"])
    client = api_client(cast["adam"])
    with django_capture_on_commit_callbacks(execute=True):
        with_commit = client.post(f"{hooks_url}{hook['id']}/test/")
    assert with_commit.status_code == 202 and with_commit.json()["event"] == "webhook.test"
    assert len(receiver.received) == 1
    sent = receiver.received[0]
    payload = Webhook(hook["secret"]).verify(sent.body, sent.headers)
    assert payload["type"] == "webhook.test" and payload["data"]["webhook"] == hook["id"]
    assert sent.path == "/hooks/xuezhan?app=1" and sent.headers["webhook-id"].startswith("msg_")
    attempts = client.get(f"{hooks_url}{hook['id']}/deliveries/").json()["results"]
    assert [(a["event"], a["attempt"], a["status_code"], a["succeeded"]) for a in attempts] == [
        ("webhook.test", 1, 204, True)
    ]
    assert attempts[0]["delivered_at"] and attempts[0]["delivery_status"] == "delivered"


def test_a_delivery_sent_again_keeps_its_webhook_id(
    register: Any, receiver: Receiver, api_client: Any, cast: Any, hooks_url: str,
    eager_tasks: None, django_capture_on_commit_callbacks: Any,
) -> None:
    hook = register(receiver.url, ["match.verified"])
    client = api_client(cast["adam"])
    with django_capture_on_commit_callbacks(execute=True):
        delivery = client.post(f"{hooks_url}{hook['id']}/test/").json()["delivery"]
    with django_capture_on_commit_callbacks(execute=True):
        again = client.post(f"{hooks_url}{hook['id']}/deliveries/{delivery}/resend/")
    assert again.status_code == 202
    first, second = receiver.received
    assert first.headers["webhook-id"] == second.headers["webhook-id"]
    numbers = [a["attempt"] for a in client.get(f"{hooks_url}{hook['id']}/deliveries/")
               .json()["results"]]
    assert numbers == [2, 1]
    assert client.post(f"{hooks_url}{hook['id']}/deliveries/999999/resend/").status_code == 404


def test_a_rotated_secret_signs_with_both_for_a_day(
    register: Any, receiver: Receiver, api_client: Any, cast: Any, hooks_url: str,
    eager_tasks: None, django_capture_on_commit_callbacks: Any,
) -> None:
    hook = register(receiver.url, ["match.verified"])
    client = api_client(cast["adam"])
    rotated = client.post(f"{hooks_url}{hook['id']}/rotate-secret/").json()
    assert rotated["secret"] != hook["secret"]
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"{hooks_url}{hook['id']}/test/")
    sent = receiver.received[0]
    for secret in (hook["secret"], rotated["secret"]):
        Webhook(secret).verify(sent.body, sent.headers)  # raises if not signed with it
    assert len(sent.headers["webhook-signature"].split(" ")) == 2


def test_an_admin_changes_disables_and_deletes_a_webhook(
    register: Any, receiver: Receiver, api_client: Any, cast: Any, hooks_url: str
) -> None:
    hook = register(receiver.url, ["match.verified"])
    client = api_client(cast["adam"])
    url = f"{hooks_url}{hook['id']}/"
    changed = client.patch(url, {"events": ["standings.changed"], "enabled": False},
                           format="json")
    assert changed.status_code == 200 and changed.json()["enabled"] is False
    assert changed.json()["events"] == ["standings.changed"]
    assert client.patch(url, {"url": "http://169.254.169.254/"}, format="json").status_code == 400
    assert client.delete(url).status_code == 204 and not WebhookEndpoint.objects.exists()
    assert not WebhookDelivery.objects.exists()
