"""The API serves the engine's shapes key for key: replay frames and per-seat facts."""

from __future__ import annotations

import json
from typing import Any, NotRequired, TypedDict, get_type_hints, is_typeddict

import pytest

from tests.records.documents import dumps, illegal_document
from xuezhan.frames import Frame
from xuezhan.replay import SeatFacts, replay_frames, verify_document
from xuezhan.sim.simulate import simulate_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def verified(club: Any, cast: Any, api_client: Any,
             django_capture_on_commit_callbacks: Any) -> Any:
    """``verified(doc)``: upload as mia, verify, and return (mia's client, the match's URL)."""
    def do(doc: Any) -> tuple[Any, str]:
        client = api_client(cast["mia"])
        with django_capture_on_commit_callbacks(execute=True):
            response = client.generic("POST", f"/api/v1/clubs/{club.pk}/matches/", dumps(doc),
                                      "application/json")
        assert response.status_code == 201, response.content
        return client, f"/api/v1/clubs/{club.pk}/matches/{response.json()['id']}/"

    return do


def test_the_replay_endpoint_serves_the_engines_frames_key_for_key(verified: Any) -> None:
    doc = simulate_match(31, 2, "online")
    client, url = verified(doc)
    for r in range(2):
        body = client.get(f"{url}rounds/{r}/replay/").json()
        assert body["frames"] == json.loads(json.dumps(replay_frames(doc, r)))
        assert {"voids", "to_act", "problems", "rivers", "win_order"} <= set(body["frames"][-1])


def test_the_replay_of_an_illegal_match_shows_each_violation_at_its_step(verified: Any) -> None:
    doc = illegal_document(3)
    client, url = verified(doc)
    frames = client.get(f"{url}rounds/0/replay/").json()["frames"]
    violation = verify_document(doc).violations[0]
    assert violation.event is not None
    step = frames[violation.event + 1]
    assert step["event"] == violation.event
    assert {"code": violation.code, "message": violation.message,
            "seat": violation.seat} in step["problems"]


def test_the_frame_serializer_has_a_field_for_every_key_of_every_frame_shape() -> None:
    from analysis.serializers import FrameSerializer

    def walk(serializer: Any, shape: Any) -> None:
        fields = serializer.fields
        assert set(fields) == set(get_type_hints(shape))
        for key, hint in get_type_hints(shape).items():
            inner = _typeddict_in(hint)
            if inner is not None:
                field = fields[key]
                while not hasattr(field, "fields"):
                    field = getattr(field, "child", None)
                    assert field is not None, key
                walk(field, inner)

    walk(FrameSerializer(), Frame)


def test_a_key_added_to_a_shape_is_served_and_an_optional_one_left_out_when_absent() -> None:
    from analysis.serializers import shape_serializer

    data: Shape = {"event": None, "new_key": [{"tile": "5m"}, {"tile": "6m", "extra": 2}]}
    assert shape_serializer(Shape)(data).data == data


def test_seat_results_serve_every_fact_the_engine_reports_per_seat(verified: Any) -> None:
    doc = simulate_match(32, 2)
    client, url = verified(doc)
    rounds = client.get(url).json()["rounds"]
    report = verify_document(doc).to_dict()
    for got, want in zip(rounds, report["rounds"], strict=True):
        for seat_got, seat_want in zip(got["seats"], want["seats"], strict=True):
            assert set(seat_want) == set(SeatFacts.__annotations__)
            assert {k: seat_got[k] for k in SeatFacts.__annotations__} == seat_want


class Inner(TypedDict):
    tile: str
    extra: NotRequired[int]


class Shape(TypedDict):
    event: int | None
    new_key: list[Inner]


def _typeddict_in(hint: Any) -> Any:
    """The TypedDict a field's type holds (through lists and ``| None``), or None."""
    if is_typeddict(hint):
        return hint
    for arg in getattr(hint, "__args__", ()):
        found = _typeddict_in(arg)
        if found is not None:
            return found
    return None
