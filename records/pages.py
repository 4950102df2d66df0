"""Pages (Django templates): sign-up, clubs and their members, the match list, uploads.

Club-scoped pages answer 404 to non-members (as the API does) and 403 to members without
the role; the role rules are the API's (records/views.py, records/account_views.py): admins
invite (by user name or by link), remove members and change roles, only owners invite, make,
demote or remove owners, a club keeps an owner. Nobody joins but by accepting an invitation.
"""

from __future__ import annotations

import contextlib
from datetime import date
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied, RequestDataTooBig, ValidationError
from django.core.paginator import Paginator
from django.db.models import Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.defaultfilters import filesizeformat
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from records import selectors, services, timezones
from records.access import admin_or_403, member_or_404, require_admin
from records.errors import DocumentError, UploadTooLarge
from records.models import Club, Invitation, Match, Membership
from records.names import INVISIBLE_MESSAGE, has_unsafe
from records.permissions import signed_in
from records.signin import BACKEND, OUTAGE_RETRY_SECONDS, Refusal, SignUpForm, refused_page
from records.throttles import LimitsUnavailable, sign_up_wait
from records.webhooks import selectors as webhook_selectors

PAGE_SIZE = 50
USERNAME_MAX = 150  # Invitation.username, as Django's user names
#: the status filter of the match list: what people ask for, as sets of stored statuses
STATUS_FILTERS: dict[str, tuple[str, ...]] = {
    "legal": (Match.Status.VERIFIED,),
    "illegal": (Match.Status.ILLEGAL,),
    "verifying": Match.PENDING,
    "failed": (Match.Status.FAILED,),
}


def home(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    return redirect("pages:club-list")


def signup(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        try:
            wait = sign_up_wait(request)
        except LimitsUnavailable:
            return refused_page(Refusal(503, OUTAGE_RETRY_SECONDS))
        if wait is not None:
            return refused_page(Refusal(429, wait), signing_up=True)
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend=BACKEND)
        messages.success(request, _("Welcome, %(name)s.") % {"name": user.username})
        return redirect("pages:club-list")
    return render(request, "registration/signup.html", {"form": form})


# -- clubs and members -----------------------------------------------------------------


@login_required
def club_list(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        name = request.POST.get("name", "").strip()
        if not name or len(name) > Club._meta.get_field("name").max_length:  # type: ignore[operator]
            messages.error(request, _("A club needs a name of 1 to 100 characters."))
        elif has_unsafe(name):
            messages.error(request, _("Club name: %(problem)s") % {"problem": INVISIBLE_MESSAGE})
        else:
            club = services.create_club(name=name, owner=signed_in(request))
            messages.success(request, _("Club “%(name)s” created.") % {"name": club.name})
            return redirect("pages:club-home", club_id=club.pk)
    clubs = selectors.clubs_for_user(request.user).order_by("name", "pk")
    return render(request, "records/club_list.html", {"clubs": clubs})


@login_required
def club_members(request: HttpRequest, club_id: int) -> HttpResponse:
    return _members_page(request, member_or_404(request, club_id))


def _members_page(request: HttpRequest, membership: Membership, **extra: Any) -> HttpResponse:
    club = membership.club
    is_admin = membership.has_role(Membership.Role.ADMIN)
    pending = (selectors.club_invitations(club).filter(
        status=Invitation.Status.PENDING, expires_at__gt=timezone.now()) if is_admin else [])
    return render(
        request,
        "records/club_members.html",
        {
            "club": club,
            "membership": membership,
            "members": list(selectors.club_memberships(club)),
            "invitations": list(pending),
            "is_admin": is_admin,
            "is_owner": membership.has_role(Membership.Role.OWNER),
            "roles": Membership.Role.values,
            "zone_name": timezones.zone_name(club.time_zone),
            "zones": timezones.zone_choices() if is_admin else None,
            **extra,
        },
    )


@login_required
@require_POST
def member_invite(request: HttpRequest, club_id: int) -> HttpResponse:
    """An admin invites a user name, or makes a link (``link``) shown once, on this page.

    The message is the same whether or not the name belongs to anyone, so that the page
    never tells who has an account."""
    membership = admin_or_403(request, club_id)
    username = request.POST.get("username", "").strip()
    role = request.POST.get("role", Membership.Role.MEMBER)
    by_link = "link" in request.POST
    if role not in Membership.Role.values:
        messages.error(request, _("Unknown role."))
    elif role == Membership.Role.OWNER and not membership.has_role(Membership.Role.OWNER):
        messages.error(request, _("Only an owner can invite an owner."))
    elif not by_link and not 0 < len(username) <= USERNAME_MAX:
        messages.error(request, _("Give the user name to invite."))
    else:
        try:
            issued = services.invite(club=membership.club, invited_by=signed_in(request),
                                     role=role, username=None if by_link else username)
        except services.InvitationError:
            messages.error(request, _("%(name)s is already a member.") % {"name": username})
        else:
            if issued.link_secret is None:
                messages.success(request, _(
                    "Invitation sent to “%(name)s”: it shows on their invitations page "
                    "once they sign in with that name.") % {"name": username})
            else:
                # the secret is shown once, on this answer: it is not stored, nor put in a
                # message (which a cookie or the session would keep)
                link = request.build_absolute_uri(
                    reverse("pages:invitation-link", args=[issued.link_secret]))
                return _members_page(request, membership, new_link=link)
    return redirect("pages:club-members", club_id=club_id)


@login_required
@require_POST
def invitation_revoke(request: HttpRequest, club_id: int, invitation_id: int) -> HttpResponse:
    membership = admin_or_403(request, club_id)
    invitation = selectors.club_invitations(membership.club).filter(pk=invitation_id).first()
    if invitation is None:
        raise Http404("No such invitation.")
    if invitation.role == Membership.Role.OWNER and not membership.has_role(Membership.Role.OWNER):
        raise PermissionDenied(_("Only an owner can change or remove an owner."))
    try:
        services.revoke_invitation(invitation=invitation, user=signed_in(request))
        messages.success(request, _("Invitation withdrawn."))
    except services.InvitationError:
        messages.error(request, _("This invitation is no longer open."))
    return redirect("pages:club-members", club_id=club_id)


# -- invitations, as the invited user sees them ----------------------------------------


@login_required
def invitation_list(request: HttpRequest) -> HttpResponse:
    """Your open invitations (addressed to your user name), each to accept or decline."""
    invitations = selectors.invitations_for_user(signed_in(request))
    return render(request, "records/invitation_list.html", {"invitations": invitations})


@login_required
@require_POST
def invitation_answer(request: HttpRequest, invitation_id: int) -> HttpResponse:
    user = signed_in(request)
    invitation = selectors.invitations_for_user(user).filter(pk=invitation_id).first()
    if invitation is None:
        raise Http404("No such invitation.")
    return _answer(request, invitation, accept="accept" in request.POST,
                   back=reverse("pages:invitation-list"))


@login_required
def invitation_link(request: HttpRequest, secret: str) -> HttpResponse:
    """An invitation link: what it offers, and a button to join (the first to join uses it)."""
    invitation = selectors.invitation_by_link(secret)
    if invitation is None:
        raise Http404("No open invitation has this link.")
    if request.method == "POST":
        return _answer(request, invitation, accept=True, back=reverse("pages:club-list"))
    member = invitation.club.memberships.filter(user=signed_in(request)).exists()
    return render(request, "records/invitation_link.html",
                  {"invitation": invitation, "already_member": member})


def _answer(request: HttpRequest, invitation: Invitation, *, accept: bool,
            back: str) -> HttpResponse:
    user = signed_in(request)
    club = invitation.club
    try:
        if not accept:
            services.decline_invitation(invitation=invitation, user=user)
            messages.success(request, _("You declined the invitation to %(club)s.") % {
                "club": club.name})
            return redirect(back)
        services.accept_invitation(invitation=invitation, user=user)
    except services.InvitationError:
        if club.memberships.filter(user=user).exists():
            messages.error(request, _("You are already a member of %(club)s.") % {
                "club": club.name})
        else:
            messages.error(request, _("This invitation is no longer open."))
        return redirect(back)
    messages.success(request, _("Welcome to %(club)s.") % {"club": club.name})
    return redirect("pages:club-home", club_id=club.pk)


@login_required
@require_POST
def member_change(request: HttpRequest, club_id: int, membership_id: int) -> HttpResponse:
    """Change a member's role (``role``) or remove them (``remove``); a member may leave."""
    mine = member_or_404(request, club_id)
    target = selectors.club_memberships(mine.club).filter(pk=membership_id).first()
    if target is None:
        raise Http404("No such member.")
    leaving = target.pk == mine.pk and "remove" in request.POST
    if not leaving:
        require_admin(mine)
    role = request.POST.get("role", target.role)
    owner_involved = Membership.Role.OWNER in (role, target.role)
    if not leaving and owner_involved and not mine.has_role(Membership.Role.OWNER):
        raise PermissionDenied(_("Only an owner can change or remove an owner."))
    if role not in Membership.Role.values:
        messages.error(request, _("Unknown role."))
        return redirect("pages:club-members", club_id=club_id)
    try:
        if "remove" in request.POST:
            services.remove_member(membership=target)
        else:
            services.change_role(membership=target, role=role)
    except services.RoleError:
        messages.error(request, _("A club must keep at least one owner."))
        return redirect("pages:club-members", club_id=club_id)
    if leaving:
        messages.success(request, _("You left %(club)s.") % {"club": mine.club.name})
        return redirect("pages:club-list")
    messages.success(request, _("Saved."))
    return redirect("pages:club-members", club_id=club_id)


@login_required
@require_POST
def club_time_zone(request: HttpRequest, club_id: int) -> HttpResponse:
    """An admin sets the club's time zone (its dates, filters and entries; docs/deploy.md)."""
    membership = member_or_404(request, club_id)
    require_admin(membership)
    try:
        services.set_club_time_zone(club=membership.club,
                                    time_zone=request.POST.get("time_zone", ""))
    except ValidationError:
        messages.error(request, _("Choose a time zone from the list."))
    else:
        messages.success(request, _("Saved."))
    return redirect("pages:club-members", club_id=club_id)


@login_required
def own_settings(request: HttpRequest) -> HttpResponse:
    """The signed-in user's own settings: the time zone their pages use (empty: each
    club's own)."""
    current = timezones.own_zone(request.user)
    if request.method == "POST":
        chosen = request.POST.get("time_zone", "")
        try:
            services.set_own_time_zone(user=request.user,  # type: ignore[arg-type]
                                       time_zone=chosen)
        except ValidationError:
            messages.error(request, _("Choose a time zone from the list."))
        else:
            messages.success(request, _("Saved."))
            return redirect("pages:own-settings")
    return render(request, "records/settings.html",
                  {"current": current, "zones": timezones.zone_choices()})


# -- matches ---------------------------------------------------------------------------


def _filtered(matches: QuerySet[Match], query: dict[str, str]) -> QuerySet[Match]:
    """The match list's filters; a value that does not parse is ignored, never a 500."""
    search = query.get("q", "").strip().lstrip("#")
    if search:
        condition = Q(source_match_id=search)
        if search.isdigit():
            condition |= Q(pk=int(search))
        matches = matches.filter(condition)
    if query.get("player"):
        matches = matches.filter(seats__player__handle=query["player"])
    if query.get("status") in STATUS_FILTERS:
        matches = matches.filter(status__in=STATUS_FILTERS[query["status"]])
    if query.get("ruleset"):
        matches = matches.filter(ruleset_name=query["ruleset"])
    for key, lookup in (("from", "played_at__date__gte"), ("to", "played_at__date__lte")):
        with contextlib.suppress(ValueError):
            matches = matches.filter(**{lookup: date.fromisoformat(query.get(key, ""))})
    return matches


@login_required
def match_list(request: HttpRequest, club_id: int) -> HttpResponse:
    membership = member_or_404(request, club_id)
    club = membership.club
    is_admin = membership.has_role(Membership.Role.ADMIN)
    query = {k: request.GET.get(k, "") for k in ("q", "player", "status", "ruleset", "from", "to")}
    # each row shows its ruleset
    matches = _filtered(selectors.club_matches(club), query).select_related("stored_ruleset")
    page = Paginator(matches, PAGE_SIZE).get_page(request.GET.get("page"))
    kept = "&".join(f"{k}={v}" for k, v in request.GET.items() if k != "page" and v)
    return render(
        request,
        "records/match_list.html",
        {
            "club": club,
            "membership": membership,
            "matches": page.object_list,
            "page": page,
            "query": query,
            "kept": kept,
            "filtered": any(query.values()),
            "players": selectors.club_players(club).values_list("handle", flat=True),
            "rulesets": selectors.club_rulesets(club),
            "statuses": list(STATUS_FILTERS),
            "pending": any(m.status in Match.PENDING for m in page.object_list),
            "is_admin": is_admin,
            # the admins are told here of a webhook disabled for failing (records/webhooks)
            "failing_webhooks": list(webhook_selectors.disabled_webhooks(club)) if is_admin
            else [],
        },
    )


def _document_error(exc: DocumentError) -> str:
    if exc.kind == "invalid_json":
        return _("This is not valid JSON.")
    return _("The document does not follow the log format.")


def _upload_one(club: Club, raw: bytes, request: HttpRequest) -> dict[str, Any]:
    """One document: the outcome as one result line (never raises for a bad document)."""
    try:
        result = services.upload_match(club=club, raw=raw, uploaded_by=signed_in(request))
    except UploadTooLarge:
        return {"ok": False, "detail": _too_large(), "errors": []}
    except DocumentError as exc:
        return {"ok": False, "detail": _document_error(exc), "errors": exc.errors}
    url = reverse("pages:match-detail", args=[club.pk, result.match.pk])
    return {"ok": True, "created": result.created, "match": result.match.pk,
            "url": url + ("" if result.created else "?duplicate=1")}


def _upload_text() -> dict[str, str]:
    """The upload script's sentences, in the page language."""
    return {"too_large": _too_large(), "sending": _("sending…"), "match": _("match #{id}"),
            "already": _("already uploaded"), "failed": _("the upload failed")}


def _too_large() -> str:
    return _("The file is larger than the limit of %(size)s.") % {
        "size": filesizeformat(settings.UPLOAD_MAX_BYTES)}


@login_required
def match_upload(request: HttpRequest, club_id: int) -> HttpResponse:
    """One document (a file or pasted text) goes to its match; several files, one line each.

    ``Accept: application/json`` (the page's script, one file a request) gets the line as JSON.
    """
    club = member_or_404(request, club_id).club
    context: dict[str, Any] = {"club": club, "errors": [], "text": "", "results": [],
                               "limit": settings.UPLOAD_MAX_BYTES, "script_text": _upload_text()}
    if request.method != "POST":
        return render(request, "records/match_upload.html", context)
    try:
        files = request.FILES.getlist("file")
        context["text"] = request.POST.get("document", "")
    except RequestDataTooBig:
        files = []
        context["detail"] = _too_large()
        return render(request, "records/match_upload.html", context, status=413)
    items: list[tuple[str, bytes | None]] = []
    for upload in files:
        big = upload.size is not None and upload.size > settings.UPLOAD_MAX_BYTES
        items.append((upload.name or "?", None if big else upload.read()))
    if not files:
        items.append(("", context["text"].encode("utf-8")))
    results = []
    for name, raw in items:
        line = (_upload_one(club, raw, request) if raw is not None
                else {"ok": False, "detail": _too_large(), "errors": []})
        results.append({"name": name, **line})
    if request.headers.get("Accept") == "application/json":
        return JsonResponse(results[0], status=200 if results[0]["ok"] else 400)
    if len(results) == 1:
        only = results[0]
        if only["ok"]:
            return redirect(only["url"])
        context.update(detail=only["detail"], errors=only["errors"])
        too_big = only["detail"] == _too_large()
        return render(request, "records/match_upload.html", context, status=413 if too_big else 400)
    context["results"] = results
    return render(request, "records/match_upload.html", context)
