"""How production serves: persistent database connections, gunicorn's settings and the worker's size.

gunicorn and Celery ignore a setting name they do not know, so a typo would silently leave a default
(a queue of 2048 connections, a worker per core): these tests read the effective values.
"""

from __future__ import annotations

import multiprocessing
import runpy
import types
from pathlib import Path
from typing import Any

import pytest
from gunicorn.config import Config

from config.celery import app
from config.env import ConfigurationError, env_seconds
from tests.core.test_settings import _manage

ROOT = Path(__file__).resolve().parents[2]
GUNICORN_CONF = ROOT / "config" / "gunicorn.conf.py"


def _database(**env: str) -> dict[str, Any]:
    shown = "from django.conf import settings; print(repr(settings.DATABASES['default']))"
    result = _manage("shell", "-c", shown, DJANGO_SETTINGS_MODULE="config.settings.dev", **env)
    assert result.returncode == 0, result.stderr
    database: dict[str, Any] = eval(result.stdout.strip().splitlines()[-1])  # noqa: S307 (our own repr)
    return database


def _gunicorn(monkeypatch: pytest.MonkeyPatch, **env: str) -> dict[str, Any]:
    for name in ("ZVEROGRAD_WEB_BIND", "ZVEROGRAD_WEB_WORKERS", "ZVEROGRAD_WEB_THREADS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    found = runpy.run_path(str(GUNICORN_CONF))
    return {
        name: value
        for name, value in found.items()
        if not name.startswith("_") and not callable(value) and not isinstance(value, types.ModuleType)
        and name != "annotations"
    }  # fmt: skip


def test_it_keeps_a_postgresql_connection_for_a_minute_and_checks_it_before_use():
    database = _database(
        DATABASE_URL="postgres://zverograd@127.0.0.1:5432/zverograd", ZVEROGRAD_DB_CONN_MAX_AGE=""
    )

    assert (database["CONN_MAX_AGE"], database["CONN_HEALTH_CHECKS"]) == (60, True)


def test_it_reads_how_long_a_connection_is_kept_from_the_environment():
    url = "postgres://zverograd@127.0.0.1:5432/zverograd"

    assert _database(DATABASE_URL=url, ZVEROGRAD_DB_CONN_MAX_AGE="0")["CONN_MAX_AGE"] == 0
    assert _database(DATABASE_URL=url, ZVEROGRAD_DB_CONN_MAX_AGE="300")["CONN_MAX_AGE"] == 300


def test_it_leaves_sqlite_connections_as_they_were(tmp_path):
    database = _database(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}", ZVEROGRAD_DB_CONN_MAX_AGE="300")

    assert database["CONN_MAX_AGE"] == 0  # Django's default: a connection per request
    assert database["OPTIONS"]["init_command"] == "PRAGMA journal_mode=WAL;"


def test_it_refuses_a_negative_connection_age(monkeypatch):
    monkeypatch.setenv("ZVEROGRAD_DB_CONN_MAX_AGE", "-1")

    with pytest.raises(ConfigurationError, match="ZVEROGRAD_DB_CONN_MAX_AGE must be 0 or more seconds"):
        env_seconds("ZVEROGRAD_DB_CONN_MAX_AGE", 60)


def test_gunicorn_knows_every_setting_its_file_names(monkeypatch):
    known = set(Config().settings)

    named = set(_gunicorn(monkeypatch))

    assert named
    assert named - known == set()


def test_gunicorn_refuses_fast_when_overloaded_rather_than_queueing(monkeypatch):
    conf = _gunicorn(monkeypatch)

    # gthread that bounds each request's wait for a thread (tests/core/test_shedding.py runs it).
    assert conf["worker_class"] == "config.shedding.SheddingWorker"
    assert conf["backlog"] <= 128
    # The worker takes the connections into its own timed line; that line is bounded too.
    assert 4 * conf["threads"] <= conf["worker_connections"] <= 256
    assert conf["timeout"] <= 30
    assert conf["graceful_timeout"] <= conf["timeout"]
    # Replaced now and then, but rarely: a worker takes 1.5 s of CPU to start, with empty caches.
    assert conf["max_requests"] >= 10_000
    assert 0 < conf["max_requests_jitter"] < conf["max_requests"]
    assert conf["control_socket_disable"] is True


def test_gunicorn_listens_where_the_environment_says(monkeypatch):
    conf = _gunicorn(
        monkeypatch, ZVEROGRAD_WEB_BIND="127.0.0.1:8123", ZVEROGRAD_WEB_WORKERS="3", ZVEROGRAD_WEB_THREADS="2"
    )

    assert (conf["bind"], conf["workers"], conf["threads"]) == ("127.0.0.1:8123", 3, 2)


def test_gunicorn_listens_on_loopback_with_a_worker_of_four_threads_per_core_by_default(monkeypatch):
    conf = _gunicorn(monkeypatch)

    assert (conf["bind"], conf["workers"], conf["threads"]) == (
        "127.0.0.1:8000",
        multiprocessing.cpu_count(),
        4,
    )


@pytest.mark.parametrize("name", ["ZVEROGRAD_WEB_WORKERS", "ZVEROGRAD_WEB_THREADS"])
def test_gunicorn_refuses_no_workers_or_threads(monkeypatch, name):
    with pytest.raises(ConfigurationError, match=f"{name} must be 1 or more"):
        _gunicorn(monkeypatch, **{name: "0"})


def test_the_worker_runs_two_processes_each_reserving_only_its_task():
    assert app.conf.worker_concurrency == 2
    assert app.conf.worker_prefetch_multiplier == 1
    assert app.conf.worker_max_memory_per_child == 600_000
