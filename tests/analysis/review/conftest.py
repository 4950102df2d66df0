"""A club's simulated match, uploaded and verified (the review stored by the eager task)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.records.documents import dumps


def simulated(seed: int, rounds: int = 3) -> dict[str, Any]:
    from xuezhan.sim.simulate import simulate_match

    return simulate_match(seed, rounds)


@pytest.fixture
def uploaded(club: Any, cast: Any, api_client: Any,
             django_capture_on_commit_callbacks: Any) -> Any:
    """``uploaded(doc)``: the id of the match mia uploads, verified and reviewed."""
    def do(doc: Any) -> int:
        with django_capture_on_commit_callbacks(execute=True):
            response = api_client(cast["mia"]).generic(
                "POST", f"/api/v1/clubs/{club.pk}/matches/", dumps(doc), "application/json"
            )
        assert response.status_code == 201, response.content
        match_id: int = response.json()["id"]
        return match_id

    return do
