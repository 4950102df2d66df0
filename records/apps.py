from django.apps import AppConfig


class RecordsConfig(AppConfig):
    """What was uploaded: clubs, their members and players, and the match documents."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "records"

    def ready(self) -> None:
        # the webhooks' tasks live in a feature folder, where autodiscovery does not look
        import records.webhooks.tasks  # noqa: F401
