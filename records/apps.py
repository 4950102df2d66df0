from django.apps import AppConfig


class RecordsConfig(AppConfig):
    """What was uploaded: clubs, their members and players, and the match documents."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "records"
