"""The club pages: sign-up, clubs and members, the match list, the upload form, error pages."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext

from records.models import Club, Match, Membership
from tests.records.documents import dumps, make_document

pytestmark = pytest.mark.django_db


@pytest.fixture
def member(client: Any, cast: Any) -> Any:
    client.force_login(cast["mia"])
    return client


def _as(client: Any, user: Any) -> Any:
    client.force_login(user)
    return client


# -- sign-up and clubs ----------------------------------------------------------------------


def test_signing_up_signs_in_and_leads_to_the_clubs(client: Any, settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    assert client.get("/accounts/signup/").status_code == 200
    secret = "a long pass phrase 42"
    response = client.post(
        "/accounts/signup/", {"username": "wen", "password1": secret, "password2": secret})
    assert response.status_code == 302 and response["Location"] == "/clubs/"
    assert client.get("/clubs/").context["user"].username == "wen"


def test_a_signed_in_user_creates_a_club_and_owns_it(client: Any, cast: Any) -> None:
    response = _as(client, cast["nora"]).post("/clubs/", {"name": "Nora's table"})
    club = Club.objects.get(name="Nora's table")
    assert response["Location"] == f"/clubs/{club.pk}/"
    assert club.memberships.get().role == Membership.Role.OWNER


def test_a_club_without_a_name_is_refused_with_a_message(client: Any, cast: Any) -> None:
    page = _as(client, cast["nora"]).post("/clubs/", {"name": "  "}, follow=True)
    assert "needs a name" in page.content.decode() and not Club.objects.exists()


# -- members ---------------------------------------------------------------------------


def test_the_members_page_is_for_members_only(client: Any, club: Any, cast: Any) -> None:
    assert _as(client, cast["mia"]).get(f"/clubs/{club.pk}/members/").status_code == 200
    assert _as(client, cast["nora"]).get(f"/clubs/{club.pk}/members/").status_code == 404


def _invite(client: Any, club: Any, **form: str) -> Any:
    return client.post(f"/clubs/{club.pk}/members/invite/", form, follow=True)


def test_an_invitation_by_name_waits_for_the_invited_user_to_accept(
    client: Any, club: Any, cast: Any
) -> None:
    page = _invite(_as(client, cast["adam"]), club, username="nora").content.decode()
    assert "Invitation sent to “nora”" in page and 'class="invitation"' in page
    assert not club.memberships.filter(user=cast["nora"]).exists()
    nora = _as(client, cast["nora"])
    listing = nora.get("/invitations/")
    [invitation] = listing.context["invitations"]
    assert "Chengdu Tuesday" in listing.content.decode()
    response = nora.post(f"/invitations/{invitation.pk}/", {"accept": "1"})
    assert response["Location"] == f"/clubs/{club.pk}/"
    assert club.memberships.get(user=cast["nora"]).role == Membership.Role.MEMBER


def test_an_invited_user_may_decline_and_stays_out(client: Any, club: Any, cast: Any) -> None:
    _invite(_as(client, cast["adam"]), club, username="nora", role="admin")
    nora = _as(client, cast["nora"])
    [invitation] = nora.get("/invitations/").context["invitations"]
    page = nora.post(f"/invitations/{invitation.pk}/", {"decline": "1"}, follow=True)
    assert "You declined" in page.content.decode() and not page.context["invitations"]
    assert not club.memberships.filter(user=cast["nora"]).exists()


def test_nobody_answers_an_invitation_addressed_to_someone_else(
    client: Any, club: Any, cast: Any, make_user: Any
) -> None:
    _invite(_as(client, cast["adam"]), club, username="nora")
    invitation = club.invitations.get()
    other = _as(client, make_user("pia"))
    assert other.post(f"/invitations/{invitation.pk}/", {"accept": "1"}).status_code == 404
    assert not club.memberships.filter(user__username="pia").exists()


def test_inviting_a_name_nobody_has_reads_like_inviting_a_real_one(
    client: Any, club: Any, cast: Any
) -> None:
    admin = _as(client, cast["adam"])
    real = _invite(admin, club, username="nora").content.decode()
    unknown = _invite(admin, club, username="nobody").content.decode()
    assert "Invitation sent to “nobody”" in unknown
    assert real.count("note success") == unknown.count("note success") == 1
    assert "No user" not in unknown and "nobody" in unknown.split("Open invitations")[1]


def test_a_link_is_shown_once_and_the_first_to_join_uses_it(
    client: Any, club: Any, cast: Any, make_user: Any
) -> None:
    page = _as(client, cast["adam"]).post(
        f"/clubs/{club.pk}/members/invite/", {"link": "1", "role": "member"})
    assert page.status_code == 200
    link = page.context["new_link"]
    path = link.split("testserver", 1)[1]
    assert path.startswith("/invitations/link/") and link in page.content.decode()
    assert "new_link" not in _as(client, cast["adam"]).get(f"/clubs/{club.pk}/members/").context
    nora = _as(client, cast["nora"])
    offer = nora.get(path).content.decode()
    assert "Chengdu Tuesday" in offer and "Join the club" in offer
    assert nora.post(path)["Location"] == f"/clubs/{club.pk}/"
    assert club.memberships.filter(user=cast["nora"]).exists()
    assert _as(client, make_user("pia")).get(path).status_code == 404


def test_an_unknown_link_is_404_and_a_signed_out_visitor_signs_in_first(
    client: Any, club: Any, cast: Any
) -> None:
    response = client.get("/invitations/link/whatever/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert _as(client, cast["nora"]).get("/invitations/link/whatever/").status_code == 404


def test_a_member_cannot_invite_and_an_admin_cannot_invite_owners(
    client: Any, club: Any, cast: Any
) -> None:
    url = f"/clubs/{club.pk}/members/invite/"
    assert _as(client, cast["mia"]).post(url, {"username": "nora"}).status_code == 403
    page = _invite(_as(client, cast["adam"]), club, username="nora", role="owner")
    assert "Only an owner can invite an owner" in page.content.decode()
    assert not club.invitations.exists()
    _invite(_as(client, cast["olga"]), club, username="nora", role="owner")
    assert club.invitations.get().role == "owner"


def test_inviting_a_member_says_they_are_one_and_makes_no_invitation(
    client: Any, club: Any, cast: Any
) -> None:
    page = _invite(_as(client, cast["adam"]), club, username="mia")
    assert "mia is already a member" in page.content.decode() and not club.invitations.exists()


def test_an_invitation_by_name_needs_a_name_of_at_most_150_characters(
    client: Any, club: Any, cast: Any
) -> None:
    admin = _as(client, cast["adam"])
    for name in ("  ", "x" * 151):
        assert "Give the user name" in _invite(admin, club, username=name).content.decode()
    assert not club.invitations.exists()


def test_an_admin_withdraws_an_open_invitation(client: Any, club: Any, cast: Any) -> None:
    _invite(_as(client, cast["adam"]), club, username="nora")
    invitation = club.invitations.get()
    url = f"/clubs/{club.pk}/invitations/{invitation.pk}/revoke/"
    assert _as(client, cast["mia"]).post(url).status_code == 403
    page = _as(client, cast["adam"]).post(url, follow=True)
    assert "Invitation withdrawn" in page.content.decode() and not page.context["invitations"]
    assert not _as(client, cast["nora"]).get("/invitations/").context["invitations"]


def test_the_pages_have_no_direct_way_to_add_a_member(client: Any, club: Any, cast: Any) -> None:
    admin = _as(client, cast["adam"])
    assert admin.post(f"/clubs/{club.pk}/members/add/", {"username": "nora"}).status_code == 404
    assert "members/add/" not in admin.get(f"/clubs/{club.pk}/members/").content.decode()


def test_the_members_and_invitations_pages_query_a_fixed_number_of_times(
    client: Any, club: Any, cast: Any
) -> None:
    from records import services

    counts = []
    for names in (["u1"], ["u2", "u3", "u4", "u5"]):
        for name in names:
            services.invite(club=club, invited_by=cast["adam"], role="member", username=name)
            services.invite(club=club, invited_by=cast["adam"], role="member")
            other = services.create_club(name=name, owner=cast["olga"])
            services.invite(club=other, invited_by=cast["olga"], role="member", username="nora")
        admin = _as(client, cast["adam"])
        admin.get("/clubs/")  # the session's first request of the sign-in: not counted
        with CaptureQueriesContext(connection) as members_page:
            assert admin.get(f"/clubs/{club.pk}/members/").status_code == 200
        nora = _as(client, cast["nora"])
        nora.get("/clubs/")
        with CaptureQueriesContext(connection) as invitations_page:
            assert nora.get("/invitations/").status_code == 200
        counts.append((len(members_page), len(invitations_page)))
    assert counts[0] == counts[1]


def test_roles_change_by_the_api_s_rules(client: Any, club: Any, cast: Any) -> None:
    mia = club.memberships.get(user=cast["mia"])
    olga = club.memberships.get(user=cast["olga"])
    admin = _as(client, cast["adam"])
    assert admin.post(f"/clubs/{club.pk}/members/{mia.pk}/", {"role": "admin"}).status_code == 302
    mia.refresh_from_db()
    assert mia.role == "admin"
    assert admin.post(f"/clubs/{club.pk}/members/{olga.pk}/", {"role": "member"}).status_code == 403
    owner = _as(client, cast["olga"])
    page = owner.post(f"/clubs/{club.pk}/members/{olga.pk}/", {"role": "member"}, follow=True)
    assert "at least one owner" in page.content.decode()
    olga.refresh_from_db()
    assert olga.role == "owner"


def test_a_member_leaves_and_an_admin_removes_a_member(client: Any, club: Any, cast: Any) -> None:
    mia = club.memberships.get(user=cast["mia"])
    adam = club.memberships.get(user=cast["adam"])
    response = _as(client, cast["mia"]).post(f"/clubs/{club.pk}/members/{mia.pk}/", {"remove": "1"})
    assert response["Location"] == "/clubs/" and not club.memberships.filter(pk=mia.pk).exists()
    assert _as(client, cast["olga"]).post(
        f"/clubs/{club.pk}/members/{adam.pk}/", {"remove": "1"}).status_code == 302
    assert not club.memberships.filter(pk=adam.pk).exists()


def test_a_plain_member_cannot_remove_another(client: Any, club: Any, cast: Any) -> None:
    adam = club.memberships.get(user=cast["adam"])
    mia = _as(client, cast["mia"])
    response = mia.post(f"/clubs/{club.pk}/members/{adam.pk}/", {"remove": "1"})
    assert response.status_code == 403 and club.memberships.filter(pk=adam.pk).exists()


# -- the match list --------------------------------------------------------------------


def test_the_club_page_links_everything_a_club_does(member: Any, club: Any, upload: Any) -> None:
    from django.urls import NoReverseMatch, reverse

    match = upload(make_document(3))
    page = member.get(f"/clubs/{club.pk}/").content.decode()
    base = f"/clubs/{club.pk}"
    for url in ("/upload/", "/sheets/new/", "/seasons/", "/ledger/", "/ratings/", "/members/"):
        assert f'href="{base}{url}"' in page
    try:  # the statistics pages are linked once they exist
        stats = [reverse("pages:leaderboard", args=[club.pk]),
                 reverse("pages:player-stats", args=[club.pk, match.seats.first().player_id])]
    except NoReverseMatch:
        assert "leaderboard" not in page and "/stats/" not in page
    else:
        assert all(f'href="{url}"' in page for url in stats)


def test_the_match_list_pages_by_fifty(member: Any, club: Any, upload: Any) -> None:
    for seed in range(53):
        upload(make_document(100 + seed))
    first = member.get(f"/clubs/{club.pk}/matches/").content.decode()
    match_link = re.compile(r'<td><a href="/clubs/\d+/matches/\d+/">')
    assert len(match_link.findall(first)) == 50 and "Page 1 of 2 (53 matches)" in first
    second = member.get(f"/clubs/{club.pk}/matches/?page=2").content.decode()
    assert len(match_link.findall(second)) == 3


def test_the_match_list_filters_by_player_status_ruleset_date_and_id(
    member: Any, club: Any, upload: Any
) -> None:
    from analysis import services

    plain = upload(make_document(1))
    other = upload(make_document(2, players=("erin", "bob", "carol", "dave"), match_id="src-2"))
    services.verify_match(match_id=other.pk)

    def listed(query: str) -> set[int]:
        page = member.get(f"/clubs/{club.pk}/matches/?{query}")
        return {m.pk for m in page.context["matches"]}

    assert listed("player=erin") == {other.pk}
    assert listed("status=verifying") == {plain.pk}
    assert listed("status=legal") == {other.pk}
    assert listed("ruleset=chengdu") == {plain.pk, other.pk}
    assert listed("ruleset=online") == set()
    assert listed(f"q={plain.pk}") == {plain.pk} and listed("q=src-2") == {other.pk}
    assert listed("from=2026-11-03") == {other.pk} and listed("to=2026-11-02") == {plain.pk}
    assert listed("from=not-a-date&status=nonsense") == {plain.pk, other.pk}


def test_the_ruleset_filter_offers_each_of_the_clubs_own_rulesets_once(
    member: Any, club: Any, cast: Any, upload: Any
) -> None:
    """On PostgreSQL the names come from a skip scan of an index (records.selectors
    .club_rulesets), elsewhere from a DISTINCT: the same names, in order."""
    from records import services

    other = services.create_club(name="Elsewhere", owner=cast["olga"])
    for seed, ruleset in enumerate(["online", "chengdu", "online"]):
        upload({**make_document(40 + seed), "ruleset": ruleset})
    upload({**make_document(50), "ruleset": "online"}, to=other)
    options = member.get(f"/clubs/{club.pk}/matches/").context["rulesets"]
    assert list(options) == ["chengdu", "online"]
    upload({**make_document(51), "ruleset": "chengdu"}, to=other)
    assert list(member.get(f"/clubs/{club.pk}/matches/").context["rulesets"]) == [
        "chengdu", "online"]


def test_a_list_with_verifying_matches_refreshes_itself(
    member: Any, club: Any, upload: Any
) -> None:
    from analysis import services

    match = upload(make_document(3))
    url = f"/clubs/{club.pk}/matches/"
    assert '<meta http-equiv="refresh"' in member.get(url).content.decode()
    services.verify_match(match_id=match.pk)
    assert '<meta http-equiv="refresh"' not in member.get(url).content.decode()


def test_the_match_list_queries_do_not_grow_with_the_matches(
    member: Any, club: Any, upload: Any
) -> None:
    counts = []
    for seeds in (range(2), range(2, 12)):
        for seed in seeds:
            upload(make_document(200 + seed))
        with CaptureQueriesContext(connection) as queries:
            assert member.get(f"/clubs/{club.pk}/matches/").status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


# -- uploads ---------------------------------------------------------------------------


def test_a_file_over_the_limit_is_refused_in_the_form(
    member: Any, club: Any, settings: Any
) -> None:
    settings.UPLOAD_MAX_BYTES = 1000
    big = SimpleUploadedFile("big.json", b" " * 2000 + dumps(make_document(1)), "application/json")
    response = member.post(f"/clubs/{club.pk}/upload/", {"file": big})
    page = response.content.decode()
    assert response.status_code == 413 and response["Content-Type"].startswith("text/html")
    assert "larger than the limit of 1000\xa0bytes" in page and 'id="upload-form"' in page
    assert not Match.objects.exists()


def test_a_body_over_the_limit_gets_a_page_not_json(member: Any, club: Any, settings: Any) -> None:
    settings.UPLOAD_MAX_BYTES = 1000
    response = member.post(f"/clubs/{club.pk}/upload/", {"document": "x" * 200_000})
    assert response.status_code == 413 and response["Content-Type"].startswith("text/html")
    assert "Nothing was stored" in response.content.decode()


def test_bad_json_is_shown_in_the_form(member: Any, club: Any) -> None:
    response = member.post(f"/clubs/{club.pk}/upload/", {"document": "{not json"})
    page = response.content.decode()
    assert response.status_code == 400 and "not valid JSON" in page and "<code>$</code>" in page


def test_several_files_give_one_result_line_each(member: Any, club: Any) -> None:
    bad = make_document(2)
    bad["rounds"][0]["dealer"] = 7
    files = [SimpleUploadedFile("a.json", dumps(make_document(1))),
             SimpleUploadedFile("b.json", dumps(bad)),
             SimpleUploadedFile("c.json", dumps(make_document(1)))]
    response = member.post(f"/clubs/{club.pk}/upload/", {"file": files})
    results = response.context["results"]
    assert [r["name"] for r in results] == ["a.json", "b.json", "c.json"]
    assert [r["ok"] for r in results] == [True, False, True]
    assert results[2]["created"] is False and results[2]["match"] == results[0]["match"]
    assert "$.rounds[0].dealer" in response.content.decode()


def test_the_upload_script_gets_one_line_as_json(member: Any, club: Any) -> None:
    bad = make_document(2)
    bad["rounds"][0]["hands"][0][0] = "0m"
    response = member.post(f"/clubs/{club.pk}/upload/",
                           {"file": SimpleUploadedFile("b.json", dumps(bad))},
                           HTTP_ACCEPT="application/json")
    body = response.json()
    assert response.status_code == 400 and body["ok"] is False
    assert any(e["path"] == "$.rounds[0].hands[0][0]" for e in body["errors"])
    good = member.post(f"/clubs/{club.pk}/upload/",
                       {"file": SimpleUploadedFile("g.json", dumps(make_document(3)))},
                       HTTP_ACCEPT="application/json").json()
    assert good["ok"] and good["url"] == f"/clubs/{club.pk}/matches/{good['match']}/"


def test_upload_errors_are_shown_in_chinese_on_a_chinese_page(member: Any, club: Any) -> None:
    response = member.post(f"/clubs/{club.pk}/upload/", {"document": "{"},
                           HTTP_ACCEPT_LANGUAGE="zh-Hans")
    assert "这不是有效的 JSON" in response.content.decode()


# -- error pages -----------------------------------------------------------------------


def test_the_404_page_is_styled_with_navigation(member: Any) -> None:
    response = member.get("/no/such/page/")
    page = response.content.decode()
    assert response.status_code == 404 and 'class="error-page"' in page
    assert 'href="/clubs/"' in page and "site.css" in page


def test_the_403_page_explains_and_navigates(member: Any, club: Any) -> None:
    response = member.post(f"/clubs/{club.pk}/members/invite/", {"username": "nora"})
    page = response.content.decode()
    assert response.status_code == 403 and "admins" in page and 'class="error-page"' in page


def test_the_500_page_is_styled_and_needs_no_request_context(rf: Any) -> None:
    from records.errors import server_error

    response = server_error(rf.get("/clubs/"))
    page = response.content.decode()
    assert response.status_code == 500 and 'class="error-page"' in page and "/clubs/" in page


def test_every_club_page_answers_404_to_a_non_member(client: Any, club: Any, cast: Any,
                                                      upload: Any) -> None:
    match = upload(make_document(20))
    olga = club.memberships.get(user=cast["olga"])
    base = f"/clubs/{club.pk}"
    gets = [f"{base}/", f"{base}/upload/", f"{base}/members/",
            f"{base}/matches/{match.pk}/", f"{base}/matches/{match.pk}/rounds/1/"]
    _invite(_as(client, cast["olga"]), club, username="pia")
    invitation = club.invitations.get()
    posts = [f"{base}/upload/", f"{base}/members/invite/", f"{base}/members/{olga.pk}/",
             f"{base}/invitations/{invitation.pk}/revoke/",
             f"{base}/matches/{match.pk}/reverify/", f"{base}/matches/{match.pk}/delete/"]
    outsider = _as(client, cast["nora"])
    assert [outsider.get(url).status_code for url in gets] == [404] * len(gets)
    assert [outsider.post(url, {"remove": "1"}).status_code for url in posts] == [404] * len(posts)
    assert Match.objects.filter(pk=match.pk).exists() and club.memberships.filter(pk=olga.pk)
    assert club.invitations.get().status == "pending"


def test_signed_out_visitors_are_sent_to_sign_in(client: Any, club: Any) -> None:
    for url in ("/clubs/", f"/clubs/{club.pk}/", f"/clubs/{club.pk}/members/"):
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_the_club_list_queries_do_not_grow_with_the_clubs(client: Any, cast: Any) -> None:
    from records import services

    user = _as(client, cast["nora"])
    counts = []
    for names in (["a"], ["b", "c", "d", "e", "f"]):
        for name in names:
            services.create_club(name=name, owner=cast["nora"])
        with CaptureQueriesContext(connection) as queries:
            assert user.get("/clubs/").status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]
