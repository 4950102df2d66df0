"""Time as the players live it: each request runs in a time zone (docs/deploy.md, "Time").

A page of a club is shown, filtered and entered in the club's zone (``Club.time_zone``,
``Asia/Shanghai`` unless its admins change it), or in the zone the signed-in user chose for
themselves (``UserSettings``); a page outside any club in the user's zone or
``DEFAULT_TIME_ZONE``. The statistics are the exception: their days are the club's days (the
day rows are summed per day of the club's zone), so their pages and API always run in the
club's zone, whoever reads them. The rest of the API speaks ISO 8601 with offsets, in the
club's zone where the URL names a club and in UTC elsewhere. Times are stored in UTC.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from records.models import DEFAULT_TIME_ZONE, Club, UserSettings, available_time_zones

#: the view modules whose dates are the club's days whoever reads them
CLUB_DAYS = ("analysis.stats.",)


def own_zone(user: Any) -> str:
    """The zone a user chose for themselves, or "" (each club's own)."""
    if not getattr(user, "is_authenticated", False):
        return ""
    found = UserSettings.objects.filter(user=user).values_list("time_zone", flat=True).first()
    return found or ""


def club_zone(club_id: int) -> str | None:
    return Club.objects.filter(pk=club_id).values_list("time_zone", flat=True).first()


def zone_of(request: HttpRequest, view_module: str, club_id: int | None) -> str | None:
    """The zone a request runs in (None: the settings' own, UTC)."""
    api = request.path.startswith("/api/")
    club = club_zone(club_id) if club_id is not None else None
    if club is not None and (api or view_module.startswith(CLUB_DAYS)):
        return club
    if api:
        return None
    return own_zone(request.user) or club or DEFAULT_TIME_ZONE


class TimeZoneMiddleware:
    """Activates the request's zone (:func:`zone_of`) for the view and its templates, and
    puts its name on ``request.time_zone``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()

    def process_view(self, request: HttpRequest, view: Callable[..., Any], args: Any,
                     kwargs: dict[str, Any]) -> None:
        club_id = kwargs.get("club_id")
        name = zone_of(request, getattr(view, "__module__", "") or "",
                       club_id if isinstance(club_id, int) else None)
        if name and name in available_time_zones():
            timezone.activate(zoneinfo.ZoneInfo(name))
            request.time_zone = name  # type: ignore[attr-defined]


#: the zones a Chengdu club's players most likely want, named in words (the select lists
#: them first; every other IANA zone follows under its own name)
COMMON_ZONES: dict[str, Promise] = {
    "Asia/Shanghai": gettext_lazy("China (Beijing time)"),
    "Asia/Hong_Kong": gettext_lazy("Hong Kong"),
    "Asia/Taipei": gettext_lazy("Taipei"),
    "Asia/Singapore": gettext_lazy("Singapore"),
    "Asia/Tokyo": gettext_lazy("Tokyo"),
    "Australia/Sydney": gettext_lazy("Sydney"),
    "Europe/London": gettext_lazy("London"),
    "Europe/Paris": gettext_lazy("Paris"),
    "America/New_York": gettext_lazy("New York"),
    "America/Los_Angeles": gettext_lazy("Los Angeles"),
    "America/Vancouver": gettext_lazy("Vancouver"),
    "UTC": gettext_lazy("Coordinated Universal Time (UTC)"),
}


def zone_name(name: str) -> str:
    """A zone as a page names it: in words when it is a common one, else its IANA name."""
    found = COMMON_ZONES.get(name)
    return str(found) if found is not None else name


def zone_choices() -> dict[str, list[tuple[str, str]]]:
    """The zones for a select: the common ones in words, then every other by name."""
    others = sorted(available_time_zones() - set(COMMON_ZONES))
    return {"common": [(z, zone_name(z)) for z in COMMON_ZONES if z in available_time_zones()],
            "others": [(z, z) for z in others]}


def entered(value: str) -> str | None:
    """A date and time as a page takes it — a ``datetime-local`` picker's ``2026-11-20T20:00``
    in the request's zone, or ISO 8601 with an offset as the API takes it — as ISO 8601 with
    the offset (the format's ``played_at``); None when it is neither."""
    try:
        moment = datetime.fromisoformat(value.strip())
    except ValueError:
        return None
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment)
    return moment.isoformat()


def picker_value(moment: datetime | None) -> str:
    """A stored time as a ``datetime-local`` picker shows it, in the request's zone."""
    return "" if moment is None else timezone.localtime(moment).strftime("%Y-%m-%dT%H:%M")
