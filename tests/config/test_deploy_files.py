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
        assert command[1:3] == ["-A", "xuezhan.config"]


def test_the_environment_file_names_every_setting_production_requires() -> None:
    text = (ROOT / "deploy" / "xuezhan.env.example").read_text()
    names = set(re.findall(r"^([A-Z_]+?)(?:_FILE)?=", text, re.MULTILINE))
    assert set(PRODUCTION) <= names | {"DJANGO_SETTINGS_MODULE"}
    assert "DJANGO_SETTINGS_MODULE=xuezhan.config.production" in text


def test_there_is_one_beat_and_workers_are_templated() -> None:
    names = {p.name for p in UNITS}
    assert names == {"xuezhan-web.service", "xuezhan-worker@.service", "xuezhan-beat.service"}
