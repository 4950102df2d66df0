"""The score-sheet form's page: saving (refused, asked, stored, into a night), the check API,
and a written-down round's own page."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest
from django.test import Client

from analysis.league.nights import services as nights
from analysis.models import NightMatch
from records.models import Match, Player

pytestmark = pytest.mark.django_db

PLAYERS = ["ann", "ben", "cai", "dan"]
MULTIPLE = {"dealer": 0, "events": [
    {"type": "kong", "seat": 1, "kind": "direct", "tile": "7s", "from": 2},
    {"type": "win", "seat": 1, "from": 3, "tile": "5m", "pattern": "qing_yi_se"},
    {"type": "win", "seat": 2, "from": 3, "tile": "5m", "pattern": "ping_hu",
     "with_previous": True}]}


def browser(user: Any, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def save(client: Client, club: Any, form: dict[str, Any], query: str = "") -> Any:
    return client.post(f"/clubs/{club.pk}/sheets/new/{query}", json.dumps(form),
                       content_type="application/json", HTTP_ACCEPT="application/json")


def form(*rounds: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"players": PLAYERS, "ruleset": "chengdu", "played_at": "2026-11-05T20:00",
            "rounds": list(rounds), **extra}


def test_a_member_saves_a_sheet_and_it_is_verified(
    club: Any, cast: Any, django_capture_on_commit_callbacks: Any
) -> None:
    club.time_zone = "Asia/Shanghai"  # the picker's time is the club's
    club.save(update_fields=["time_zone"])
    with django_capture_on_commit_callbacks(execute=True):
        response = save(browser(cast["mia"]), club, form(MULTIPLE, {"dealer": 3, "events": []}))
    assert response.status_code == 200, response.content
    body = response.json()
    match = Match.objects.get()
    assert body == {"ok": True, "match": match.pk,
                    "url": f"/clubs/{club.pk}/matches/{match.pk}/"}
    assert match.status == Match.Status.VERIFIED
    assert match.played_at == datetime(2026, 11, 5, 12, 0, tzinfo=UTC)  # 20:00 in Chengdu
    assert match.document["played_at"] == "2026-11-05T20:00:00+08:00"


def test_an_unfinished_sheet_is_refused_with_the_reasons_in_the_page_language(
    club: Any, cast: Any
) -> None:
    response = save(browser(cast["mia"], "zh-hans"), club,
                    form({"dealer": 0, "events": [{"type": "win", "seat": 1}]}, players=[]))
    assert response.status_code == 400
    texts = [p["text"] for p in response.json()["problems"]]
    assert texts[0] == "请选择四位玩家。" and "第 1 局 ben 胡牌：请选择胡的那张牌。" not in texts
    assert not Match.objects.exists()


def test_a_sheet_the_engine_finds_fault_with_is_stored_only_when_confirmed(
    club: Any, cast: Any
) -> None:
    member = browser(cast["mia"])
    wrong = form(MULTIPLE, {"dealer": 1, "events": []})
    asked = save(member, club, wrong)
    assert asked.status_code == 409 and asked.json()["confirm"] is True
    (problem,) = asked.json()["problems"]
    assert problem["text"] == ("Round 2: ben deals, but the round before makes dan the "
                               "dealer.") and not problem["blocking"]
    assert not Match.objects.exists()
    stored = save(member, club, {**wrong, "confirmed": True})
    assert stored.status_code == 200 and Match.objects.get().document["rounds"][1]["dealer"] == 1


def test_a_sheet_for_a_night_s_table_starts_with_its_players_and_joins_the_night(
    club: Any, cast: Any
) -> None:
    ids = [Player.objects.create(club=club, handle=h).pk for h in [*PLAYERS, "eve"]]
    night = nights.create_night(club=club, by=cast["adam"], players=ids)
    nights.seat_night(night, players=ids, rounds=2, seed=0, by=cast["adam"])
    table = night.seating["rounds"][1][0]
    member = browser(cast["mia"])
    page = member.get(f"/clubs/{club.pk}/sheets/new/?night={night.pk}&round=1&table=0")
    start = page.context["start"]
    handles = dict(Player.objects.filter(pk__in=ids).values_list("pk", "handle"))
    assert start["players"] == [handles[i] for i in table] and start["night"] == night.pk
    saved = save(member, club, form({"dealer": 0, "events": []}, players=start["players"]),
                 f"?night={night.pk}")
    assert saved.status_code == 200
    assert NightMatch.objects.get().night == night


def test_without_the_script_the_page_posts_the_same_sheet_and_redirects(
    club: Any, cast: Any
) -> None:
    response = browser(cast["mia"]).post(f"/clubs/{club.pk}/sheets/new/",
                                         {"sheet": json.dumps(form(MULTIPLE))})
    assert response.status_code == 302 and Match.objects.count() == 1
    refused = browser(cast["mia"]).post(f"/clubs/{club.pk}/sheets/new/", {"sheet": "[{"})
    assert refused.status_code == 400 and b"could not be read" in refused.content


def test_the_check_api_is_for_members(club: Any, cast: Any, api_client: Any) -> None:
    url = f"/api/v1/clubs/{club.pk}/sheets/check/"
    sheet = {"format": "xuezhan-sheet", "version": 1, "players": PLAYERS, "rounds": [MULTIPLE]}
    body = api_client(cast["mia"]).post(url, sheet, format="json").json()
    assert body["legal"] and body["rounds"][0]["next_dealer"] == 3
    assert body["rounds"][0]["totals"] == body["totals"]
    assert api_client(cast["nora"]).post(url, sheet, format="json").status_code == 404
    assert api_client(None).post(url, sheet, format="json").status_code == 401


def test_a_written_down_round_has_its_own_page_and_no_replay(
    club: Any, cast: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        save(browser(cast["mia"]), club, form(MULTIPLE))
    match = Match.objects.get()
    member = browser(cast["mia"])
    detail = member.get(f"/clubs/{club.pk}/matches/{match.pk}/").content.decode()
    assert f"/clubs/{club.pk}/matches/{match.pk}/sheet/1/" in detail
    assert "Replay this round" not in detail and "The round as written down" in detail
    viewer = member.get(f"/clubs/{club.pk}/matches/{match.pk}/rounds/1/")
    assert viewer.status_code == 302 and viewer["Location"].endswith(f"/{match.pk}/sheet/1/")
    page = member.get(f"/clubs/{club.pk}/matches/{match.pk}/sheet/1/").content.decode()
    assert "ben: direct kong of 7条 (on cai&#x27;s discard)" in page
    assert "ben wins on dan&#x27;s discard with 5万" in page and "Pure suit" in page
    assert "cai wins on dan&#x27;s discard with 5万" in page
    assert "<bdi>dan</bdi> pays <bdi>ben</bdi> <strong>4</strong>" in page
    assert member.get(f"/clubs/{club.pk}/matches/{match.pk}/sheet/2/").status_code == 404
    zh = browser(cast["mia"], "zh-hans").get(
        f"/clubs/{club.pk}/matches/{match.pk}/sheet/1/").content.decode()
    assert "ben 胡 dan 点炮的 5万" in zh
