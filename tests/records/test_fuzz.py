"""Random corruptions of a valid document never get a 500 from the upload endpoint."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.records.documents import make_document

pytestmark = pytest.mark.django_db

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=10,
)


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += paths(item, (*prefix, index))
    return found


BASE = make_document(5, turns=3)
PATHS = [p for p in paths(BASE) if p]


def replaced(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    doc = json.loads(json.dumps(doc))
    target = doc
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return doc


@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(path=st.sampled_from(PATHS), value=json_values)
def test_a_corrupted_document_is_a_400_or_stored_never_a_500(
    path: tuple[Any, ...], value: Any, club: Any, cast: Any, api_client: Any
) -> None:
    body = json.dumps(replaced(BASE, path, value)).encode()
    response = api_client(cast["mia"]).generic(
        "POST", f"/api/v1/clubs/{club.pk}/matches/", body, "application/json"
    )
    assert response.status_code in (200, 201, 400), response.content
    if response.status_code == 400:
        assert response.json()["errors"]
