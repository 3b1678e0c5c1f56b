"""Benchmark: the CPU gunicorn spends per poll, on the load test's production stack (PostgreSQL, Redis).

scripts/bench_baseline.py times the polls through Django's handler; this one asks a real gunicorn
(config/gunicorn.conf.py, production settings, kept PostgreSQL connections) over HTTP as the load test
does (a connection per request, ``X-Forwarded-Proto: https``, the player's session cookie), one request
at a time, and reads the CPU time gunicorn's processes and PostgreSQL's used meanwhile from /proc: what a
poll costs the machine, the WSGI server's own work included.

``--profile`` runs gunicorn with one worker and one thread and profiles the CPU time of its two threads
(the main one accepting connections, the one handling each: parsing, the WSGI application, writing the
answer), then prints the top functions (the profiler's own cost included: compare shares, not totals).

``--before main`` also serves that commit's code (``git archive``) from a second gunicorn on the same
database and Redis, the two taking turns: before and after on one machine at one time, whatever else
loads it.

    .venv/bin/python scripts/bench_baseline_gunicorn.py [--requests 1000] [--before main] [--profile]
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import pstats
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

SCRIPTS = Path(__file__).resolve().parent
ROOT = SCRIPTS.parent
sys.path[:0] = [str(ROOT), str(SCRIPTS)]

from loadtest.stack import BIN, HOST, Stack, free_port, gunicorn_command, say, tree_cpu_seconds  # noqa: E402

ROUNDS = 10
Figures = tuple[float, float, float]
PROFILE_CONF = """
import cProfile, time
exec(open({conf!r}).read())
workers = 1
threads = 1
max_requests = 0
# CPU time of each thread: the main one (accepting, polling) and the one that handles requests (parsing,
# the WSGI application, writing the answer).
_main = cProfile.Profile(time.thread_time)
_handler = cProfile.Profile(time.thread_time)

def post_worker_init(worker):
    _main.enable()
    handle = worker.handle

    def profiled(conn):
        _handler.enable()
        try:
            return handle(conn)
        finally:
            _handler.disable()

    worker.handle = profiled

def worker_exit(server, worker):
    _main.disable()
    _main.dump_stats({out!r} + ".main")
    _handler.dump_stats({out!r})
"""


def world() -> None:
    """Run in the stack's environment: a running campaign of 20 players, its standings computed, and a
    logged-in session for one player; prints what the client needs as JSON."""
    import django

    django.setup()
    from loadtest.world import session_for

    from accounts.models import User
    from armies.blocs import Bloc
    from campaign.models import Campaign, Enrolment, EnrolmentStatus
    from campaign.options import Status
    from standings.models import Standings
    from standings.services import standings_recompute

    organiser = User.objects.create_user(username="baseline-olga")
    campaign = Campaign.objects.create(name="Baseline", organiser=organiser, points_limit=150)
    players = User.objects.bulk_create(User(username=f"baseline-{n}") for n in range(20))
    Enrolment.objects.bulk_create(
        Enrolment(campaign=campaign, player=user, bloc=list(Bloc)[n % 3], status=EnrolmentStatus.ADMITTED)
        for n, user in enumerate(players)
    )
    Campaign.objects.filter(pk=campaign.pk).update(status=Status.RUNNING, current_round=1)
    standings_recompute(campaign_id=campaign.pk)
    campaign.refresh_from_db()
    seen = Standings.objects.get(campaign=campaign).results_version
    print(json.dumps({
        "session": session_for(players[0]),
        "status": f"/campaigns/{campaign.pk}/standings/status/?seen={seen}&results={campaign.results_version}",
    }))  # fmt: skip


def get(port: int, path: str, headers: dict[str, str]) -> tuple[int, dict[str, str]]:
    """One GET on a connection of its own (as the load test's client), read to the end."""
    with socket.create_connection((HOST, port)) as sock:
        head = [f"GET {path} HTTP/1.1", f"Host: {HOST}:{port}", "Connection: close",
                "X-Forwarded-Proto: https", *(f"{k}: {v}" for k, v in headers.items())]  # fmt: skip
        sock.sendall(("\r\n".join(head) + "\r\n\r\n").encode())
        raw = b""
        while chunk := sock.recv(65536):
            raw += chunk
    lines = raw.partition(b"\r\n\r\n")[0].decode("latin-1").split("\r\n")
    found = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), found


def _round(stack: Stack, server: str, port: int, path: str, sent: dict[str, str], requests: int) -> Figures:
    """Ask ``path`` of ``server`` ``requests`` times; returns its CPU, PostgreSQL's and the wall time, in ms
    per request."""
    web, pg = (tree_cpu_seconds(stack.processes[name].pid) for name in (server, "postgresql"))
    began = time.perf_counter()
    for _ in range(requests):
        get(port, path, sent)
    wall = time.perf_counter() - began
    web_after, pg_after = (tree_cpu_seconds(stack.processes[name].pid) for name in (server, "postgresql"))
    return ((web_after - web) / requests * 1000, (pg_after - pg) / requests * 1000, wall / requests * 1000)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--before", metavar="REF", help="also serve this commit's code (e.g. main), compared")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--world", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.world:
        world()
        return 0
    stack = Stack()
    atexit.register(stack.close)
    try:
        return run(stack, args.requests, args.before, args.profile)
    finally:
        stack.close()


def _serve(stack: Stack, name: str, code: Path, port: int, profile: Path | None) -> None:
    """gunicorn as the load test starts it, serving the code under ``code`` on ``port``."""
    command = gunicorn_command(port)
    conf = code / "config" / "gunicorn.conf.py"
    if profile is not None:
        (stack.folder / "profile.conf.py").write_text(PROFILE_CONF.format(conf=str(conf), out=str(profile)))
        conf = stack.folder / "profile.conf.py"
    command[command.index("-c") + 1] = str(conf)
    env = {**stack.env, "PYTHONPATH": f"{stack.folder}{os.pathsep}{code}"}
    stack._spawn(name, command, env)
    stack._wait_port(port, name)


def run(stack: Stack, requests: int, before: str | None, profile: bool) -> int:
    stack.env = stack.settings_env(stack.start_postgres(), stack.start_redis())
    stack.manage("migrate", "--noinput")
    made = subprocess.run([str(BIN / "python"), __file__, "--world"], env=stack.env, cwd=stack.folder,
                          capture_output=True, text=True, check=True, timeout=300)  # fmt: skip
    found: dict[str, Any] = json.loads(made.stdout.strip().splitlines()[-1])
    stats = stack.folder / "gunicorn.prof"
    servers = {"this checkout": stack.web_port}
    _serve(stack, "this checkout", ROOT, stack.web_port, stats if profile else None)
    if before:
        exported = stack.folder / "before"
        exported.mkdir()
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", before], capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(exported)], input=archive.stdout, check=True)
        servers[before] = free_port()
        _serve(stack, before, exported, servers[before], None)
    cookie = {"Cookie": f"sessionid={found['session']}; csrftoken={'x' * 32}"}
    htmx = {**cookie, "HX-Request": "true"}
    status, headers = get(stack.web_port, "/notifications/bell/", htmx)
    assert status == 200, status
    polls = {
        "bell (htmx, If-None-Match)": (
            "/notifications/bell/",
            {**htmx, "If-None-Match": headers["etag"]},
            304,
        ),
        "standings status line (htmx)": (found["status"], htmx, 204),
        "trivial answer (/api/accounts/me/)": ("/api/accounts/me/", cookie, 200),
    }
    say(
        f"gunicorn -c config/gunicorn.conf.py ({', '.join(servers)}); {ROUNDS} rounds of {requests // ROUNDS} "
        "requests of each, one at a time, servers and polls taking turns; medians of the rounds"
    )
    for port in servers.values():
        for path, sent, expected in polls.values():
            for _ in range(50):  # warm up every worker and thread: imports, kept connections
                assert get(port, path, sent)[0] == expected, path
    figures: dict[tuple[str, str], list[Figures]] = {(s, p): [] for s in servers for p in polls}
    for _ in range(ROUNDS):
        for server, port in servers.items():
            for name, (path, sent, _expected) in polls.items():
                figures[server, name].append(_round(stack, server, port, path, sent, requests // ROUNDS))
    for name, (_path, _sent, expected) in polls.items():
        print(f"  {name}: {expected}")
        for server in servers:
            web_ms, pg_ms, wall = (
                statistics.median(part) for part in zip(*figures[server, name], strict=True)
            )
            print(f"    {server:>14}: gunicorn CPU {web_ms:.2f} ms   PostgreSQL CPU {pg_ms:.2f} ms   "
                  f"wall {wall:.2f} ms per request")  # fmt: skip
    if profile:
        os.killpg(stack.processes["this checkout"].pid, 15)
        stack.processes["this checkout"].wait(timeout=30)
        say("the thread handling requests (CPU time), by cumulative time, then by own time:")
        pstats.Stats(str(stats)).sort_stats("cumulative").print_stats(45)
        pstats.Stats(str(stats)).sort_stats("tottime").print_stats(30)
        say("the worker's main thread (CPU time):")
        pstats.Stats(f"{stats}.main").sort_stats("tottime").print_stats(15)
    return 0


if __name__ == "__main__":
    sys.exit(main())
