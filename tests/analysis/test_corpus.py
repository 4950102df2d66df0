"""Every hand-made log under tests/data goes through the service: stored, verified, settled.

The engine's tests check the numbers; here the point is that whatever the engine reports
(call transfers, refunds, flower pigs, multiple wins) fits the tables and their
constraints, and reads back through the API exactly as the engine said.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.records.documents import data_documents

pytestmark = pytest.mark.django_db

CORPUS = data_documents()


@pytest.mark.skipif(not CORPUS, reason="no logs under tests/data yet")
@pytest.mark.parametrize("name", sorted(CORPUS))
def test_a_hand_made_log_is_stored_as_the_engine_settles_it(
    name: str, club: Any, cast: Any, api_client: Any, upload: Any
) -> None:
    from analysis import services
    from records.errors import DocumentError
    from xuezhan.replay import verify_document

    doc = CORPUS[name]
    report = verify_document(doc).to_dict()
    try:
        stored = upload(doc)
    except DocumentError:
        # what the engine calls structurally broken, the service refuses at the door
        assert {v["code"] for v in report["violations"]} <= {"schema", "bad_ruleset"}
        assert not report["legal"]
        return
    match = services.verify_match(match_id=stored.pk)
    assert match.status == ("verified" if report["legal"] else "illegal"), match.last_error
    detail = api_client(cast["mia"]).get(f"/api/v1/clubs/{club.pk}/matches/{match.pk}/").json()
    assert detail["verification"]["totals"] == report["totals"]
    for got, want in zip(detail["rounds"], report["rounds"], strict=True):
        assert got["payments"] == want["payments"]
        assert got["settlement"]["deltas"] == want["deltas"]
        assert got["settlement"]["next_dealer"] == want["next_dealer"]
        for seat_got, seat_want in zip(got["seats"], want["seats"], strict=True):
            assert {k: seat_got[k] for k in seat_want} == seat_want
