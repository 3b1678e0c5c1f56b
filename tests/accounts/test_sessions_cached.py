"""Production reads sessions from the shared cache (Redis), kept in the database too.

A logged-in user's every request reads the session: from Redis it costs the web process less than a
query (README "Running in production"). What must not change: a session ends at log-out and at its
expiry, and one the cache lost is still read from the database. These run the cached_db engine on
the tests' shared cache (Redis under CI, files otherwise).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session
from django.core.cache import caches
from django.test import Client, override_settings
from django.utils import timezone

from accounts.models import User
from tests.conftest import PASSWORD
from tests.core.test_settings import GOOD_SECRET, _manage

pytestmark = pytest.mark.django_db

CACHED_DB = "django.contrib.sessions.backends.cached_db"
CACHE_PREFIX = "django.contrib.sessions.cached_db"


def _engine(**env: str) -> str:
    shown = "from django.conf import settings; print(settings.SESSION_ENGINE)"
    result = _manage(
        "shell", "-c", shown, DJANGO_SETTINGS_MODULE="config.settings.production", DJANGO_SECRET_KEY=GOOD_SECRET,
        **env,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()[-1]


def test_it_keeps_production_sessions_in_redis_and_the_database() -> None:
    assert _engine(CELERY_BROKER_URL="redis://127.0.0.1:6379/0") == CACHED_DB


def test_it_keeps_sessions_in_the_database_alone_without_redis() -> None:
    # The files cache of a one-machine site holds 300 entries: sessions would churn through it.
    assert _engine(CELERY_BROKER_URL="") == "django.contrib.sessions.backends.db"


def _log_in(client: Client) -> str:
    response = client.post("/accounts/log-in/", {"username": "sasha", "password": PASSWORD})
    assert response.status_code == 302
    return str(client.cookies["sessionid"].value)


@override_settings(SESSION_ENGINE=CACHED_DB)
def test_it_reads_a_session_from_the_cache_and_keeps_it_in_the_database(
    client: Client, stranger: User
) -> None:
    key = _log_in(client)

    assert caches["default"].get(f"{CACHE_PREFIX}{key}") is not None
    assert Session.objects.filter(session_key=key).exists()
    assert client.get("/").context["user"] == stranger


@override_settings(SESSION_ENGINE=CACHED_DB)
def test_it_reads_a_session_the_cache_lost_from_the_database(client: Client, stranger: User) -> None:
    key = _log_in(client)
    caches["default"].delete(f"{CACHE_PREFIX}{key}")

    assert client.get("/").context["user"] == stranger


@override_settings(SESSION_ENGINE=CACHED_DB)
def test_it_ends_the_session_at_log_out_in_the_cache_and_the_database(client: Client, stranger: User) -> None:
    key = _log_in(client)

    client.post("/accounts/log-out/")
    client.cookies["sessionid"] = key  # the old cookie, replayed

    assert not client.get("/").context["user"].is_authenticated
    assert caches["default"].get(f"{CACHE_PREFIX}{key}") is None
    assert not Session.objects.filter(session_key=key).exists()


@override_settings(SESSION_ENGINE=CACHED_DB)
def test_it_ends_an_expired_session_the_cache_lost(client: Client, stranger: User) -> None:
    key = _log_in(client)
    caches["default"].delete(f"{CACHE_PREFIX}{key}")
    Session.objects.filter(session_key=key).update(expire_date=timezone.now() - timedelta(seconds=1))

    assert not client.get("/").context["user"].is_authenticated
