"""Saving a score sheet from the form: the played-at time in the club's zone, the sheet
stored as a match (verified like any upload), and put into the night it was entered for."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from analysis.league.nights import services as nights
from analysis.league.services import LeagueError
from analysis.models import Night
from records import services as records
from records.models import Club
from xuezhan.schema import canonical_bytes


def played_at(club: Club, local: str | None) -> str:
    """The form's date and time (``YYYY-MM-DDTHH:MM``, the club's time zone; empty: now)
    as ISO 8601 with the offset, as a sheet records it.

    :raises LeagueError: ``played_at``, when it is not a date and time.
    """
    zone = ZoneInfo(club.time_zone)
    if not local:
        return timezone.localtime(timezone.now(), zone).replace(microsecond=0).isoformat()
    try:
        moment = datetime.fromisoformat(local)
    except ValueError:
        raise LeagueError("played_at", _("a date and time")) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=zone)
    return moment.replace(microsecond=0).isoformat()


def sheet_document(club: Club, form: dict[str, Any]) -> dict[str, Any]:
    """The sheet the form describes (``players``, ``ruleset``, ``rounds``, ``played_at``
    in the club's zone), as the format has it."""
    doc: dict[str, Any] = {
        "format": "xuezhan-sheet",
        "version": 1,
        "ruleset": form.get("ruleset") or "chengdu",
        "players": [p.strip() if isinstance(p, str) else p for p in form.get("players", [])],
        "rounds": form.get("rounds", []),
        "played_at": played_at(club, form.get("played_at")),
    }
    return doc


def save_sheet(*, club: Club, by: User, doc: dict[str, Any], night: Night | None
               ) -> records.Upload:
    """Store the sheet as a match of the club (the same sheet twice is one match), in
    ``night`` if given; the caller queues the verification."""
    with transaction.atomic():
        upload = records.upload_match(club=club, raw=canonical_bytes(doc), uploaded_by=by)
        if night is not None and not hasattr(upload.match, "night_entry"):
            nights.add_match(night, match_id=upload.match.pk, by=by)
    return upload
