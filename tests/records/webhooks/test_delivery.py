"""Deliveries: one signed event per verdict, at least once through the receiver being down,
retries only where they can help, a day of failures disables, and no request ever reaches
an address it must not (after DNS, or through a redirect)."""

from __future__ import annotations

import socket
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from standardwebhooks.webhooks import Webhook

from analysis import services as verification
from records.models import WebhookDelivery, WebhookEndpoint
from records.webhooks import addresses, services, tasks
from records.webhooks.delivery import retry_after
from tests.records.documents import data_documents, illegal_document
from tests.records.webhooks.receiver import Receiver

Status = WebhookDelivery.Status


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


def verify(upload: Any, doc: Any, capture: Any) -> Any:
    match = upload(doc)
    with capture(execute=True):
        verification.verify_match(match_id=match.pk)
    return match


def test_each_verdict_is_one_signed_delivery_the_library_verifies(
    register: Any, receiver: Receiver, upload: Any, eager_tasks: None,
    django_capture_on_commit_callbacks: Any,
) -> None:
    hook = register(receiver.url, ["match.verified", "match.illegal"])
    legal = verify(upload, data_documents()["rob_kong_chengdu"], django_capture_on_commit_callbacks)
    illegal = verify(upload, illegal_document(), django_capture_on_commit_callbacks)
    events = [Webhook(hook["secret"]).verify(r.body, r.headers) for r in receiver.received]
    assert [(e["type"], e["data"]["match"]) for e in events] == [
        ("match.verified", legal.pk), ("match.illegal", illegal.pk)
    ]
    data = events[0]["data"]
    assert data["status"] == "verified" and len(data["totals"]) == 4 and sum(data["totals"]) == 0
    assert data["links"]["document"].endswith(f"/matches/{legal.pk}/document/")
    assert events[1]["data"]["violations"] >= 1
    assert len({r.headers["webhook-id"] for r in receiver.received}) == 2


def test_an_endpoint_not_asking_for_an_event_gets_none(
    register: Any, receiver: Receiver, upload: Any, eager_tasks: None,
    django_capture_on_commit_callbacks: Any,
) -> None:
    register(receiver.url, ["match.failed"])
    verify(upload, data_documents()["rob_kong_chengdu"], django_capture_on_commit_callbacks)
    assert receiver.received == [] and not WebhookDelivery.objects.exists()


def test_deliveries_wait_while_the_receiver_is_down_and_arrive_when_it_is_back(
    register: Any, settings: Any, upload: Any, eager_tasks: None,
    django_capture_on_commit_callbacks: Any,
) -> None:
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True
    down = Receiver(port=free_port())  # nobody listens there yet
    hook = register(down.url, ["match.verified"])
    docs = data_documents()
    for name in ("rob_kong_chengdu", "multiple_win_two_winners_chengdu"):
        verify(upload, docs[name], django_capture_on_commit_callbacks)
    waiting = list(WebhookDelivery.objects.order_by("pk"))
    assert [(d.status, d.attempt_count) for d in waiting] == [(Status.PENDING, 1)] * 2
    first = waiting[0].attempts.get()
    assert first.status_code is None and first.error == "connection_error"
    assert all(d.next_attempt_at and d.next_attempt_at > timezone.now() for d in waiting)
    assert tasks.send_due() == 0  # not yet time
    down.start()
    try:
        WebhookDelivery.objects.update(next_attempt_at=timezone.now())  # the backoff passed
        assert tasks.send_due() == 2
        assert {Webhook(hook["secret"]).verify(r.body, r.headers)["type"]
                for r in down.received} == {"match.verified"}
        assert len(down.received) == 2
        assert set(WebhookDelivery.objects.values_list("status", flat=True)) == {Status.DELIVERED}
        assert WebhookEndpoint.objects.get().failing_since is None
    finally:
        down.stop()


@pytest.mark.parametrize(
    ("answer", "retried"),
    [((500, {}), True), ((503, {}), True), ((408, {}), True), ((429, {}), True),
     ((400, {}), False), ((404, {}), False), ((410, {}), False)],
)
def test_only_timeouts_errors_5xx_408_and_429_are_tried_again(
    answer: tuple[int, dict[str, str]], retried: bool, register: Any, receiver: Receiver,
) -> None:
    receiver.answers = [answer]
    hook = register(receiver.url, ["match.verified"])
    item = services.send_test(endpoint=WebhookEndpoint.objects.get(pk=hook["id"]))
    services.attempt(item.pk)
    item.refresh_from_db()
    assert item.status == (Status.PENDING if retried else Status.FAILED)
    assert item.attempts.get().status_code == answer[0]


def test_retry_after_is_honoured_and_backoff_grows_with_jitter(
    register: Any, receiver: Receiver
) -> None:
    receiver.answers = [(429, {"Retry-After": "600"})]
    hook = register(receiver.url, ["match.verified"])
    item = services.send_test(endpoint=WebhookEndpoint.objects.get(pk=hook["id"]))
    before = timezone.now()
    services.attempt(item.pk)
    item.refresh_from_db()
    assert item.next_attempt_at is not None
    assert item.next_attempt_at >= before + timedelta(seconds=600)
    waits = [services.backoff(n) for n in range(1, 9)]
    assert waits[-1] is None and all(w is not None for w in waits[:-1])
    assert sum(w for w in waits if w) > 20 * 3600  # about a day in all
    assert retry_after("Wed, 21 Oct 2015 07:28:00 GMT") == 0 and retry_after("12") == 12


def test_a_delivery_is_given_up_after_the_last_retry(
    register: Any, receiver: Receiver, settings: Any
) -> None:
    settings.WEBHOOK_RETRY_SCHEDULE = [1, 1]
    receiver.answers = [(503, {})]
    hook = register(receiver.url, ["match.verified"])
    item = services.send_test(endpoint=WebhookEndpoint.objects.get(pk=hook["id"]))
    for _ in range(3):
        WebhookDelivery.objects.filter(pk=item.pk).update(next_attempt_at=timezone.now())
        services.attempt(item.pk)
    item.refresh_from_db()
    assert item.status == Status.FAILED and item.attempt_count == 3
    assert services.attempt(item.pk) is None  # nothing more is sent


def test_an_endpoint_failing_for_a_day_is_disabled_and_the_admins_are_told(
    register: Any, receiver: Receiver, client: Any, cast: Any, club: Any
) -> None:
    receiver.answers = [(500, {})]
    hook = register(receiver.url, ["match.verified"])
    endpoint = WebhookEndpoint.objects.get(pk=hook["id"])
    item = services.send_test(endpoint=endpoint)
    services.attempt(item.pk)
    endpoint.refresh_from_db()
    assert endpoint.enabled and endpoint.failing_since is not None
    WebhookEndpoint.objects.update(failing_since=timezone.now() - timedelta(hours=25))
    WebhookDelivery.objects.update(next_attempt_at=timezone.now())
    services.attempt(item.pk)
    endpoint.refresh_from_db()
    assert not endpoint.enabled and endpoint.disabled_reason == "failing"
    assert services.due() == []  # a disabled endpoint's deliveries wait
    client.force_login(cast["adam"])
    page = client.get(f"/clubs/{club.pk}/").content.decode()
    assert "disabled because its deliveries failed for a day" in page and receiver.url[:20] in page
    client.force_login(cast["mia"])
    assert "disabled because" not in client.get(f"/clubs/{club.pk}/").content.decode()
    services.change_endpoint(endpoint=endpoint, enabled=True)  # enabled again: sent again
    assert services.due() == [item.pk]


def test_a_name_that_resolves_to_loopback_at_delivery_time_is_refused(
    register: Any, receiver: Receiver, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    hook = register(receiver.url, ["match.verified"])
    WebhookEndpoint.objects.update(url=f"http://hooks.example:{receiver.port}/x")
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = False

    def rebound(host: str, port: int, *args: Any, **kwargs: Any) -> Any:
        assert host == "hooks.example"  # DNS rebinding: public once, loopback now
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", port))]

    monkeypatch.setattr(addresses.socket, "getaddrinfo", rebound)
    item = services.send_test(endpoint=WebhookEndpoint.objects.get(pk=hook["id"]))
    services.attempt(item.pk)
    item.refresh_from_db()
    attempt = item.attempts.get()
    assert attempt.error == "address_refused" and "loopback" in attempt.response
    assert item.status == Status.FAILED and receiver.received == []


def test_a_redirect_is_never_followed(register: Any, receiver: Receiver) -> None:
    elsewhere = Receiver().start()
    try:
        receiver.answers = [(307, {"Location": elsewhere.url})]
        hook = register(receiver.url, ["match.verified"])
        item = services.send_test(endpoint=WebhookEndpoint.objects.get(pk=hook["id"]))
        services.attempt(item.pk)
        item.refresh_from_db()
        attempt = item.attempts.get()
        assert (attempt.status_code, attempt.error) == (307, "redirect_not_followed")
        assert item.status == Status.FAILED and elsewhere.received == []
    finally:
        elsewhere.stop()


def test_a_delivery_claimed_by_one_sender_is_not_sent_by_another(
    register: Any, receiver: Receiver
) -> None:
    hook = register(receiver.url, ["match.verified"])
    item = services.send_test(endpoint=WebhookEndpoint.objects.get(pk=hook["id"]))
    held = services.claim(item.pk)
    assert held is not None and services.claim(item.pk) is None  # leased
    assert services.due() == []
