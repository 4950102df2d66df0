"""The engine is a library: importing it must not pull in Django, DRF or Celery."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import xuezhan

FORBIDDEN = ("django", "rest_framework", "celery", "records", "analysis", "config")


def engine_modules() -> list[str]:
    return sorted(  # sub-packages too (xuezhan.sim)
        m.name for m in pkgutil.walk_packages(xuezhan.__path__, "xuezhan.")
        if m.name != "xuezhan.__main__"
    )


def test_importing_every_engine_module_imports_no_django_drf_or_celery() -> None:
    code = (
        "import sys\n"
        f"for name in {engine_modules()!r}: __import__(name)\n"
        f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r})\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == ""


def test_the_engine_modules_include_the_core() -> None:
    names = set(engine_modules())
    assert {"xuezhan.tiles", "xuezhan.rules", "xuezhan.table", "xuezhan.replay",
            "xuezhan.settlement", "xuezhan.schema", "xuezhan.sim.simulate",
            "xuezhan.sim.bots", "xuezhan.sim.corrupt"} <= names
