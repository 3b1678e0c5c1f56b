"""Benchmark: the CPU every request pays before its view does anything, under production settings.

59 % of a campaign night's requests are the two polls that usually bring nothing new: the
header's bell (``/notifications/bell/``, a 304 while the unread count is unchanged) and the
standings status line (``/campaigns/<id>/standings/status/?seen=..&results=..``, a 204 while the
versions are current). What they cost is mostly the stack around the view: the middleware, the
session, the user, the signals. This times them, and a trivial answer (``/api/accounts/me/``, the
logged-in player's account), through Django's WSGI handler as a logged-in player would reach it
behind the TLS proxy (``X-Forwarded-Proto: https``), with ``config.settings.production`` (only
STATIC_ROOT moved, and the static files' manifest left out: none of these answers names a
static file).

Each request is timed in CPU (``time.process_time``, the machine is shared) and wall time; its
queries are counted. ``--profile`` prints cProfile's top functions for the bell and the status line.

    .venv/bin/python scripts/bench_baseline.py [--repeats 500] [--postgres] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchenv import bench_database  # noqa: E402

TARGET_CPU_MS = 3.0
PROXY: dict[str, Any] = {"HTTP_X_FORWARDED_PROTO": "https", "HTTP_HOST": "127.0.0.1"}
HTMX: dict[str, Any] = {"HTTP_HX_REQUEST": "true"}


def _production_settings() -> None:
    """Production's settings, read through a module in a temporary folder that changes only static files."""
    folder = Path(tempfile.mkdtemp(prefix="zverograd-baseline-"))
    (folder / "baseline_settings.py").write_text(
        "from config.settings.production import *  # noqa: F403\n"
        f"STATIC_ROOT = {str(folder / 'static')!r}\n"
        "STORAGES = {**STORAGES, 'staticfiles': "
        "{'BACKEND': 'django.contrib.staticfiles.storage.StaticFilesStorage'}}\n"
    )
    sys.path.insert(0, str(folder))
    os.environ["DJANGO_SETTINGS_MODULE"] = "baseline_settings"
    os.environ.setdefault("DJANGO_SECRET_KEY", secrets.token_urlsafe(60))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=500)
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    with bench_database(args.postgres) as engine_name:
        _production_settings()
        return run(args.repeats, engine_name, profile=args.profile)


def _world() -> tuple[Any, Any]:
    """A running campaign of 20 players, its standings computed; returns it and one of its players."""
    from accounts.models import User
    from armies.blocs import Bloc
    from campaign.models import Campaign, Enrolment, EnrolmentStatus
    from campaign.options import Status
    from standings.services import standings_recompute

    organiser = User.objects.create_user(username="baseline-olga")
    campaign = Campaign.objects.create(name="Baseline", organiser=organiser, points_limit=150)
    players = User.objects.bulk_create(User(username=f"baseline-{n}") for n in range(20))
    Enrolment.objects.bulk_create(
        Enrolment(campaign=campaign, player=user, bloc=list(Bloc)[n % 3],
                  status=EnrolmentStatus.ADMITTED)
        for n, user in enumerate(players)
    )  # fmt: skip
    Campaign.objects.filter(pk=campaign.pk).update(status=Status.RUNNING, current_round=1)
    standings_recompute(campaign_id=campaign.pk)
    campaign.refresh_from_db()
    return campaign, players[0]


def run(repeats: int, engine_name: str, *, profile: bool) -> int:
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from standings.models import Standings

    call_command("migrate", verbosity=0)
    campaign, player = _world()
    client = Client(**PROXY)
    client.force_login(player)
    seen = Standings.objects.get(campaign=campaign).results_version
    status_url = f"/campaigns/{campaign.pk}/standings/status/?seen={seen}&results={campaign.results_version}"
    bell_tag = client.get("/notifications/bell/", **HTMX)["ETag"]
    requests: dict[str, tuple[Callable[[], Any], int]] = {
        "bell (htmx, If-None-Match)": (
            lambda: client.get("/notifications/bell/", **HTMX, HTTP_IF_NONE_MATCH=bell_tag), 304),
        "standings status line (htmx)": (lambda: client.get(status_url, **HTMX), 204),
        "trivial answer (/api/accounts/me/)": (lambda: client.get("/api/accounts/me/"), 200),
    }  # fmt: skip
    print(f"CPU per request, production settings ({settings.SESSION_ENGINE}), {engine_name}, x{repeats}")
    ok = True
    for name, (get, expected) in requests.items():
        for _ in range(20):  # warm up: imports, templates, the kept connection
            assert get().status_code == expected, name
        with CaptureQueriesContext(connection) as captured:
            get()
        queries = [query["sql"][:90] for query in captured.captured_queries]
        cpu, wall = [], []
        for _ in range(repeats):
            started, started_cpu = time.perf_counter(), time.process_time()
            get()
            wall.append((time.perf_counter() - started) * 1000)
            cpu.append((time.process_time() - started_cpu) * 1000)
        median_cpu = statistics.median(cpu)
        print(f"  {name}: {expected}   CPU median {median_cpu:.2f} ms   wall median "
              f"{statistics.median(wall):.2f} ms   {len(queries)} queries   (target < {TARGET_CPU_MS} ms)")  # fmt: skip
        for sql in queries:
            print(f"      {sql}")
        if expected != 200:
            ok = ok and median_cpu < TARGET_CPU_MS
        if profile and expected != 200:
            profiler = cProfile.Profile()
            profiler.enable()
            for _ in range(repeats):
                get()
            profiler.disable()
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(45)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
