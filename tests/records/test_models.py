from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError

from records.models import (
    Match,
    Membership,
    Player,
    Round,
    Ruleset,
    Seat,
    ruleset_key,
    ruleset_rules,
    store_ruleset,
)
from tests.conftest import needs_postgres
from tests.records.documents import make_document
from xuezhan.rules import Rules

pytestmark = pytest.mark.django_db


def refused(fn: Any) -> bool:
    try:
        with transaction.atomic():
            fn()
    except IntegrityError:
        return True
    return False


def test_the_database_keeps_one_membership_per_user_and_club(club: Any, cast: Any) -> None:
    assert refused(lambda: Membership.objects.create(club=club, user=cast["mia"], role="admin"))


def test_the_database_refuses_an_unknown_role(club: Any) -> None:
    assert refused(lambda: Membership.objects.filter(club=club).update(role="emperor"))


def test_roles_are_ordered(club: Any) -> None:
    admin = Membership.objects.get(club=club, role="admin")
    assert admin.has_role("member") and admin.has_role("admin") and not admin.has_role("owner")


def test_handles_are_unique_within_a_club_only(club: Any, cast: Any) -> None:
    from records import services

    other = services.create_club(name="Other", owner=cast["nora"])
    Player.objects.create(club=club, handle="zhang")
    Player.objects.create(club=other, handle="zhang")
    assert refused(lambda: Player.objects.create(club=club, handle="zhang"))
    assert refused(lambda: Player.objects.create(club=club, handle=""))


def test_the_database_refuses_a_second_copy_and_a_fifth_seat(upload: Any) -> None:
    match = upload(make_document(1, match_id="m-1"))
    fields = {
        f: getattr(match, f)
        for f in ("club_id", "raw", "raw_sha256", "stored_ruleset_id", "ruleset_name")
    }
    assert refused(lambda: Match.objects.create(**fields, content_sha256=match.content_sha256))
    assert refused(
        lambda: Match.objects.create(**fields, content_sha256="0" * 64, source_match_id="m-1")
    )
    assert refused(lambda: Match.objects.filter(pk=match.pk).update(status="done"))
    player = Player.objects.get(club=match.club, handle="alice")
    assert refused(lambda: Seat.objects.create(match=match, seat=4, player=player))
    assert refused(lambda: Seat.objects.create(match=match, seat=0, player=player))
    assert refused(lambda: Round.objects.create(match=match, index=0, dealer=0))
    assert refused(lambda: Round.objects.create(match=match, index=5, dealer=4))


def test_matches_without_a_source_id_do_not_collide(upload: Any) -> None:
    upload(make_document(1))
    upload(make_document(2))
    assert Match.objects.filter(source_match_id__isnull=True).count() == 2


#: every index of our tables that another index on the same columns, and more, makes
#: redundant: each is written with every row for nothing (PostgreSQL's catalog)
_COVERED_INDEXES = """
WITH ix AS (
  SELECT i.indrelid::regclass::text AS tbl, c.relname AS name, i.indisunique AS uniq,
         string_to_array(i.indkey::text, ' ')::int[] AS cols,
         i.indpred IS NULL AND i.indexprs IS NULL AS plain
  FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
  WHERE i.indrelid::regclass::text ~ '^(records|analysis)_')
SELECT a.tbl, a.name, b.name FROM ix a JOIN ix b ON a.tbl = b.tbl AND a.name <> b.name
WHERE a.plain AND b.plain AND NOT a.uniq AND array_length(a.cols, 1) < array_length(b.cols, 1)
  AND b.cols[1:array_length(a.cols, 1)] = a.cols
"""


@needs_postgres
def test_no_index_is_the_leading_columns_of_another() -> None:
    """A foreign key that a composite index or unique key leads with keeps no index of its
    own (``db_index=False``): the uploads and verifications write fewer index entries."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(_COVERED_INDEXES)
        assert cursor.fetchall() == []


def test_equal_rulesets_share_a_key_whatever_the_order_of_their_options() -> None:
    assert ruleset_key({"a": 1, "b": [1, 2]}) == ruleset_key({"b": [1, 2], "a": 1})
    assert ruleset_key({"a": 1}) != ruleset_key({"a": 2})


def test_a_ruleset_stored_twice_is_one_row() -> None:
    chengdu = Rules.preset("chengdu").to_json()
    key = store_ruleset(chengdu)
    assert store_ruleset(dict(reversed(chengdu.items()))) == key
    assert list(Ruleset.objects.values_list("key", flat=True)) == [key]
    assert ruleset_rules(key) == chengdu and ruleset_rules(None) is None


def test_matches_under_one_ruleset_refer_to_one_row_and_read_its_rules(upload: Any) -> None:
    online = make_document(2, match_id="b")
    online["ruleset"] = "online"
    matches = [upload(make_document(1, match_id="a")), upload(online),
               upload(make_document(3, match_id="c"))]  # fmt: skip
    assert Ruleset.objects.count() == 2
    assert [Match.objects.get(pk=m.pk).ruleset for m in matches] == [
        Rules.preset(p).to_json() for p in ("chengdu", "online", "chengdu")
    ]
    assert matches[0].stored_ruleset_id == matches[2].stored_ruleset_id


def test_a_ruleset_is_read_once_per_process_and_a_copy_each_time(
    upload: Any, django_assert_num_queries: Any
) -> None:
    match = Match.objects.get(pk=upload(make_document(1)).pk)
    match.ruleset["preset"] = "changed by a reader"  # its own copy: no other reader sees it
    with django_assert_num_queries(0):  # the rows never change: read once
        assert match.ruleset == Rules.preset("chengdu").to_json()
    with django_assert_num_queries(1):  # read with the match, where a list shows them
        listed = list(Match.objects.select_related("stored_ruleset"))
        assert [m.ruleset["preset"] for m in listed] == ["chengdu"]


def test_a_ruleset_referred_to_is_never_deleted(upload: Any) -> None:
    match = upload(make_document(1))
    with pytest.raises(ProtectedError):
        Ruleset.objects.filter(pk=match.stored_ruleset_id).delete()
