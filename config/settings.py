"""Settings of the xuezhan service: one module, every knob an environment variable.

Each variable has a safe default that works on a laptop (SQLite, tasks run eagerly,
DEBUG off); README.md lists them all. Bad values raise ImproperlyConfigured at start-up.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
# Local state of a laptop (the default SQLite file); .gitignore'd.
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


def envsecret(name: str) -> str:
    """A secret from ``NAME``, or else from the file that ``NAME_FILE`` names ("" if neither).

    The file form suits container and systemd secrets (a path, not a value in the
    environment). A named file that cannot be read is an error, never an empty secret.
    """
    value = os.environ.get(name, "")
    if value:
        return value
    path = os.environ.get(f"{name}_FILE", "")
    if not path:
        return ""
    try:
        value = Path(path).read_text().strip()
    except OSError as exc:
        raise ImproperlyConfigured(f"{name}_FILE={path}: cannot read it ({exc.strerror})") from None
    if not value:
        raise ImproperlyConfigured(f"{name}_FILE={path}: the file is empty")
    return value


def transport_security(https_only: bool) -> dict[str, Any]:
    """Behind a TLS-terminating proxy: every transport-security setting that
    `manage.py check --deploy` asks for, on or off together."""
    return {
        "SECURE_SSL_REDIRECT": https_only,
        "SESSION_COOKIE_SECURE": https_only,
        "CSRF_COOKIE_SECURE": https_only,
        "SECURE_HSTS_SECONDS": envint("SECURE_HSTS_SECONDS", 31536000 if https_only else 0),
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": https_only,
        "SECURE_HSTS_PRELOAD": https_only,
        "SECURE_PROXY_SSL_HEADER": ("HTTP_X_FORWARDED_PROTO", "https") if https_only else None,
    }


def database(url: str) -> dict[str, Any]:
    config: dict[str, Any] = dict(
        dj_database_url.parse(
            url, conn_max_age=envint("DATABASE_CONN_MAX_AGE", 60), conn_health_checks=True
        )
    )
    if config["ENGINE"] == "django.db.backends.sqlite3":
        # BEGIN IMMEDIATE: writers queue on the lock instead of failing with "database is locked".
        config["OPTIONS"] = {"transaction_mode": "IMMEDIATE", "timeout": 20}
    elif config["ENGINE"] == "django.db.backends.postgresql":
        # Parameters sent apart from the statement (not quoted into it), so that psycopg
        # prepares a statement a connection repeats (its 5th time on): an upload and a
        # verification run the same dozen statements each time.
        options = config.setdefault("OPTIONS", {})
        options.setdefault(
            "server_side_binding", envbool("DATABASE_SERVER_SIDE_BINDING", "True")
        )
        # Django turns psycopg's prepared statements off unless asked (for poolers such as
        # PgBouncer in transaction mode, where a connection's prepared statements may be on
        # another server connection): a negative value keeps them off.
        threshold = envint("DATABASE_PREPARE_THRESHOLD", 5)
        options.setdefault("prepare_threshold", threshold if threshold >= 0 else None)
        # No JIT: a statement the planner misjudges as large (a verification's day-row
        # statement once the tables have grown) was compiled by LLVM at every run, ~1.2 s
        # for a statement that runs in milliseconds. Random reads priced as on SSD or a
        # cached database: at the default 4 the planner scanned every payment line of the
        # club for a match's few (docs/deploy.md, "PostgreSQL settings").
        options["options"] = " ".join(
            filter(None, (options.get("options"), "-c jit=off -c random_page_cost=1.1"))
        )
    return config


DEBUG = envbool("DEBUG", "False")
# Unset here (a laptop, the tests): a random key for this process, never a well-known one,
# never written anywhere. Sessions then last as long as the process; production settings
# (config/production.py) require SECRET_KEY or SECRET_KEY_FILE.
SECRET_KEY = envsecret("SECRET_KEY") or secrets.token_urlsafe(50)
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", "")

HTTPS_ONLY = envbool("HTTPS_ONLY", "False")
globals().update(transport_security(HTTPS_ONLY))  # SECURE_SSL_REDIRECT, SECURE_HSTS_SECONDS, …
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
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "simple_history",  # corrections keep the history of every change (analysis.league.corrections)
    "records",
    "analysis",
]
# a correction's reason is kept whole in its history rows (the default column holds 100
# characters, and a longer reason failed the correction)
SIMPLE_HISTORY_HISTORY_CHANGE_REASON_USE_TEXT_FIELD = True

MIDDLEWARE = [
    "records.middleware.RequestIdMiddleware",
    # a dependency that is away (cache, broker, database) is a 503 naming it, never a 500
    "records.middleware.DependencyMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "records.middleware.UploadLimitMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "records.timezones.TimeZoneMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
]

# Content-Security-Policy (django-csp) on every answer: scripts, styles, images, fonts and
# requests from this site only; no inline script or style (pages embed their data with
# json_script, a data block the browser never runs; the API docs' Swagger UI is served
# from this site too); no plugin; never framed; forms post only here
# (docs/deploy.md, "Content-Security-Policy"). CSP_REPORT_URI: where browsers report
# violations (none by default).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
        **({"report-uri": [os.environ["CSP_REPORT_URI"]]}
           if os.environ.get("CSP_REPORT_URI") else {}),
    },
}

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

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

# Database: DATABASE_URL (postgres://… through psycopg 3 in production), else a SQLite file
# in var/ (`make run` creates the folder; importing the settings writes nothing).
DATABASES = {
    "default": database(envsecret("DATABASE_URL") or f"sqlite:///{VAR_DIR / 'db.sqlite3'}")
}
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
# Serve app static files (admin CSS) straight from the finders: no collectstatic step is
# needed for `make run`. Production collects them into STATIC_ROOT (production.py).
_static_root = os.environ.get("STATIC_ROOT", "")
STATIC_ROOT: Path | None = Path(_static_root) if _static_root else None
WHITENOISE_USE_FINDERS = True

# Upload limits. A 16-round match log is ≲ 250 KB, so 1 MiB is generous.
UPLOAD_MAX_BYTES = envint("UPLOAD_MAX_BYTES", 1024 * 1024)
UPLOAD_MAX_DEPTH = envint("UPLOAD_MAX_DEPTH", 32)
DATA_UPLOAD_MAX_MEMORY_SIZE = UPLOAD_MAX_BYTES
FILE_UPLOAD_MAX_MEMORY_SIZE = UPLOAD_MAX_BYTES
# Uploads per user (DRF rate syntax, e.g. "600/hour"; "" turns the limit off). Not a
# defence against a flood (that is the proxy's job), but it stops a runaway app: 429.
UPLOAD_RATE_LIMIT = os.environ.get("UPLOAD_RATE_LIMIT", "600/hour")
# When the cache that counts uploads is away: True lets uploads through uncounted (a log
# line and xuezhan_upload_throttle_unavailable_total say so), False refuses them with 503.
# Open by default: an outage of seconds should not cost a club its uploads, and the proxy
# still limits floods (docs/deploy.md, "When a dependency fails").
UPLOAD_THROTTLE_FAIL_OPEN = envbool("UPLOAD_THROTTLE_FAIL_OPEN", "True")
# How long a call to Redis (the cache, the upload throttle) may wait to connect or for an
# answer: a Redis that does not answer then costs a request about this, not minutes.
REDIS_TIMEOUT_SECONDS = float(envint("REDIS_TIMEOUT_SECONDS", 1))

# The cache holds the upload counts. Per process by default; with several web processes
# give them a shared one, e.g. CACHE_URL=redis://127.0.0.1:6379/1.
CACHE_URL = envsecret("CACHE_URL")
CACHES = {
    "default": {
        "BACKEND": "config.cache.KeptClientRedisCache",
        "LOCATION": CACHE_URL,
        "OPTIONS": {
            "socket_connect_timeout": REDIS_TIMEOUT_SECONDS,
            "socket_timeout": REDIS_TIMEOUT_SECONDS,
        },
    }
    if CACHE_URL else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
}

# Verification and recovery (analysis/leases.py, docs/deploy.md). A task is killed after
# VERIFY_TIME_LIMIT_SECONDS; its lease on the match lasts longer (VERIFY_LEASE_SECONDS), so
# a live task never loses its match; the sweep runs every VERIFY_SWEEP_INTERVAL_SECONDS and
# re-queues matches whose lease ran out, or queued for VERIFY_STUCK_AFTER_SECONDS (a lost
# message). A match left by a dead worker is verified again within lease + interval + the
# verification itself: about 1.5 minutes with the defaults. VERIFY_MAX_ATTEMPTS claims,
# then the match is given up on (status failed).
VERIFY_TIME_LIMIT_SECONDS = envint("VERIFY_TIME_LIMIT_SECONDS", 60)
VERIFY_LEASE_SECONDS = envint("VERIFY_LEASE_SECONDS", 75)
VERIFY_SWEEP_INTERVAL_SECONDS = envint("VERIFY_SWEEP_INTERVAL_SECONDS", 15)
VERIFY_STUCK_AFTER_SECONDS = envint("VERIFY_STUCK_AFTER_SECONDS", 300)
# A queued match whose message is not in the broker at all (the verification queue is
# empty: Redis restarted empty, or was away when the match was stored) is re-queued after
# VERIFY_LOST_AFTER_SECONDS instead: all verified within about a minute of Redis's return.
VERIFY_LOST_AFTER_SECONDS = envint("VERIFY_LOST_AFTER_SECONDS", 20)
VERIFY_MAX_ATTEMPTS = envint("VERIFY_MAX_ATTEMPTS", 5)
# A verification task takes up to VERIFY_BATCH_SIZE - 1 more queued matches with its own and
# writes them all in one transaction (their own messages then find them taken): under load
# each match costs a fraction of the statements. 1 verifies each match alone.
VERIFY_BATCH_SIZE = max(1, envint("VERIFY_BATCH_SIZE", 8))
if VERIFY_LEASE_SECONDS <= VERIFY_TIME_LIMIT_SECONDS:
    raise ImproperlyConfigured(
        "VERIFY_LEASE_SECONDS must exceed VERIFY_TIME_LIMIT_SECONDS: a lease must outlive "
        "the task that holds it, or two workers could verify one match at once."
    )

# Accounts. API tokens expire after TOKEN_TTL_SECONDS (30 days); invitations to a club after
# INVITATION_TTL_SECONDS (7 days). Sign-in limits: the block below.
TOKEN_TTL_SECONDS = envint("TOKEN_TTL_SECONDS", 30 * 24 * 3600)
INVITATION_TTL_SECONDS = envint("INVITATION_TTL_SECONDS", 7 * 24 * 3600)

# --- sign-in and sign-up limits (harden-auth, issue 27; docs/deploy.md "Sign-in limits") ---
# Every sign-in path authenticates through records.signin.ThrottledModelBackend, which
# counts attempts on the name as Django authenticates it (NFKC, case-folded). Rates in DRF
# syntax ("" turns a limit off), fixed windows, answered with 429 and Retry-After:
# failures on one name from one address; failures on one name from anywhere, which refuse
# only addresses that have not signed in to that name in SIGNIN_KNOWN_ADDRESS_DAYS; every
# attempt from one address; every sign-up attempt from one address.
# Django's ModelBackend stays second so that sessions begun before keep working.
AUTHENTICATION_BACKENDS = [
    "records.signin.ThrottledModelBackend",
    "django.contrib.auth.backends.ModelBackend",
]
SIGNIN_RATE_PER_ADDRESS_AND_USERNAME = os.environ.get(
    "SIGNIN_RATE_PER_ADDRESS_AND_USERNAME", "10/hour")
SIGNIN_RATE_PER_USERNAME = os.environ.get("SIGNIN_RATE_PER_USERNAME", "30/hour")
SIGNIN_RATE_PER_ADDRESS = os.environ.get("SIGNIN_RATE_PER_ADDRESS", "60/hour")
SIGNIN_KNOWN_ADDRESS_DAYS = envint("SIGNIN_KNOWN_ADDRESS_DAYS", 90)
SIGNUP_RATE_PER_ADDRESS = os.environ.get("SIGNUP_RATE_PER_ADDRESS", "10/hour")
# --- end of sign-in and sign-up limits ---

# Webhooks (records/webhooks, docs/apps.md). Deliveries go only to public addresses unless
# WEBHOOK_ALLOW_PRIVATE_ADDRESSES (development, tests); cloud metadata addresses never.
# Each attempt waits WEBHOOK_CONNECT_TIMEOUT_SECONDS to connect and WEBHOOK_TIMEOUT_SECONDS
# for the answer; a failed delivery is tried again after each wait of WEBHOOK_RETRY_SCHEDULE
# (seconds, ±20 %: about 28 hours in all), a 408/429/503's Retry-After honoured up to
# WEBHOOK_MAX_RETRY_AFTER; an endpoint failing without a success for
# WEBHOOK_DISABLE_AFTER_SECONDS is disabled. Deliveries are kept WEBHOOK_KEEP_DAYS.
WEBHOOK_ALLOW_PRIVATE_ADDRESSES = envbool("WEBHOOK_ALLOW_PRIVATE_ADDRESSES", "False")
WEBHOOK_CONNECT_TIMEOUT_SECONDS = envint("WEBHOOK_CONNECT_TIMEOUT_SECONDS", 3)
WEBHOOK_TIMEOUT_SECONDS = envint("WEBHOOK_TIMEOUT_SECONDS", 5)
WEBHOOK_RETRY_SCHEDULE = [
    int(s) for s in envlist("WEBHOOK_RETRY_SCHEDULE", "5,300,1800,7200,18000,36000,36000")
]
WEBHOOK_MAX_RETRY_AFTER = envint("WEBHOOK_MAX_RETRY_AFTER", 3600)
WEBHOOK_DISABLE_AFTER_SECONDS = envint("WEBHOOK_DISABLE_AFTER_SECONDS", 24 * 3600)
WEBHOOK_LEASE_SECONDS = envint("WEBHOOK_LEASE_SECONDS", 60)
WEBHOOK_SWEEP_INTERVAL_SECONDS = envint("WEBHOOK_SWEEP_INTERVAL_SECONDS", 15)
WEBHOOK_KEEP_DAYS = envint("WEBHOOK_KEEP_DAYS", 30)
WEBHOOKS_PER_CLUB = envint("WEBHOOKS_PER_CLUB", 10)
# Links in webhook events: this origin before the paths (e.g. https://xuezhan.example);
# empty, the links are paths
PUBLIC_URL = os.environ.get("PUBLIC_URL", "").rstrip("/")

# Bulk upload (records/bulk): at most BULK_MAX_LINES documents and BULK_MAX_BYTES bytes
# a request, each line at most UPLOAD_MAX_BYTES. Idempotency keys are kept
# IDEMPOTENCY_TTL_SECONDS (24 h).
BULK_MAX_LINES = envint("BULK_MAX_LINES", 200)
BULK_MAX_BYTES = envint("BULK_MAX_BYTES", 32 * 1024 * 1024)
IDEMPOTENCY_TTL_SECONDS = envint("IDEMPOTENCY_TTL_SECONDS", 24 * 3600)

REST_FRAMEWORK = {
    # Token first, so that anonymous API calls get 401 with WWW-Authenticate.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "records.authentication.AccessTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PARSER_CLASSES": [
        "records.parsers.StrictJSONParser",
        "records.parsers.StrictMultiPartParser",
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
    "DEFAULT_METADATA_CLASS": "records.metadata.DescribeOnly",
    # Proxies in front of the site whose X-Forwarded-For to trust (0: use REMOTE_ADDR).
    "NUM_PROXIES": envint("NUM_PROXIES", 0),
}

SPECTACULAR_SETTINGS = {
    "TITLE": "xuezhan API",
    # the interactive docs link back to the site; docs/apps.md walks an app through it all
    "DESCRIPTION": "Honest records of Sichuan 血战到底 mahjong games: upload, verify, settle. "
    "[Back to the site](/). For app developers: a token, a bulk upload with an "
    "Idempotency-Key, webhooks (Standard Webhooks), the ndjson export and every table as "
    "?format=json|csv|ndjson — docs/apps.md in the repository walks through them with curl.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # The docs page's Swagger UI is served from this site (drf-spectacular-sidecar), no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    # records/converters.py: ids are at most 18 digits
    "PATH_CONVERTER_OVERRIDES": {
        "id": {"type": "integer", "minimum": 0, "maximum": 999_999_999_999_999_999}
    },
    "ENUM_NAME_OVERRIDES": {
        "MatchStatusEnum": "records.models.Match.Status",
        "InvitationStatusEnum": "records.models.Invitation.Status",
        "WebhookDeliveryStatusEnum": "records.models.WebhookDelivery.Status",
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "records.schema.document_errors",  # every error status, with the problem shape
    ],
}

# Celery. CELERY_BROKER_URL unset: tasks run eagerly in the web process (no broker needed).
# Set (redis://… or amqp://…): tasks go to real workers, `celery -A config worker`.
CELERY_BROKER_URL = envsecret("CELERY_BROKER_URL")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
if not CELERY_BROKER_URL:
    CELERY_BROKER_URL = "memory://localhost/"
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_QUEUE", "xuezhan")
# Work that follows a verdict (the decision review, about 20 times a verification's cost,
# the club's ratings and nights, the event pushes) waits in its own queue. A worker consumes
# both, verifications first (queue_order_strategy below); `-Q review` makes a worker of
# those only. The verification queue carries nothing else but the sweep, which reads an
# empty queue as "the queued matches' messages are lost": a webhook sweep sent beside it by
# beat kept it from ever seeing the queue empty (tests/analysis/test_faults.py).
CELERY_REVIEW_QUEUE = os.environ.get("CELERY_REVIEW_QUEUE", "review")
CELERY_TASK_QUEUES = {  # in this order: a worker of both polls verifications first
    CELERY_TASK_DEFAULT_QUEUE: {"routing_key": CELERY_TASK_DEFAULT_QUEUE},
    CELERY_REVIEW_QUEUE: {"routing_key": CELERY_REVIEW_QUEUE},
}
CELERY_TASK_ROUTES = {
    "analysis.tasks.review_match": {"queue": CELERY_REVIEW_QUEUE},
    "analysis.tasks.review_matches": {"queue": CELERY_REVIEW_QUEUE},
    "analysis.tasks.recompute_ratings": {"queue": CELERY_REVIEW_QUEUE},
    "analysis.league.tasks.attach_to_nights": {"queue": CELERY_REVIEW_QUEUE},
    "records.webhooks.deliver": {"queue": CELERY_REVIEW_QUEUE},
    "records.webhooks.send_due": {"queue": CELERY_REVIEW_QUEUE},
}
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# One message per pool process at a time: a long review never holds back a verification
# that another process could start, and a dead process loses (to redelivery) one message.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A pool process is replaced after this many tasks, or after a task that leaves it above
# this resident size (KB): its memory stays bounded whatever the engine's caches or the
# allocator keep (measured: about 10 KB per verification; a review's tables tens of MB).
CELERY_WORKER_MAX_TASKS_PER_CHILD = envint("CELERY_MAX_TASKS_PER_CHILD", 500)
CELERY_WORKER_MAX_MEMORY_PER_CHILD = envint("CELERY_MAX_MEMORY_PER_CHILD_KB", 200_000)
# Celery's Django fixup closes every database connection before and after each task unless
# told to reuse them for this many: a new PostgreSQL backend per verification (a fork, its
# catalog caches filled again, no prepared statement ever reused) cost more CPU than the
# verification's own statements. Reused, a connection is checked as a request's is
# (config/celery.py: closed when broken or older than DATABASE_CONN_MAX_AGE).
CELERY_DB_REUSE_MAX = envint("CELERY_DB_REUSE_MAX", 1000)
# A worker's processes run at this nice value (0–19; 0 leaves them as started): where the
# web and the workers share cores, the kernel gives an upload the CPU first and the
# verifications and reviews what is left (config/celery.py; docs/deploy.md, Workers).
WORKER_NICE = envint("WORKER_NICE", 10)
if not 0 <= WORKER_NICE <= 19:
    raise ImproperlyConfigured(f"WORKER_NICE must be from 0 to 19, not {WORKER_NICE}")
CELERY_TASK_TIME_LIMIT = VERIFY_TIME_LIMIT_SECONDS
CELERY_TASK_SOFT_TIME_LIMIT = max(1, VERIFY_TIME_LIMIT_SECONDS - 10)
CELERY_TASK_IGNORE_RESULT = True  # the state lives in the database, not a result backend
# Nothing per task that nobody reads: no task events (no monitor consumes them), no rate
# limits (no task has one: the worker skips their bookkeeping)
CELERY_WORKER_SEND_TASK_EVENTS = False
CELERY_TASK_SEND_SENT_EVENT = False
CELERY_WORKER_DISABLE_RATE_LIMITS = True
# A lost broker connection does not kill the tasks running: Celery would terminate their
# pool processes, cutting a database transaction in half ("can't change 'autocommit'
# now"). They finish (commit or roll back) instead; their acknowledgement is lost with the
# connection, so the broker delivers the message again (visibility timeout), and the
# second run finds its match verified and skips it (analysis.leases). Safe because every
# task is safe to run twice (docs/deploy.md, "When a dependency fails").
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = False
# A new pool process has this long to say it is up: the default 4 s was too short on a
# loaded machine (Django's setup and the engine's tables in a fresh process), and the
# worker killed new processes for "Timed out waiting for UP message".
CELERY_WORKER_PROC_ALIVE_TIMEOUT = float(envint("CELERY_WORKER_PROC_ALIVE_TIMEOUT", 30))
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Redis redelivers an unacknowledged message after this: above the task time limit and the
# longest retry delay (60 s), or a live task's message would be delivered a second time.
_visibility_timeout = envint("CELERY_VISIBILITY_TIMEOUT", 90)
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": _visibility_timeout,
    "unacked_restore_interval": min(10, _visibility_timeout),
    "unacked_restore_throttle": 1,
    # Redis: poll the queues in CELERY_TASK_QUEUES order, not in turn: a worker of both
    # takes a review only when no verification waits
    "queue_order_strategy": "priority",
}
CELERY_BEAT_SCHEDULE = {
    "sweep-stuck-matches": {
        "task": "analysis.tasks.sweep_stuck_matches",
        "schedule": VERIFY_SWEEP_INTERVAL_SECONDS,
    },
    "send-due-webhooks": {
        "task": "records.webhooks.send_due",
        "schedule": WEBHOOK_SWEEP_INTERVAL_SECONDS,
    },
}

# Logs: JSON lines on stderr (LOG_FORMAT=json, the default) or plain text (LOG_FORMAT=text),
# each with the request id (X-Request-ID, carried into the verification task).
LOG_FORMAT = os.environ.get("LOG_FORMAT", "json")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "records.logs.RequestIdFilter"}},
    "formatters": {
        "json": {"()": "records.logs.JsonFormatter"},
        "text": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["request_id"],
            "formatter": "json" if LOG_FORMAT == "json" else "text",
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"django.server": {"level": "WARNING"}},
}

# Metrics (Prometheus, /metrics): with several processes on a host (gunicorn workers, Celery
# pool), set PROMETHEUS_MULTIPROC_DIR to one empty folder for all of them.
METRICS_ENABLED = envbool("METRICS_ENABLED", "True")
