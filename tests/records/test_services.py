from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import Any

import pytest

from records import services
from records.errors import DocumentError, UploadTooLarge
from records.models import Match, Membership, Player, Round, Seat
from tests.records.documents import dumps, make_document
from xuezhan.schema import canonical_bytes

pytestmark = pytest.mark.django_db


def paths(exc: pytest.ExceptionInfo[DocumentError]) -> list[str]:
    return [e["path"] for e in exc.value.errors]


def test_upload_stores_the_bytes_verbatim_and_the_facts(club: Any, cast: Any) -> None:
    doc = make_document(3, rounds=2, match_id="src-3")
    raw = json.dumps(doc, indent=2).encode()
    result = services.upload_match(club=club, raw=raw, uploaded_by=cast["mia"])
    match = result.match
    assert result.created
    assert bytes(match.raw) == raw
    assert match.raw_sha256 == hashlib.sha256(raw).hexdigest()
    assert match.content_sha256 == hashlib.sha256(canonical_bytes(doc)).hexdigest()
    assert match.document == doc
    assert match.source_match_id == "src-3"
    assert match.ruleset_name == "chengdu" and match.ruleset["preset"] == "chengdu"
    assert match.played_at == datetime(2026, 11, 4, 11, 30, tzinfo=UTC)
    assert match.status == "queued" and match.attempts == 0
    assert [s.player.handle for s in match.seats.order_by("seat")] == doc["players"]
    assert [(r.index, r.dealer) for r in match.rounds.all()] == [(0, 0), (1, 0)]
    assert set(Player.objects.filter(club=club).values_list("handle", flat=True)) == set(
        doc["players"]
    )


def test_the_same_document_twice_is_one_match(club: Any, cast: Any) -> None:
    doc = make_document(4)
    first = services.upload_match(club=club, raw=dumps(doc), uploaded_by=cast["mia"])
    # other whitespace and key order: the same canonical form
    again = json.dumps(doc, indent=1, sort_keys=True).encode()
    second = services.upload_match(club=club, raw=again, uploaded_by=cast["adam"])
    assert not second.created and second.match.pk == first.match.pk
    assert Match.objects.count() == 1


def test_the_same_match_id_with_other_content_is_a_conflict_naming_the_match(
    club: Any, cast: Any
) -> None:
    from records.errors import MatchConflict

    first = services.upload_match(
        club=club, raw=dumps(make_document(5, match_id="x")), uploaded_by=None
    )
    with pytest.raises(MatchConflict) as exc:
        services.upload_match(
            club=club, raw=dumps(make_document(6, match_id="x")), uploaded_by=None
        )
    assert exc.value.match_id == first.match.pk
    assert exc.value.errors[0]["path"] == "$.match_id"
    assert Match.objects.count() == 1


def test_another_club_may_hold_the_same_document(club: Any, cast: Any) -> None:
    other = services.create_club(name="Other", owner=cast["nora"])
    raw = dumps(make_document(7, match_id="x"))
    a = services.upload_match(club=club, raw=raw, uploaded_by=None)
    b = services.upload_match(club=other, raw=raw, uploaded_by=None)
    assert a.created and b.created and a.match.pk != b.match.pk


def test_a_bad_document_is_refused_with_every_path(club: Any) -> None:
    doc = make_document(8)
    doc["players"][3] = 7
    doc["rounds"][0]["dealer"] = 4
    doc["rounds"][0]["events"][2]["tile"] = "0z"
    with pytest.raises(DocumentError) as exc:
        services.upload_match(club=club, raw=dumps(doc), uploaded_by=None)
    assert exc.value.kind == "invalid_document"
    assert {"$.players[3]", "$.rounds[0].dealer", "$.rounds[0].events[2].tile"} <= set(paths(exc))
    assert Match.objects.count() == 0


@pytest.mark.parametrize(
    ("change", "path"),
    [
        ({"ruleset": "beijing"}, "$.ruleset"),
        ({"ruleset": {"preset": "chengdu", "max_fun": 3}}, "$.ruleset"),
        ({"players": ["alice", "bob", "alice", "dave"]}, "$.players[2]"),
        ({"played_at": "last tuesday"}, "$.played_at"),
    ],
)
def test_what_the_schema_cannot_see_is_refused_too(club: Any, change: Any, path: str) -> None:
    doc = {**make_document(9), **change}
    with pytest.raises(DocumentError) as exc:
        services.upload_match(club=club, raw=dumps(doc), uploaded_by=None)
    assert paths(exc) == [path]


def test_json_that_is_not_strict_is_refused(club: Any) -> None:
    with pytest.raises(DocumentError) as exc:
        services.upload_match(club=club, raw=b'{"format": 1, "format": 2}', uploaded_by=None)
    assert exc.value.kind == "invalid_json"
    assert exc.value.errors == [
        {
            "path": "$.format",
            "message": 'the key "format" appears twice in one object',
            "code": "duplicate_key",
        }
    ]


def test_an_oversized_body_is_refused(club: Any, settings: Any) -> None:
    settings.UPLOAD_MAX_BYTES = 100
    with pytest.raises(UploadTooLarge):
        services.upload_match(club=club, raw=b" " * 101, uploaded_by=None)


def test_a_club_keeps_its_last_owner(club: Any, cast: Any) -> None:
    owner = Membership.objects.get(club=club, user=cast["olga"])
    with pytest.raises(services.RoleError):
        services.change_role(membership=owner, role="member")
    with pytest.raises(services.RoleError):
        services.remove_member(membership=owner)
    services.add_member(club=club, user=cast["adam"], role="owner")
    services.change_role(membership=owner, role="member")
    assert Membership.objects.filter(club=club, role="owner").count() == 1


@pytest.mark.parametrize(("model", "names"), [
    (Seat, services.SEAT_FIELDS), (Round, services.ROUND_FIELDS)])
def test_the_upload_writes_every_column_of_its_seat_and_round_rows(
        model: Any, names: tuple[str, ...]) -> None:
    # upload_match inserts these rows by hand, naming these fields: a new column must be
    # added there too (or it would be left to its database default)
    fields = {f.name for f in model._meta.concrete_fields if not f.primary_key}
    assert fields == set(names)


def test_an_upload_stores_its_seats_and_rounds(club: Any, cast: Any) -> None:
    doc = make_document(40, rounds=3)
    match = services.upload_match(club=club, raw=dumps(doc), uploaded_by=cast["mia"]).match
    assert [(s.seat, s.player.handle) for s in match.seats.order_by("seat")] == list(
        enumerate(doc["players"]))
    assert [(r.index, r.dealer, r.event_count) for r in match.rounds.order_by("index")] == [
        (i, r["dealer"], len(r["events"])) for i, r in enumerate(doc["rounds"])]
