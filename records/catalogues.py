"""The translation catalogues, compiled wherever the site is installed (issue 23, item 5).

Django reads ``.mo`` files; the repository keeps only the ``.po`` (the ``.mo`` is build
output). ``make install`` compiles them, but a deployment that installs the checkout with
``pip`` and runs ``migrate`` (deploy/, a container) never calls make: so ``migrate`` compiles
them too (a ``post_migrate`` receiver, records/apps.py), and ``manage.py check --deploy``
fails (``xuezhan.E001``) while a configured language has no compiled catalogue, or one older
than its ``.po`` — instead of English served to a 简体中文 browser without a word.
Compiled with polib, so GNU gettext is not needed.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

import polib
from django.conf import settings
from django.core import checks
from django.utils.translation import to_locale

log = logging.getLogger(__name__)


def catalogues() -> list[tuple[Path, Path]]:
    """Every ``.po`` under LOCALE_PATHS with the ``.mo`` it compiles to."""
    found = []
    for root in settings.LOCALE_PATHS:
        for po in sorted(Path(root).glob("*/LC_MESSAGES/*.po")):
            found.append((po, po.with_suffix(".mo")))
    return found


def _fresh(po: Path, mo: Path) -> bool:
    return mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime


def compile_catalogues(*, force: bool = False) -> list[Path]:
    """Compile each catalogue whose ``.mo`` is missing or older than its ``.po`` (all with
    ``force``), skipping fuzzy and untranslated entries as msgfmt does; returns the ``.po``
    files compiled. Each ``.mo`` is written aside and renamed: a reader never sees half.

    :raises OSError, ValueError: a catalogue that cannot be read or written.
    """
    done = []
    for po, mo in catalogues():
        if _fresh(po, mo) and not force:
            continue
        partial = mo.with_name(f".{mo.name}.{os.getpid()}")
        polib.pofile(str(po)).save_as_mofile(str(partial))
        os.replace(partial, mo)
        done.append(po)
    return done


def missing_languages() -> list[str]:
    """The configured languages (but the source language, English) without a compiled,
    up-to-date catalogue of the project's."""
    missing = []
    for code, _name in settings.LANGUAGES:
        if code.split("-")[0] == "en":
            continue  # the messages' own language: nothing to translate
        locale = to_locale(code)
        pairs = [(po, mo) for root in settings.LOCALE_PATHS
                 for po in [Path(root) / locale / "LC_MESSAGES" / "django.po"]
                 for mo in [po.with_suffix(".mo")]]
        if not any(po.exists() and _fresh(po, mo) for po, mo in pairs):
            missing.append(code)
    return missing


@checks.register(checks.Tags.translation, deploy=True)
def check_catalogues(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """``check --deploy``: every configured language has its compiled catalogue."""
    return [
        checks.Error(
            f"the {code} catalogue is not compiled (or is older than its .po): its pages "
            "would be served in English",
            hint="run `manage.py compilemessages` (the project's, with polib); `migrate` "
                 "compiles the catalogues too",
            id="xuezhan.E001",
        )
        for code in missing_languages()
    ]


def compile_after_migrate(sender: Any, **kwargs: Any) -> None:
    """``post_migrate``: compile the catalogues (once per migrate: the records app's)."""
    try:
        compiled = compile_catalogues()
    except (OSError, ValueError) as exc:  # a read-only checkout: check --deploy says so
        log.warning("translation catalogues not compiled: %s", exc)
        return
    if compiled and kwargs.get("verbosity", 1) > 0:
        log.info("compiled %d translation catalogue(s)", len(compiled))
