"""What the club books tell apps: receivers of the books' signals (and of the verdicts) that
send the webhook events ``match.corrected``, ``settleup.recorded``, ``standings.changed``
and ``night.closed``
(records/webhooks; connected in AnalysisConfig.ready)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from analysis.events import link, match_data, wanting
from analysis.league import selectors
from analysis.league.nights.selectors import night_book
from analysis.models import Night, Season, SettleUp
from records.models import Match, ruleset_key
from records.serializers import iso
from records.webhooks import tasks as webhooks


def announce_correction(
    sender: Any, *, match_id: int, club_id: int, reverify: bool, **kwargs: Any
) -> None:
    if not wanting([club_id], {"match.corrected"}):
        return
    match = Match.objects.defer("raw").get(pk=match_id)
    data = {**match_data(match), "reverify": reverify}
    webhooks.announce(club_id=club_id, event="match.corrected", data=data)


def announce_settle_up(sender: Any, *, settle_up_id: int, club_id: int, **kwargs: Any) -> None:
    if not wanting([club_id], {"settleup.recorded"}):
        return
    row = SettleUp.objects.select_related("payer", "payee", "recorded_by").get(pk=settle_up_id)
    data = {
        "settle_up": row.pk, "club": club_id, "payer": row.payer_id,
        "payer_handle": row.payer.handle, "payee": row.payee_id,
        "payee_handle": row.payee.handle, "points": row.points, "season": row.season_id,
        "paid_at": iso(row.paid_at), "note": row.note,
        "recorded_by": row.recorded_by.username if row.recorded_by else None,
        "links": {"ledger": link("api:ledger", club_id=club_id)},
    }  # fmt: skip
    webhooks.announce(club_id=club_id, event="settleup.recorded", data=data)


def announce_night_closed(sender: Any, *, night_id: int, club_id: int, **kwargs: Any) -> None:
    """The receiver of ``night_closed``: the night's final standings and what was settled."""
    if not wanting([club_id], {"night.closed"}):
        return
    book = night_book(Night.objects.get(pk=night_id))
    data = {
        "night": night_id, "club": club_id, "name": book.night.name,
        "date": book.night.date.isoformat(),
        "matches": [entry.match.pk for entry in book.entries],
        "balances": [{"player": b.player, "handle": b.handle, "played": b.played,
                      "points": b.points} for b in book.ledger.balances],
        "transfers": [{"from": t.payer, "to": t.payee, "points": t.points}
                      for t in book.ledger.transfers],
        "links": {"api": link("api:night-detail", club_id=club_id, night_id=night_id),
                  "page": link("pages:night-detail", club_id=club_id, night_id=night_id)},
    }  # fmt: skip
    webhooks.announce(club_id=club_id, event="night.closed", data=data)


def announce_standings(sender: Any, *, club_ids: list[int] | None = None,
                       club_id: int | None = None, match_ids: Sequence[int] = (),
                       failed_ids: Sequence[int] = (), **kwargs: Any) -> None:  # fmt: skip
    """The receiver of ``verdict_stored`` and ``counted_matches_changed``: a
    ``standings.changed`` for each season that counts one of the matches (or, for a match
    that left a season, counted it: the season's dates and ruleset still hold it, or an
    assignment did, so it is checked against both)."""
    clubs = club_ids if club_ids is not None else [club_id] if club_id is not None else []
    changed = set(match_ids) | set(failed_ids)
    if not changed:
        return
    for club in sorted(wanting(clubs, {"standings.changed"})):
        for season in Season.objects.filter(club_id=club).order_by("pk"):
            counted = set(selectors.season_match_ids(season))
            hits = sorted(changed & (counted | _in_dates(season, changed)))
            if hits:
                webhooks.announce(club_id=club, event="standings.changed", data={
                    "season": season.pk, "club": club, "name": season.name,
                    "matches": hits, "match_count": len(counted),
                    "links": {"api": link("api:season-standings", club_id=club,
                                          season_id=season.pk),
                              "page": link("pages:season-standings", club_id=club,
                                           season_id=season.pk)},
                })  # fmt: skip


def _in_dates(season: Season, match_ids: set[int]) -> set[int]:
    """Those of ``match_ids`` in the season's dates and ruleset (counted or not now)."""
    rows = Match.objects.filter(
        pk__in=match_ids, club_id=season.club_id, stored_ruleset_id=ruleset_key(season.ruleset),
        played_at__date__gte=season.starts_on, played_at__date__lte=season.ends_on,
    )  # fmt: skip
    return set(rows.values_list("pk", flat=True))  # as season_match_ids does
