"""Chinese on every install path: migrate compiles the catalogues, and check --deploy fails
while a configured language has no compiled one (issue 23, item 5)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def checkout(tmp_path: Path, settings: Any) -> Path:
    """The catalogue as a fresh checkout has it: the .po alone."""
    locale = tmp_path / "locale"
    shutil.copytree(ROOT / "locale", locale, ignore=shutil.ignore_patterns("*.mo"))
    settings.LOCALE_PATHS = [locale]
    return locale / "zh_Hans" / "LC_MESSAGES"


def deploy_errors() -> list[str]:
    from records.catalogues import check_catalogues

    return [message.id for message in check_catalogues()]


def test_check_deploy_fails_while_a_language_has_no_compiled_catalogue(checkout: Path) -> None:
    assert deploy_errors() == ["xuezhan.E001"]
    with pytest.raises(SystemCheckError, match=r"xuezhan\.E001"):
        call_command("check", "--deploy", "--fail-level", "ERROR", verbosity=0)
    call_command("compilemessages", verbosity=0)
    assert (checkout / "django.mo").exists() and deploy_errors() == []


def test_a_catalogue_older_than_its_po_counts_as_not_compiled(checkout: Path) -> None:
    import os

    call_command("compilemessages", verbosity=0)
    po, mo = checkout / "django.po", checkout / "django.mo"
    os.utime(mo, (po.stat().st_mtime - 10, po.stat().st_mtime - 10))
    assert deploy_errors() == ["xuezhan.E001"]


@pytest.mark.django_db
def test_migrate_compiles_the_catalogues(checkout: Path) -> None:
    """A deployment that installs the checkout with pip and runs migrate (deploy/, a
    container) never runs make: migrate compiles the catalogues."""
    assert not (checkout / "django.mo").exists()
    call_command("migrate", verbosity=0)
    assert (checkout / "django.mo").exists() and deploy_errors() == []
