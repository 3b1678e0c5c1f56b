"""Benchmark: the campaign page of a 500-player campaign, as each kind of viewer sees it.

The campaign of scripts/bench_campaign_pages.py (500 players in three blocs with registered lists, an open
round of 250 battles drawn on the map, join requests; a 50-player one beside it), made public so that a
stranger and a visitor may see it too. The page is requested through Django's test client as the organiser,
an admitted player (who has a battle this round), a stranger (logged in, not enrolled) and an anonymous
visitor: CPU median (``time.process_time``, what the page costs the web worker) and wall median, the queries
at both sizes (the same number is the point), and the size of the answer. Target: under 25 ms of CPU as a
player and as the organiser.

``--html DIR`` writes each viewer's page (after taking out the CSRF token, which changes with every
request, and the minute the lists were registered) to ``DIR/<viewer>.html``, so that two runs, before and
after a change, can be compared with ``diff -r``. ``--profile VIEWER`` prints where the page spends its time
as that viewer (cProfile, 20 requests).

    .venv/bin/python scripts/bench_campaign_page.py [--repeats 30] [--postgres] [--html DIR] [--profile VIEWER]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import bench_campaign_pages  # noqa: E402
from benchenv import bench_database, django_migrated  # noqa: E402

TARGET_CPU_MS = 25.0
# What changes from one request or run to the next: the CSRF token, and the minute the lists were registered.
_VARYING = [
    (re.compile(rb'name="csrfmiddlewaretoken" value="[^"]*"'), b'name="csrfmiddlewaretoken" value=""'),
    (re.compile(rb'"X-CSRFToken": "[^"]*"'), b'"X-CSRFToken": ""'),
    (re.compile(rb"(\d{4}), \d\d:\d\d<"), rb"\1, HH:MM<"),
]


def _steady(page: bytes) -> bytes:
    for pattern, replacement in _VARYING:
        page = pattern.sub(replacement, page)
    return page


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--html", type=Path, help="write each viewer's page to this folder")
    parser.add_argument("--profile", choices=["organiser", "player", "stranger", "anonymous"])
    args = parser.parse_args()
    with bench_database(args.postgres) as engine_name:
        return run(args, engine_name)


def viewers(campaign: Any) -> dict[str, Any]:
    """A client for each kind of viewer of ``campaign``: organiser, an admitted player with a battle, a
    stranger and an anonymous visitor."""
    from django.test import Client

    from accounts.models import User
    from campaign.models import Battle

    player = (
        Battle.objects.filter(campaign=campaign).order_by("pk").values_list("attacker__player", flat=True)[0]
    )
    stranger, _ = User.objects.get_or_create(username=f"stranger-{campaign.pk}")
    clients = {}
    for name, user in (("organiser", campaign.organiser), ("player", User.objects.get(pk=player)),
                       ("stranger", stranger), ("anonymous", None)):  # fmt: skip
        client = Client()
        if user is not None:
            client.force_login(user)
        clients[name] = client
    return clients


def run(args: argparse.Namespace, engine_name: str) -> int:
    django_migrated()

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from campaign.models import Campaign

    began = time.perf_counter()
    snapshot = bench_campaign_pages.registered_snapshot()
    large = bench_campaign_pages.build("large", 1, snapshot)
    small = bench_campaign_pages.build("small", 10, snapshot)
    Campaign.objects.filter(pk__in=[large.pk, small.pk]).update(is_public=True)
    print(f"the campaign page of 500 players with registered lists and 250 battles on the map, {engine_name} "
          f"(set up in {time.perf_counter() - began:.1f} s), x{args.repeats}")  # fmt: skip
    if args.html:
        args.html.mkdir(parents=True, exist_ok=True)
    small_clients, large_clients = viewers(small), viewers(large)
    ok = True
    for name, client in large_clients.items():
        counts = []
        for campaign, each in ((small, small_clients[name]), (large, client)):
            url = f"/campaigns/{campaign.pk}/"
            each.get(url)  # warm up: templates, imports
            with CaptureQueriesContext(connection) as captured:
                response = each.get(url)
            assert response.status_code == 200, (name, response.status_code)
            counts.append(len(captured.captured_queries))
        url = f"/campaigns/{large.pk}/"
        if args.html:
            (args.html / f"{name}.html").write_bytes(_steady(response.content))
        wall, cpu = [], []
        for _ in range(args.repeats):
            started, started_cpu = time.perf_counter(), time.process_time()
            client.get(url)
            wall.append((time.perf_counter() - started) * 1000)
            cpu.append((time.process_time() - started_cpu) * 1000)
        cpu_ms = statistics.median(cpu)
        bound = name in ("organiser", "player")
        print(f"  as {name}: CPU median {cpu_ms:.1f} ms   wall median {statistics.median(wall):.1f} ms   "
              f"{len(response.content) / 1024:.0f} KB   queries {counts[0]} at 50 players, {counts[1]} at 500"
              + (f"   (target: CPU < {TARGET_CPU_MS:.0f} ms)" if bound else ""))  # fmt: skip
        ok = ok and counts[0] == counts[1] and (not bound or cpu_ms < TARGET_CPU_MS)
    if args.profile:
        profiler = cProfile.Profile()
        client, url = large_clients[args.profile], f"/campaigns/{large.pk}/"
        profiler.enable()
        for _ in range(20):
            client.get(url)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(40)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        pstats.Stats(profiler).sort_stats("cumulative").print_callees("campaign_detail|map_panel")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
