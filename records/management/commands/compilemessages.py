"""``manage.py compilemessages`` without GNU gettext: the project's .po files to .mo with polib.

Django's own command needs ``msgfmt``, which a machine with only Python does not have;
`make install` runs this one instead (the README's two commands install nothing else).
It compiles the catalogues under LOCALE_PATHS, skipping fuzzy and untranslated entries
as msgfmt does, and only when a .po is newer than its .mo.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from records.catalogues import compile_catalogues


class Command(BaseCommand):
    help = "Compile the project's translation catalogues (.po -> .mo) with polib."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--force", action="store_true", help="compile even when up to date")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            compiled = compile_catalogues(force=options["force"])
        except (OSError, ValueError) as exc:
            raise CommandError(str(exc)) from None
        if options["verbosity"] > 1:
            for po in compiled:
                self.stdout.write(f"compiled {po}")
        if options["verbosity"] > 0:
            self.stdout.write(f"{len(compiled)} catalogue(s) compiled")
