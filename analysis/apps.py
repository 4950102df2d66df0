from django.apps import AppConfig


class AnalysisConfig(AppConfig):
    """What we computed from the records: verifications, settlements, per-seat facts."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "analysis"

    def ready(self) -> None:
        from analysis.tasks import queue_verification
        from records.signals import match_needs_verifying

        match_needs_verifying.connect(queue_verification, dispatch_uid="analysis.verify")
