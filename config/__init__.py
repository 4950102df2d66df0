"""The Django project of the xuezhan service: settings, URLs, the Celery app, WSGI/ASGI.

It sits beside the engine (``xuezhan/``), which never imports it, so that installing the
engine brings no web stack.

Importing this package loads the Celery app so that ``@shared_task`` binds to it
(the Celery "first steps with Django" layout).
"""

from .celery import app as celery_app

__all__ = ("celery_app",)
