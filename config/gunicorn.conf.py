"""gunicorn's settings for production: ``gunicorn config.wsgi -c config/gunicorn.conf.py``, run from the
project's top folder.

Each value has its reason beside it (README "Running in production"); the environment may change the
address and the number of workers, nothing else, so every machine serves alike.

An overloaded site must refuse fast rather than queue: under twice its capacity gunicorn's defaults (a
listen queue of 2048 connections) kept serving requests whose clients had given up 100-130 s earlier
(issue 19). A short queue and a bounded request time turn the excess into a quick refusal at the proxy.
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

# sync workers, one request at a time each: our requests are CPU-bound (about 75 ms of CPU, a third as much
# waiting on PostgreSQL), so threads sharing one interpreter lock would only overlap the waits, while
# separate processes use every core. nginx buffers slow clients, so a sync worker never waits on one.
worker_class = "sync"
# Two per core and one: while one worker waits on PostgreSQL or Redis another computes, so the cores stay
# busy; more only adds memory (about 120 MB each) and PostgreSQL connections (one kept per worker).
workers = _positive("ZVEROGRAD_WEB_WORKERS", 2 * multiprocessing.cpu_count() + 1)

# Connections waiting for a free worker: 64 is about 2 s of work at the rates this machine serves, so a
# request waits seconds, not minutes behind 2048. When the queue is full Linux drops new connection
# attempts, and nginx gives up after its proxy_connect_timeout (set it to 2 s) with a 504.
backlog = 64
# The slowest legitimate request (a large export, the heaviest exact odds) takes a few seconds; a worker
# stuck for 30 s is killed and replaced rather than holding its slot.
timeout = 30
# On a restart (deploy, HUP) a worker finishes the request it serves, up to as long as a request may take.
graceful_timeout = 30
# Replace each worker after about a thousand requests (jittered so that they never restart together): a
# large page's memory is given back to the system instead of kept for the process's life.
max_requests = 1000
max_requests_jitter = 100
# Seconds an idle client connection is kept open; only threaded workers keep one (sync closes after each
# answer), and nginx's upstream keep-alive must stay shorter than this.
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
