"""Benchmark: a battle's page in a 500-player campaign whose lists are registered whole, as each viewer.

The campaign of scripts/bench_campaign_pages.py (500 players, an open round of
250 battles in every state, every registered list carrying the demo's largest
snapshot), made public so a visitor may see it too. A battle whose report
waits for the opponent is requested through Django's test client as its
organiser, the attacker (a side's player, who sees the list check and the
report's actions), a player in another battle and an anonymous visitor; each
viewer's queries are counted at 50 and 500 players and the large campaign's
page timed (median wall and CPU). ``--profile VIEWER`` prints cProfile's top
functions for that viewer instead. Target: a CPU median under 8 ms.

    .venv/bin/python scripts/bench_battle_page.py [--repeats 40] [--postgres] [--profile player]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import bench_campaign_pages  # noqa: E402
from benchenv import bench_database, django_migrated  # noqa: E402

TARGET_CPU_MS = 8.0
VIEWERS = ("organiser", "side's player", "another player", "anonymous")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=40)
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--profile", choices=VIEWERS)
    args = parser.parse_args()
    with bench_database(args.postgres) as engine_name:
        return run(args.repeats, engine_name, args.profile)


def clients(campaign: Any, battle: Any) -> dict[str, Any]:
    """A client per viewer of ``battle``: logged in as its organiser, its attacker, a player elsewhere, nobody."""
    from django.test import Client

    from campaign.models import Enrolment

    elsewhere = (
        Enrolment.objects.filter(campaign=campaign)
        .exclude(pk__in=[battle.attacker_id, battle.defender_id])
        .exclude(player__isnull=True)
        .order_by("pk")
        .first()
    )
    users = {
        "organiser": campaign.organiser,
        "side's player": battle.attacker.player,
        "another player": elsewhere.player if elsewhere else None,
        "anonymous": None,
    }
    made = {}
    for viewer, user in users.items():
        client = Client()
        if user is not None:
            client.force_login(user)
        made[viewer] = client
    return made


def run(repeats: int, engine_name: str, profile: str | None) -> int:
    django_migrated()

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from campaign.models import Battle, BattleStatus, Campaign

    snapshot = bench_campaign_pages.registered_snapshot()
    large, small = (bench_campaign_pages.build(n, s, snapshot) for n, s in (("large", 1), ("small", 10)))
    Campaign.objects.filter(pk__in=[large.pk, small.pk]).update(is_public=True)
    # A battle whose report waits for the opponent: the page shows both sides' lists and the report.
    battles: dict[int, Any] = {
        c.pk: Battle.objects.filter(campaign=c, status=BattleStatus.REPORTED, pending_result__isnull=True)
        .select_related("attacker__player")
        .order_by("pk")
        .first()
        for c in (small, large)
    }
    url_of: Callable[[Any], str] = lambda c: f"/campaigns/{c.pk}/battles/{battles[c.pk].pk}/"  # noqa: E731
    viewers = {c.pk: clients(c, battles[c.pk]) for c in (small, large)}
    print(f"battle page (a report waiting for the opponent), 500 players with registered lists, {engine_name}, "
          f"x{repeats}")  # fmt: skip
    ok = True
    for viewer in VIEWERS:
        counts = []
        for campaign in (small, large):
            client = viewers[campaign.pk][viewer]
            client.get(url_of(campaign))  # warm up: templates, imports
            with CaptureQueriesContext(connection) as captured:
                response = client.get(url_of(campaign))
            assert response.status_code == 200, (viewer, response.status_code)
            counts.append(len(captured.captured_queries))
        client = viewers[large.pk][viewer]
        if profile == viewer:
            profiler = cProfile.Profile()
            profiler.enable()
            for _ in range(repeats):
                client.get(url_of(large))
            profiler.disable()
            ours = (
                r"/(campaign|battles|core|armies|accounts)/|forms/(widgets|boundfield|renderers)|loader_tags"
            )
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(ours, 40)
            continue
        wall, cpu = [], []
        for _ in range(repeats):
            started, started_cpu = time.perf_counter(), time.process_time()
            response = client.get(url_of(large))
            wall.append((time.perf_counter() - started) * 1000)
            cpu.append((time.process_time() - started_cpu) * 1000)
        print(f"  {viewer}: median {statistics.median(wall):.1f} ms   CPU median {statistics.median(cpu):.1f} ms "
              f"(least {min(cpu):.1f})   "
              f"{len(response.content) / 1024:.0f} KB   queries {counts[0]} at 50 players, {counts[1]} at 500"
              f"   (target: CPU < {TARGET_CPU_MS:.0f} ms)")  # fmt: skip
        ok = ok and counts[0] == counts[1] and statistics.median(cpu) < TARGET_CPU_MS
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
