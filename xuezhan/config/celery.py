"""The Celery app, wired as the Celery docs show (settings under the ``CELERY_`` namespace)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "xuezhan.config.settings")

app = Celery("xuezhan")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
