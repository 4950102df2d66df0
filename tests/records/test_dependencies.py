"""records is the base layer: analysis builds on it, never the other way round."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

RECORDS = Path(__file__).resolve().parents[2] / "records"


def imported_modules(path: Path) -> set[str]:
    modules: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            modules.add(node.module)
    return modules


def test_no_module_of_records_imports_analysis() -> None:
    offenders = {
        str(path.relative_to(RECORDS.parent)): sorted(
            m for m in imported_modules(path) if m == "analysis" or m.startswith("analysis.")
        )
        for path in RECORDS.rglob("*.py")
    }
    assert {path: mods for path, mods in offenders.items() if mods} == {}
    assert len(offenders) > 10  # the walk did find the package's modules


@pytest.mark.django_db
def test_an_upload_announces_its_match_after_commit_only(
    club: Any, cast: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from records import services
    from records.signals import match_needs_verifying
    from tests.records.documents import dumps, make_document

    heard: list[int] = []

    def listen(sender: Any, *, match_id: int, **kwargs: Any) -> None:
        heard.append(match_id)

    match_needs_verifying.connect(listen)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            upload = services.upload_match(
                club=club, raw=dumps(make_document(1)), uploaded_by=cast["mia"]
            )
            assert heard == []  # not before the commit
        assert heard == [upload.match.pk]
        with django_capture_on_commit_callbacks(execute=True):
            services.upload_match(club=club, raw=dumps(make_document(1)), uploaded_by=None)
        assert heard == [upload.match.pk]  # a duplicate announces nothing
    finally:
        match_needs_verifying.disconnect(listen)
