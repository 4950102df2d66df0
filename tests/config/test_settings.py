"""Settings: environment parsing, run modes, deploy checks and the OpenAPI schema."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from config import settings as config

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
    "CACHE_URL", "STATIC_ROOT", "DJANGO_SETTINGS_MODULE", "WORKER_NICE",
    "SECRET_KEY_FILE", "DATABASE_URL_FILE", "CELERY_BROKER_URL_FILE", "CACHE_URL_FILE",
)  # fmt: skip

PRODUCTION = {
    "DJANGO_SETTINGS_MODULE": "config.production",
    "SECRET_KEY": "k" * 10 + "-production-like-secret-" + "9f8e7d6c5b4a" * 3,
    "DATABASE_URL": "postgres://xuezhan@db.internal:5432/xuezhan",
    "CELERY_BROKER_URL": "redis://broker.internal:6379/0",
    "CACHE_URL": "redis://broker.internal:6379/1",
    "ALLOWED_HOSTS": "xuezhan.example",
}


def settings_of(env: dict[str, str], *names: str) -> subprocess.CompletedProcess[str]:
    """Load the settings in a fresh process with ``env``; print the named settings."""
    code = "import django; django.setup(); from django.conf import settings as s; " + "; ".join(
        f"print(repr(s.{name}))" for name in names
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**{k: v for k, v in os.environ.items() if k not in _KNOBS}, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


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


def test_the_defaults_are_sqlite_and_eager_tasks_and_nothing_is_written(tmp_path: Path) -> None:
    var = tmp_path / "var"
    result = settings_of(
        {"DJANGO_SETTINGS_MODULE": "config.settings", "XUEZHAN_VAR_DIR": str(var)},
        "DATABASES['default']['ENGINE']", "CELERY_TASK_ALWAYS_EAGER", "DEBUG",
        "SECRET_KEY.__len__()",
    )  # fmt: skip
    assert result.stdout.split() == ["'django.db.backends.sqlite3'", "True", "False", "67"], (
        result.stderr
    )
    assert not var.exists()  # importing the settings writes nothing, not even a folder


def test_the_development_secret_key_is_random_per_process() -> None:
    env = {"DJANGO_SETTINGS_MODULE": "config.settings"}
    keys = {settings_of(env, "SECRET_KEY").stdout for _ in range(2)}
    assert len(keys) == 2 and all(len(key) > 50 for key in keys)


def test_a_secret_may_come_from_a_file(tmp_path: Path) -> None:
    secret = tmp_path / "secret_key"
    secret.write_text("from-a-file-" + "x" * 50 + "\n")
    env = {**PRODUCTION, "SECRET_KEY": "", "SECRET_KEY_FILE": str(secret)}
    result = settings_of(env, "SECRET_KEY")
    assert result.stdout.strip() == repr("from-a-file-" + "x" * 50), result.stderr


def test_an_unreadable_secret_file_is_a_start_up_error(tmp_path: Path) -> None:
    env = {**PRODUCTION, "SECRET_KEY": "", "SECRET_KEY_FILE": str(tmp_path / "missing")}
    result = settings_of(env, "SECRET_KEY")
    assert result.returncode != 0 and "SECRET_KEY_FILE" in result.stderr


@pytest.mark.parametrize(
    "name", ["SECRET_KEY", "DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL", "ALLOWED_HOSTS"]
)
def test_production_refuses_to_start_without_a_secret(name: str) -> None:
    result = settings_of({**PRODUCTION, name: ""}, "DEBUG")
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and f"{name} is not set" in result.stderr


def test_production_settings_use_the_workers_and_https() -> None:
    result = settings_of(
        PRODUCTION, "CELERY_TASK_ALWAYS_EAGER", "DEBUG", "SECURE_SSL_REDIRECT",
        "DATABASES['default']['ENGINE']",
    )  # fmt: skip
    assert result.stdout.split() == [
        "False", "False", "True", "'django.db.backends.postgresql'",
    ], result.stderr  # fmt: skip


def test_check_deploy_is_clean_with_production_settings(tmp_path: Path) -> None:
    result = run_manage(
        "check", "--deploy", "--fail-level", "WARNING",
        env={**PRODUCTION, "XUEZHAN_VAR_DIR": str(tmp_path)},
    )  # fmt: skip
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


def test_the_worker_nice_value_is_checked_at_start_up() -> None:
    """docs/deploy.md, Workers: WORKER_NICE is a nice value, 0 to 19."""
    env = {"DJANGO_SETTINGS_MODULE": "config.settings"}
    assert settings_of(env, "WORKER_NICE").stdout.strip() == "10"
    result = settings_of({**env, "WORKER_NICE": "25"}, "WORKER_NICE")
    assert "WORKER_NICE must be from 0 to 19, not 25" in result.stderr


def test_postgresql_connections_bind_parameters_on_the_server_and_plan_without_jit() -> None:
    """docs/deploy.md, PostgreSQL settings: prepared statements, no JIT, SSD page costs;
    options given in the URL are kept."""
    db = config.database("postgres://u@127.0.0.1:5432/x?sslmode=prefer")
    assert db["OPTIONS"]["server_side_binding"] is True
    assert db["OPTIONS"]["prepare_threshold"] == 5  # Django's default, None, prepares none
    assert db["OPTIONS"]["sslmode"] == "prefer"
    assert db["OPTIONS"]["options"] == "-c jit=off -c random_page_cost=1.1"
    assert "OPTIONS" not in config.database("sqlite:///x.db") or "options" not in (
        config.database("sqlite:///x.db")["OPTIONS"])


def test_a_negative_prepare_threshold_keeps_prepared_statements_off(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/deploy.md: behind a pooler in transaction mode, DATABASE_PREPARE_THRESHOLD=-1."""
    monkeypatch.setenv("DATABASE_PREPARE_THRESHOLD", "-1")
    assert config.database("postgres://u@h/x")["OPTIONS"]["prepare_threshold"] is None
    monkeypatch.setenv("DATABASE_PREPARE_THRESHOLD", "0")
    assert config.database("postgres://u@h/x")["OPTIONS"]["prepare_threshold"] == 0


def test_the_verification_queue_carries_only_verifications_and_the_sweep() -> None:
    """docs/deploy.md, "Lost messages": the sweep reads an empty verification queue as
    lost messages, so beat's other periodic tasks and everything that follows a verdict
    go to the review queue."""
    from django.conf import settings

    from config import celery_app

    celery_app.loader.import_default_modules()
    ours = sorted(name for name in celery_app.tasks if not name.startswith("celery."))
    default = settings.CELERY_TASK_DEFAULT_QUEUE
    on_default = [name for name in ours
                  if celery_app.amqp.router.route({}, name)["queue"].name == default]  # fmt: skip
    assert on_default == ["analysis.tasks.sweep_stuck_matches", "analysis.tasks.verify_match"]
    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        if entry["task"] != "analysis.tasks.sweep_stuck_matches":
            assert entry["task"] not in on_default
