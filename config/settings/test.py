"""Test settings: fast hashing, in-memory mail, and a file test database for SQLite.

Under ``CI=true`` the test command exports DATABASE_URL and CELERY_BROKER_URL for
the PostgreSQL and Redis servers it started, so these settings then point there.

Every test run keeps its files (the SQLite test database, uploads, the embedded
broker's folders, the progress cache) in a folder of its own, so two runs in one
checkout never meet (``choose_run_dir``).
"""

import atexit
import fcntl
import os
import shutil
import sys
from pathlib import Path
from typing import IO

from config.env import env_int, env_str
from config.settings.base import *  # noqa: F403
from config.settings.base import (
    BROKER_IS_EMBEDDED,
    CACHES,
    DATABASES,
    VAR_DIR,
    embedded_broker_options,
)

# The folder a run chose, handed down to the processes it starts (a Celery worker must use the same).
RUN_DIR_ENV = "ZVEROGRAD_TEST_RUN_DIR"
RUN_LOCK = VAR_DIR / "test-run.lock"
OTHER_RUNS_DIR = VAR_DIR / "test-runs"
_held_lock: IO[str] | None = None  # open for as long as this run lasts: closing it would release the lock


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def choose_run_dir() -> Path:
    """Where this run keeps its files: ``var/`` for the one run holding ``var/test-run.lock``, else a folder
    of its own under ``var/test-runs/`` (removed when it ends).

    The common single run keeps ``var/test-db.sqlite3`` and so ``--reuse-db``'s speed; a second run
    started meanwhile builds its own database. A process started by a run (a worker) inherits its choice.
    """
    global _held_lock
    inherited = env_str(RUN_DIR_ENV, "")
    if inherited:
        return Path(inherited)
    if "pytest" not in sys.modules:
        return VAR_DIR  # not a test run (mypy's plugin, manage.py checks): it makes no test database
    VAR_DIR.mkdir(exist_ok=True)
    lock = RUN_LOCK.open("a")  # held open for the whole run, on purpose
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.close()
        for stale in OTHER_RUNS_DIR.glob("*"):  # left by runs that were killed
            if stale.name.isdigit() and not _alive(int(stale.name)):
                shutil.rmtree(stale, ignore_errors=True)
        run_dir = OTHER_RUNS_DIR / str(os.getpid())
        run_dir.mkdir(parents=True, exist_ok=True)
        atexit.register(shutil.rmtree, run_dir, True)
    else:
        _held_lock = lock
        run_dir = VAR_DIR
    os.environ[RUN_DIR_ENV] = str(run_dir)
    return run_dir


TEST_RUN_DIR = choose_run_dir()

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
MEDIA_ROOT = TEST_RUN_DIR / "test-media"
WHITENOISE_USE_FINDERS = True
if CACHES["progress"]["BACKEND"].endswith("FileBasedCache"):
    # Apart from the development site's too (a worker process started by a test writes to it).
    CACHES["progress"]["LOCATION"] = CACHES["default"]["LOCATION"] = str(TEST_RUN_DIR / "test-cache")
if BROKER_IS_EMBEDDED:
    # The run's own queue, unless one is named (the benchmarks do): no other run's worker takes its tasks.
    EMBEDDED_BROKER_DIR = Path(env_str("ZVEROGRAD_EMBEDDED_BROKER_DIR", str(TEST_RUN_DIR / "test-celery")))
    CELERY_BROKER_TRANSPORT_OPTIONS = embedded_broker_options(EMBEDDED_BROKER_DIR)
    CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND", f"file://{EMBEDDED_BROKER_DIR / 'results'}")
# Every change queues its own recompute at once: a batch's marks in the shared cache would outlive a test.
# The batching tests turn it on (and give a worker they start the same gap through the environment).
BATCHED_JOB_GAP_MS = env_int("ZVEROGRAD_BATCHED_JOB_GAP_MS", 0)
# The webhook tests post to an HTTP server on 127.0.0.1 (a worker started with these settings too).
WEBHOOK_ALLOW_PRIVATE = True

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A file, not memory, so that a separate Celery worker process sees the same data.
    DATABASES["default"]["TEST"] = {"NAME": str(TEST_RUN_DIR / "test-db.sqlite3")}

# Playwright's sync API runs an event loop in the test thread.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
