"""The event types an endpoint can ask for: one table, one line per event.

A new event is a line here, a receiver of the signal that announces it calling
``records.webhooks.services.emit``, a row in docs/apps.md, and its label in the catalogue.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

#: name → what it announces (shown on the pages, in the schema and docs/apps.md)
EVENTS = {
    "match.verified": _("A match was verified: every round legal."),
    "match.illegal": _("A match was found illegal: its violations are in its report."),
    "match.failed": _("A match could not be verified (the engine could not run)."),
    "match.corrected": _("An admin corrected a match (players, ruleset, document or void)."),
    "settleup.recorded": _("A settle-up was recorded in the ledger."),
    "standings.changed": _("A season's standings changed (a match it counts was verified, "
                           "corrected, accepted or assigned)."),
    "night.closed": _("A club night was closed: its standings and settle-up are final."),
}  # fmt: skip
#: sent only by "send a test event", to that one endpoint; never asked for
TEST_EVENT = "webhook.test"


def event_choices() -> list[tuple[str, str]]:
    return [(name, str(text)) for name, text in EVENTS.items()]
