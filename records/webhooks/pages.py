"""The webhooks' pages (club admins): the list with a form to add one, and a page per
webhook to change it, send a test event, rotate its secret, delete it, and read its
deliveries' attempts (each delivery can be sent again)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from records.access import admin_or_403
from records.models import Membership, WebhookEndpoint
from records.permissions import signed_in
from records.webhooks import selectors, services, tasks
from records.webhooks.addresses import AddressRefused, check_url
from records.webhooks.events import EVENTS

PAGE_SIZE = 50


class WebhookForm(forms.Form):
    url = forms.URLField(label=gettext_lazy("URL"), max_length=2000, assume_scheme="https")
    events = forms.MultipleChoiceField(
        label=gettext_lazy("Events"), choices=[(k, k) for k in EVENTS],
        widget=forms.CheckboxSelectMultiple,
    )  # fmt: skip
    description = forms.CharField(
        label=gettext_lazy("Description"), max_length=200, required=False
    )
    enabled = forms.BooleanField(label=gettext_lazy("Enabled"), required=False, initial=True)

    def clean_url(self) -> str:
        url: str = self.cleaned_data["url"]
        try:
            check_url(url)
        except AddressRefused as exc:
            raise forms.ValidationError(str(exc)) from None
        return url


def _endpoint(membership: Membership, webhook_id: int) -> WebhookEndpoint:
    found = selectors.club_webhooks(membership.club).filter(pk=webhook_id).first()
    if found is None:
        raise Http404("No such webhook.")
    return found


@login_required
def webhook_list(request: HttpRequest, club_id: int) -> HttpResponse:
    membership = admin_or_403(request, club_id)
    club = membership.club
    form = WebhookForm(request.POST or None)
    new_secret = None
    if request.method == "POST" and form.is_valid():
        if selectors.club_webhooks(club).count() >= settings.WEBHOOKS_PER_CLUB:
            messages.error(request, _("A club has at most %(count)d webhooks.")
                           % {"count": settings.WEBHOOKS_PER_CLUB})
        else:
            created = services.create_endpoint(club=club, by=signed_in(request),
                                               **form.cleaned_data)
            new_secret = created.secret
            form = WebhookForm()
    return render(request, "webhooks/webhook_list.html", {
        "club": club, "webhooks": selectors.club_webhooks(club), "form": form,
        "new_secret": new_secret, "events": _event_rows(),
    })  # fmt: skip


def _event_rows() -> list[tuple[str, str]]:
    return [(name, str(text)) for name, text in EVENTS.items()]


@login_required
def webhook_detail(request: HttpRequest, club_id: int, webhook_id: int,
                   **extra: Any) -> HttpResponse:  # fmt: skip
    membership = admin_or_403(request, club_id)
    endpoint = _endpoint(membership, webhook_id)
    initial = {"url": endpoint.url, "events": endpoint.events,
               "description": endpoint.description, "enabled": endpoint.enabled}
    form = WebhookForm(request.POST if request.method == "POST" else None, initial=initial)
    if request.method == "POST" and form.is_valid():
        services.change_endpoint(endpoint=endpoint, **form.cleaned_data)
        messages.success(request, _("Saved."))
        return redirect("pages:webhook-detail", club_id=club_id, webhook_id=endpoint.pk)
    page = Paginator(selectors.attempts(endpoint), PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "webhooks/webhook_detail.html", {
        "club": membership.club, "webhook": endpoint, "form": form, "attempts": page,
        "pending": endpoint.deliveries.filter(status="pending").count(),
        "events": _event_rows(), **extra,
    })  # fmt: skip


@login_required
@require_POST
def webhook_test(request: HttpRequest, club_id: int, webhook_id: int) -> HttpResponse:
    endpoint = _endpoint(admin_or_403(request, club_id), webhook_id)
    item = services.send_test(endpoint=endpoint)
    tasks.queue(item.pk, by_hand=True)
    messages.success(request, _("A test event is on its way; its attempt shows below."))
    return redirect("pages:webhook-detail", club_id=club_id, webhook_id=webhook_id)


@login_required
@require_POST
def webhook_rotate(request: HttpRequest, club_id: int, webhook_id: int) -> HttpResponse:
    endpoint = _endpoint(admin_or_403(request, club_id), webhook_id)
    services.rotate_secret(endpoint=endpoint)
    request.method = "GET"  # the page as after a GET, with the new secret shown once
    return webhook_detail(request, club_id, webhook_id, new_secret=endpoint.secret)


@login_required
@require_POST
def webhook_delete(request: HttpRequest, club_id: int, webhook_id: int) -> HttpResponse:
    endpoint = _endpoint(admin_or_403(request, club_id), webhook_id)
    services.delete_endpoint(endpoint=endpoint)
    messages.success(request, _("The webhook was deleted."))
    return redirect("pages:webhook-list", club_id=club_id)


@login_required
@require_POST
def webhook_resend(
    request: HttpRequest, club_id: int, webhook_id: int, delivery_id: int
) -> HttpResponse:
    endpoint = _endpoint(admin_or_403(request, club_id), webhook_id)
    item = endpoint.deliveries.filter(pk=delivery_id).first()
    if item is None:
        raise Http404("No such delivery.")
    services.resend(item=item)
    tasks.queue(item.pk, by_hand=True)
    messages.success(request, _("The delivery is being sent again."))
    return redirect("pages:webhook-detail", club_id=club_id, webhook_id=webhook_id)
