"""Corrections: admins change a match with a reason; history is kept; books follow."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest

from analysis.league import selectors, services
from analysis.models import MatchDocumentVersion, Season
from records.models import Match
from tests.analysis.league.data import settled_match, win
from tests.records.documents import DATA

pytestmark = pytest.mark.django_db

ABCD = ("a", "b", "c", "d")


def names_field(response: Any, field: str) -> bool:
    """The API's problem shape names the field in one of its error paths."""
    return any(e["path"].split(".")[1:2] == [field] or e["path"] == f"$.{field}"
               or e["path"].startswith(f"$.{field}[") for e in response.json()["errors"])


@pytest.fixture
def season(club: Any, cast: Any) -> Season:
    return services.save_season(
        club=club,
        by=cast["adam"],
        name="Autumn 2026",
        starts_on=date(2026, 11, 1),
        ends_on=date(2026, 11, 30),
        ruleset="chengdu",
    )


def nets(season: Season) -> dict[str, int]:
    return {r.handle: r.net for r in selectors.standings(season).rows}


def url(club: Any, match: Match) -> str:
    return f"/api/v1/clubs/{club.pk}/matches/{match.pk}/corrections/"


def verified_log(club: Any, upload: Any, name: str) -> Match:
    from analysis.services import verify_match

    doc = json.loads((DATA / name).read_text(encoding="utf-8"))
    doc["played_at"] = "2026-11-05T20:00:00+08:00"
    return verify_match(match_id=upload(doc).pk)


def test_voiding_a_match_takes_it_out_of_the_books_and_is_kept_in_its_history(
    club: Any, cast: Any, api_client: Any, season: Season, django_capture_on_commit_callbacks: Any
) -> None:
    match = settled_match(club, ABCD, [win(0, 1, 8)])
    admin = api_client(cast["adam"])
    with django_capture_on_commit_callbacks(execute=True):
        response = admin.post(
            url(club, match), {"reason": "wrong table", "void": True}, format="json"
        )
    assert response.status_code == 200, response.content
    assert nets(season) == {}
    assert selectors.club_ledger(club).balances == []
    history = admin.get(url(club, match)).json()
    assert {"who": "adam", "what": "Voided: counted nowhere",
            "reason": "wrong table"}.items() <= history[-1].items()
    admin.post(url(club, match), {"reason": "it was right after all", "void": False}, format="json")
    assert nets(season)["a"] == 8
    assert api_client(cast["mia"]).get(url(club, match)).json()[-1]["what"] == "Counted again"


def test_correcting_who_sat_where_moves_the_results_and_keeps_the_history(
    club: Any, cast: Any, api_client: Any, upload: Any, season: Season,
    django_capture_on_commit_callbacks: Any,
) -> None:  # fmt: skip
    match = verified_log(club, upload, "kong_discard_won_keep_chengdu.json")
    before = nets(season)  # alice -5, bob 1, carol 2, dave 2
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client(cast["adam"]).post(
            url(club, match),
            {
                "reason": "erin played seat 0, not alice",
                "players": ["erin", "bob", "carol", "dave"],
            },
            format="json",
        )
    assert response.status_code == 200, response.content
    match.refresh_from_db()
    assert match.status == Match.Status.VERIFIED
    after = nets(season)
    assert after["erin"] == before["alice"] and "alice" not in after
    mine = [c for c in response.json() if c["reason"] == "erin played seat 0, not alice"]
    assert len(mine) == 1, "one row for one change, however many database rows it wrote"
    assert mine[0]["who"] == "adam" and mine[0]["what"] == "East: alice → erin"
    assert mine[0]["changes"] == [{"field": "seat", "seat": 0, "from": "alice", "to": "erin"}]


def test_correcting_the_ruleset_resettles_the_match_under_it_and_keeps_the_old_document(
    club: Any, cast: Any, api_client: Any, upload: Any, season: Season,
    django_capture_on_commit_callbacks: Any,
) -> None:  # fmt: skip
    match = verified_log(club, upload, "kong_discard_won_keep_chengdu.json")
    online = json.loads(
        (DATA / "kong_discard_won_call_transfer_online.json").read_text(encoding="utf-8")
    )
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client(cast["adam"]).post(
            url(club, match),
            {"reason": "we played online rules", "ruleset": "online"},
            format="json",
        )
    assert response.status_code == 200, response.content
    match.refresh_from_db()
    # the recorded chengdu result no longer matches: the corrected match is illegal until
    # its document is corrected too, and leaves a chengdu season
    assert match.ruleset_name == "online" and match.status == Match.Status.ILLEGAL
    assert MatchDocumentVersion.objects.get(match=match).document["ruleset"] == "chengdu"
    assert nets(season) == {}
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client(cast["adam"]).post(
            url(club, match), {"reason": "the online result", "document": online}, format="json"
        )
    match.refresh_from_db()
    assert match.status == Match.Status.VERIFIED
    assert match.verification.totals == online["rounds"][0]["result"]["deltas"]
    assert MatchDocumentVersion.objects.filter(match=match).count() == 2


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"void": True}, "reason"),
        ({"reason": "  ", "void": True}, "reason"),
        ({"reason": "nothing"}, "reason"),
        ({"reason": "x", "players": ["a", "a", "b", "c"]}, "players"),
        ({"reason": "x", "ruleset": "nowhere"}, "ruleset"),
        ({"reason": "x", "document": {"format": "xuezhan-log"}}, "document"),
    ],
)
def test_a_bad_correction_is_a_400_naming_the_field(
    club: Any, cast: Any, api_client: Any, body: dict[str, Any], field: str
) -> None:
    match = settled_match(club, ABCD, [win(0, 1, 8)])
    response = api_client(cast["adam"]).post(url(club, match), body, format="json")
    assert response.status_code == 400 and names_field(response, field), response.content


@pytest.mark.parametrize(
    ("who", "method", "expected"),
    [(None, "get", 401), ("nora", "get", 404), ("mia", "get", 200), ("mia", "post", 403),
     ("adam", "post", 200), ("olga", "post", 200), ("nora", "post", 404)],
)  # fmt: skip
def test_members_read_the_history_and_admins_correct(
    club: Any, cast: Any, api_client: Any, who: str | None, method: str, expected: int
) -> None:
    match = settled_match(club, ABCD, [win(0, 1, 8)])
    client = api_client(cast[who] if who else None)
    body = {"reason": "test", "void": True} if method == "post" else None
    response = getattr(client, method)(url(club, match), body, format="json")
    assert response.status_code == expected


def test_the_history_page_lists_each_change_with_who_and_why(
    club: Any, cast: Any, api_client: Any
) -> None:
    from django.test import Client

    match = settled_match(club, ABCD, [win(0, 1, 8)])
    api_client(cast["adam"]).post(
        url(club, match), {"reason": "misdeal", "void": True}, format="json"
    )
    browser = Client()
    browser.force_login(cast["mia"])
    page = browser.get(f"/clubs/{club.pk}/matches/{match.pk}/history/").content.decode()
    assert "misdeal" in page and "adam" in page and "Voided: counted nowhere" in page


# -- corrections and links on pages ------------------------------------------------------


def page_client(user: Any, language: str = "en") -> Any:
    from django.test import Client

    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def test_an_admin_corrects_the_seats_on_the_page_and_the_history_shows_one_row(
    club: Any, cast: Any, upload: Any, django_capture_on_commit_callbacks: Any
) -> None:
    match = verified_log(club, upload, "kong_discard_won_keep_chengdu.json")
    admin = page_client(cast["adam"])
    url = f"/clubs/{club.pk}/matches/{match.pk}/history/"
    with django_capture_on_commit_callbacks(execute=True):
        response = admin.post(url, {"action": "players", "seat0": "alice", "seat1": "dave",
                                    "seat2": "carol", "seat3": "bob", "new0": "",
                                    "reason": "bob and dave swapped chairs"})
    assert response.status_code == 302
    changes = [c for c in match_history_of(match) if c.reason == "bob and dave swapped chairs"]
    assert len(changes) == 1 and changes[0].who == "adam"
    assert changes[0].texts == ["South: bob → dave", "North: dave → bob"]
    page = page_client(cast["mia"], "zh-hans").get(url).content.decode()
    assert "南：bob → dave" in page and "bob and dave swapped chairs" in page


def match_history_of(match: Match) -> list[Any]:
    from analysis.league.corrections import match_history

    return match_history(match)


def test_a_correction_without_a_reason_is_refused_naming_the_field(
    club: Any, cast: Any
) -> None:
    match = settled_match(club, ABCD, [win(0, 1, 8)])
    response = page_client(cast["adam"], "zh-hans").post(
        f"/clubs/{club.pk}/matches/{match.pk}/history/", {"action": "void", "reason": " "})
    assert response.status_code == 400 and "理由：请说明理由" in response.content.decode()
    member = page_client(cast["mia"]).post(
        f"/clubs/{club.pk}/matches/{match.pk}/history/", {"action": "void", "reason": "x"})
    assert member.status_code == 403


def test_an_illegal_match_is_accepted_and_withdrawn_on_the_page_with_who_and_why(
    club: Any, cast: Any
) -> None:
    match = settled_match(club, ABCD, [win(0, 1, 8)], status=Match.Status.ILLEGAL)
    admin = page_client(cast["adam"])
    url = f"/clubs/{club.pk}/matches/{match.pk}/history/"
    assert "Accept it as played" in admin.get(url).content.decode()
    admin.post(url, {"action": "accept", "reason": "the table agreed the misdeal stands"})
    assert match.acceptance.reason == "the table agreed the misdeal stands"
    admin.post(url, {"action": "withdraw", "reason": "the league overruled the table"})
    texts = [(c.who, c.what, c.reason) for c in match_history_of(match)]
    assert ("adam", "Accepted as played", "the table agreed the misdeal stands") in texts
    assert ("adam", "Acceptance as played withdrawn", "the league overruled the table") in texts


def test_a_long_reason_is_kept_whole(club: Any, cast: Any) -> None:
    match = settled_match(club, ABCD, [win(0, 1, 8)])
    reason = "赔率" * 300
    page_client(cast["adam"]).post(f"/clubs/{club.pk}/matches/{match.pk}/history/",
                                   {"action": "void", "reason": reason})
    assert match_history_of(match)[-1].reason == reason


def test_an_admin_links_and_unlinks_a_handle_on_the_page_and_the_changes_are_listed(
    club: Any, cast: Any
) -> None:
    from records.models import Player

    settled_match(club, ABCD, [win(0, 1, 8)])  # the handles come with the match, no history
    player = Player.objects.get(club=club, handle="a")
    mia = club.memberships.get(user=cast["mia"])
    admin = page_client(cast["adam"])
    url = f"/clubs/{club.pk}/players/"
    admin.post(url, {"action": "link", "player": player.pk, "member": mia.pk,
                     "reason": "mia plays as a"})
    player.refresh_from_db()
    assert player.user == cast["mia"]
    admin.post(url, {"action": "unlink", "player": player.pk, "reason": "wrong person"})
    player.refresh_from_db()
    assert player.user is None
    page = page_client(cast["mia"]).get(url).content.decode()
    assert "Linked account: none → mia" in page and "mia plays as a" in page
    assert "Linked account: mia → none" in page and "wrong person" in page
    assert "<form" not in page.split('class="players"')[1].split("</table>")[0]  # member
    refused = admin.post(url, {"action": "link", "player": player.pk, "member": 0})
    assert refused.status_code == 400
