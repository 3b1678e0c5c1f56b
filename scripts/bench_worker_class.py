"""Which gunicorn workers serve more: sync processes or threaded ones, on PostgreSQL with the demo data.

Starts a throwaway PostgreSQL server, migrates it and loads the demo, then serves the site with
``config/gunicorn.conf.py`` and each candidate's worker class, count and threads in turn (rounds
alternate the candidates, so that the machine's other load weighs on each alike). In each run 8 clients
ask the campaigns page, the demo campaign's page and ``/health/`` in turn, one request after another
each (a closed loop, a new connection per request as nginx opens them by default), for 15 s after a 3 s
warm-up. Prints requests a second and the median and p95 latency of every run.

    .venv/bin/python scripts/bench_worker_class.py [--rounds 2] [--seconds 15]
"""

from __future__ import annotations

import argparse
import os
import statistics
import threading
import time
from pathlib import Path

import requests
from bench_connections import demo_campaign_path, manage, start_gunicorn
from benchenv import bench_database

ROOT = Path(__file__).resolve().parent.parent
CLIENTS = 8
CANDIDATES = {
    # --threads 1: with more threads gunicorn quietly runs sync as gthread.
    "sync, 5 workers (2 per core + 1)": ["--worker-class", "sync", "--workers", "5", "--threads", "1"],
    "gthread, 2 workers x 4 threads": ["--worker-class", "gthread", "--workers", "2", "--threads", "4"],
    "gthread, 5 workers x 2 threads": ["--worker-class", "gthread", "--workers", "5", "--threads", "2"],
    "gthread, 5 workers x 4 threads": ["--worker-class", "gthread", "--workers", "5", "--threads", "4"],
}


def closed_loop(port: int, paths: list[str], seconds: float) -> tuple[float, float, float]:
    """Requests a second, median and p95 latency (ms) of ``CLIENTS`` clients asking ``paths`` in turn."""
    latencies: list[float] = []
    stop = time.monotonic() + seconds

    def client(first: int) -> None:
        turn = first
        while time.monotonic() < stop:
            started = time.perf_counter()
            requests.get(f"http://127.0.0.1:{port}{paths[turn % len(paths)]}", timeout=30)
            latencies.append((time.perf_counter() - started) * 1000)
            turn += 1

    clients = [threading.Thread(target=client, args=(number,)) for number in range(CLIENTS)]
    for running in clients:
        running.start()
    for running in clients:
        running.join()
    p95 = statistics.quantiles(latencies, n=20, method="inclusive")[-1]
    return len(latencies) / seconds, statistics.median(latencies), p95


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=15.0)
    options = parser.parse_args()
    with bench_database(postgres=True):
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.dev", "DJANGO_DEBUG": "false"}
        manage(env, "migrate", "--noinput")
        manage(env, "seed_demo")
        paths = ["/campaigns/", demo_campaign_path(env), "/api/health/"]
        for round_number in range(1, options.rounds + 1):
            for name, gunicorn_options in CANDIDATES.items():
                server, port = start_gunicorn(env, gunicorn_options)
                try:
                    closed_loop(port, paths, 3.0)  # warm-up: imports, templates, connections
                    served, median, p95 = closed_loop(port, paths, options.seconds)
                finally:
                    server.terminate()
                    server.wait(timeout=30)
                load = Path("/proc/loadavg").read_text().split()[0]
                print(
                    f"round {round_number} {name:<34} {served:6.1f} requests/s, median {median:5.0f} ms, "
                    f"p95 {p95:5.0f} ms (load {load})",
                    flush=True,
                )


if __name__ == "__main__":
    main()
