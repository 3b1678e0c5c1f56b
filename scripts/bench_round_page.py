"""Benchmark: a round's page of 250 battles at 500 players, as each kind of viewer sees it.

The campaign of scripts/bench_campaign_pages.py (500 players with registered lists,
an open round of 250 battles in every state), made public, with a few rows that
take the template's other branches: a battle from a challenge, one with no
sector, a placeholder side and a name that needs escaping. A small campaign (50
players) is built the same way beside it. The round page is requested through
Django's test client as the organiser, a player in a battle, a player not in
one (a join request) and a visitor, and the organiser before the pairings are
published (the page then also holds the draft's forms): CPU time and wall time (median), and its
queries counted at both sizes (the same number is the point). Target: a CPU
median under 25 ms for the organiser and the player.

``--dump DIR`` writes each viewer's page (CSRF tokens blanked) to DIR, so two
runs, before and after a change, can be compared with ``diff -r``.

    .venv/bin/python scripts/bench_round_page.py [--repeats 30] [--postgres] [--dump DIR] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import re
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import bench_campaign_pages  # noqa: E402
from benchenv import bench_database, django_migrated  # noqa: E402

TARGET_CPU_MS = 25.0
PUBLISHED = datetime(2030, 1, 1, tzinfo=UTC)
_TOKENS = re.compile(r'(name="csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]*"')


def build(name: str, scale: int, snapshot: dict[str, Any]) -> Any:
    """bench_campaign_pages' campaign, public, its pairings published (as on a campaign night: the organiser
    sees the draft only before), with a row for each of the page's other branches."""
    from accounts.models import User
    from campaign.models import Battle, BattleSource, Campaign, Enrolment, Round

    campaign = bench_campaign_pages.build(name, scale, snapshot)
    Campaign.objects.filter(pk=campaign.pk).update(is_public=True)
    # Fixed, so that two runs' pages compare.
    Round.objects.filter(campaign=campaign).update(
        deadline=datetime(2030, 1, 7, 18, 0, tzinfo=UTC), pairings_published_at=PUBLISHED
    )
    campaign.refresh_from_db()
    battles = list(Battle.objects.filter(campaign=campaign).order_by("pk")[:4])
    Battle.objects.filter(pk=battles[0].pk).update(source=BattleSource.CHALLENGE)
    Battle.objects.filter(pk=battles[1].pk).update(sector=None)
    Enrolment.objects.filter(pk=battles[2].defender.pk).update(
        player=None, placeholder_name="Club <member> & co"
    )
    User.objects.filter(enrolments=battles[3].attacker_id).update(
        display_name='Olga "the <b>bold</b>" & O\'Hara'
    )
    return campaign


def viewers(campaign: Any) -> dict[str, Any]:
    """The page's four kinds of viewer: the organiser, a player in a battle, one in none, a visitor."""
    from campaign.models import Battle, BattleStatus, Enrolment, EnrolmentStatus

    # A player with a report waiting on their opponent: the status says so to them, "Reported" to others.
    fighting = (
        Battle.objects.filter(campaign=campaign, status=BattleStatus.REPORTED, pending_result__isnull=True)
        .order_by("pk")
        .first()
    )
    assert fighting is not None
    asking = (
        Enrolment.objects.filter(campaign=campaign, status=EnrolmentStatus.PENDING).order_by("pk").first()
    )
    assert asking is not None
    return {
        "organiser": campaign.organiser,
        "organiser-drafting": campaign.organiser,
        "player": fighting.attacker.player,
        "not-playing": asking.player,
        "visitor": None,
    }


def client_for(user: Any) -> Any:
    from django.test import Client

    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--dump", type=Path, help="write each viewer's page here")
    parser.add_argument("--profile", action="store_true", help="profile the organiser's and player's pages")
    parser.add_argument("--sort", default="cumulative", help="the profile's order: cumulative, tottime")
    args = parser.parse_args()
    with bench_database(args.postgres) as engine_name:
        return run(args, engine_name)


def run(args: argparse.Namespace, engine_name: str) -> int:
    django_migrated()

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from campaign.models import Round

    began = time.perf_counter()
    snapshot = bench_campaign_pages.registered_snapshot()
    large, small = build("large", 1, snapshot), build("small", 10, snapshot)
    built = time.perf_counter() - began

    def url(campaign: Any) -> str:
        return f"/campaigns/{campaign.pk}/rounds/1/"

    print(f"round page: 500 players, 250 battles in the open round, {engine_name} "
          f"(set up in {built:.1f} s), x{args.repeats}")  # fmt: skip
    ok = True
    small_viewers, large_viewers = viewers(small), viewers(large)
    for kind, user in large_viewers.items():
        # Before the pairings are published the organiser's page also holds the draft's forms.
        Round.objects.filter(campaign__in=[small, large], number=1).update(
            pairings_published_at=None if kind == "organiser-drafting" else PUBLISHED
        )
        counts = []
        for campaign, who in ((small, small_viewers[kind]), (large, user)):
            client = client_for(who)
            client.get(url(campaign))  # warm up: templates, imports
            with CaptureQueriesContext(connection) as captured:
                response = client.get(url(campaign))
            assert response.status_code == 200, (kind, response.status_code)
            counts.append(len(captured.captured_queries))
        client = client_for(user)
        wall, cpu = [], []
        for _ in range(args.repeats):
            started, started_cpu = time.perf_counter(), time.process_time()
            response = client.get(url(large))
            wall.append((time.perf_counter() - started) * 1000)
            cpu.append((time.process_time() - started_cpu) * 1000)
        if args.dump:
            args.dump.mkdir(parents=True, exist_ok=True)
            page = _TOKENS.sub(r'\1"', response.content.decode())
            (args.dump / f"{kind}.html").write_text(page)
        if args.profile and kind in ("organiser", "player"):
            profiler = cProfile.Profile()
            profiler.enable()
            for _ in range(5):
                client.get(url(large))
            profiler.disable()
            print(f"--- profile: {kind} (5 requests)")
            pstats.Stats(profiler).sort_stats(args.sort).print_stats(35)
        target = TARGET_CPU_MS if kind in ("organiser", "player") else None
        Round.objects.filter(campaign__in=[small, large], number=1).update(pairings_published_at=PUBLISHED)
        print(f"  as {kind}: CPU median {statistics.median(cpu):.1f} ms   wall median {statistics.median(wall):.1f} ms"
              f"   {len(response.content) / 1024:.0f} KB   queries {counts[0]} at 50 players, {counts[1]} at 500"
              + (f"   (target: CPU median < {target:.0f} ms)" if target else ""))  # fmt: skip
        ok = ok and counts[0] == counts[1] and (target is None or statistics.median(cpu) < target)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
