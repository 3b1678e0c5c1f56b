"""Settings shared by every environment. Values that vary come from config.env."""

from __future__ import annotations

from pathlib import Path

import django_stubs_ext

from config.env import (
    BASE_DIR,
    ConfigurationError,
    env_bool,
    env_database,
    env_email,
    env_int,
    env_list,
    env_optional_int,
    env_path,
    env_port,
    env_rate,
    env_seconds,
    env_site_url,
    env_str,
)

# Lets model admin, forms and querysets take type parameters at run time.
django_stubs_ext.monkeypatch()

SECRET_KEY = env_str("DJANGO_SECRET_KEY", "dev-only-insecure-key-change-me")
DEBUG = env_bool("DJANGO_DEBUG", False)
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

VAR_DIR = BASE_DIR / "var"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "axes",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_filters",
    "django_htmx",
    "django_celery_beat",
    "accounts",
    "core",
    "rules",
    "armies",
    "campaign",
    "battles",
    "standings",
    "exchange",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "core.middleware.RefuseNulMiddleware",
    # Before the CSRF check, which reads a form's body: an upload over its route's bound is refused unread.
    "core.uploads.UploadBoundMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

# Uploads: each file stops at its route's bound as it streams (core/uploads.py), and stays in memory up to
# FILE_UPLOAD_MAX_MEMORY_SIZE (every list, roster, chart and map file; a campaign export or catalogue goes
# to FILE_UPLOAD_TEMP_DIR, the system's temporary folder unless set).
FILE_UPLOAD_HANDLERS = [
    "core.uploads.BoundedUploadHandler",
    "django.core.files.uploadhandler.MemoryFileUploadHandler",
    "django.core.files.uploadhandler.TemporaryFileUploadHandler",
]
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
FILE_UPLOAD_MAX_MEMORY_SIZE = 2_621_440

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "accounts.backends.AccountBackend",  # ModelBackend, with the signed-in user read by a precompiled query
]
# Brute-force protection for log-in (pages and the token endpoint): after this many
# failures for one username from one address, that pair is locked out for a while.
AXES_FAILURE_LIMIT = env_int("ZVEROGRAD_LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = env_int("ZVEROGRAD_LOGIN_COOLOFF_MINUTES", 15) / 60
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "accounts/locked_out.html"

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

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

DATABASES = {"default": env_database(f"sqlite:///{VAR_DIR / 'db.sqlite3'}")}
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
if DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3":
    # Persistent connections (one kept per gunicorn thread and per worker process), not psycopg's pool: under
    # load every thread is busy, so a pool would hold as many connections, for an extra package and
    # thread; it pays off only when many threads idle.
    # Opening a PostgreSQL connection per request cost a fork on the server and the log-in handshake
    # (README "Running in production"); CONN_HEALTH_CHECKS drops a connection the server closed meanwhile.
    # A kept connection carries session state into the next request: advisory locks and settings must be
    # transaction-scoped (pg_advisory_xact_lock, SET LOCAL).
    DATABASES["default"]["CONN_MAX_AGE"] = env_seconds("ZVEROGRAD_DB_CONN_MAX_AGE", 60)
else:
    # WAL lets the web process read while the worker writes.
    DATABASES["default"].setdefault("OPTIONS", {})
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "core:home"
LOGOUT_REDIRECT_URL = "core:home"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-gb"
TIME_ZONE = env_str("DJANGO_TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# Uploads (a campaign import waits here for its worker): in production a volume the web and the workers share.
# Never served: MEDIA_URL is Django's default and no URL maps to it.
MEDIA_ROOT = env_path("ZVEROGRAD_MEDIA_ROOT", VAR_DIR / "media")
MEDIA_URL = "media/"

_email = env_email(env_str("EMAIL_URL", "consolemail://"))
EMAIL_BACKEND = str(_email["EMAIL_BACKEND"])
EMAIL_HOST = str(_email.get("EMAIL_HOST") or "localhost")
EMAIL_PORT = int(str(_email.get("EMAIL_PORT") or 25))
EMAIL_HOST_USER = str(_email.get("EMAIL_HOST_USER") or "")
EMAIL_HOST_PASSWORD = str(_email.get("EMAIL_HOST_PASSWORD") or "")
EMAIL_USE_TLS = bool(_email.get("EMAIL_USE_TLS", False))
EMAIL_USE_SSL = bool(_email.get("EMAIL_USE_SSL", False))
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Zverograd <noreply@zverograd.invalid>")
# The port `make run` serves on (Procfile.dev reads the same variable).
DEV_PORT = env_port("ZVEROGRAD_PORT", 8000)
# Where the site is reached from outside: mail turns the site paths it links to into full addresses.
# Unset, it is where `make run` serves, so a developer's mail links to the port that runs.
SITE_URL = env_site_url("ZVEROGRAD_SITE_URL", f"http://127.0.0.1:{DEV_PORT}")
# A batched job (the standings recompute) runs at most once in this many milliseconds per campaign: a
# burst of confirmations makes one recompute, and the standings follow within about this long (core.queue).
BATCHED_JOB_GAP_MS = env_int("ZVEROGRAD_BATCHED_JOB_GAP_MS", 1000)
if not 0 <= BATCHED_JOB_GAP_MS <= 60_000:
    raise ConfigurationError(f"ZVEROGRAD_BATCHED_JOB_GAP_MS must be 0 to 60000, got {BATCHED_JOB_GAP_MS}")
# How often an open dashboard asks what changed (a 204 when nothing did); browser tests shorten it.
DASHBOARD_POLL_SECONDS = 10

# --- Django REST framework -------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # JSON only, bounded: the one endpoint that takes files (catalogue imports) names its own parsers.
    "DEFAULT_PARSER_CLASSES": ["core.parsers.BoundedJSONParser"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "core.api.exception_handler",
    # Per-address limits on the endpoints anyone may call without an account, counted in the
    # shared "default" cache (below) so that every web worker counts together.
    "DEFAULT_THROTTLE_RATES": {
        "sign-up": env_rate("ZVEROGRAD_THROTTLE_SIGN_UP", "20/hour"),
        "validate": env_rate("ZVEROGRAD_THROTTLE_VALIDATE", "120/minute"),
        "referee": env_rate("ZVEROGRAD_THROTTLE_REFEREE", "300/minute"),
    },
    # How many proxies in front of the site append to X-Forwarded-For (nginx: 1); the caller's address
    # is then read from that header. Unset: DRF's default (the whole header when sent, else REMOTE_ADDR).
    "NUM_PROXIES": env_optional_int("ZVEROGRAD_PROXY_COUNT"),
}
# Platoon charts entered or imported (the page and the API alike), per account: a chart is shared by
# every campaign on its catalogue, so entering them is bounded (armies/services/platoon_charts.py).
PLATOON_CHART_RATE = env_rate("ZVEROGRAD_PLATOON_CHART_RATE", "30/hour")
# Password-reset mails (the page): per client address and per e-mail, whether an account has it or not.
PASSWORD_RESET_RATE_PER_CLIENT = env_rate("ZVEROGRAD_RESET_PER_CLIENT", "5/minute")
PASSWORD_RESET_RATE_PER_EMAIL = env_rate("ZVEROGRAD_RESET_PER_EMAIL", "3/hour")

# Who may ask /health/?round_trip=1 without being staff: a monitor sending this token
# (Authorization: Bearer ... or X-Health-Token). Empty: staff only.
HEALTH_TOKEN = env_str("ZVEROGRAD_HEALTH_TOKEN", "")
# How long that round trip waits for the worker's answer.
HEALTH_ROUND_TRIP_TIMEOUT = 5.0
SPECTACULAR_SETTINGS = {
    "TITLE": "Zverograd API",
    "DESCRIPTION": "Return to Zverograd campaigns for Dust 1947: campaigns, army lists, rules and odds.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # The enums' hook (drf-spectacular's default), then the answers any operation may give (core/openapi_hooks.py).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "core.openapi_hooks.error_responses",
    ],
    "ENUM_NAME_OVERRIDES": {
        "ArmyRoleEnum": "armies.models.ArmyList.Role",
        # The same two roles, as the list format's JSON Schema states them (no labels).
        "ListRoleEnum": ["attacker", "defender"],
        # The campaign's shared enums, named once: several fields (bloc, owner, status...) use each.
        "BlocEnum": "armies.blocs.BLOC_CHOICES",
        "CampaignStatusEnum": "campaign.options.Status",
        "EnrolmentStatusEnum": "campaign.models.players.EnrolmentStatus",
        "RulesetNameEnum": "rules.engine.ruleset.NAMES",
        # Rounds, battles, challenges and the economy: several fields named status, kind or source.
        "RoundStatusEnum": "campaign.models.rounds.RoundStatus",
        "BattleStatusEnum": "campaign.models.rounds.BattleStatus",
        "BattleSourceEnum": "campaign.models.rounds.BattleSource",
        "BattleSessionStatusEnum": "battles.sessions.models.SessionStatus",
        "ChallengeStatusEnum": "campaign.models.rounds.ChallengeStatus",
        "EntryKindEnum": "campaign.models.economy.EntryKind",
        "FortificationEnum": "campaign.api.round_shapes.FORTIFICATION_CHOICES",
        "BoughtFortificationEnum": "campaign.api.round_shapes.BOUGHT_CHOICES",
        "MissionEnum": "campaign.api.round_shapes.MISSION_CHOICES",
        # Battle reports: a report's status, how a battle ended, an organiser's decision.
        "ReportStatusEnum": "battles.models.ReportStatus",
        "ReportEndingEnum": "battles.models.Ending",
        "ResolutionEnum": "battles.models.Resolution",
        "DecisionEnum": "battles.api.shapes.DECISION_CHOICES",
        "DecidedByEnum": "battles.api.shapes.DECIDED_BY_CHOICES",
    },
}

# Outgoing webhooks may post to loopback and private addresses (development, tests): never in production,
# where an organiser's URL could otherwise reach services inside the site's network (campaign/services/webhooks.py).
WEBHOOK_ALLOW_PRIVATE = env_bool("ZVEROGRAD_WEBHOOK_ALLOW_PRIVATE", False)

# --- Celery ------------------------------------------------------------------
# With no broker configured the site runs on kombu's filesystem transport, so a
# single machine needs no Redis; see README "Background jobs".
EMBEDDED_BROKER_URL = "filesystem://"
EMBEDDED_BROKER_DIR = Path(env_str("ZVEROGRAD_EMBEDDED_BROKER_DIR", str(VAR_DIR / "celery")))
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", EMBEDDED_BROKER_URL)
BROKER_IS_EMBEDDED = CELERY_BROKER_URL == EMBEDDED_BROKER_URL


def embedded_broker_options(folder: Path) -> dict[str, object]:
    return {
        "data_folder_in": str(folder / "queue"),
        "data_folder_out": str(folder / "queue"),
        "processed_folder": str(folder / "processed"),
        "store_processed": False,
        "control_folder": str(folder / "control"),
    }


if BROKER_IS_EMBEDDED:
    CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = embedded_broker_options(EMBEDDED_BROKER_DIR)
    _default_results = f"file://{EMBEDDED_BROKER_DIR / 'results'}"
else:
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
    _default_results = CELERY_BROKER_URL
CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND", _default_results)
CELERY_RESULT_EXPIRES = 3600
# Acknowledged after the task ran, and redelivered if its worker died: every task is safe to run twice.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# A worker process reserves only the task it runs: a long import never holds a recompute or a mail in its
# own buffer while another process (or machine) idles. Costs one broker round trip per task, nothing at
# our rates.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Processes per worker (celery's default is one per core): a campaign import may use up to 512 MB
# (exchange/limits.py), so this count is the worker's memory bound; two keep a recompute running beside
# an import. Grow by adding worker machines rather than processes (README "Growing past one machine").
CELERY_WORKER_CONCURRENCY = env_int("ZVEROGRAD_WORKER_CONCURRENCY", 2)
# A process that grew past this (KiB) during a task, e.g. through a large import, is replaced after it,
# so one import's peak is not kept for the worker's whole life.
CELERY_WORKER_MAX_MEMORY_PER_CHILD = 600_000
CELERY_TASK_TIME_LIMIT = 300
CELERY_TASK_SOFT_TIME_LIMIT = 240
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
WORKER_HEARTBEAT_INTERVAL = env_int("ZVEROGRAD_WORKER_HEARTBEAT_SECONDS", 15)
CELERY_BEAT_SCHEDULE = {
    "worker-heartbeat": {
        "task": "core.tasks.worker_heartbeat",
        "schedule": float(WORKER_HEARTBEAT_INTERVAL),
        "options": {"expires": float(WORKER_HEARTBEAT_INTERVAL)},
    },
    "notification-emails-heal": {
        "task": "accounts.tasks.notification_emails_heal",
        "schedule": 600.0,
        "options": {"expires": 600.0},
    },
    "catalogue-imports-heal": {
        "task": "armies.tasks.catalogue_imports_heal",
        "schedule": 300.0,
        "options": {"expires": 300.0},
    },
    "autoconfirm-reports": {
        "task": "battles.tasks.reports_autoconfirm",
        "schedule": 300.0,
        "options": {"expires": 300.0},
    },
    "expire-challenges": {
        "task": "campaign.tasks.challenges_expire",
        "schedule": 300.0,
        "options": {"expires": 300.0},
    },
    # Campaign imports whose message was lost or whose worker was killed.
    "campaign-imports-heal": {
        "task": "exchange.tasks.campaign_imports_heal",
        "schedule": 120.0,
        "options": {"expires": 120.0},
    },
    # Uploads a failed import request left behind, no import naming them (exchange.jobs.uploads_sweep).
    "campaign-import-uploads-sweep": {
        "task": "exchange.tasks.campaign_import_uploads_sweep",
        "schedule": 3600.0,
        "options": {"expires": 3600.0},
    },
    # Standings older than their campaign's results (a lost message, a worker killed mid-recompute).
    "standings-heal": {
        "task": "standings.tasks.standings_heal",
        "schedule": 60.0,
        "options": {"expires": 60.0},
    },
}
# A heartbeat older than this makes the health endpoint report the worker as stale.
WORKER_HEARTBEAT_STALE_AFTER = env_int("ZVEROGRAD_WORKER_STALE_SECONDS", 90)

# --- Cache -------------------------------------------------------------------
# One cache every process shares: Redis when the broker is Redis (or ZVEROGRAD_CACHE_URL names one),
# else files under var/, which every process of the embedded defaults' one machine shares.
# "progress" is where a worker's progress on a long job reaches the web processes (core/progress.py);
# "default" holds the request counts of DRF's throttles and of core/ratelimit.py, so three gunicorn
# workers count one caller together. Nothing may keep per-process state in "default".
CACHE_URL = env_str("ZVEROGRAD_CACHE_URL", "" if BROKER_IS_EMBEDDED else CELERY_BROKER_URL)
_shared_cache: dict[str, str] = (
    {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": CACHE_URL,
        "KEY_PREFIX": "zverograd",
    }
    if CACHE_URL.startswith(("redis://", "rediss://"))
    else {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": env_str("ZVEROGRAD_CACHE_DIR", str(VAR_DIR / "cache")),
    }
)
CACHES: dict[str, dict[str, str]] = {
    "default": dict(_shared_cache),
    "progress": dict(_shared_cache),
}

# --- Logging -----------------------------------------------------------------
LOG_LEVEL = env_str("DJANGO_LOG_LEVEL", "INFO")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}
