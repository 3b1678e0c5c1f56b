"""Production: refuses to start without a secret key, and passes ``check --deploy``."""

from config.env import ConfigurationError, env_bool, env_int, env_required
from config.settings.base import *  # noqa: F403
from config.settings.base import CACHES, HEALTH_TOKEN, REST_FRAMEWORK, STORAGES

DEBUG = False
SECRET_KEY = env_required("DJANGO_SECRET_KEY")
if len(SECRET_KEY) < 50 or SECRET_KEY.startswith("dev-only"):
    raise ConfigurationError("DJANGO_SECRET_KEY must be a long random value in production")

if HEALTH_TOKEN and len(HEALTH_TOKEN) < 32:
    raise ConfigurationError("ZVEROGRAD_HEALTH_TOKEN must be a long random value (32+ characters) when set")

SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# These settings stand behind a TLS proxy (above), which appends the caller's address to X-Forwarded-For:
# throttles and limits read that last entry, never what a client wrote in the header itself (which would let
# anyone count as a new caller with each request). ZVEROGRAD_PROXY_COUNT says how many proxies append.
REST_FRAMEWORK = {**REST_FRAMEWORK, "NUM_PROXIES": env_int("ZVEROGRAD_PROXY_COUNT", 1)}
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
SECURE_HSTS_SECONDS = env_int("DJANGO_SECURE_HSTS_SECONDS", 60 * 60 * 24 * 365)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
X_FRAME_OPTIONS = "DENY"

STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# Sessions read from the shared Redis cache, and written to it and to the database (which keeps them through a
# Redis restart or eviction): every request of a logged-in user reads its session, and a Redis GET spares
# the web process the ORM's work on the query it replaces (README "Running in production").
# Redis is shared by every web machine, so a session made through one is known on the next. Not on the
# files cache of a one-machine site without Redis: it holds 300 entries and would churn.
if CACHES["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache":
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
