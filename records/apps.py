from django.apps import AppConfig


class RecordsConfig(AppConfig):
    """What was uploaded: clubs, their members and players, and the match documents."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "records"

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        # registers the deploy check of the compiled catalogues (xuezhan.E001)
        from records import catalogues

        # every install path runs migrate: the catalogues are compiled there too
        post_migrate.connect(catalogues.compile_after_migrate, sender=self,
                             dispatch_uid="records.catalogues")

        # the webhooks' tasks live in a feature folder, where autodiscovery does not look
        import records.webhooks.tasks  # noqa: F401
