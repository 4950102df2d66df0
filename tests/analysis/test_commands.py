from __future__ import annotations

from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from records.models import Club, Match
from tests.records.documents import make_document

pytestmark = pytest.mark.django_db


def test_reverify_a_club_with_a_progress_bar(club: Any, upload: Any) -> None:
    from analysis import services

    matches = [upload(make_document(seed)) for seed in range(3)]
    for match in matches:
        services.verify_match(match_id=match.pk)
    out, err = StringIO(), StringIO()
    call_command("reverify", "--club", str(club.pk), stdout=out, stderr=err)
    assert "3 matches: 3 verified" in out.getvalue()
    assert "3/3" in err.getvalue()  # tqdm's bar
    assert set(Match.objects.values_list("attempts", flat=True)) == {1}


def test_reverify_enqueue_hands_the_work_to_the_queue(club: Any, upload: Any) -> None:
    upload(make_document(1))
    out = StringIO()
    call_command("reverify", "--all", "--enqueue", stdout=out, stderr=StringIO())
    assert "1 match: 1 queued" in out.getvalue()


def test_reverify_an_unknown_club_fails() -> None:
    with pytest.raises(CommandError, match="no club with id 999"):
        call_command("reverify", "--club", "999", stdout=StringIO(), stderr=StringIO())


def test_sweep_matches_requeues_the_stuck(upload: Any) -> None:
    match = upload(make_document(1))
    Match.objects.filter(pk=match.pk).update(status_changed_at=timezone.now() - timedelta(days=1))
    out = StringIO()
    call_command("sweep_matches", stdout=out)
    assert "re-queued 1 stuck matches" in out.getvalue()
    assert Match.objects.get(pk=match.pk).status == "verified"  # eager here


def test_load_demo_creates_a_verified_demo_club_and_is_repeatable(
    settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    out = StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("load_demo", "--matches", "3", "--rounds", "2", stdout=out)
    assert "Sign in at http://127.0.0.1:8000/accounts/login/" in out.getvalue()
    club = Club.objects.get(name="Demo club")
    assert sorted(club.memberships.values_list("user__username", "role")) == [
        ("demo-admin", "admin"),
        ("demo-member", "member"),
        ("demo-owner", "owner"),
    ]
    assert club.matches.count() == 3
    assert set(club.matches.values_list("status", flat=True)) == {"verified"}
    call_command("load_demo", "--matches", "3", "--rounds", "2", stdout=StringIO())
    assert Club.objects.count() == 1 and Match.objects.count() == 3
