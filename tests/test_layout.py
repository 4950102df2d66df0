"""Where things go (CONTRIBUTING.md), held by the imports themselves.

- Each feature owns its routes; the project's URLconf only includes them.
- Pages call services and selectors, never an API view module.
- No import hides inside a function to dodge a cycle: the apps' function-local imports are
  the few listed here, each for a reason that is not a cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
APPS = ("records", "analysis", "config")
#: every module that renders pages, and every feature's routes, found by name
PAGE_MODULES = tuple(sorted(
    p.relative_to(ROOT).as_posix() for app in APPS for p in (ROOT / app).rglob("*.py")
    if p.name in {"pages.py", "viewer.py"}
))
FEATURE_URLS = tuple(sorted(
    p.relative_to(ROOT).as_posix() for app in ("records", "analysis")
    for p in (ROOT / app).rglob("urls.py")
))
#: (module, imported module): function-local on purpose, and why
LOCAL_IMPORTS_ALLOWED = {
    # Django's own rule: an app's models and signals are wired once the registry is ready
    ("analysis/apps.py", "*"),
    ("records/apps.py", "*"),
    # openskill only in the processes that compute ratings, not in every verification worker
    ("analysis/league/services.py", "analysis.league"),
    # the project's wiring: settings and the cache are read once Django is configured
    ("config/celery.py", "*"),
    ("config/wsgi.py", "*"),
}


def modules() -> list[Path]:
    return sorted(p for app in APPS for p in (ROOT / app).rglob("*.py")
                  if "migrations" not in p.parts)


def imported(node: ast.AST) -> list[str]:
    if isinstance(node, ast.ImportFrom):
        return [node.module or ""]
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    return []


def local_imports(tree: ast.Module) -> list[str]:
    found = []
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            for node in ast.walk(function):
                found += imported(node)
    return found


@pytest.mark.parametrize("path", PAGE_MODULES)
def test_a_page_module_imports_no_api_view_module(path: str) -> None:
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    names = [name for node in ast.walk(tree) for name in imported(node)]
    assert not [n for n in names if n.split(".")[-1] in {"views", "account_views"}
                and n.split(".")[0] in APPS]
    from_views = [alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                  and node.module in APPS for alias in node.names if alias.name == "views"]
    assert not from_views


def test_the_project_urlconf_only_includes_the_features_routes() -> None:
    tree = ast.parse((ROOT / "config/urls.py").read_text(encoding="utf-8"))
    names = {n for node in ast.walk(tree) for n in imported(node)}
    ours = {n for n in names if n.split(".")[0] in APPS}
    assert not {n for n in ours if n.endswith((".views", ".pages", "viewer"))}
    for path in FEATURE_URLS:
        text = (ROOT / path).read_text(encoding="utf-8")
        assert "api_urls" in text and "page_urls" in text, path


def test_no_app_module_imports_inside_a_function_but_the_listed_few() -> None:
    offending = []
    for path in modules():
        name = path.relative_to(ROOT).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for module in local_imports(tree):
            if (name, "*") not in LOCAL_IMPORTS_ALLOWED and (
                    name, module) not in LOCAL_IMPORTS_ALLOWED:
                offending.append(f"{name}: {module}")
    assert offending == []
