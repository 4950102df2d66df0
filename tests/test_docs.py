"""The repository carries its own rule book and format: docs/ names every code, option and
reason the engine has, and the code cites docs/, never notes kept outside the repository.
The README stays an introduction whose tables are complete (every environment variable the
service reads, every API route) and which links every document; docs/benchmarks.md dates
every run and lists every benchmark script."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from xuezhan import reader
from xuezhan.replay import CODES
from xuezhan.rules import Rules
from xuezhan.settlement import REASONS

ROOT = Path(__file__).resolve().parent.parent
FORMAT = (ROOT / "docs" / "format.md").read_text(encoding="utf-8")
RULES = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
README = (ROOT / "README.md").read_text(encoding="utf-8")
BENCHMARKS = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")


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


# -- the README: an introduction, its tables complete ------------------------------------

README_MAX_LINES = 450


def test_the_readme_stays_an_introduction_of_at_most_450_lines() -> None:
    lines = README.count("\n")
    assert lines <= README_MAX_LINES, (
        f"README.md has {lines} lines: move the detail to docs/ (CONTRIBUTING.md)")


def readme_section(heading: str) -> str:
    """The README's text under ``heading`` (a ``##`` or ``###`` line), to the next heading."""
    match = re.search(rf"^#+ {re.escape(heading)}\n(.*?)(?=^#)", README, re.M | re.S)
    assert match, f"README.md has no section {heading!r}"
    return match.group(1)


@pytest.mark.parametrize("path", sorted((ROOT / "docs").glob("*.md")), ids=lambda p: p.name)
def test_the_readme_links_every_document_in_docs(path: Path) -> None:
    assert f"](docs/{path.name})" in README


#: a variable read by the settings' helpers (envint, …, production's required) or os.environ
_ENV_READ = re.compile(
    r"""(?:\benv(?:bool|int|list|secret)|\brequired|os\.environ\.get|os\.getenv)"""
    r"""\(\s*["']([A-Z][A-Z0-9_]+)["']|os\.environ\[["']([A-Z][A-Z0-9_]+)["']\]""")


def environment_variables_read() -> set[str]:
    sources = [*(ROOT / "config").rglob("*.py"), *(ROOT / "records").rglob("*.py"),
               *(ROOT / "analysis").rglob("*.py"), ROOT / "deploy" / "gunicorn.conf.py"]
    return {a or b for path in sources
            for a, b in _ENV_READ.findall(path.read_text(encoding="utf-8"))}


def test_every_environment_variable_the_service_reads_is_in_the_readme_table() -> None:
    names = environment_variables_read()
    assert {"DATABASE_URL", "SECRET_KEY", "GUNICORN_WORKERS"} <= names  # the scan sees them
    table = readme_section("Environment variables")
    assert sorted(n for n in names if f"`{n}`" not in table) == []


def api_routes() -> list[str]:
    """Every route under /api/v1/, its parameters written ``{}``."""
    def walk(patterns: list[URLPattern | URLResolver], prefix: str) -> list[str]:
        out: list[str] = []
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                out += walk(pattern.url_patterns, route)
            else:
                out.append(route)
        return out

    routes = walk(get_resolver().url_patterns, "")
    return sorted({re.sub(r"<[^>]+>", "{}", r.removeprefix("api/v1/"))
                   for r in routes if r.startswith("api/v1/")})


def readme_api_paths() -> tuple[set[str], set[str]]:
    """The paths the README's API section names: whole ones, and the tails of ``…/`` ones."""
    whole, tails = set(), set()
    for span in re.findall(r"`([^`]+)`", readme_section("API (`/api/v1/`)")):
        for part in span.split(", "):
            path = re.sub(r"^(?:(?:GET|POST|PUT|PATCH|DELETE)\b,?\s*)+", "", part.strip())
            path = re.sub(r"\{[^}]*\}", "{}", path.split("?")[0].split(" ")[0])
            path = path.removeprefix("/api/v1/")
            if path.startswith("…/"):
                tails.add(path.removeprefix("…"))
            elif path.endswith("/"):
                whole.add(path)
    return whole, tails


@pytest.mark.parametrize("route", api_routes())
def test_every_api_route_is_in_the_readme_table(route: str) -> None:
    whole, tails = readme_api_paths()
    assert route in whole or any(route.endswith(tail) for tail in tails), (
        f"the README's API table has no row for {route}")


# -- docs/benchmarks.md: every run dated, newest first; every script indexed ---------------

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")
_DATE = re.compile(rf"\b([1-9]|[12][0-9]|3[01]) ({'|'.join(MONTHS)}) (20[0-9]{{2}})\b")


def run_headings() -> list[tuple[str, str]]:
    """(section, heading) of every run: each ``###`` heading of docs/benchmarks.md (a
    section's own notes are paragraphs), and any ``##`` one that starts with "Run"."""
    runs, section = [], ""
    for line in BENCHMARKS.splitlines():
        if line.startswith("## "):
            section = line[3:]
            if section.startswith("Run"):
                runs.append((section, section))
        elif line.startswith("### "):
            runs.append((section, line[4:]))
    return runs


def heading_date(heading: str) -> date | None:
    match = _DATE.search(heading)
    if match is None:
        return None
    day, month, year = match.groups()
    return date(int(year), MONTHS.index(month) + 1, int(day))


def test_every_run_heading_of_docs_benchmarks_names_its_date() -> None:
    runs = run_headings()
    assert len(runs) >= 20
    assert [heading for _, heading in runs if heading_date(heading) is None] == []


def test_the_runs_of_each_benchmark_are_newest_first() -> None:
    sections: dict[str, list[date]] = {}
    for section, heading in run_headings():
        sections.setdefault(section, []).append(heading_date(heading) or date.min)
    for section, dates in sections.items():
        assert dates == sorted(dates, reverse=True), section


@pytest.mark.parametrize("script", sorted((ROOT / "benchmarks").glob("*.py")),
                         ids=lambda p: p.name)
def test_every_benchmark_script_is_in_the_index_of_docs_benchmarks(script: Path) -> None:
    index = BENCHMARKS[BENCHMARKS.index("## Index"):].split("\n## ")[0]
    assert f"| `{script.name}` |" in index
