"""Test settings: fast hashing, in-memory mail, and a file test database for SQLite.

Under ``CI=true`` the test command exports DATABASE_URL and CELERY_BROKER_URL for
the PostgreSQL and Redis servers it started, so these settings then point there.
"""

import os

from config.settings.base import *  # noqa: F403
from config.settings.base import CACHES, DATABASES, VAR_DIR

DEBUG = False
SECRET_KEY = "test-only-secret-key"  # noqa: S105
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_AUTOREFRESH = True
# Uploads made by tests (catalogue imports) stay apart from the development site's.
MEDIA_ROOT = VAR_DIR / "test-media"
WHITENOISE_USE_FINDERS = True
if CACHES["progress"]["BACKEND"].endswith("FileBasedCache"):
    # Apart from the development site's too (a worker process started by a test writes to it).
    CACHES["progress"]["LOCATION"] = CACHES["default"]["LOCATION"] = str(VAR_DIR / "test-cache")
# The webhook tests post to an HTTP server on 127.0.0.1 (a worker started with these settings too).
WEBHOOK_ALLOW_PRIVATE = True

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A file, not memory, so that a separate Celery worker process sees the same data.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test-db.sqlite3")}

# Playwright's sync API runs an event loop in the test thread.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
