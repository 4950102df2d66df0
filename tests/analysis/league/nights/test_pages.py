"""The club's home and the nights' pages: members read, admins run the evening."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from analysis.league import services as league
from analysis.league.nights import services
from analysis.models import Night, NightMatch, Season, SettleUp
from records.models import Club, Player
from tests.analysis.league.data import settled_match, tsumo, win

pytestmark = pytest.mark.django_db


def browser(user: Any, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def night(club: Club, cast: Any) -> Night:
    first = settled_match(club, ("ann", "bob", "cai", "dan"), [win(0, 1, 8), tsumo(2, 2)])
    second = settled_match(club, ("ann", "bob", "cai", "erin"), [win(3, 0, 4)])
    return services.create_night(club=club, by=cast["adam"], matches=[first.pk, second.pk],
                                 point_value=None)


def test_the_club_s_home_shows_the_night_the_season_my_balance_and_the_latest_matches(
    club: Club, cast: Any, night: Night
) -> None:
    league.save_season(club=club, by=cast["adam"], name="Autumn 2026",
                       starts_on=date(2026, 11, 1), ends_on=date(2026, 11, 30),
                       ruleset="chengdu", point_value="0.5")
    Player.objects.filter(club=club, handle="bob").update(user=cast["mia"])
    page = browser(cast["mia"]).get(f"/clubs/{club.pk}/")
    text = page.content.decode().replace("<bdi>", "").replace("</bdi>", "")  # names isolated
    assert page.status_code == 200
    assert "Open night" in text and f"/clubs/{club.pk}/nights/{night.pk}/" in text
    assert "Autumn 2026" in text and "bob owes 10 points." in text  # −8 to ann, −2 to cai
    mine = [t for t in services.night_ledger(night).transfers if t.payer_handle == "bob"]
    assert sum(t.points for t in mine) == 10
    assert all(f"bob pays {t.payee_handle} {t.points}" in text for t in mine)
    assert text.count('class="score"') >= 8  # two matches, four players each
    assert "Start a night" not in text  # a member's actions only


def test_an_admin_s_home_offers_to_start_a_night_invite_and_enter_a_sheet(
    club: Club, cast: Any
) -> None:
    text = browser(cast["adam"]).get(f"/clubs/{club.pk}/").content.decode()
    for url in ("/nights/#start", "/sheets/new/", "/upload/", "/members/#invite"):
        assert f'href="/clubs/{club.pk}{url}"' in text
    assert "Your account is not linked" in text


def test_the_home_speaks_chinese(club: Club, cast: Any, night: Night) -> None:
    night.date = services.night_day(club, timezone.now())
    night.save()
    text = browser(cast["mia"], "zh-hans").get(f"/clubs/{club.pk}/").content.decode()
    assert "今晚" in text and "最近的比赛" in text


def test_an_admin_starts_a_night_for_the_people_here_and_it_is_seated(
    club: Club, cast: Any
) -> None:
    known = [Player.objects.create(club=club, handle=f"p{i}").pk for i in range(11)]
    response = browser(cast["adam"]).post(f"/clubs/{club.pk}/nights/", {
        "action": "start", "present": [str(i) for i in known], "new_players": "zed, yan",
        "rounds": "4", "name": "Friday", "date": "2026-12-04", "point_value": "1"})
    night = Night.objects.get()
    assert response.status_code == 302 and response["Location"].endswith(f"/nights/{night.pk}/")
    assert night.players.count() == 13 and len(night.seating["rounds"]) == 4
    assert all(len(out) == 1 for out in night.seating["sitting_out"])
    page = browser(cast["mia"]).get(response["Location"]).content.decode()
    assert "Round 4" in page and "Table 3" in page and "Sitting out:" in page
    assert "Enter its score sheet" in page


def test_a_member_cannot_start_or_change_a_night(club: Club, cast: Any, night: Night) -> None:
    member = browser(cast["mia"])
    assert member.post(f"/clubs/{club.pk}/nights/", {"action": "start"}).status_code == 403
    assert member.post(f"/clubs/{club.pk}/nights/{night.pk}/",
                       {"action": "close"}).status_code == 403
    assert browser(cast["nora"]).get(f"/clubs/{club.pk}/nights/{night.pk}/").status_code == 404


def test_a_bad_start_names_the_field_in_the_page_language(club: Club, cast: Any) -> None:
    response = browser(cast["adam"], "zh-hans").post(f"/clubs/{club.pk}/nights/", {
        "action": "start", "rounds": "2", "point_value": "cheap"})
    assert response.status_code == 400
    assert "每分金额" in response.content.decode() and not Night.objects.exists()
    three = [str(Player.objects.create(club=club, handle=h).pk) for h in "abc"]
    response = browser(cast["adam"]).post(f"/clubs/{club.pk}/nights/", {
        "action": "start", "rounds": "2", "present": three})
    assert response.status_code == 400 and "Who is here: from 4 to 64 players" in (
        response.content.decode())


def test_marking_paid_and_closing_from_the_page(club: Club, cast: Any, night: Night) -> None:
    admin = browser(cast["adam"])
    url = f"/clubs/{club.pk}/nights/{night.pk}/"
    transfer = services.night_ledger(night).transfers[0]
    admin.post(url, {"action": "paid", "from": transfer.payer, "to": transfer.payee,
                     "points": transfer.points})
    assert SettleUp.objects.get().night == night
    assert "1 payment recorded" in admin.get(url).content.decode()
    admin.post(url, {"action": "close", "mark_paid": "on"})
    night.refresh_from_db()
    assert night.status == Night.Status.CLOSED and services.night_ledger(night).transfers == []
    assert "Everything is paid." in admin.get(url).content.decode()


def test_the_printable_seating_lists_every_table_by_wind(club: Club, cast: Any) -> None:
    ids = [Player.objects.create(club=club, handle=f"p{i:02}").pk for i in range(16)]
    night = services.create_night(club=club, by=cast["adam"], players=ids)
    services.seat_night(night, players=ids, rounds=5, seed=3, by=cast["adam"])
    text = browser(cast["mia"], "zh-hans").get(
        f"/clubs/{club.pk}/nights/{night.pk}/seating/").content.decode()
    assert text.count('class="print-table"') == 20 and text.count("<dt>东</dt>") == 20
    assert browser(cast["mia"]).get(
        f"/clubs/{club.pk}/nights/{Night.objects.create(club=club, date='2026-11-01').pk}"
        "/seating/").status_code == 404


def test_adding_and_removing_a_match_by_hand(club: Club, cast: Any, night: Night) -> None:
    admin = browser(cast["adam"])
    url = f"/clubs/{club.pk}/nights/{night.pk}/"
    third = settled_match(club, ("ann", "bob", "cai", "dan"), [win(1, 0, 2)])
    admin.post(url, {"action": "add_match", "match": third.pk})
    assert NightMatch.objects.filter(night=night).count() == 3
    admin.post(url, {"action": "remove_match", "match": third.pk})
    assert NightMatch.objects.filter(night=night).count() == 2
    foreign = settled_match(Club.objects.create(name="x"), ("w", "x", "y", "z"), [win(0, 1, 1)])
    response = admin.post(url, {"action": "add_match", "match": foreign.pk})
    assert response.status_code == 400 and "Matches: no such match in this club" in (
        response.content.decode())


def test_the_nights_list_offers_the_proposals_and_makes_one_a_night(
    club: Club, cast: Any
) -> None:
    from django.utils import timezone

    made = settled_match(club, ("a", "b", "c", "d"), [win(0, 1, 1)])
    made.played_at = timezone.now()
    made.save(update_fields=["played_at"])
    admin = browser(cast["adam"])
    assert "Make it a night" in admin.get(f"/clubs/{club.pk}/nights/").content.decode()
    response = admin.post(f"/clubs/{club.pk}/nights/", {"action": "propose",
                                                        "matches": [made.pk]})
    assert response.status_code == 302
    assert list(NightMatch.objects.values_list("match_id", flat=True)) == [made.pk]


def test_the_season_of_the_night_gives_its_money_per_point(club: Club, cast: Any) -> None:
    Season.objects.create(club=club, name="S", starts_on=date(2026, 11, 1),
                          ends_on=date(2026, 11, 30), ruleset={}, ruleset_name="chengdu",
                          point_value="0.25")
    night = services.create_night(club=club, by=None, day=date(2026, 11, 5))
    assert night.point_value == Decimal("0.25")
    assert services.create_night(club=club, by=None, day=date(2026, 12, 5)).point_value is None
