"""What the benchmarks that use a database share: a throwaway one, and the settings pointed at it.

SQLite in a fresh temporary folder, or (``postgres=True``) a PostgreSQL server
started the way the test command starts one; the embedded broker and the
progress cache go to the same folder, so a benchmark never touches the
development site's ``var/``. Imported by the scripts beside it (run as
``python scripts/bench_*.py``, whose own folder is on the import path).
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _use(url: str, folder: str) -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.test"
    os.environ["DATABASE_URL"] = url
    os.environ["ZVEROGRAD_EMBEDDED_BROKER_DIR"] = f"{folder}/celery"
    os.environ["ZVEROGRAD_CACHE_DIR"] = f"{folder}/cache"
    os.environ.pop("CELERY_BROKER_URL", None)


def bench_sqlite() -> str:
    """Point the settings at a new SQLite database; returns its folder."""
    folder = tempfile.mkdtemp(prefix="zverograd-bench-")
    _use(f"sqlite:///{folder}/bench.sqlite3", folder)
    return folder


@contextlib.contextmanager
def bench_database(postgres: bool) -> Iterator[str]:
    """The settings pointed at a new database for as long as the block runs; yields the engine's name."""
    if not postgres:
        bench_sqlite()
        yield "SQLite"
        return
    # scripts/test.py cannot be imported by name: the standard library has a package called test.
    spec = importlib.util.spec_from_file_location("zverograd_test_runner", ROOT / "scripts" / "test.py")
    assert spec is not None
    assert spec.loader is not None
    runner = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(runner)
    folder = tempfile.mkdtemp(prefix="zverograd-bench-")
    with runner.postgres_server() as url:
        _use(str(url), folder)
        yield "PostgreSQL"


def django_migrated() -> None:
    """Set Django up for a benchmark as the test client needs it (its hosts, the fast password hasher)
    and migrate the bench database: the start of every script that times requests."""
    import django

    django.setup()
    from django.core.management import call_command
    from django.test.utils import setup_test_environment

    setup_test_environment()
    call_command("migrate", verbosity=0)


@dataclass(frozen=True)
class PageTiming:
    """One address timed through the whole Django stack: its queries at two sizes, latency and CPU."""

    queries: tuple[int, int]  # (small, large): equal when they do not grow with the data
    median_ms: float
    p95_ms: float
    cpu_median_ms: float
    size_bytes: int


def organiser_client(campaign: Any, api: bool) -> Any:
    """A client logged in as the campaign's organiser: DRF's for the API, Django's for pages."""
    from django.test import Client
    from rest_framework.test import APIClient

    if api:
        api_client = APIClient()
        api_client.force_authenticate(campaign.organiser)
        return api_client
    client = Client()
    client.force_login(campaign.organiser)
    return client


def time_get(
    url_of: Callable[[Any], str],
    api: bool,
    small: Any,
    large: Any,
    repeats: int,
    *,
    headers_of: Callable[[Any], dict[str, str]] | None = None,
    status: int = 200,
) -> PageTiming:
    """Count the queries of ``url_of`` for ``small`` and ``large`` (after a warm-up), then time ``repeats``
    GETs of the large one's, as its organiser. ``headers_of`` gives each request's headers (a poll's
    ``If-None-Match``, ``HX-Request``) and ``status`` the answer every one must get (a poll's 304 or 204)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def get(client: Any, campaign: Any) -> Any:
        headers = headers_of(campaign) if headers_of else {}
        # As WSGI names them: DRF's test client and Django's both take these.
        return client.get(
            url_of(campaign), **{f"HTTP_{k.upper().replace('-', '_')}": v for k, v in headers.items()}
        )

    counts = []
    for campaign in (small, large):
        client = organiser_client(campaign, api)
        get(client, campaign)  # warm up: templates, imports
        with CaptureQueriesContext(connection) as captured:
            response = get(client, campaign)
        assert response.status_code == status, (url_of(campaign), response.status_code)
        counts.append(len(captured.captured_queries))
    client = organiser_client(large, api)
    samples, cpu = [], []
    for _ in range(repeats):
        started, started_cpu = time.perf_counter(), time.process_time()
        response = get(client, large)
        samples.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
    return PageTiming(
        queries=(counts[0], counts[1]),
        median_ms=statistics.median(samples),
        p95_ms=statistics.quantiles(samples, n=20, method="inclusive")[-1],
        cpu_median_ms=statistics.median(cpu),
        size_bytes=len(response.content),
    )
