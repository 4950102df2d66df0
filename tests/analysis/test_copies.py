"""Copies of a stored match (analysis.copies): made from its texts only where those are
the texts a copy's would be."""

from __future__ import annotations

import json
from typing import Any

import pytest

from analysis import copies
from analysis import services as verification
from records.models import Club
from records.services import upload_match
from tests.records.documents import make_document

pytestmark = pytest.mark.django_db


def _stored(club: Club, raw: bytes) -> int:
    match = upload_match(club=club, raw=raw, uploaded_by=None).match
    verification.verify_match(match_id=match.pk)
    return match.pk


def test_a_template_s_texts_are_cut_where_a_copy_s_own_values_go(cast: dict[str, Any]) -> None:
    club = Club.objects.create(name="templates")
    doc = make_document(3, match_id="t-1")
    raw = json.dumps(doc, ensure_ascii=False).encode()
    template = copies.read_template(_stored(club, raw))
    own = {"players": ["w", "x", "y", "z"], "match_id": "t-2", "played_at": doc["played_at"]}
    copy = {**doc, **own}
    assert copies._join(template.raw, own, copies._dumps) == json.dumps(copy, ensure_ascii=False)
    assert copies._join(template.canonical, own, copies._canonical) == copies._canonical(copy)


@pytest.mark.parametrize(
    "change",
    [
        lambda doc: json.dumps(doc, separators=(",", ":")),  # not json.dumps' own spacing
        lambda doc: json.dumps({k: v for k, v in doc.items() if k != "match_id"}),
    ],
    ids=["other spacing", "no match_id"],
)
def test_a_match_whose_bytes_are_not_what_copies_are_made_of_is_no_template(
    cast: dict[str, Any], change: Any
) -> None:
    club = Club.objects.create(name="no templates")
    pk = _stored(club, change(make_document(4, match_id="t-3")).encode())
    with pytest.raises(ValueError, match="are not json"):
        copies.read_template(pk)
