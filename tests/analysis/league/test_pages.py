"""League pages: seasons (admins create), printable standings, the ledger with settle-ups."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from django.test import Client

from analysis.league import services
from analysis.models import Season, SettleUp
from tests.analysis.league.data import settled_match, win

pytestmark = pytest.mark.django_db

ABCD = ("a", "b", "c", "d")


def browser(user: Any) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def season(club: Any, cast: Any) -> Season:
    return services.save_season(
        club=club,
        by=cast["adam"],
        name="Autumn 2026",
        starts_on=date(2026, 11, 1),
        ends_on=date(2026, 11, 30),
        ruleset="chengdu",
        point_value="0.5",
    )


def test_an_admin_creates_a_season_from_the_page(club: Any, cast: Any) -> None:
    response = browser(cast["adam"]).post(
        f"/clubs/{club.pk}/seasons/",
        {"name": "Winter", "starts_on": "2026-12-01", "ends_on": "2027-02-28",
         "ruleset": "chengdu", "method": "placement", "tie_breaks": "wins, head_to_head",
         "min_matches": "2"},
    )  # fmt: skip
    assert response.status_code == 302, response.content
    created = Season.objects.get(club=club, name="Winter")
    assert created.tie_breaks == ["wins", "head_to_head"] and created.method == "placement"


def test_the_season_form_shows_what_is_wrong_and_keeps_the_input(club: Any, cast: Any) -> None:
    response = browser(cast["adam"]).post(
        f"/clubs/{club.pk}/seasons/",
        {"name": "Winter", "starts_on": "2026-12-01", "ends_on": "2026-11-01",
         "tie_breaks": "coin_toss"},
    )  # fmt: skip
    assert response.status_code == 400
    assert b"Tie-breaks" in response.content and b'value="Winter"' in response.content


def test_members_see_seasons_but_cannot_create_them(club: Any, cast: Any, season: Season) -> None:
    member = browser(cast["mia"])
    page = member.get(f"/clubs/{club.pk}/seasons/")
    assert page.status_code == 200 and b"Autumn 2026" in page.content
    assert b"Create season" not in page.content
    assert member.post(f"/clubs/{club.pk}/seasons/", {"name": "X"}).status_code == 403


def test_the_standings_page_ranks_players_and_offers_print_and_csv(
    club: Any, cast: Any, season: Season
) -> None:
    settled_match(club, ABCD, [win(0, 1, 8)], day="2026-11-03")
    settled_match(club, ABCD, [win(1, 0, 20)], day="2026-11-10")
    page = browser(cast["mia"]).get(f"/clubs/{club.pk}/seasons/{season.pk}/")
    text = page.content.decode()
    assert page.status_code == 200
    # b leads after day two
    assert text.index("<td><bdi>b</bdi></td>") < text.index("<td><bdi>a</bdi></td>")
    assert "▲3" in text and "▼3" in text
    # printing: a link site.js wires (no inline script), the print rules in site.css
    assert "data-print" in text and "format=csv" in text and "<style" not in text


def test_the_standings_page_names_its_tie_breaks_in_the_page_language(
    club: Any, cast: Any, season: Season
) -> None:
    season.tie_breaks = ["wins", "head_to_head"]
    season.save()
    url = f"/clubs/{club.pk}/seasons/{season.pk}/"
    english = browser(cast["mia"]).get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    chinese = browser(cast["mia"]).get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "more matches won (placed 1st), head-to-head net among the tied players" in english
    assert "more matches won" not in chinese and "head-to-head" not in chinese
    assert "同分时依次比较：获第一名的场数较多者、" in chinese


def test_the_ledger_page_shows_transfers_and_lets_an_admin_record_a_partial_payment(
    club: Any, cast: Any, season: Season
) -> None:
    settled_match(club, ABCD, [win(0, 1, 8)])
    admin = browser(cast["adam"])
    url = f"/clubs/{club.pk}/ledger/?season={season.pk}"
    page = admin.get(url)
    assert page.status_code == 200 and b"4.00" in page.content  # 8 points at 0.5
    a, b = club.players.get(handle="a"), club.players.get(handle="b")
    response = admin.post(url, {"payer": b.pk, "payee": a.pk, "points": 5, "season": season.pk})
    assert response.status_code == 302
    paid = SettleUp.objects.get()
    assert (paid.points, paid.recorded_by, paid.season) == (5, cast["adam"], season)
    page = admin.get(url).content.decode()
    # 3 still to pay
    assert '<td><bdi>b</bdi></td><td><bdi>a</bdi></td><td class="num">3</td>' in page


def test_members_read_the_ledger_but_cannot_record_payments(club: Any, cast: Any) -> None:
    settled_match(club, ABCD, [win(0, 1, 8)])
    member = browser(cast["mia"])
    page = member.get(f"/clubs/{club.pk}/ledger/")
    assert page.status_code == 200 and b"Record a payment" not in page.content
    a, b = club.players.get(handle="a"), club.players.get(handle="b")
    response = member.post(f"/clubs/{club.pk}/ledger/", {"payer": b.pk, "payee": a.pk, "points": 1})
    assert response.status_code == 403 and not SettleUp.objects.exists()


def test_a_bad_ledger_query_on_the_page_is_shown_not_a_500(club: Any, cast: Any) -> None:
    page = browser(cast["mia"]).get(f"/clubs/{club.pk}/ledger/?from=soon")
    assert page.status_code == 400 and b"from" in page.content


@pytest.mark.parametrize("path", ["seasons/", "seasons/{season}/", "ledger/"])
def test_league_pages_are_404_for_non_members_and_ask_strangers_to_sign_in(
    club: Any, cast: Any, season: Season, path: str
) -> None:
    url = f"/clubs/{club.pk}/" + path.format(season=season.pk)
    assert browser(cast["nora"]).get(url).status_code == 404
    assert browser(None).get(url).status_code == 302


def test_the_demo_club_plays_its_matches_in_a_season_with_weekly_match_days(
    django_capture_on_commit_callbacks: Any,
) -> None:
    from io import StringIO

    from django.core.management import call_command

    from analysis.league.selectors import club_ledger, standings

    with django_capture_on_commit_callbacks(execute=True):
        call_command("load_demo", "--matches", "3", "--rounds", "2", stdout=StringIO())
    season = Season.objects.get(name="Autumn 2026")
    table = standings(season)
    assert table.match_count == 3 and len(table.match_days) == 3
    book = club_ledger(season.club, season=season)
    assert sum(b.points for b in book.balances) == 0
    assert {b.handle: b.points for b in book.balances} == {r.handle: r.net for r in table.rows}


def test_the_what_if_page_compares_nets_under_two_rulesets(
    club: Any, cast: Any, season: Season
) -> None:
    settled_match(club, ABCD, [win(0, 1, 8)])
    member = browser(cast["mia"])
    page = member.get(f"/clubs/{club.pk}/seasons/{season.pk}/what-if/?ruleset=online")
    assert page.status_code == 200 and "B − A" in page.content.decode()
    bad = member.get(f"/clubs/{club.pk}/seasons/{season.pk}/what-if/?ruleset=nowhere")
    assert bad.status_code == 400 and b"ruleset" in bad.content
    assert (
        browser(cast["nora"]).get(f"/clubs/{club.pk}/seasons/{season.pk}/what-if/").status_code
        == 404
    )


def test_the_sheet_preview_api_settles_without_storing(
    club: Any, cast: Any, api_client: Any
) -> None:
    from records.models import Match

    win = {"type": "win", "seat": 1, "from": 3, "tile": "9m", "pattern": "qing_yi_se"}
    sheet = {
        "format": "xuezhan-sheet",
        "version": 1,
        "players": ["a", "b", "c", "d"],
        "rounds": [{"dealer": 0, "events": [win]}],
    }
    url = f"/api/v1/clubs/{club.pk}/sheets/preview/"
    body = api_client(cast["mia"]).post(url, sheet, format="json").json()
    assert body["legal"] and body["totals"] == [0, 4, 0, -4] and not Match.objects.exists()
    assert api_client(cast["nora"]).post(url, sheet, format="json").status_code == 404


def test_the_sheet_preview_api_words_violations_in_the_request_s_language(
    club: Any, cast: Any, api_client: Any
) -> None:
    """A sheet's problems reach the page in its language: the player by name, rounds counted
    from 1, the schema's errors from their rule — never the engine's English."""
    win = {"type": "win", "seat": 1, "from": 3, "tile": "9m", "pattern": "ping_hu"}
    sheet = {"format": "xuezhan-sheet", "version": 1, "players": ["ann", "ben", "cat", "dan"],
             "rounds": [{"dealer": 0, "events": [win]}, {"dealer": 3, "events": []}]}
    url = f"/api/v1/clubs/{club.pk}/sheets/preview/"
    client = api_client(cast["mia"])
    body = client.post(url, sheet, format="json", HTTP_ACCEPT_LANGUAGE="zh-Hans").json()
    [wrong] = body["violations"]
    assert wrong["code"] == "wrong_dealer" and wrong["round"] == 1  # the API counts from 0
    assert wrong["message"] == "第 2 局由 dan 坐庄，但按上一局应由另一位玩家坐庄。"
    assert wrong["label"] == "庄家不对" and wrong["where"] == "第 2 局 · dan"
    [payment] = body["rounds"][0]["payments"]
    assert payment["detail"].startswith("ben 胡 dan 打出的 9万") and "0 番" in payment["detail"]
    sheet["rounds"][1]["events"] = [{"type": "win", "seat": 1}]
    body = client.post(url, sheet, format="json", HTTP_ACCEPT_LANGUAGE="zh-Hans").json()
    assert "第 2 局 · 第 1 步：缺少字段 tile。" in {v["message"] for v in body["violations"]}
