"""Names shown safely (issue 27, finding 8): bidirectional controls and zero-width
characters are refused in new handles, club and season names (a 400 naming the field),
and names stored before are shown isolated, their invisible characters written out."""

from __future__ import annotations

from typing import Any

import pytest

from analysis.league.nights import services as nights
from analysis.league.services import LeagueError
from records import services
from records.models import Club, Player
from records.names import has_unsafe, sign_in_identity, visible
from records.templatetags.names import name, name_text
from tests.records.documents import dumps, make_document

pytestmark = pytest.mark.django_db

#: right-to-left override, zero-width space, first-strong isolate, byte order mark, word joiner
UNSAFE = ["\u202e", "\u200b", "\u2068", "\ufeff", "\u2060"]
SEASON = {"name": "Autumn", "starts_on": "2026-11-01", "ends_on": "2026-11-30",
          "ruleset": "chengdu"}


def paths(response: Any) -> list[str]:
    return [error["path"] for error in response.json()["errors"]]


@pytest.mark.parametrize("char", UNSAFE)
def test_new_names_with_invisible_or_direction_characters_are_a_400_naming_the_field(
        char: str, club: Any, cast: Any, api_client: Any) -> None:
    client = api_client(cast["adam"])  # an admin of the club
    bad = f"evil{char}name"
    created = client.post("/api/v1/clubs/", {"name": bad}, format="json")
    assert created.status_code == 400 and paths(created) == ["$.name"]
    player = client.post(f"/api/v1/clubs/{club.pk}/players/", {"handle": bad}, format="json")
    assert player.status_code == 400 and paths(player) == ["$.handle"]
    season = client.post(f"/api/v1/clubs/{club.pk}/seasons/", {**SEASON, "name": bad},
                         format="json")
    assert season.status_code == 400 and paths(season) == ["$.name"]
    doc = make_document(5)
    doc["players"][1] = bad
    upload = client.generic("POST", f"/api/v1/clubs/{club.pk}/matches/", dumps(doc),
                            content_type="application/json")
    assert upload.status_code == 400 and "$.players[1]" in paths(upload)
    assert not Club.objects.filter(name=bad).exists()
    assert not Player.objects.filter(handle=bad).exists()


def test_the_club_form_refuses_an_invisible_character_too(client: Any, cast: Any) -> None:
    client.force_login(cast["nora"])
    page = client.post("/clubs/", {"name": "a\u202eb"}, follow=True).content.decode()
    assert not Club.objects.filter(name="a\u202eb").exists()
    assert "U+202E" in page


def test_ordinary_names_in_any_script_are_accepted(cast: Any, api_client: Any) -> None:
    for good in ["麻将俱乐部", "نادي", "Ōsaka mahjong", "O'Brien & co"]:
        response = api_client(cast["mia"]).post("/api/v1/clubs/", {"name": good}, format="json")
        assert response.status_code == 201, good


def test_names_stored_before_are_shown_isolated_with_their_invisible_characters_written_out(
        client: Any, cast: Any) -> None:
    club = services.create_club(name="Evil\u202ebulc", owner=cast["mia"])
    client.force_login(cast["mia"])
    page = client.get(f"/clubs/{club.pk}/matches/").content.decode()
    assert "\u202e" not in page
    assert "<h1><bdi>Evil\\u202ebulc</bdi></h1>" in page
    assert "<title>\u2068Evil\\u202ebulc\u2069" in page  # no element in a title: isolates


def test_the_filters_escape_markup_and_write_out_unsafe_characters() -> None:
    assert name("<b>x</b>\u200b") == "<bdi>&lt;b&gt;x&lt;/b&gt;\\u200b</bdi>"
    assert name(None) == "" and name_text("") == ""
    assert name_text("a\u202eb") == "\u2068a\\u202eb\u2069"
    assert visible("ok") == "ok" and not has_unsafe("平胡 ping-hu")


def test_the_sign_in_identity_is_nfkc_then_case_folded() -> None:
    assert {sign_in_identity(v) for v in ["ｄemo-owner", "DEMO-OWNER", " demo-owner "]} == {
        "demo-owner"}
    assert sign_in_identity("ﬁx") == "fix"  # a compatibility ligature
    assert sign_in_identity("Straße") == sign_in_identity("STRASSE")


def test_a_night_name_or_a_new_handle_at_the_door_with_an_unsafe_character_is_refused(
        club: Any, cast: Any, client: Any) -> None:
    with pytest.raises(LeagueError) as refused:
        nights.create_night(club=club, by=cast["adam"], name="Friday\u200b")
    assert refused.value.field == "name"
    client.force_login(cast["adam"])
    client.post(f"/clubs/{club.pk}/nights/", {"new_players": "zoe\u202e", "name": "Friday"})
    assert not Player.objects.filter(handle="zoe\u202e").exists()


def test_a_match_page_and_its_round_viewer_write_out_a_stored_handle_s_invisible_characters(
        club: Any, cast: Any, client: Any, upload: Any) -> None:
    doc = make_document(7)
    match = upload(doc)
    Player.objects.filter(club=club, handle=doc["players"][0]).update(handle="ali\u202ece")
    client.force_login(cast["mia"])
    base = f"/clubs/{club.pk}/matches/{match.pk}/"
    for url in (base, f"{base}rounds/1/"):
        page = client.get(url).content.decode()
        assert "\u202e" not in page and "ali\\u202ece" in page, url
    viewer = client.get(f"{base}rounds/1/").content.decode()
    assert "ali\\\\u202ece" in viewer  # in the script's data too, where JSON would decode it
