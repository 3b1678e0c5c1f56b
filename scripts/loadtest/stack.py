"""The production setup on this machine, in a temporary folder, each server on a free port of 127.0.0.1:
PostgreSQL 15 (a throwaway cluster), Redis, gunicorn, one Celery worker and beat.

Every process starts in a process group of its own and `Stack.close` stops each group (politely, then
for good) and removes the folder, whatever happened; the caller also registers it with atexit. Nothing is
written outside the folder: the settings are production's (`config.settings.production`) read through a
module in the folder that only moves STATIC_ROOT into it, since collectstatic would otherwise write to the
checkout's `staticfiles/`.
"""

from __future__ import annotations

import contextlib
import glob
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
GUNICORN_CONF = ROOT / "config" / "gunicorn.conf.py"
HOST = "127.0.0.1"
TICK = os.sysconf("SC_CLK_TCK")
# Settings a developer may set in the calling shell to try them (a connection age, a worker count): they
# reach every process, except the ones the load test sets itself.
PASSED_ON = ("ZVEROGRAD_", "DJANGO_", "CELERY_", "GUNICORN_", "WEB_CONCURRENCY")


def say(message: str) -> None:
    print(f"[load] {message}", flush=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def pg_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/15/bin/{name}")) or sorted(
        glob.glob(f"/usr/lib/postgresql/*/bin/{name}")
    )
    if not found:
        raise SystemExit(
            f"[load] PostgreSQL's {name} not found under /usr/lib/postgresql (apt-get install postgresql)"
        )
    return found[-1]


def as_postgres(cmd: list[str]) -> list[str]:
    # PostgreSQL refuses to run as root.
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


def gunicorn_command(port: int) -> list[str]:
    """The one gunicorn command line: the project's conf file when it has one, else three sync workers."""
    tuning = ["-c", str(GUNICORN_CONF)] if GUNICORN_CONF.exists() else ["--workers", "3"]
    return [str(BIN / "gunicorn"), "config.wsgi", *tuning, "--bind", f"{HOST}:{port}"]


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                tree.setdefault(int(fields[1]), []).append(int(entry.name))
    return tree


def tree_cpu_seconds(root: int) -> float:
    """CPU time of ``root`` and every process under it, the ones that ended included (their parent counts
    them once it has reaped them, as PostgreSQL's postmaster does a backend's)."""
    tree, total, todo = _children(), 0, [root]
    while todo:
        pid = todo.pop()
        todo += tree.get(pid, [])
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += sum(int(value) for value in fields[11:15])  # utime, stime, cutime, cstime
    return total / TICK


class Stack:
    """The servers; `start()` brings them all up, `close()` stops them and removes the folder."""

    def __init__(self, log: Callable[[str], None] = say) -> None:
        self.log = log
        self.folder = Path(tempfile.mkdtemp(prefix="zverograd-load-"))
        self.processes: dict[str, subprocess.Popen[bytes]] = {}
        self.web_port = free_port()
        self.env: dict[str, str] = {}
        self.closed = False

    def _spawn(self, name: str, cmd: list[str], env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
        logfile = (self.folder / f"{name}.log").open("ab")
        process = subprocess.Popen(
            cmd, cwd=self.folder, env=env, stdout=logfile, stderr=subprocess.STDOUT, start_new_session=True
        )
        logfile.close()
        self.processes[name] = process
        return process

    def _wait_port(self, port: int, name: str, seconds: float = 30.0) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.processes[name].poll() is not None:
                raise RuntimeError(f"{name} stopped while starting:\n{self.log_tail(name)}")
            with contextlib.suppress(OSError), socket.create_connection((HOST, port), timeout=1):
                return
            time.sleep(0.1)
        raise RuntimeError(f"{name} did not listen on port {port} within {seconds:.0f} s")

    def log_tail(self, name: str, lines: int = 30) -> str:
        path = self.folder / f"{name}.log"
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:]) if path.exists() else ""

    def start_postgres(self) -> str:
        pg = self.folder / "pg"
        pg.mkdir()
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")
            shutil.chown(pg, "postgres", "postgres")
        subprocess.run(as_postgres([pg_bin("initdb"), "-D", str(pg / "data"), "-U", "zverograd", "--auth=trust",
                                    "-E", "UTF8"]), check=True, stdout=subprocess.DEVNULL, timeout=120)  # fmt: skip
        port = free_port()
        self._spawn("postgresql", as_postgres([pg_bin("postgres"), "-D", str(pg / "data"), "-p", str(port),
                                               "-k", str(pg), "-c", f"listen_addresses={HOST}",
                                               "-c", "log_min_duration_statement=500"]))  # fmt: skip
        self._wait_port(port, "postgresql")
        return f"postgres://zverograd@{HOST}:{port}/postgres"

    def start_redis(self) -> str:
        port = free_port()
        self._spawn("redis", ["redis-server", "--port", str(port), "--bind", HOST, "--save", "",
                              "--appendonly", "no"])  # fmt: skip
        self._wait_port(port, "redis")
        return f"redis://{HOST}:{port}/0"

    def settings_env(self, database_url: str, redis_url: str) -> dict[str, str]:
        """The environment config/settings/*.py read, for production behind a TLS proxy on this machine."""
        (self.folder / "loadtest_settings.py").write_text(
            "from config.settings.production import *  # noqa: F403\n"
            f"STATIC_ROOT = {str(self.folder / 'static')!r}\n"
        )
        passed = {name: value for name, value in os.environ.items() if name.startswith(PASSED_ON)}
        return {
            **passed,
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self.folder),
            "LANG": "C.UTF-8",
            "PYTHONPATH": f"{self.folder}{os.pathsep}{ROOT}",
            "DJANGO_SETTINGS_MODULE": "loadtest_settings",
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
            "DJANGO_ALLOWED_HOSTS": HOST,
            "DJANGO_LOG_LEVEL": "WARNING",
            "DATABASE_URL": database_url,
            "CELERY_BROKER_URL": redis_url,
            "ZVEROGRAD_MEDIA_ROOT": str(self.folder / "media"),
            "ZVEROGRAD_CACHE_DIR": str(self.folder / "cache"),
            "ZVEROGRAD_EMBEDDED_BROKER_DIR": str(self.folder / "celery"),
            "ZVEROGRAD_SITE_URL": f"https://{HOST}:{self.web_port}",
            "EMAIL_URL": "consolemail://",
        }

    def manage(self, *args: str, seconds: float = 600) -> None:
        self.run("manage", [str(BIN / "python"), str(ROOT / "manage.py"), *args], seconds)

    def run(self, name: str, cmd: list[str], seconds: float) -> None:
        with (self.folder / f"{name}.log").open("ab") as logfile:
            done = subprocess.run(cmd, cwd=self.folder, env=self.env, stdout=logfile, stderr=subprocess.STDOUT,
                                  timeout=seconds, check=False)  # fmt: skip
        if done.returncode:
            raise RuntimeError(f"{' '.join(cmd[1:3])} failed:\n{self.log_tail(name)}")

    def start(self, world: Callable[[Stack], None]) -> None:
        """PostgreSQL and Redis, the schema and static files, ``world`` (which fills the database), then
        the web server, the worker and beat; returns once /health/ answers 200 (the worker's heartbeat)."""
        database_url, redis_url = self.start_postgres(), self.start_redis()
        self.env = self.settings_env(database_url, redis_url)
        tried = sorted(name for name in self.env if name.startswith(PASSED_ON) and name in os.environ)
        if tried:
            self.log(f"from the shell: {', '.join(f'{name}={self.env[name]}' for name in tried)}")
        began = time.perf_counter()
        self.manage("migrate", "--noinput")
        self.manage("collectstatic", "--noinput")
        self.log(f"PostgreSQL and Redis up, migrated in {time.perf_counter() - began:.0f} s")
        world(self)
        command = gunicorn_command(self.web_port)
        self.log(f"web: {' '.join(command[1:])}")
        self._spawn("gunicorn", command, self.env)
        self._spawn("worker", [str(BIN / "celery"), "-A", "config", "worker", "--loglevel=WARNING"], self.env)
        self._spawn("beat", [str(BIN / "celery"), "-A", "config", "beat", "--loglevel=WARNING",
                             "--pidfile", str(self.folder / "beat.pid")], self.env)  # fmt: skip
        self._wait_port(self.web_port, "gunicorn")
        self.wait_healthy()

    def wait_healthy(self, seconds: float = 90.0) -> None:
        deadline = time.monotonic() + seconds
        url = f"http://{HOST}:{self.web_port}/health/"
        while time.monotonic() < deadline:
            for name, process in self.processes.items():
                if process.poll() is not None:
                    raise RuntimeError(f"{name} stopped:\n{self.log_tail(name)}")
            request = urllib.request.Request(url, headers={"X-Forwarded-Proto": "https"})
            with contextlib.suppress(OSError), urllib.request.urlopen(request, timeout=5) as answer:  # noqa: S310
                if answer.status == 200:
                    return
            time.sleep(0.5)
        raise RuntimeError(f"/health/ did not answer 200 within {seconds:.0f} s (the worker's heartbeat?)")

    def cpu_seconds(self) -> dict[str, float]:
        """CPU time so far of each server (gunicorn and its workers, PostgreSQL and its backends...)."""
        parts = {"gunicorn": "gunicorn", "postgresql": "postgresql", "worker": "worker"}
        return {part: tree_cpu_seconds(self.processes[name].pid) for part, name in parts.items()}

    def close(self) -> None:
        """Stop every process group (TERM, then KILL after 15 s) and remove the folder; safe to call twice."""
        if self.closed:
            return
        self.closed = True
        for name, process in reversed(list(self.processes.items())):
            if process.poll() is None:
                # PostgreSQL's fast shutdown is SIGINT; SIGTERM would wait for its clients.
                sent = signal.SIGINT if name == "postgresql" else signal.SIGTERM
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, sent)
                try:
                    process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    with contextlib.suppress(ProcessLookupError):
                        os.killpg(process.pid, signal.SIGKILL)
                    process.wait(timeout=5)
            # What a group left behind (a backend, a pool child) goes too.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
        shutil.rmtree(self.folder, ignore_errors=True)
