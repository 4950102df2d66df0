import pytest


@pytest.fixture(autouse=True)
def _eager(eager_tasks: None) -> None:
    """Tasks run in-process here; tests/analysis/test_worker.py undoes this for real workers."""
