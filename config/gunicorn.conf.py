"""gunicorn's settings for production: ``gunicorn config.wsgi -c config/gunicorn.conf.py``, run from the
project's top folder.

Each value has its reason beside it (README "Running in production"); the environment may change the
address and the number of workers and threads, nothing else, so every machine serves alike.

An overloaded site must refuse fast rather than queue: under twice its capacity gunicorn's defaults (a
listen queue of 2048 connections) kept serving requests whose clients had given up 100-130 s earlier
(issue 19), and a short listen queue still let requests wait 21 s at 150 a second (issue 26). The worker
(``config/shedding.py``) bounds how long each request may wait for a thread, polls least and writes most,
and answers the rest at once with 503 and Retry-After.
"""

from __future__ import annotations

import multiprocessing
from pathlib import Path

# Read like every other setting (a .env file included): gunicorn runs from the project's top folder.
from config.env import ConfigurationError, env_int, env_str


def _positive(name: str, default: int) -> int:
    value = env_int(name, default)
    if value < 1:
        raise ConfigurationError(f"{name} must be 1 or more, got {value}")
    return value


# Where to listen: the proxy in front (nginx) connects here. Never 0.0.0.0 by default: the site needs TLS.
bind = env_str("ZVEROGRAD_WEB_BIND", "127.0.0.1:8000")

# Threaded workers, one per core, four threads each. Measured by scripts/bench_worker_class.py on this
# 2-core machine (demo data on PostgreSQL, 8 clients in a closed loop, rounds alternating the candidates,
# other work loading the machine): gthread 2 x 4 served more than sync with 5 workers in each of seven
# paired runs (three with kept-alive client connections): 46-101 requests a second against 28-73, median
# latency 50-99 ms against 86-230 ms;
# gthread 5 x 4 was within the noise of 2 x 4, for more memory and 20 database connections instead of 8.
# One interpreter per core keeps the cores busy and its threads overlap the waits on PostgreSQL and Redis.
# gthread, timing each request's wait for a thread and refusing at once those it cannot serve in time.
worker_class = "config.shedding.SheddingWorker"
workers = _positive("ZVEROGRAD_WEB_WORKERS", multiprocessing.cpu_count())
threads = _positive("ZVEROGRAD_WEB_THREADS", 4)
# Connections a worker holds at once (running, waiting for a thread, or idle kept-alive). The worker takes
# every connection it is offered so that a request waits in its own line, where the wait is timed and
# bounded (a refusal costs it microseconds), not in the kernel's listen queue, where it is not.
worker_connections = 256

# Connections not yet taken by a worker: they stay few now that workers take them at once. When the queue
# is full Linux drops new connection attempts, and nginx gives up after its proxy_connect_timeout (set it to
# 2 s) with a 504.
backlog = 64
# A worker whose main loop has not reported for 30 s is killed and replaced. With threads this does not
# bound one request's time (nginx's proxy_read_timeout does, for the client; the input bounds keep every
# request to seconds at most: README "Input bounds").
timeout = 30
# On a restart (deploy, HUP) a worker finishes the request it serves, up to as long as a request may take.
graceful_timeout = 30
# Replace each worker after about 20,000 requests (jittered so that they never restart together): what a
# worker's memory grew to is given back now and then. Not after 1,000: a worker starts in about 1.5 s of
# CPU (Django, the URLs, the templates) and its caches start empty, so at 50 requests a second each worker
# was replaced every 20 s, a tenth of the site's CPU spent starting workers and one worker of two away
# meanwhile (issue 19). Memory stays bounded without it: every per-process cache is (README "Benchmarks").
max_requests = 20_000
max_requests_jitter = 2_000
# Seconds an idle client connection is kept open for its next request (nginx's upstream keep-alive must
# stay shorter than this); it holds one of worker_connections meanwhile.
keepalive = 5
# The workers' heartbeat files on tmpfs when there is one: a slow disk then never makes the arbiter kill a
# healthy worker.
worker_tmp_dir = "/dev/shm" if Path("/dev/shm").is_dir() else None  # noqa: S108
# Not preloaded: each worker imports the site itself, so no database or Redis connection made while
# loading could be shared by forked processes.
preload_app = False
# No runtime control socket: by default every gunicorn of a user shares one path ($HOME/.gunicorn/), so a
# second server on the machine (scale-out on one host, the load test) would take the first one's. Signals
# (HUP to reload, TERM to stop) do what we need.
control_socket_disable = True
