from typing import Any

import pytest

from tests.records.documents import dumps


@pytest.fixture(autouse=True)
def _eager(eager_tasks: None) -> None:
    """Tasks run in-process here; tests/analysis/test_worker.py undoes this for real workers."""


@pytest.fixture
def uploaded(
    club: Any, cast: Any, api_client: Any, django_capture_on_commit_callbacks: Any
) -> Any:
    """``uploaded(doc)``: the id of the match mia uploads, verified and reviewed (the
    eager tasks run on commit)."""

    def do(doc: Any) -> int:
        with django_capture_on_commit_callbacks(execute=True):
            response = api_client(cast["mia"]).generic(
                "POST", f"/api/v1/clubs/{club.pk}/matches/", dumps(doc), "application/json"
            )
        assert response.status_code == 201, response.content
        match_id: int = response.json()["id"]
        return match_id

    return do
