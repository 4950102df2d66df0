"""The query parameters the club books' API and pages share, read into the selectors'
arguments: a bad value raises the API's ``ValidationError`` naming the field, which a page
shows beside its form and the API answers with a 400."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import date, datetime, time, timedelta
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError

from analysis.league import selectors, services
from analysis.models import Season


def league_errors(call: Any, **kwargs: Any) -> Any:
    """Call a league service; its ``LeagueError`` becomes the 400 of the field it names."""
    try:
        return call(**kwargs)
    except services.LeagueError as exc:
        raise ValidationError({exc.field: [exc.message]}) from None


def parse_day(params: Mapping[str, str], name: str) -> date | None:
    value = params.get(name)
    if not value:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise ValidationError({name: [_("a date, YYYY-MM-DD")]}) from None


def ledger_for(club: Any, params: Mapping[str, str]) -> selectors.Ledger:
    """The ledger the query asks for: ``from``/``to`` (inclusive days of the request's zone,
    the club's: records/timezones.py), ``season``, ``point_value``. Shared by the API and
    the page."""
    start, end = parse_day(params, "from"), parse_day(params, "to")
    season = season_param(club, params)
    value = league_errors(services.money_value, value=params.get("point_value"))
    return selectors.club_ledger(
        club,
        start=None if start is None else timezone.make_aware(datetime.combine(start, time())),
        end=None if end is None
        else timezone.make_aware(datetime.combine(end + timedelta(days=1), time())),
        season=season,
        point_value=value,
    )


def season_param(club: Any, params: Mapping[str, str]) -> Season | None:
    """``?season=``: one of the club's seasons (None when not given)."""
    if not params.get("season"):
        return None
    try:
        return Season.objects.get(club=club, pk=int(params["season"]))
    except (ValueError, OverflowError, Season.DoesNotExist):
        raise ValidationError({"season": [_("no such season in this club")]}) from None


def ruleset_param(params: Mapping[str, str]) -> dict[str, Any]:
    """``?ruleset=`` as a preset name or a ruleset object in JSON, resolved."""
    text = params.get("ruleset", "").strip()
    if not text:
        raise ValidationError({"ruleset": [_("a preset name or a ruleset object (JSON)")]})
    try:
        value = json.loads(text) if text.startswith("{") else text
    except ValueError:
        raise ValidationError({"ruleset": [_("not valid JSON")]}) from None
    rules = league_errors(services.resolve_ruleset, value=value)
    resolved: dict[str, Any] = rules.to_json()
    return resolved
