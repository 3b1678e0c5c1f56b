"""Benchmark: a report's submission and its confirmation through the API, in a 500-player campaign.

The load test's campaign (scripts/loadtest/world.py: 500 players in three blocs, a
real registered list each on the demo catalogue, round 1 open with 250 scheduled
battles), and a 50-player one built the same way beside it. Battle after battle,
its attacker submits the load test's report (``POST /api/campaigns/<id>/battles/<bid>/report/``)
and its defender confirms it (``POST .../report/confirm/``), each through DRF's test
client logged in as that player. The first two battles of each campaign warm up
and count the queries (the same number at both sizes is the point); the rest of
the large campaign's are timed: CPU (``time.process_time``, what the request costs
the web process) and wall time, median and p95. Target: each under 25 ms of CPU on
PostgreSQL.

    .venv/bin/python scripts/bench_report_writes.py [--repeats 60] [--postgres] [--profile submit|confirm]
"""

from __future__ import annotations

import argparse
import cProfile
import logging
import os
import pstats
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "scripts"), str(ROOT / "scripts" / "loadtest")]

from benchenv import bench_database, django_migrated  # noqa: E402

TARGET_CPU_MS = 25.0
KINDS = ("submit", "confirm")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=60)
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--profile", choices=KINDS, help="print where that request's time goes (cProfile)")
    args = parser.parse_args()
    with bench_database(args.postgres) as engine_name:
        return run(min(args.repeats, 240), engine_name, args.profile)


def _client(user_id: int) -> Any:
    from rest_framework.test import APIClient

    from accounts.models import User

    client = APIClient()
    client.force_login(User.objects.get(pk=user_id))
    return client


def _requests(world: dict[str, Any]) -> Any:
    """Yields, battle after battle, a pair of callables: its submission and its confirmation."""
    from drive import REPORT

    for battle in world["battles"]:
        path = f"/api/campaigns/{world['id']}/battles/{battle['id']}/report/"
        body = {**REPORT, "attacker_registration": battle["attacker_registration"],
                "defender_registration": battle["defender_registration"]}  # fmt: skip
        players = world["players"]
        attacker, defender = _client(players[battle["attacker"]]), _client(players[battle["defender"]])

        def submit(client: Any = attacker, path: str = path, body: dict[str, Any] = body) -> Any:
            return client.post(path, body, format="json")

        def confirm(client: Any = defender, path: str = path) -> Any:
            return client.post(f"{path}confirm/", format="json")

        yield {"submit": (submit, 201), "confirm": (confirm, 200)}


def _counted(call: Any, status: int) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        response = call()
    assert response.status_code == status, (response.status_code, response.content[:500])
    if os.environ.get("BENCH_SHOW_QUERIES"):
        for query in captured.captured_queries:
            print("   ", query["sql"][:300])
    return len(captured.captured_queries)


def run(repeats: int, engine_name: str, profile: str | None) -> int:
    django_migrated()

    import world as world_builder

    from armies.services.demo import demo_catalogue_load

    logging.getLogger("axes").setLevel(logging.WARNING)  # a line for every log-in of a player
    began = time.perf_counter()
    catalogue = demo_catalogue_load()
    large = world_builder.build(1, catalogue, "!", sessions=False)
    small = world_builder.build(2, catalogue, "!", scale=10, sessions=False)
    built = time.perf_counter() - began

    queries: dict[str, list[int]] = {kind: [] for kind in KINDS}
    for world in (small, large):
        steps = _requests(world)
        next(steps)["submit"][0]()  # warm up: imports, the first judgement
        step = next(steps)
        for kind in KINDS:
            queries[kind].append(_counted(*step[kind]))
    timed: dict[str, list[float]] = {kind: [] for kind in KINDS}
    wall: dict[str, list[float]] = {kind: [] for kind in KINDS}
    profiler = cProfile.Profile() if profile else None
    for _, step in zip(range(repeats), steps, strict=False):
        for kind in KINDS:
            call, status = step[kind]
            if profiler and kind == profile:
                profiler.enable()
            started, started_cpu = time.perf_counter(), time.process_time()
            response = call()
            cpu = (time.process_time() - started_cpu) * 1000
            elapsed = (time.perf_counter() - started) * 1000
            if profiler and kind == profile:
                profiler.disable()
            assert response.status_code == status, (kind, response.status_code, response.content[:500])
            timed[kind].append(cpu)
            wall[kind].append(elapsed)

    print(f"report writes: 500 players with registered lists, 250 battles in the open round, {engine_name} "
          f"(set up in {built:.1f} s), x{repeats}")  # fmt: skip
    ok = True
    for kind in KINDS:
        cpu_ms, spent = timed[kind], wall[kind]
        p95 = statistics.quantiles(cpu_ms, n=20, method="inclusive")[-1]
        print(f"  {kind}: CPU median {statistics.median(cpu_ms):.1f} ms   p95 {p95:.1f} ms   "
              f"(wall median {statistics.median(spent):.1f} ms)   queries {queries[kind][0]} at 50 players, "
              f"{queries[kind][1]} at 500   (target: CPU median < {TARGET_CPU_MS:.0f} ms)")  # fmt: skip
        ok = ok and queries[kind][0] == queries[kind][1] and statistics.median(cpu_ms) < TARGET_CPU_MS
    if profiler:
        stats = pstats.Stats(profiler).sort_stats(os.environ.get("BENCH_SORT", "cumulative"))
        stats.print_stats(int(os.environ.get("BENCH_ROWS", "45")))
        if os.environ.get("BENCH_CALLERS"):
            stats.print_callers(os.environ["BENCH_CALLERS"])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
