"""Benchmark: the pages of a campaign night at 500 players whose lists are registered whole.

The campaign of scripts/bench_dashboard.py (500 players in three blocs, an open
round of 250 battles in every state, join requests, challenges), except that
each registered list carries what a real registration carries: the document,
the unit cards, the AP paid per entry and the verdict of the largest list the
demo registers (the demo is seeded first, and its snapshot copied). A small
campaign (50 players) is built the same way beside it, and both get their
standings computed once. Each page of the campaign-night mix is then requested
through Django's test client as the campaign's organiser, timed (median and
p95, wall and CPU), and its queries counted at both sizes (the same number is
the point). Target: a median under 60 ms for the campaign page and the
dashboard.

    .venv/bin/python scripts/bench_campaign_pages.py [--repeats 20] [--postgres]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import bench_dashboard  # noqa: E402
from benchenv import bench_database, django_migrated, time_get  # noqa: E402

TARGETS_MS = {"campaign page": 60.0, "dashboard page": 60.0}


def registered_snapshot() -> dict[str, Any]:
    """The JSON columns of the demo's largest registered list (the demo is seeded for it)."""
    from campaign.models import Registration
    from core.demo import demo_data_seed

    demo_data_seed()
    columns = ("document", "profiles", "costs", "terms", "verdict")
    rows = Registration.objects.values_list(*columns)
    return dict(zip(columns, max(rows, key=lambda row: len(json.dumps(row))), strict=True))


def build(name: str, scale: int, snapshot: dict[str, Any]) -> Any:
    """bench_dashboard's campaign, its registered lists given ``snapshot`` for their JSON columns."""
    from campaign.models import Registration

    campaign = bench_dashboard.build(name, scale)
    Registration.objects.filter(campaign=campaign).update(**snapshot)
    return campaign


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--postgres", action="store_true")
    args = parser.parse_args()
    with bench_database(args.postgres) as engine_name:
        return run(args.repeats, engine_name)


def run(repeats: int, engine_name: str) -> int:
    django_migrated()

    from campaign.models import Battle, BattleStatus
    from standings.services import standings_recompute

    began = time.perf_counter()
    snapshot = registered_snapshot()
    large, small = build("large", 1, snapshot), build("small", 10, snapshot)
    for campaign in (small, large):
        standings_recompute(campaign_id=campaign.pk)
    built = time.perf_counter() - began
    # A battle whose report waits for the opponent: the page shows both sides' lists and the report.
    reported = {
        c.pk: Battle.objects.filter(campaign=c, status=BattleStatus.REPORTED, pending_result__isnull=True)
        .order_by("pk")
        .values_list("pk", flat=True)
        .first()
        for c in (small, large)
    }

    pages: dict[str, Callable[[Any], str]] = {
        "campaign page": lambda c: f"/campaigns/{c.pk}/",
        "dashboard page": lambda c: f"/campaigns/{c.pk}/dashboard/",
        "panel poll (changed)": lambda c: f"/campaigns/{c.pk}/dashboard/waits/",
        "round page": lambda c: f"/campaigns/{c.pk}/rounds/1/",
        "battle page": lambda c: f"/campaigns/{c.pk}/battles/{reported[c.pk]}/",
        "standings page": lambda c: f"/campaigns/{c.pk}/standings/",
    }
    size = len(json.dumps(snapshot)) / 1024
    print(f"campaign-night pages: 500 players with registered lists ({size:.0f} KB of JSON each), "
          f"250 battles in the open round, {engine_name} (set up in {built:.1f} s), x{repeats}")  # fmt: skip
    ok = True
    for name, url_of in pages.items():
        timing = time_get(url_of, False, small, large, repeats)
        target = TARGETS_MS.get(name)
        print(f"  {name}: median {timing.median_ms:.1f} ms   p95 {timing.p95_ms:.1f} ms   "
              f"(CPU median {timing.cpu_median_ms:.1f} ms)   {timing.size_bytes / 1024:.0f} KB   "
              f"queries {timing.queries[0]} at 50 players, {timing.queries[1]} at 500"
              + (f"   (target: median < {target:.0f} ms)" if target else ""))  # fmt: skip
        ok = ok and timing.queries[0] == timing.queries[1] and (target is None or timing.median_ms < target)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
