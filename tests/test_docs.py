"""The repository carries its own rule book and format: docs/ names every code, option and
reason the engine has, and the code cites docs/, never notes kept outside the repository."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from xuezhan import reader
from xuezhan.replay import CODES
from xuezhan.rules import Rules
from xuezhan.settlement import REASONS

ROOT = Path(__file__).resolve().parent.parent
FORMAT = (ROOT / "docs" / "format.md").read_text(encoding="utf-8")
RULES = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("code", sorted(CODES))
def test_every_violation_code_is_explained_in_docs_format(code: str) -> None:
    assert f"| `{code}` |" in FORMAT


@pytest.mark.parametrize("code", sorted(reader.CODES))
def test_every_reader_refusal_is_explained_in_docs_format(code: str) -> None:
    assert f"| `{code}` |" in FORMAT


@pytest.mark.parametrize("reason", REASONS)
def test_every_payment_reason_and_its_params_are_in_docs_format(reason: str) -> None:
    assert f"| `{reason}` |" in FORMAT


@pytest.mark.parametrize("option", sorted(Rules.preset("chengdu").to_json()))
def test_every_ruleset_option_is_in_docs_rules(option: str) -> None:
    if option in ("preset", "name"):
        return
    assert f"`{option}`" in RULES


_OUTSIDE = re.compile(r"RULES\.md|FORMAT\.md|\bRULES §|\bseeds? 00\d|shared/seeds")
_SOURCES = ("xuezhan", "records", "analysis", "tests", "benchmarks", "templates", "static")


def test_code_cites_docs_not_notes_outside_the_repository() -> None:
    here = Path(__file__).resolve()
    offenders = [
        f"{path.relative_to(ROOT)}:{n}"
        for folder in _SOURCES
        for path in sorted((ROOT / folder).rglob("*"))
        if path.suffix in (".py", ".html", ".js", ".json", ".txt") and path != here
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
        if _OUTSIDE.search(line)
    ]
    assert offenders == []
