"""WSGI entry point: ``gunicorn config.wsgi``."""

import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()


def warm_up() -> None:
    """Do what a web process's first requests would otherwise do, before it takes one
    (gunicorn's ``post_worker_init``, deploy/gunicorn.conf.py): import every view through
    the URLconf and compile the upload's document checks (``lean_checks``). Cold, a new
    process's first upload cost ~1.3 s of CPU instead of ~15 ms: after each start, and
    after each of gunicorn's periodic restarts (``max_requests``), somebody waited for
    it. Then freeze the collector's view of all that: it lives as long as the process,
    and a full collection would walk it again during requests. No connection is opened."""
    from django.urls import get_resolver

    from xuezhan.schema import lean_checks

    get_resolver().url_patterns  # noqa: B018  (the import of every urls and views module)
    lean_checks()
    gc.collect()
    gc.freeze()
