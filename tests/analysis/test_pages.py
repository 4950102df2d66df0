"""The pages: sign in, club list, upload form, match list, match detail."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext

from analysis.models import payments_of
from records.models import Match
from tests.records.documents import DATA, dumps, illegal_document, make_document

pytestmark = pytest.mark.django_db


@pytest.fixture
def member(client: Any, cast: Any) -> Any:
    client.force_login(cast["mia"])
    return client


def test_the_sign_in_page_signs_in(client: Any, cast: Any, settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cast["mia"].set_password("correct horse")
    cast["mia"].save()
    assert client.get("/").status_code == 302
    page = client.get("/accounts/login/")
    assert page.status_code == 200 and b"Sign in" in page.content
    response = client.post("/accounts/login/", {"username": "mia", "password": "correct horse"})
    assert response.status_code == 302 and response["Location"] == "/clubs/"


def test_the_club_list_shows_your_clubs_only(member: Any, club: Any, cast: Any) -> None:
    from records import services

    services.create_club(name="Nora's secret club", owner=cast["nora"])
    page = member.get("/clubs/").content.decode()
    assert "Chengdu Tuesday" in page and "secret" not in page


def test_the_match_list_shows_each_status(member: Any, club: Any, upload: Any) -> None:
    match = upload(make_document(1))
    page = member.get(f"/clubs/{club.pk}/matches/").content.decode()
    assert f"#{match.pk}" in page and "queued" in page
    names = re.findall(r"<td>(.*?)</td>", page.split(f">#{match.pk}</a>")[1])[0]
    assert re.sub(r"<[^>]+>", "", names) == "alice, bob, carol, dave"


def test_a_non_member_gets_404(client: Any, club: Any, cast: Any, upload: Any) -> None:
    match = upload(make_document(1))
    client.force_login(cast["nora"])
    assert client.get(f"/clubs/{club.pk}/").status_code == 404
    assert client.get(f"/clubs/{club.pk}/upload/").status_code == 404
    assert client.get(f"/clubs/{club.pk}/matches/{match.pk}/").status_code == 404


def test_the_upload_form_verifies_and_shows_the_settlement(
    member: Any, club: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from xuezhan.sim.simulate import simulate_match

    doc = simulate_match(31, 2)
    assert member.get(f"/clubs/{club.pk}/upload/").status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        response = member.post(
            f"/clubs/{club.pk}/upload/",
            {"file": SimpleUploadedFile("m.json", dumps(doc), "application/json")},
        )
    match = Match.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/clubs/{club.pk}/matches/{match.pk}/"
    page = member.get(response["Location"]).content.decode()
    assert "verified" in page and "Legal" in page
    payments = [p for r in match.rounds.all() for p in payments_of(r)]
    for payment in payments:
        assert f"<strong>{payment.amount}</strong>" in page and payment.reason in page
    assert page.count('<li class="payment">') == len(payments)
    # the payments name the players, never a seat number
    assert "(seat " not in page and all(name in page for name in doc["players"])


NAMES = {0: "alice", 1: "bob", 2: "carol", 3: "dave"}


def _payment(reason: str, params: dict[str, Any]) -> Any:
    from analysis.models import Payment

    return Payment(reason=reason, params=params, stored_detail="stored", payer=0, payee=2,
                   amount=2)


def test_settlement_sentences_name_the_players_and_never_a_seat_number_in_both_languages(
) -> None:
    from django.utils import translation

    from analysis.sentences import line_sentence

    params = {"konger": 2, "payer": 0, "units": 2, "base": 1, "amount": 2,
              "kong": {"event": 5, "seat": 2, "kind": "direct", "tile": "9m"}}
    with translation.override("en"):
        english = line_sentence(_payment("kong_direct", params), NAMES)
    with translation.override("zh-hans"):
        chinese = line_sentence(_payment("kong_direct", params), NAMES)
    assert english == ("alice discarded the tile and pays carol's direct kong (直杠) of 9m: "
                       "2 × base 1 = 2.")
    assert "alice" in chinese and "carol" in chinese and chinese != english
    assert "seat" not in english and "座" not in chinese


def test_english_settlement_sentences_are_the_engine_lines_with_names_for_seats() -> None:
    from django.utils import translation

    from analysis.sentences import line_sentence
    from xuezhan.replay import verify_document
    from xuezhan.sentences import LEADS
    from xuezhan.settlement import describe
    from xuezhan.sim.simulate import simulate_match

    with translation.override("en"):
        for seed in range(3):
            for r in verify_document(simulate_match(seed, 3, "online")).rounds:
                for p in r.settlement.payments:
                    made = line_sentence(_payment(p.reason, dict(p.params)), NAMES)
                    lead = LEADS.get(p.reason)  # the page shows the reason's name there
                    made = f"{lead}: {made}" if lead else made
                    assert made == describe(p.reason, p.params, NAMES.__getitem__)


def _rewrite_lines(match: Any, **change: Any) -> int:
    """Every payment line of ``match`` stored again with ``change`` (as an older engine or
    an older row left it); how many."""
    from analysis import compact
    from analysis.models import RoundSettlement

    count = 0
    for settlement in RoundSettlement.objects.filter(round__match=match):
        lines = [{**p.to_line(), **change} for p in settlement.payments]
        settlement.lines = compact.dumps_lines(lines)
        settlement.save(update_fields=["lines"])
        count += len(lines)
    return count


def test_the_match_page_words_payments_from_their_stored_data(
    member: Any, club: Any, upload: Any
) -> None:
    from analysis import services
    from xuezhan.sim.simulate import simulate_match

    doc = simulate_match(31, 2)
    match = upload(doc)
    services.verify_match(match_id=match.pk)
    assert _rewrite_lines(match, stored_detail="stale English text")
    page = member.get(f"/clubs/{club.pk}/matches/{match.pk}/").content.decode()
    assert "stale English text" not in page and "(seat " not in page


def test_a_payment_stored_without_params_shows_its_stored_line(
    member: Any, club: Any, upload: Any
) -> None:
    from analysis import services
    from xuezhan.sim.simulate import simulate_match

    match = upload(simulate_match(31, 2))
    services.verify_match(match_id=match.pk)
    assert _rewrite_lines(match, params={}, stored_detail="the line as stored")
    page = member.get(f"/clubs/{club.pk}/matches/{match.pk}/").content.decode()
    assert "the line as stored" in page


def test_the_upload_form_lists_every_error(member: Any, club: Any) -> None:
    doc = make_document(2)
    doc["rounds"][0]["dealer"] = 4
    doc["rounds"][0]["hands"][0][0] = "0m"
    response = member.post(f"/clubs/{club.pk}/upload/", {"document": dumps(doc).decode()})
    assert response.status_code == 400
    page = response.content.decode()
    assert "$.rounds[0].dealer" in page and "$.rounds[0].hands[0][0]" in page
    assert "Nothing was stored" in page and not Match.objects.exists()


def test_the_same_document_again_leads_to_the_first_match(
    member: Any, club: Any, upload: Any
) -> None:
    match = upload(make_document(3))
    response = member.post(
        f"/clubs/{club.pk}/upload/", {"document": dumps(make_document(3)).decode()}
    )
    assert response["Location"] == f"/clubs/{club.pk}/matches/{match.pk}/?duplicate=1"
    assert "already uploaded" in member.get(response["Location"]).content.decode()


def test_an_illegal_match_page_lists_the_violations(member: Any, club: Any, upload: Any) -> None:
    from analysis import services

    match = upload(illegal_document(4))
    services.verify_match(match_id=match.pk)
    page = member.get(f"/clubs/{club.pk}/matches/{match.pk}/").content.decode()
    violation = match.verification.violations.first()
    assert "Illegal" in page and violation.code in page


# -- languages -----------------------------------------------------------------------------

CATALOGUE = Path(__file__).resolve().parents[2] / "locale" / "zh_Hans" / "LC_MESSAGES" / "django.po"


def test_every_message_of_the_zh_hans_catalogue_is_translated() -> None:
    import polib

    catalogue = polib.pofile(str(CATALOGUE))
    untranslated = [e.msgid for e in catalogue if not e.obsolete and not e.translated()]
    fuzzy = [e.msgid for e in catalogue if "fuzzy" in e.flags and not e.obsolete]
    assert len(catalogue) > 200
    assert untranslated == [] and fuzzy == []


def test_every_marked_string_of_the_site_is_in_the_catalogue(tmp_path: Path) -> None:
    """A string marked for translation but missing from django.po would show in English."""
    import polib
    from django.core.management import call_command

    if shutil.which("xgettext") is None:
        pytest.skip("needs GNU gettext's xgettext to extract the strings (apt-get install gettext)")
    root = CATALOGUE.parents[3]
    work = tmp_path / "site"
    for name in ("analysis", "records", "templates"):
        shutil.copytree(root / name, work / name, ignore=shutil.ignore_patterns("__pycache__"))
    # the engine's sentence templates are message ids too (marked with gettext_noop)
    (work / "xuezhan").mkdir()
    shutil.copy(root / "xuezhan" / "sentences.py", work / "xuezhan" / "sentences.py")
    (work / "locale").mkdir()
    before = Path.cwd()
    try:
        os.chdir(work)
        call_command("makemessages", locale=["zh_Hans"], verbosity=0)
    finally:
        os.chdir(before)
    extracted = polib.pofile(str(work / "locale/zh_Hans/LC_MESSAGES/django.po"))
    known = {(e.msgctxt, e.msgid) for e in polib.pofile(str(CATALOGUE))}
    missing = [e.msgid for e in extracted if (e.msgctxt, e.msgid) not in known]
    assert missing == []


def test_every_engine_identifier_has_a_name_in_the_translation_table() -> None:
    from analysis import labels
    from xuezhan.replay import CODES
    from xuezhan.rules import ADD_ON_NAMES, KONG_ADD_ON_NAMES, PATTERN_NAMES
    from xuezhan.settlement import REASONS
    from xuezhan.sheet import CODES as SHEET_CODES

    assert set(labels.PATTERNS) == set(PATTERN_NAMES)
    assert set(labels.ADD_ONS) == set(ADD_ON_NAMES) | {f"kong_{k}" for k in KONG_ADD_ON_NAMES}
    assert set(labels.REASONS) == set(REASONS)
    assert set(labels.VIOLATIONS) == set(CODES) | set(SHEET_CODES)
    assert set(labels.STATUSES) == {s.value for s in Match.Status}


def test_identifiers_are_named_in_the_page_language() -> None:
    from django.utils import translation

    from analysis.labels import label

    with translation.override("zh-hans"):
        assert label("pattern", "ping_hu") == "平胡"
        assert label("reason", "call_transfer") == "呼叫转移"
        assert label("violation", "passed_win") == "过手胡"
    with translation.override("en"):
        assert label("pattern", "ping_hu") == "All sequences (ping hu)"
    assert label("pattern", "a_future_pattern") == "a_future_pattern"


def test_the_language_follows_the_browser_and_the_switch(member: Any) -> None:
    english = member.get("/clubs/").content.decode()
    assert "Your clubs" in english and 'lang="en"' in english
    chinese = member.get("/clubs/", HTTP_ACCEPT_LANGUAGE="zh-CN,zh;q=0.9").content.decode()
    assert "我的俱乐部" in chinese and 'lang="zh-hans"' in chinese
    switched = member.post("/i18n/setlang/", {"language": "zh-hans", "next": "/clubs/"})
    assert switched.status_code == 302 and switched["Location"] == "/clubs/"
    assert "我的俱乐部" in member.get("/clubs/").content.decode()


def test_every_page_offers_the_language_switch(member: Any, club: Any, upload: Any) -> None:
    match = upload(make_document(5))
    for url in ("/clubs/", f"/clubs/{club.pk}/", f"/clubs/{club.pk}/upload/",
                f"/clubs/{club.pk}/members/", f"/clubs/{club.pk}/matches/{match.pk}/",
                f"/clubs/{club.pk}/matches/{match.pk}/rounds/1/", "/accounts/signup/",
                "/no/such/page/"):
        page = member.get(url).content.decode()
        assert 'action="/i18n/setlang/"' in page and 'value="zh-hans"' in page, url


# -- the match page and the replay viewer ------------------------------------------------


def test_violations_count_from_one_name_the_player_and_link_to_their_step(
    member: Any, club: Any, upload: Any
) -> None:
    from analysis import services

    match = upload(illegal_document(4))
    services.verify_match(match_id=match.pk)
    violation = match.verification.violations.get(code="tile_not_in_hand")
    page = member.get(f"/clubs/{club.pk}/matches/{match.pk}/").content.decode()
    step = violation.event_index + 1
    assert f'href="/clubs/{club.pk}/matches/{match.pk}/rounds/1/#step={step}"' in page
    assert f"event {step}<" in page and "Tile not in hand" in page
    dealer = match.document["players"][0]
    assert f"<td>{dealer}</td>" in page and "seat 0" not in page


def test_violations_read_in_the_page_language_with_the_english_kept_as_a_tooltip(
    member: Any, club: Any, upload: Any
) -> None:
    from analysis import services
    from analysis.labels import tile_text

    doc = illegal_document(4)
    match = upload(doc)
    services.verify_match(match_id=match.pk)
    violation = match.verification.violations.get(code="tile_not_in_hand")
    dealer = doc["players"][0]
    tile = tile_text(next(e for e in doc["rounds"][0]["events"] if e["type"] == "discard")["tile"])
    url = f"/clubs/{club.pk}/matches/{match.pk}/"
    english = member.get(url).content.decode()
    assert f"{dealer} plays {tile} without holding it." in english
    chinese = member.get(url, HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
    assert f"{dealer} 打出了手中没有的 {tile}。" in chinese
    detail = violation.message.replace("seat 0", dealer)
    assert f'title="{detail}"' in english and detail not in chinese  # no engine English


def test_a_violation_without_its_facts_reads_as_its_title() -> None:
    from django.utils import translation

    from analysis.sentences import violation_sentence

    with translation.override("zh-hans"):
        assert violation_sentence("tile_not_in_hand", "no tile named", "alice") == "手中没有这张牌"
        assert violation_sentence("tile_not_in_hand", "", None) == "手中没有这张牌"
        assert violation_sentence("no_such_code", "seat 1 did", "bob") == "no_such_code"


def test_every_violation_code_with_a_sentence_has_a_title() -> None:
    from analysis.labels import VIOLATIONS
    from analysis.sentences import VIOLATION_SENTENCES

    assert set(VIOLATION_SENTENCES) <= set(VIOLATIONS)


def test_the_match_page_links_its_correction_history(member: Any, club: Any, upload: Any) -> None:
    match = upload(make_document(5))
    page = member.get(f"/clubs/{club.pk}/matches/{match.pk}/").content.decode()
    history = f"/clubs/{club.pk}/matches/{match.pk}/history/"
    assert f'href="{history}"' in page and member.get(history).status_code == 200


def test_the_match_page_links_each_round_to_its_replay(member: Any, club: Any, upload: Any) -> None:
    match = upload(make_document(6, rounds=2))
    page = member.get(f"/clubs/{club.pk}/matches/{match.pk}/").content.decode()
    for number in (1, 2):
        assert f'href="/clubs/{club.pk}/matches/{match.pk}/rounds/{number}/"' in page


def _viewer_data(page: str) -> Any:
    start = page.index('<script id="viewer-data" type="application/json">') + 49
    return json.loads(page[start:page.index("</script>", start)])


def test_the_viewer_embeds_one_frame_per_step_and_the_players_names(
    member: Any, club: Any, upload: Any
) -> None:
    doc = make_document(7, rounds=2)
    match = upload(doc)
    response = member.get(f"/clubs/{club.pk}/matches/{match.pk}/rounds/2/")
    assert response.status_code == 200
    data = _viewer_data(response.content.decode())
    assert len(data["frames"]) == len(doc["rounds"][1]["events"]) + 1
    assert data["names"] == doc["players"] and data["dice"] == doc["rounds"][1]["dice"]
    assert sorted(data["frames"][0]["hands"][0]) == sorted(doc["rounds"][1]["hands"][0])
    assert "{actor} discards {tile}." in data["text"].values()


def test_the_viewer_speaks_the_page_language(member: Any, club: Any, upload: Any) -> None:
    match = upload(make_document(8))
    url = f"/clubs/{club.pk}/matches/{match.pk}/rounds/1/"
    page = member.get(url, HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
    data = _viewer_data(page)
    assert data["text"]["discard"] == "{actor} 打出 {tile}。"
    assert data["labels"]["suit"]["p"] == "筒"
    assert "第 1 局" in page


def test_the_viewer_points_its_review_toggle_at_the_round_s_review_in_the_page_language(
    member: Any, club: Any, upload: Any
) -> None:
    match = upload(make_document(8, rounds=2))
    page = member.get(f"/clubs/{club.pk}/matches/{match.pk}/rounds/2/",
                      HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
    data = _viewer_data(page)
    review = member.get(data["review_url"])  # the API counts rounds from 0, the page from 1
    assert review.status_code == 200 and review.json()["round"] == 1
    assert data["text"]["verdict_best"] == "最佳" and data["text"]["kind_dingque"] == "定缺"
    assert 'id="review-toggle"' in page


def test_the_viewer_marks_a_violation_at_its_step(member: Any, club: Any, upload: Any) -> None:
    from analysis import services

    match = upload(illegal_document(9))
    services.verify_match(match_id=match.pk)
    violation = match.verification.violations.get(code="tile_not_in_hand")
    page = member.get(f"/clubs/{club.pk}/matches/{match.pk}/rounds/1/").content.decode()
    [marked] = [v for v in _viewer_data(page)["violations"] if v["code"] == "tile_not_in_hand"]
    assert marked["step"] == violation.event_index + 1
    assert marked["label"] == "Tile not in hand" and "seat " not in marked["message"]
    dealer = match.document["players"][0]
    assert marked["message"].startswith(f"{dealer} plays ") and marked["detail"].startswith(dealer)
    chinese = member.get(f"/clubs/{club.pk}/matches/{match.pk}/rounds/1/",
                         HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
    [marked] = [v for v in _viewer_data(chinese)["violations"] if v["code"] == "tile_not_in_hand"]
    assert marked["message"].startswith(f"{dealer} 打出了手中没有的")


def test_an_unverified_round_s_own_problems_read_in_the_page_language(
    member: Any, club: Any, upload: Any
) -> None:
    match = upload(illegal_document(9))  # not verified: the frames' problems stand in
    dealer = match.document["players"][0]
    page = member.get(f"/clubs/{club.pk}/matches/{match.pk}/rounds/1/",
                      HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
    [marked] = [v for v in _viewer_data(page)["violations"] if v["code"] == "tile_not_in_hand"]
    assert marked["message"].startswith(f"{dealer} 打出了手中没有的")
    assert marked["detail"].startswith(dealer) and "seat 0" not in marked["detail"]


def test_the_viewer_shows_the_settlement_line_by_line(member: Any, club: Any, upload: Any) -> None:
    from analysis import services

    doc = json.loads((DATA / "rob_kong_chengdu.json").read_text())
    match = upload(doc)
    services.verify_match(match_id=match.pk)
    page = member.get(f"/clubs/{club.pk}/matches/{match.pk}/rounds/1/").content.decode()
    payments = payments_of(match.rounds.get())
    assert payments and page.count('<li class="payment">') == len(payments)
    assert "Win robbing a kong (qiang gang)" in page


def test_the_viewer_is_for_members_only_and_counts_rounds_from_one(
    client: Any, member: Any, club: Any, cast: Any, upload: Any
) -> None:
    match = upload(make_document(10))
    base = f"/clubs/{club.pk}/matches/{match.pk}/rounds"
    assert member.get(f"{base}/0/").status_code == 404
    assert member.get(f"{base}/2/").status_code == 404
    client.force_login(cast["nora"])
    assert client.get(f"{base}/1/").status_code == 404


def test_a_round_the_engine_cannot_replay_is_explained_not_a_500(
    member: Any, club: Any, upload: Any
) -> None:
    match = upload(make_document(11))
    Match.objects.filter(pk=match.pk).update(raw=b'{"rounds": [{}]}')
    response = member.get(f"/clubs/{club.pk}/matches/{match.pk}/rounds/1/")
    assert response.status_code == 422 and "cannot be replayed" in response.content.decode()


def test_the_match_and_viewer_pages_query_the_database_a_fixed_number_of_times(
    member: Any, club: Any, upload: Any, django_assert_max_num_queries: Any
) -> None:
    from analysis import services

    small = upload(make_document(12, rounds=1))
    big = upload(make_document(13, rounds=6))
    for match in (small, big):
        services.verify_match(match_id=match.pk)
    counts = []
    for match in (small, big):
        with CaptureQueriesContext(connection) as queries:
            assert member.get(f"/clubs/{club.pk}/matches/{match.pk}/").status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]
    with django_assert_max_num_queries(12):
        member.get(f"/clubs/{club.pk}/matches/{big.pk}/rounds/6/")


def test_an_admin_reverifies_and_deletes_a_match_from_its_page(
    client: Any, club: Any, cast: Any, upload: Any, django_capture_on_commit_callbacks: Any
) -> None:
    match = upload(make_document(14))
    client.force_login(cast["mia"])
    assert client.post(f"/clubs/{club.pk}/matches/{match.pk}/reverify/").status_code == 403
    assert client.post(f"/clubs/{club.pk}/matches/{match.pk}/delete/").status_code == 403
    client.force_login(cast["adam"])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/clubs/{club.pk}/matches/{match.pk}/reverify/")
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.VERIFIED
    response = client.post(f"/clubs/{club.pk}/matches/{match.pk}/delete/")
    assert response["Location"] == f"/clubs/{club.pk}/matches/" and not Match.objects.exists()
    client.force_login(cast["nora"])
    assert client.post(f"/clubs/{club.pk}/matches/{match.pk}/delete/").status_code == 404


def test_a_verifying_match_page_refreshes_itself(member: Any, club: Any, upload: Any) -> None:
    match = upload(make_document(15))
    page = member.get(f"/clubs/{club.pk}/matches/{match.pk}/").content.decode()
    assert '<meta http-equiv="refresh"' in page and "refreshes itself" in page


def test_a_chinese_match_page_words_every_payment_in_chinese(
    member: Any, club: Any, upload: Any
) -> None:
    from analysis import services

    match = upload(json.loads((DATA / "drawn_round_pig_ting_check_refund_chengdu.json")
                              .read_text()))
    services.verify_match(match_id=match.pk)
    page = member.get(f"/clubs/{club.pk}/matches/{match.pk}/",
                      HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
    for name in ("查花猪", "查叫", "退税"):  # each named once: the label, then the sentence
        assert f"{name}</span>：流局时" in page and f"{name}：{name}" not in page
    assert " pays " not in page and "still in the round" not in page


def test_the_match_page_shows_payments_into_the_pot_as_the_clubs_own_line(
    member: Any, club: Any, upload: Any
) -> None:
    from analysis import services
    from analysis.league import selectors as league
    from xuezhan.sim.simulate import simulate_match

    doc = simulate_match(0, 4, {"false_win": {"penalty": 4, "to": "pot"},
                                "flower_pig_payees": "pot"})
    match = upload(doc)
    services.verify_match(match_id=match.pk)
    pots = [-sum(r.settlement.deltas) for r in match.rounds.all()]
    assert any(pots)
    page = member.get(f"/clubs/{club.pk}/matches/{match.pk}/").content.decode()
    assert page.count("Paid into the club's pot") == sum(1 for p in pots if p)
    # the club's books settle the players' balances with the pot as one more party
    book = league.club_ledger(club)
    assert book.pot == sum(pots)
    assert all(b.handle != "the club's pot" for b in book.balances)
