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
import tempfile
from collections.abc import Iterator
from pathlib import Path

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
