"""WSGI entry point: ``gunicorn xuezhan.config.wsgi``."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "xuezhan.config.settings")

application = get_wsgi_application()
