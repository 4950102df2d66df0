"""`pip install .` of the checkout is the engine alone: no web stack comes with it.

The service (config/, records/, analysis/) takes the `service` extra and runs from the
checkout; the engine and its `xuezhan` command work in a venv that has nothing else.
"""

from __future__ import annotations

import shutil
import subprocess
import tomllib
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
WEB_STACK = ("django", "djangorestframework", "celery", "psycopg", "gunicorn", "redis")
WEB_MODULES = ("django", "rest_framework", "celery", "psycopg", "gunicorn", "redis")


def names(requirements: list[str]) -> set[str]:
    return {r.split("[")[0].split("=")[0].split(">")[0].strip().lower() for r in requirements}


def test_the_engine_depends_on_no_part_of_the_web_stack() -> None:
    assert not names(PYPROJECT["project"]["dependencies"]) & set(WEB_STACK)
    assert {"django", "celery"} <= names(PYPROJECT["project"]["optional-dependencies"]["service"])


def test_the_wheel_holds_the_engine_package_only() -> None:
    include = PYPROJECT["tool"]["setuptools"]["packages"]["find"]["include"]
    assert all(pattern.startswith("xuezhan") for pattern in include)


def test_a_plain_install_verifies_a_log_without_django(tmp_path: Path) -> None:
    source = tmp_path / "src"  # a copy, so that the build leaves nothing in the checkout
    source.mkdir()
    shutil.copy(ROOT / "pyproject.toml", source)
    shutil.copy(ROOT / "README.md", source)
    shutil.copytree(ROOT / "xuezhan", source / "xuezhan",
                    ignore=shutil.ignore_patterns("__pycache__"))
    env_dir = tmp_path / "v"
    venv.create(env_dir, with_pip=True)
    bin_dir = env_dir / "bin"
    install = subprocess.run(
        [str(bin_dir / "python"), "-m", "pip", "install", "--quiet", str(source)],
        capture_output=True, text=True, timeout=600,
    )
    assert install.returncode == 0, install.stderr[-2000:]
    sample = ROOT / "tests" / "data" / "rob_kong_chengdu.json"
    verify = subprocess.run([str(bin_dir / "xuezhan"), "verify", str(sample)],
                            capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert verify.returncode == 0, verify.stderr
    assert '"legal": true' in verify.stdout
    probe = ("import importlib.util as u; "
             f"print([m for m in {WEB_MODULES!r} if u.find_spec(m)])")
    found = subprocess.run([str(bin_dir / "python"), "-c", probe], capture_output=True,
                           text=True, cwd=tmp_path, check=True)
    assert found.stdout.strip() == "[]"
