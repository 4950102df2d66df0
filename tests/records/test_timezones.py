"""Time as the players live it: the club's zone (or the user's own) for every date shown,
filtered and entered; the statistics' days are the club's; the API keeps ISO 8601."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from django.test import Client

from tests.records.documents import data_documents, make_document

pytestmark = pytest.mark.django_db


def browser(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def chengdu(club: Any) -> Any:
    """The test club in its default zone, Asia/Shanghai (UTC+8)."""
    club.time_zone = "Asia/Shanghai"
    club.save(update_fields=["time_zone"])
    return club


def late(upload: Any, club: Any, when: str) -> Any:
    doc = make_document(3, turns=2)
    doc["played_at"] = when
    return upload(doc, to=club)


def test_a_club_page_shows_times_in_the_club_s_zone(chengdu: Any, cast: Any,
                                                    upload: Any) -> None:
    late(upload, chengdu, "2026-11-20T12:00:00Z")
    page = browser(cast["mia"]).get(f"/clubs/{chengdu.pk}/matches/").content.decode()
    assert "2026-11-20 20:00" in page and "2026-11-20 12:00" not in page


def test_a_user_s_own_zone_comes_before_the_club_s(chengdu: Any, cast: Any,
                                                   upload: Any) -> None:
    from records import services

    late(upload, chengdu, "2026-11-20T12:00:00Z")
    services.set_own_time_zone(user=cast["mia"], time_zone="Europe/London")
    page = browser(cast["mia"]).get(f"/clubs/{chengdu.pk}/matches/").content.decode()
    assert "2026-11-20 12:00" in page


def test_the_match_list_filters_by_the_club_s_days(chengdu: Any, cast: Any,
                                                   upload: Any) -> None:
    match = late(upload, chengdu, "2026-11-20T17:00:00Z")  # 01:00 on the 21st in Chengdu
    client = browser(cast["mia"])
    matches = f"/clubs/{chengdu.pk}/matches/"
    on_21st = client.get(f"{matches}?from=2026-11-21&to=2026-11-21").content.decode()
    on_20th = client.get(f"{matches}?from=2026-11-20&to=2026-11-20").content.decode()
    assert f"#{match.pk}<" in on_21st and f"#{match.pk}<" not in on_20th


def test_a_score_sheet_entered_at_20_00_in_chengdu_is_stored_as_12_00_utc(
    chengdu: Any, cast: Any
) -> None:
    import json

    from records.models import Match

    sheet = {"players": ["ann", "ben", "cat", "dan"], "ruleset": "chengdu",
             "played_at": "2026-11-20T20:00",
             "rounds": [{"dealer": 0, "events": [{"type": "win", "seat": 1, "from": 3,
                                                  "tile": "9m", "pattern": "ping_hu"}]}]}
    response = browser(cast["mia"]).post(
        f"/clubs/{chengdu.pk}/sheets/new/", json.dumps(sheet),
        content_type="application/json", HTTP_ACCEPT="application/json")
    assert response.status_code == 200, response.content.decode()[-2000:]
    match = Match.objects.get(club=chengdu)
    assert match.document["played_at"] == "2026-11-20T20:00:00+08:00"
    assert match.played_at.isoformat() == "2026-11-20T12:00:00+00:00"


def test_date_and_time_are_entered_with_pickers_never_as_iso_text() -> None:
    from django.conf import settings

    script = (settings.BASE_DIR / "static" / "xuezhan" / "sheet.js").read_text()
    assert 'type: "datetime-local", name: "played_at"' in script


def test_an_admin_changes_the_club_s_zone_on_the_members_page(chengdu: Any, cast: Any) -> None:
    url = f"/clubs/{chengdu.pk}/time-zone/"
    assert browser(cast["mia"]).post(url, {"time_zone": "UTC"}).status_code == 403
    admin = browser(cast["adam"])
    page = admin.get(f"/clubs/{chengdu.pk}/members/", HTTP_ACCEPT_LANGUAGE="zh-Hans")
    chosen = '<option value="Asia/Shanghai" selected>中国（北京时间）</option>'
    assert chosen in page.content.decode()
    wrong = admin.post(url, {"time_zone": "Mars/Olympus"}, follow=True)
    assert "Choose a time zone from the list." in wrong.content.decode()
    assert admin.post(url, {"time_zone": "Europe/Paris"}).status_code == 302
    chengdu.refresh_from_db()
    assert chengdu.time_zone == "Europe/Paris"


def test_a_user_chooses_their_own_zone_in_their_settings(cast: Any) -> None:
    from records.timezones import own_zone

    client = browser(cast["mia"])
    assert client.post("/settings/", {"time_zone": "Asia/Tokyo"}).status_code == 302
    assert own_zone(cast["mia"]) == "Asia/Tokyo"
    assert client.post("/settings/", {"time_zone": "Nowhere"}).status_code == 200
    assert own_zone(cast["mia"]) == "Asia/Tokyo"
    client.post("/settings/", {"time_zone": ""})
    assert own_zone(cast["mia"]) == ""


def test_the_statistics_days_are_the_club_s_and_follow_a_change_of_zone(
    chengdu: Any, cast: Any, upload: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from django.db import transaction

    from analysis import services
    from analysis.models import PlayerDay

    doc = dict(data_documents()["multiple_win_two_winners_chengdu"])  # complete rounds
    doc["played_at"] = "2026-11-20T17:00:00Z"  # the 21st in Chengdu
    match = upload(doc, to=chengdu)
    with transaction.atomic():
        services.verify_match(match_id=match.pk)
    assert set(PlayerDay.objects.values_list("day", flat=True)) == {date(2026, 11, 21)}
    # the day rows are summed again once the change commits
    with django_capture_on_commit_callbacks(execute=True):
        chengdu.time_zone = "UTC"
        chengdu.save()
    assert set(PlayerDay.objects.values_list("day", flat=True)) == {date(2026, 11, 20)}


def test_the_api_keeps_iso_8601_with_offsets(chengdu: Any, cast: Any, upload: Any,
                                            api_client: Any) -> None:
    match = late(upload, chengdu, "2026-11-20T12:00:00Z")
    body = api_client(cast["mia"]).get(f"/api/v1/clubs/{chengdu.pk}/matches/{match.pk}/").json()
    assert body["played_at"] in ("2026-11-20T20:00:00+08:00", "2026-11-20T12:00:00Z")
