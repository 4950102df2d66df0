"""Settings: environment parsing, run modes, deploy checks and the OpenAPI schema."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from xuezhan.config import settings as config

ROOT = Path(__file__).resolve().parents[2]


def run_manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in _KNOBS}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


_KNOBS = (
    "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "HTTPS_ONLY", "DATABASE_URL", "CELERY_BROKER_URL",
)  # fmt: skip


@pytest.mark.parametrize(("value", "expected"), [("True", True), ("false", False), ("", False)])
def test_envbool_reads_true_and_false(
    monkeypatch: pytest.MonkeyPatch, value: str, expected: bool
) -> None:
    monkeypatch.setenv("XZ_FLAG", value)
    assert config.envbool("XZ_FLAG", "False") is expected


def test_envbool_fails_loudly_on_anything_else(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XZ_FLAG", "maybe")
    with pytest.raises(ImproperlyConfigured, match="XZ_FLAG must be True or False"):
        config.envbool("XZ_FLAG", "False")


def test_envint_fails_loudly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XZ_NUM", "12kb")
    with pytest.raises(ImproperlyConfigured, match="XZ_NUM must be an integer"):
        config.envint("XZ_NUM", 1)
    monkeypatch.setenv("XZ_NUM", "")
    assert config.envint("XZ_NUM", 7) == 7


def test_envlist_splits_on_commas(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XZ_HOSTS", " a.example, b.example ,,")
    assert config.envlist("XZ_HOSTS", "") == ["a.example", "b.example"]


def test_the_defaults_are_sqlite_and_eager_tasks(tmp_path: Path) -> None:
    code = (
        "from django.conf import settings as s; "
        "print(s.DATABASES['default']['ENGINE'], s.CELERY_TASK_ALWAYS_EAGER, s.DEBUG)"
    )
    result = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        cwd=ROOT,
        env={
            **{k: v for k, v in os.environ.items() if k not in _KNOBS},
            "DJANGO_SETTINGS_MODULE": "xuezhan.config.settings",
            "XUEZHAN_VAR_DIR": str(tmp_path),
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.stdout.split() == ["django.db.backends.sqlite3", "True", "False"], result.stderr
    assert (tmp_path / "secret_key").exists()  # generated, private, never a known default


def test_check_deploy_is_clean_with_production_settings(tmp_path: Path) -> None:
    result = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        env={
            "DEBUG": "False",
            "SECRET_KEY": "k" * 10 + "-production-like-secret-" + "9f8e7d6c5b4a" * 3,
            "ALLOWED_HOSTS": "xuezhan.example",
            "HTTPS_ONLY": "True",
            "XUEZHAN_VAR_DIR": str(tmp_path),
        },
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_the_openapi_schema_validates_without_warnings(tmp_path: Path) -> None:
    result = run_manage(
        "spectacular",
        "--validate",
        "--fail-on-warn",
        "--file",
        str(tmp_path / "schema.yml"),
        env={"XUEZHAN_VAR_DIR": str(tmp_path)},
    )
    assert result.returncode == 0, result.stdout + result.stderr
    schema = (tmp_path / "schema.yml").read_text()
    assert "/api/v1/clubs/{club_id}/matches/:" in schema
    assert "/api/v1/clubs/{club_id}/matches/{match_id}/rounds/{index}/replay/:" in schema
