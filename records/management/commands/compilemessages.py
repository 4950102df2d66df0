"""``manage.py compilemessages`` without GNU gettext: the project's .po files to .mo with polib.

Django's own command needs ``msgfmt``, which a machine with only Python does not have;
`make install` runs this one instead (the README's two commands install nothing else).
It compiles the catalogues under LOCALE_PATHS, skipping fuzzy and untranslated entries
as msgfmt does, and only when a .po is newer than its .mo.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import polib
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Compile the project's translation catalogues (.po -> .mo) with polib."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--force", action="store_true", help="compile even when up to date")

    def handle(self, *args: Any, **options: Any) -> None:
        count = 0
        for root in settings.LOCALE_PATHS:
            for po_path in sorted(Path(root).glob("*/LC_MESSAGES/*.po")):
                mo_path = po_path.with_suffix(".mo")
                fresh = mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime
                if fresh and not options["force"]:
                    continue
                # written aside and renamed: a test worker never reads a half-written file
                partial = mo_path.with_name(f".{mo_path.name}.{os.getpid()}")
                try:
                    polib.pofile(str(po_path)).save_as_mofile(str(partial))
                    os.replace(partial, mo_path)
                except (OSError, ValueError) as exc:
                    raise CommandError(f"{po_path}: {exc}") from None
                count += 1
                if options["verbosity"] > 1:
                    self.stdout.write(f"compiled {po_path}")
        if options["verbosity"] > 0:
            self.stdout.write(f"{count} catalogue(s) compiled")
