"""Settings of the xuezhan service: one module, every knob an environment variable.

Each variable has a safe default that works on a laptop (SQLite, tasks run eagerly,
DEBUG off); README.md lists them all. Bad values raise ImproperlyConfigured at start-up.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent.parent
# Local state (the default SQLite file, a generated secret key); .gitignore'd.
VAR_DIR = Path(os.environ.get("XUEZHAN_VAR_DIR", str(BASE_DIR / "var")))


def envbool(name: str, default: str) -> bool:
    value = os.environ.get(name, default)
    if value in ("True", "true", "1", "yes"):
        return True
    if value in ("False", "false", "0", "no", ""):
        return False
    raise ImproperlyConfigured(f"{name} must be True or False, not {value!r}")


def envint(name: str, default: int) -> int:
    value = os.environ.get(name, "")
    if value == "":
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, not {value!r}") from None


def envlist(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def _secret_key() -> str:
    """SECRET_KEY from the environment, else a random key kept in var/secret_key.

    Never a well-known default: an unset key on a server still gets a private one.
    """
    key = os.environ.get("SECRET_KEY", "")
    if key:
        return key
    path = VAR_DIR / "secret_key"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        VAR_DIR.mkdir(parents=True, exist_ok=True)
        key = secrets.token_urlsafe(50)
        path.write_text(key)
        path.chmod(0o600)
        return key


DEBUG = envbool("DEBUG", "False")
SECRET_KEY = _secret_key()
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", "")

# Behind a TLS-terminating proxy in production: HTTPS_ONLY=True turns on every
# transport-security setting that `manage.py check --deploy` asks for.
HTTPS_ONLY = envbool("HTTPS_ONLY", "False")
SECURE_SSL_REDIRECT = HTTPS_ONLY
SESSION_COOKIE_SECURE = HTTPS_ONLY
CSRF_COOKIE_SECURE = HTTPS_ONLY
SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", 31536000 if HTTPS_ONLY else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS_ONLY
SECURE_HSTS_PRELOAD = HTTPS_ONLY
if HTTPS_ONLY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "records",
    "analysis",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "records.middleware.UploadLimitMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "xuezhan.config.urls"
WSGI_APPLICATION = "xuezhan.config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# Database: DATABASE_URL (postgres://… through psycopg 3 in production), else a SQLite file.
DATABASE_URL = os.environ.get("DATABASE_URL", "")
if not DATABASE_URL:
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    DATABASE_URL = f"sqlite:///{VAR_DIR / 'db.sqlite3'}"
DATABASES = {
    "default": dj_database_url.parse(
        DATABASE_URL,
        conn_max_age=envint("DATABASE_CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # BEGIN IMMEDIATE: writers queue on the lock instead of failing with "database is locked".
    DATABASES["default"]["OPTIONS"] = {"transaction_mode": "IMMEDIATE", "timeout": 20}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "pages:club-list"
LOGOUT_REDIRECT_URL = "login"

# Pages in 简体中文 or English, from the browser's Accept-Language or the switch on every
# page; the catalogue is locale/zh_Hans/LC_MESSAGES/django.po, compiled at install.
LANGUAGE_CODE = "en"
LANGUAGES = [("zh-hans", "简体中文"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", str(VAR_DIR / "static")))
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # WhiteNoise warns about a missing one
# Serve app static files (admin CSS) straight from the finders: no collectstatic step
# is needed for `make run`; production may still run collectstatic.
WHITENOISE_USE_FINDERS = True

# Upload limits. A 16-round match log is ≲ 250 KB, so 1 MiB is generous.
UPLOAD_MAX_BYTES = envint("UPLOAD_MAX_BYTES", 1024 * 1024)
UPLOAD_MAX_DEPTH = envint("UPLOAD_MAX_DEPTH", 32)
DATA_UPLOAD_MAX_MEMORY_SIZE = UPLOAD_MAX_BYTES
FILE_UPLOAD_MAX_MEMORY_SIZE = UPLOAD_MAX_BYTES
# Uploads per user (DRF rate syntax, e.g. "600/hour"; "" turns the limit off). Not a
# defence against a flood (that is the proxy's job), but it stops a runaway app: 429.
UPLOAD_RATE_LIMIT = os.environ.get("UPLOAD_RATE_LIMIT", "600/hour")

# The cache holds the upload counts. Per process by default; with several web processes
# give them a shared one, e.g. CACHE_URL=redis://127.0.0.1:6379/1.
CACHE_URL = os.environ.get("CACHE_URL", "")
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": CACHE_URL}
    if CACHE_URL else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
}

# Verification: a match stuck in queued/verifying longer than this is re-queued by the sweeper,
# and given up on (status failed) after VERIFY_MAX_ATTEMPTS claims.
VERIFY_STUCK_AFTER_SECONDS = envint("VERIFY_STUCK_AFTER_SECONDS", 600)
VERIFY_MAX_ATTEMPTS = envint("VERIFY_MAX_ATTEMPTS", 5)

REST_FRAMEWORK = {
    # Token first, so that anonymous API calls get 401 with WWW-Authenticate.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PARSER_CLASSES": [
        "records.parsers.StrictJSONParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "DEFAULT_PAGINATION_CLASS": "records.pagination.Pagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "records.errors.exception_handler",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "xuezhan API",
    "DESCRIPTION": "Honest records of Sichuan 血战到底 mahjong games: upload, verify, settle.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # The docs page's Swagger UI is served from this site (drf-spectacular-sidecar), no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
}

# Celery. CELERY_BROKER_URL unset: tasks run eagerly in the web process (no broker needed).
# Set (redis://… or amqp://…): tasks go to real workers, `celery -A xuezhan.config worker`.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
if not CELERY_BROKER_URL:
    CELERY_BROKER_URL = "memory://localhost/"
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_QUEUE", "xuezhan")
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = 300
CELERY_TASK_SOFT_TIME_LIMIT = 240
CELERY_TASK_IGNORE_RESULT = True  # the state lives in the database, not a result backend
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
_visibility_timeout = envint("CELERY_VISIBILITY_TIMEOUT", 900)  # > task time limit + retry delays
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": _visibility_timeout,
    "unacked_restore_interval": min(10, _visibility_timeout),
    "unacked_restore_throttle": 1,
}
CELERY_BEAT_SCHEDULE = {
    "sweep-stuck-matches": {
        "task": "analysis.tasks.sweep_stuck_matches",
        "schedule": max(60, VERIFY_STUCK_AFTER_SECONDS // 2),
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
