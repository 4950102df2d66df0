"""Pages (Django templates): club list, match list, upload form."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from records import selectors, services
from records.errors import DocumentError, UploadTooLarge, too_large_json
from records.models import Membership
from records.permissions import signed_in


def _membership(request: HttpRequest, club_id: int) -> Membership:
    membership = selectors.membership_for(user=request.user, club_id=club_id)
    if membership is None:
        raise Http404("No such club.")
    return membership


def home(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    return redirect("pages:club-list")


@login_required
def club_list(request: HttpRequest) -> HttpResponse:
    clubs = selectors.clubs_for_user(request.user).order_by("name", "pk")
    return render(request, "records/club_list.html", {"clubs": clubs})


@login_required
def match_list(request: HttpRequest, club_id: int) -> HttpResponse:
    membership = _membership(request, club_id)
    matches = selectors.club_matches(membership.club)[:200]
    return render(
        request,
        "records/match_list.html",
        {"club": membership.club, "membership": membership, "matches": matches},
    )


@login_required
def match_upload(request: HttpRequest, club_id: int) -> HttpResponse:
    membership = _membership(request, club_id)
    club = membership.club
    context: dict[str, object] = {"club": club, "errors": [], "text": ""}
    if request.method != "POST":
        return render(request, "records/match_upload.html", context)
    try:
        upload = request.FILES.get("file")
        text = request.POST.get("document", "")
        if upload is not None:
            if upload.size is not None and upload.size > too_large_json()["limit"]:
                raise UploadTooLarge()
            raw = upload.read()
        else:
            raw = text.encode("utf-8")
        context["text"] = text
        result = services.upload_match(club=club, raw=raw, uploaded_by=signed_in(request))
    except (UploadTooLarge, RequestDataTooBig):
        context["detail"] = too_large_json()["detail"]
        return render(request, "records/match_upload.html", context, status=413)
    except DocumentError as exc:
        context["detail"] = exc.detail
        context["errors"] = exc.errors
        return render(request, "records/match_upload.html", context, status=400)
    url = redirect("pages:match-detail", club_id=club.pk, match_id=result.match.pk).url
    return redirect(url + ("" if result.created else "?duplicate=1"))
