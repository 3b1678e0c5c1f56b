"""The test command behind `make test`.

Under CI=true it installs what is missing (Debian's postgresql, redis-server and
chromium, with apt-get), starts a throw-away PostgreSQL cluster and a Redis
server on free local ports, points the settings at them through DATABASE_URL
and CELERY_BROKER_URL, and runs the whole suite with every service required:
a test that needs one then fails instead of skipping.

Without CI=true it runs the same suite on SQLite and the embedded filesystem
broker, and says so; browser tests run when /usr/bin/chromium exists.
Arguments are passed to pytest (e.g. `make test ARGS=...` or
`.venv/bin/python scripts/test.py tests/rules`).
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
APT_PACKAGES = {"postgresql": "postgres", "redis-server": "redis-server", "chromium": "chromium"}


def say(message: str) -> None:
    print(f"[test] {message}", flush=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def postgres_bin(name: str) -> str | None:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else shutil.which(name)


def missing_packages() -> list[str]:
    missing = []
    if postgres_bin("postgres") is None or postgres_bin("initdb") is None:
        missing.append("postgresql")
    if shutil.which("redis-server") is None:
        missing.append("redis-server")
    if not Path(CHROMIUM).exists():
        missing.append("chromium")
    return missing


def install_packages(packages: list[str]) -> None:
    if not packages:
        return
    if os.geteuid() != 0:
        sys.exit(f"[test] missing Debian packages {packages}; install them (apt-get needs root)")
    say(f"installing Debian packages: {' '.join(packages)}")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(
        ["apt-get", "install", "-y", "-qq", "--no-install-recommends", *packages], check=True, env=env
    )


def as_postgres_user(cmd: list[str]) -> list[str]:
    # PostgreSQL refuses to run as root; CI runs as root.
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *cmd]
    return cmd


def wait_for_port(port: int, what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
            return
        time.sleep(0.2)
    sys.exit(f"[test] {what} did not start on port {port} within {timeout:.0f}s")


@contextlib.contextmanager
def postgres_server() -> Iterator[str]:
    workdir = Path(tempfile.mkdtemp(prefix="zverograd-pg-"))
    data = workdir / "data"
    if os.geteuid() == 0:
        shutil.chown(workdir, "postgres", "postgres")
    port = free_port()
    initdb, pg_ctl = postgres_bin("initdb"), postgres_bin("pg_ctl")
    if initdb is None or pg_ctl is None:
        sys.exit("[test] PostgreSQL's initdb/pg_ctl not found")
    subprocess.run(
        as_postgres_user([initdb, "-D", str(data), "-U", "zverograd", "--auth=trust", "-E", "UTF8"]),
        check=True,
        stdout=subprocess.DEVNULL,
    )
    options = f"-p {port} -k {workdir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off"
    subprocess.run(
        as_postgres_user([pg_ctl, "-D", str(data), "-o", options, "-l", str(workdir / "log"), "-w", "start"]),
        check=True,
        stdout=subprocess.DEVNULL,
    )
    say(f"PostgreSQL running on 127.0.0.1:{port}")
    try:
        yield f"postgres://zverograd@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(as_postgres_user([pg_ctl, "-D", str(data), "-m", "immediate", "stop"]), check=False)
        shutil.rmtree(workdir, ignore_errors=True)


@contextlib.contextmanager
def redis_server() -> Iterator[str]:
    port = free_port()
    proc = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    try:
        wait_for_port(port, "Redis")
        say(f"Redis running on 127.0.0.1:{port}")
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def run_pytest(env: dict[str, str], args: list[str]) -> int:
    cmd = [sys.executable, "-m", "pytest", *args]
    code = subprocess.run(cmd, cwd=ROOT, env=env, check=False).returncode
    if code == 5:  # pytest collected nothing: that is a failure, not a pass
        say("pytest ran no test")
        return 1
    return code


def main(args: list[str]) -> int:
    env = dict(os.environ)
    env.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    (ROOT / "var").mkdir(exist_ok=True)
    if env.get("CI", "").lower() == "true":
        install_packages(missing_packages())
        with postgres_server() as database_url, redis_server() as broker_url:
            env.update(
                DATABASE_URL=database_url,
                CELERY_BROKER_URL=broker_url,
                CELERY_RESULT_BACKEND=broker_url,
                ZVEROGRAD_REQUIRE_SERVICES="1",
                ZVEROGRAD_CHROMIUM=CHROMIUM,
            )
            say("CI=true: PostgreSQL, Redis, a real Celery worker and Chromium are required")
            return run_pytest(env, ["--create-db", *args])
    env.pop("DATABASE_URL", None)
    env.pop("CELERY_BROKER_URL", None)
    env.pop("ZVEROGRAD_EMBEDDED_BROKER_DIR", None)  # the test settings give each run its own
    if Path(CHROMIUM).exists():
        env.setdefault("ZVEROGRAD_CHROMIUM", CHROMIUM)
    say(
        "CI is not true: running on SQLite and the embedded filesystem broker "
        "(browser tests skip without /usr/bin/chromium). Run with CI=true for PostgreSQL and Redis."
    )
    # A fresh test database every run, so a changed migration can never meet a stale schema.
    return run_pytest(env, ["--create-db", *args])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
