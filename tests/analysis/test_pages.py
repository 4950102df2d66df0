"""The pages: sign in, club list, upload form, match list, match detail."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from records.models import Match
from tests.records.documents import dumps, illegal_document, make_document

pytestmark = pytest.mark.django_db


@pytest.fixture
def browser(client: Any, cast: Any) -> Any:
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


def test_the_club_list_shows_your_clubs_only(browser: Any, club: Any, cast: Any) -> None:
    from records import services

    services.create_club(name="Nora's secret club", owner=cast["nora"])
    page = browser.get("/clubs/").content.decode()
    assert "Chengdu Tuesday" in page and "secret" not in page


def test_the_match_list_shows_each_status(browser: Any, club: Any, upload: Any) -> None:
    match = upload(make_document(1))
    page = browser.get(f"/clubs/{club.pk}/").content.decode()
    assert f"#{match.pk}" in page and "queued" in page and "alice, bob, carol, dave" in page


def test_a_non_member_gets_404(client: Any, club: Any, cast: Any, upload: Any) -> None:
    match = upload(make_document(1))
    client.force_login(cast["nora"])
    assert client.get(f"/clubs/{club.pk}/").status_code == 404
    assert client.get(f"/clubs/{club.pk}/upload/").status_code == 404
    assert client.get(f"/clubs/{club.pk}/matches/{match.pk}/").status_code == 404


def test_the_upload_form_verifies_and_shows_the_settlement(
    browser: Any, club: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from xuezhan.sim.simulate import simulate_match

    doc = simulate_match(31, 2)
    assert browser.get(f"/clubs/{club.pk}/upload/").status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        response = browser.post(
            f"/clubs/{club.pk}/upload/",
            {"file": SimpleUploadedFile("m.json", dumps(doc), "application/json")},
        )
    match = Match.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/clubs/{club.pk}/matches/{match.pk}/"
    page = browser.get(response["Location"]).content.decode()
    assert "verified" in page and "Legal" in page
    payments = [p for r in match.rounds.all() for p in r.payments.all()]
    for payment in payments:
        assert f"<strong>{payment.amount}</strong>" in page and payment.reason in page
    assert page.count('<li class="payment">') == len(payments)
    # the engine's "seat 2" reads as the player's name on the page
    names = doc["players"]
    assert any(f"{name} (seat {seat})" in page for seat, name in enumerate(names))


NAMES = {0: "alice", 1: "bob", 2: "carol", 3: "dave"}


def test_settlement_sentences_are_made_from_reason_and_params_with_player_names() -> None:
    from analysis.pages import payment_sentence

    params = {"konger": 2, "payer": 0, "units": 2, "base": 1, "amount": 2,
              "kong": {"event": 5, "seat": 2, "kind": "direct", "tile": "9m"}}
    assert payment_sentence("kong_direct", params, NAMES) == (
        "alice (seat 0) discarded the tile and pays carol (seat 2)'s direct kong (直杠) of 9m: "
        "2 × base 1 = 2.")


def test_settlement_sentences_with_seat_labels_only_are_the_engine_lines() -> None:
    from analysis.pages import payment_sentence
    from xuezhan.replay import verify_document
    from xuezhan.sim.simulate import simulate_match

    for seed in range(3):
        for r in verify_document(simulate_match(seed, 3, "online")).rounds:
            for p in r.settlement.payments:
                assert payment_sentence(p.reason, p.params, {}) == p.detail


def test_the_match_page_words_payments_from_their_stored_data(
    browser: Any, club: Any, upload: Any
) -> None:
    from analysis import services
    from analysis.models import Payment
    from xuezhan.sim.simulate import simulate_match

    doc = simulate_match(31, 2)
    match = upload(doc)
    services.verify_match(match_id=match.pk)
    payments = Payment.objects.filter(round__match=match)
    assert payments.exists()
    payments.update(detail="stale English text")
    page = browser.get(f"/clubs/{club.pk}/matches/{match.pk}/").content.decode()
    assert "stale English text" not in page
    assert any(f"{name} (seat {seat})" in page for seat, name in enumerate(doc["players"]))


def test_a_payment_stored_without_params_shows_its_stored_line(
    browser: Any, club: Any, upload: Any
) -> None:
    from analysis import services
    from analysis.models import Payment
    from xuezhan.sim.simulate import simulate_match

    match = upload(simulate_match(31, 2))
    services.verify_match(match_id=match.pk)
    Payment.objects.filter(round__match=match).update(params={}, detail="the line as stored")
    page = browser.get(f"/clubs/{club.pk}/matches/{match.pk}/").content.decode()
    assert "the line as stored" in page


def test_the_upload_form_lists_every_error(browser: Any, club: Any) -> None:
    doc = make_document(2)
    doc["rounds"][0]["dealer"] = 4
    doc["rounds"][0]["hands"][0][0] = "0m"
    response = browser.post(f"/clubs/{club.pk}/upload/", {"document": dumps(doc).decode()})
    assert response.status_code == 400
    page = response.content.decode()
    assert "$.rounds[0].dealer" in page and "$.rounds[0].hands[0][0]" in page
    assert "Nothing was stored" in page and not Match.objects.exists()


def test_the_same_document_again_leads_to_the_first_match(
    browser: Any, club: Any, upload: Any
) -> None:
    match = upload(make_document(3))
    response = browser.post(
        f"/clubs/{club.pk}/upload/", {"document": dumps(make_document(3)).decode()}
    )
    assert response["Location"] == f"/clubs/{club.pk}/matches/{match.pk}/?duplicate=1"
    assert "already uploaded" in browser.get(response["Location"]).content.decode()


def test_an_illegal_match_page_lists_the_violations(browser: Any, club: Any, upload: Any) -> None:
    from analysis import services

    match = upload(illegal_document(4))
    services.verify_match(match_id=match.pk)
    page = browser.get(f"/clubs/{club.pk}/matches/{match.pk}/").content.decode()
    violation = match.verification.violations.first()
    assert "Illegal" in page and violation.code in page
