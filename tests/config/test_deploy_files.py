"""deploy/: the systemd units and the environment file agree with the code they run."""

from __future__ import annotations

import configparser
import re
import shlex
from pathlib import Path

import pytest

from tests.config.test_settings import PRODUCTION, ROOT

UNITS = sorted((ROOT / "deploy" / "systemd").glob("*.service"))


def unit(path: Path) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(path.read_text().replace("\\\n", " "))
    return parser


@pytest.mark.parametrize("path", UNITS, ids=[p.name for p in UNITS])
def test_each_unit_runs_a_program_of_the_venv_with_the_environment_file(path: Path) -> None:
    service = unit(path)["Service"]
    command = shlex.split(service["ExecStart"])
    assert command[0].startswith("/opt/xuezhan/.venv/bin/")
    assert Path(command[0]).name in {"gunicorn", "celery"}
    assert service["EnvironmentFile"] == "/etc/xuezhan/xuezhan.env"
    for argument in command:
        if argument.startswith("deploy/"):
            assert (ROOT / argument).is_file(), argument
    if "celery" in command[0]:
        assert command[1:3] == ["-A", "config"]


def test_the_environment_file_names_every_setting_production_requires() -> None:
    text = (ROOT / "deploy" / "xuezhan.env.example").read_text()
    names = set(re.findall(r"^([A-Z_]+?)(?:_FILE)?=", text, re.MULTILINE))
    assert set(PRODUCTION) <= names | {"DJANGO_SETTINGS_MODULE"}
    assert "DJANGO_SETTINGS_MODULE=config.production" in text


def test_there_is_one_beat_and_workers_are_templated() -> None:
    names = {p.name for p in UNITS}
    assert names == {"xuezhan-web.service", "xuezhan-worker@.service", "xuezhan-beat.service"}


def test_a_worker_weighs_less_than_the_web_for_the_cpu() -> None:
    """docs/deploy.md, Workers: uploads get the shared cores first."""
    units = {p.name: unit(p)["Service"] for p in UNITS}
    web = int(units["xuezhan-web.service"].get("CPUWeight", "100"))  # systemd's default
    assert int(units["xuezhan-worker@.service"]["CPUWeight"]) < web


def gunicorn_config(monkeypatch: pytest.MonkeyPatch, **env: str) -> dict[str, object]:
    import runpy

    for name in ("GUNICORN_WORKERS", "GUNICORN_WORKER_CLASS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(ROOT / "deploy" / "gunicorn.conf.py"))


def test_gunicorn_runs_sync_workers_two_per_core_and_one_by_default(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import multiprocessing

    config = gunicorn_config(monkeypatch)
    assert config["worker_class"] == "sync"
    assert config["workers"] == 2 * multiprocessing.cpu_count() + 1
    assert config["wsgi_app"] == "config.wsgi:application"


def test_the_gunicorn_workers_follow_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    config = gunicorn_config(monkeypatch, GUNICORN_WORKERS="3", GUNICORN_WORKER_CLASS="gthread")
    assert (config["workers"], config["worker_class"]) == (3, "gthread")
