"""Django and Celery wiring of the xuezhan service: the only Django code under ``xuezhan/``.

Importing this package loads the Celery app so that ``@shared_task`` binds to it
(the Celery "first steps with Django" layout).
"""

from .celery import app as celery_app

__all__ = ("celery_app",)
