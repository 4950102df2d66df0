"""Fill the books' rows (BookMatch, BookDay) for the matches verified before they existed."""

from typing import Any

from django.db import migrations


def fill(apps: Any, schema_editor: Any) -> None:
    # the live module: its rows are exactly what a verification writes from now on (a
    # later migration that changes these tables runs after this one, on what it made)
    from analysis import books

    Club = apps.get_model("records", "Club")
    for club_id in Club.objects.order_by("pk").values_list("pk", flat=True):
        books.rebuild_club(club_id)


class Migration(migrations.Migration):
    dependencies = [("analysis", "0012_books")]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop, elidable=True)]
