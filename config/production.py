"""Production settings: settings.py with every secret required and HTTPS on by default.

``DJANGO_SETTINGS_MODULE=config.production`` (gunicorn, the workers, beat and
`manage.py` on a server; docs/deploy.md). Each secret comes from the environment or from a
file named by ``NAME_FILE``; a missing one stops the process at start-up with its name.
"""
# ruff: noqa: F403  (a settings module extends another by star import)

from __future__ import annotations

import os
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from config.settings import *
from config.settings import (
    VAR_DIR,
    database,
    envbool,
    envlist,
    envsecret,
    transport_security,
)


def required(name: str) -> str:
    value = envsecret(name)
    if not value:
        raise ImproperlyConfigured(
            f"{name} is not set. Production settings take it from the environment: "
            f"set {name}, or {name}_FILE to the path of a file that holds it."
        )
    return value


DEBUG = False
SECRET_KEY = required("SECRET_KEY")
DATABASES = {"default": database(required("DATABASE_URL"))}
# Tasks go to real workers; the throttles' counts live in a cache every process shares.
CELERY_BROKER_URL = required("CELERY_BROKER_URL")
CELERY_TASK_ALWAYS_EAGER = False
CACHE_URL = required("CACHE_URL")
CACHES = {
    "default": {"BACKEND": "config.cache.KeptClientRedisCache", "LOCATION": CACHE_URL}
}
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "")
if not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS is not set: the host names this site answers to.")

HTTPS_ONLY = envbool("HTTPS_ONLY", "True")
globals().update(transport_security(HTTPS_ONLY))

# Static files collected (`manage.py collectstatic`) and served by WhiteNoise with hashed
# names and compression; not looked up in the apps on each request.
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", "") or VAR_DIR / "static")
WHITENOISE_USE_FINDERS = False
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
