from django.apps import AppConfig


class AnalysisConfig(AppConfig):
    """What we computed from the records: verifications, settlements, per-seat facts."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "analysis"
