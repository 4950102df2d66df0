"""The books' events: a correction, a settle-up, a season's standings changing, each sent
by a receiver of a signal to the endpoints that asked for it."""

from __future__ import annotations

from datetime import date
from typing import Any

from standardwebhooks.webhooks import Webhook

from analysis import services as verification
from analysis.league import services as league
from analysis.league.corrections import correct_match
from records.models import Player
from tests.records.documents import data_documents
from tests.records.webhooks.receiver import Receiver


def events(receiver: Receiver, secret: str) -> list[dict[str, Any]]:
    return [Webhook(secret).verify(r.body, r.headers) for r in receiver.received]


def test_a_settle_up_a_correction_and_the_standings_are_announced(
    register: Any, receiver: Receiver, club: Any, cast: Any, upload: Any, eager_tasks: None,
    django_capture_on_commit_callbacks: Any,
) -> None:
    hook = register(receiver.url, ["settleup.recorded", "match.corrected", "standings.changed"])
    capture = django_capture_on_commit_callbacks
    season = league.save_season(club=club, by=cast["adam"], name="All",
                                starts_on=date(2000, 1, 1), ends_on=date(2100, 1, 1),
                                ruleset="chengdu")
    doc = {"played_at": "2026-11-03T19:30:00+08:00", **data_documents()["rob_kong_chengdu"]}
    match = upload(doc)
    with capture(execute=True):
        verification.verify_match(match_id=match.pk)
    a, b = Player.objects.filter(club=club).order_by("pk")[:2]
    with capture(execute=True):
        league.record_settle_up(club=club, payer=a, payee=b, points=3, by=cast["adam"])
    with capture(execute=True):
        correct_match(match=match, by=cast["adam"], reason="wrong night", void=True)
    got = [(e["type"], e["data"]) for e in events(receiver, hook["secret"])]
    kinds = [kind for kind, _ in got]
    assert kinds == ["standings.changed", "settleup.recorded", "match.corrected",
                     "standings.changed"]
    assert got[0][1]["season"] == season.pk and got[0][1]["matches"] == [match.pk]
    assert got[1][1]["points"] == 3 and got[1][1]["payer_handle"] == a.handle
    assert got[2][1]["match"] == match.pk and got[2][1]["reverify"] is False


def test_a_closed_night_is_announced_with_its_settle_up(
    register: Any, receiver: Receiver, club: Any, cast: Any, upload: Any, eager_tasks: None,
    django_capture_on_commit_callbacks: Any,
) -> None:
    from analysis.league.nights import services as nights

    hook = register(receiver.url, ["night.closed"])
    doc = {"played_at": "2026-11-03T19:30:00+08:00", **data_documents()["rob_kong_chengdu"]}
    match = upload(doc)
    with django_capture_on_commit_callbacks(execute=True):
        verification.verify_match(match_id=match.pk)
    night = nights.create_night(club=club, by=cast["adam"], matches=[match.pk])
    with django_capture_on_commit_callbacks(execute=True):
        nights.close_night(night, by=cast["adam"])
    with django_capture_on_commit_callbacks(execute=True):
        nights.close_night(night, by=cast["adam"])  # closed already: nothing more is sent
    (event,) = events(receiver, hook["secret"])
    assert event["type"] == "night.closed"
    data = event["data"]
    assert data["night"] == night.pk and data["matches"] == [match.pk]
    assert data["date"] == "2026-11-03"
    assert sum(b["played"] for b in data["balances"]) == 0
    assert data["links"]["page"].endswith(f"/clubs/{club.pk}/nights/{night.pk}/")
