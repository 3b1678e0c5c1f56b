"""A connection per request against persistent connections: GETs through gunicorn on PostgreSQL.

Starts a throwaway PostgreSQL server (as the test command does), migrates it and loads the demo, then
serves the site with gunicorn (``config/gunicorn.conf.py``, one worker of four threads) twice: with
``ZVEROGRAD_DB_CONN_MAX_AGE=0`` (Django's default, what the site did before: a new connection for every
request) and with the project's default of 60 s, both at once, taking turns in blocks of 20 GETs one
after another; PostgreSQL counts the sessions each block opened. The dev settings with DEBUG off serve
here: they need neither ``collectstatic`` nor TLS, and read the database settings from base.py as production does.

    .venv/bin/python scripts/bench_connections.py [--requests 200]
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import requests
from benchenv import bench_database

ROOT = Path(__file__).resolve().parent.parent
BLOCK = 20
PAGES = {
    "the campaigns page": "/campaigns/",
    "the demo campaign's page": None,
    "the health endpoint": "/api/health/",
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout


class SessionCount:
    """How many sessions PostgreSQL has opened on the database, read through one connection of its own."""

    def __init__(self, url: str) -> None:
        self.connection = psycopg.connect(url.replace("postgres://", "postgresql://", 1), autocommit=True)

    def __call__(self) -> int:
        sql = "SELECT sessions FROM pg_stat_database WHERE datname = current_database()"
        row = self.connection.execute(sql).fetchone()
        assert row is not None
        return int(row[0])


def demo_campaign_path(env: dict[str, str]) -> str:
    shown = "from campaign.models import Campaign; print(Campaign.objects.order_by('pk').first().pk)"
    return f"/campaigns/{manage(env, 'shell', '-c', shown).strip().splitlines()[-1]}/"


def start_gunicorn(
    env: dict[str, str], options: tuple[str, ...] | list[str] = ()
) -> tuple[subprocess.Popen[bytes], int]:
    """gunicorn with the project's conf file (and ``options`` after it) on a free port, once it answers."""
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi", "-c", "config/gunicorn.conf.py", *options],
        cwd=ROOT, env={**env, "ZVEROGRAD_WEB_BIND": f"127.0.0.1:{port}"},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while True:
        try:
            requests.get(f"http://127.0.0.1:{port}/campaigns/", timeout=10)
            return server, port
        except requests.RequestException:
            if time.monotonic() > deadline:
                sys.exit("gunicorn did not answer within 60 s")
            time.sleep(0.2)


def start_server(env: dict[str, str], max_age: int) -> tuple[subprocess.Popen[bytes], int]:
    return start_gunicorn({**env, "ZVEROGRAD_DB_CONN_MAX_AGE": str(max_age), "ZVEROGRAD_WEB_WORKERS": "1"})


def time_block(sessions_opened: SessionCount, port: int, path: str, count: int) -> tuple[list[float], int]:
    """``count`` GETs of ``path``, one after another: their times (ms) and the connections they opened."""
    before = sessions_opened()
    samples = []
    for _ in range(count):
        started = time.perf_counter()
        answer = requests.get(f"http://127.0.0.1:{port}{path}", timeout=30)
        samples.append((time.perf_counter() - started) * 1000)
        assert answer.status_code in (200, 503), (path, answer.status_code)
    return samples, sessions_opened() - before


def compare(env: dict[str, str], paths: dict[str, str], count: int) -> None:
    """Both servers at once, taking turns in blocks of 20 requests, so that the machine's other load
    weighs on both alike."""
    servers = {max_age: start_server(env, max_age) for max_age in (0, 60)}
    count_sessions = SessionCount(env["DATABASE_URL"])
    try:
        for name, path in paths.items():
            samples: dict[int, list[float]] = {0: [], 60: []}
            opened = {0: 0, 60: 0}
            for _ in range(max(1, count // BLOCK)):
                for max_age, (_server, port) in servers.items():
                    times, sessions = time_block(count_sessions, port, path, BLOCK)
                    samples[max_age] += times
                    opened[max_age] += sessions
            for max_age, times in samples.items():
                p95 = statistics.quantiles(times, n=20, method="inclusive")[-1]
                print(
                    f"CONN_MAX_AGE={max_age:<3} {name:<26} median {statistics.median(times):6.1f} ms, "
                    f"p95 {p95:6.1f} ms, {opened[max_age]} connections opened for {len(times)} requests",
                    flush=True,
                )
    finally:
        for server, _port in servers.values():
            server.terminate()
            server.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--requests", type=int, default=200)
    count = parser.parse_args().requests
    with bench_database(postgres=True):
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.dev", "DJANGO_DEBUG": "false"}
        manage(env, "migrate", "--noinput")
        manage(env, "seed_demo")
        paths = {name: path or demo_campaign_path(env) for name, path in PAGES.items()}
        compare(env, paths, count)


if __name__ == "__main__":
    main()
