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

``--battles N`` asks, as the load test does, the pages of N battles of the round in turn (each
viewer's role the same in each: the side's player is that battle's attacker), rather than one page
again and again: each battle highlights its own sector on the map, so a drawing kept per sector
highlighted is rarely found. ``--html DIR`` writes each viewer's page of each battle (the CSRF token
and the times of day taken out, which change from one run to the next) to ``DIR``, for a ``diff -r``
of two runs, before and after a change. ``--move-every K`` has a sector change hands every K requests
(outside the time measured), as a campaign night's confirmations move the front line while its battle
pages are read: every drawing of the map kept before is then of no use.

    .venv/bin/python scripts/bench_battle_page.py [--repeats 40] [--postgres] [--battles 20] [--html DIR]
        [--move-every 2] [--profile player]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import re
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
# What changes from one run to the next: the CSRF token, and the times the lists and reports were made.
_VARYING = [
    (re.compile(rb'name="csrfmiddlewaretoken" value="[^"]*"'), b'name="csrfmiddlewaretoken" value=""'),
    (re.compile(rb'"X-CSRFToken": "[^"]*"'), b'"X-CSRFToken": ""'),
    (re.compile(rb"(\d{4}), \d\d:\d\d<"), rb"\1, HH:MM<"),
    (re.compile(rb'datetime="[^"]*"'), b'datetime=""'),
]


def _steady(page: bytes) -> bytes:
    for pattern, replacement in _VARYING:
        page = pattern.sub(replacement, page)
    return page


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=40)
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--profile", choices=VIEWERS)
    parser.add_argument("--battles", type=int, default=1, help="ask the pages of this many battles in turn")
    parser.add_argument("--html", type=Path, help="write each viewer's page of each battle to this folder")
    parser.add_argument("--move-every", type=int, default=0, help="a sector changes hands every K requests")
    args = parser.parse_args()
    if args.html and args.move_every:
        parser.error("--html compares pages of one state of the map: leave --move-every out")
    with bench_database(args.postgres) as engine_name:
        return run(
            args.repeats,
            engine_name,
            args.profile,
            battles=args.battles,
            html=args.html,
            move_every=args.move_every,
        )


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


def front_line(campaign: Any) -> Callable[[], None]:
    """A step of the front line: each call gives a sector that is no headquarters to the next bloc."""
    from campaign.models import Sector

    sectors = list(Sector.objects.filter(campaign=campaign, headquarters_of="").order_by("position"))
    blocs = ["Allies", "Axis", "SSU", ""]
    moves = iter(range(10**9))

    def move() -> None:
        n = next(moves)
        sector = sectors[n % len(sectors)]
        Sector.objects.filter(pk=sector.pk).update(owner=blocs[(n // len(sectors)) % len(blocs)])

    return move


def run(
    repeats: int, engine_name: str, profile: str | None, *, battles: int, html: Path | None, move_every: int
) -> int:
    django_migrated()

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from campaign.models import Battle, BattleStatus, Campaign

    snapshot = bench_campaign_pages.registered_snapshot()
    large, small = (bench_campaign_pages.build(n, s, snapshot) for n, s in (("large", 1), ("small", 10)))
    Campaign.objects.filter(pk__in=[large.pk, small.pk]).update(is_public=True)
    # A battle whose report waits for the opponent: the page shows both sides' lists and the report.
    first: dict[int, Any] = {
        c.pk: Battle.objects.filter(campaign=c, status=BattleStatus.REPORTED, pending_result__isnull=True)
        .select_related("attacker__player")
        .order_by("pk")
        .first()
        for c in (small, large)
    }
    # Then the round's other battles with a sector, in every state, each viewer the same to each.
    others = list(
        Battle.objects.filter(campaign=large, sector__isnull=False)
        .exclude(pk=first[large.pk].pk)
        .exclude(status=BattleStatus.DRAFT)
        .select_related("attacker__player")
        .order_by("pk")[: max(battles - 1, 0)]
    )
    asked = [first[large.pk], *others]
    url_of: Callable[[Any, Any], str] = lambda c, b: f"/campaigns/{c.pk}/battles/{b.pk}/"  # noqa: E731
    small_viewers = clients(small, first[small.pk])
    large_viewers = [clients(large, battle) for battle in asked]
    turn = f", then {len(asked) - 1} other battles in turn" if len(asked) > 1 else ""
    if move_every:
        turn += f", a sector changing hands every {move_every} requests"
    move = front_line(large)
    print(f"battle page (a report waiting for the opponent{turn}), 500 players with registered lists, "
          f"{engine_name}, x{repeats}")  # fmt: skip
    if html:
        html.mkdir(parents=True, exist_ok=True)
    ok = True
    for viewer in VIEWERS:
        counts = []
        for campaign, battle, client in (
            (small, first[small.pk], small_viewers[viewer]),
            (large, first[large.pk], large_viewers[0][viewer]),
        ):
            client.get(url_of(campaign, battle))  # warm up: templates, imports
            with CaptureQueriesContext(connection) as captured:
                response = client.get(url_of(campaign, battle))
            assert response.status_code == 200, (viewer, response.status_code)
            counts.append(len(captured.captured_queries))
        requests = [
            (large_viewers[i % len(asked)][viewer], url_of(large, asked[i % len(asked)]))
            for i in range(repeats)
        ]
        if html:
            for battle, made in zip(asked, large_viewers, strict=True):
                page = made[viewer].get(url_of(large, battle)).content
                name = re.sub(r"\W+", "-", viewer)
                (html / f"{name}-{battle.pk}.html").write_bytes(_steady(page))
        if profile == viewer:
            profiler = cProfile.Profile()
            profiler.enable()
            for n, (client, url) in enumerate(requests):
                if move_every and n % move_every == 0:
                    profiler.disable()
                    move()
                    profiler.enable()
                client.get(url)
            profiler.disable()
            ours = (
                r"/(campaign|battles|core|armies|accounts)/|forms/(widgets|boundfield|renderers)|loader_tags"
            )
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(ours, 40)
            continue
        wall, cpu = [], []
        for n, (client, url) in enumerate(requests):
            if move_every and n % move_every == 0:
                move()
            started, started_cpu = time.perf_counter(), time.process_time()
            response = client.get(url)
            wall.append((time.perf_counter() - started) * 1000)
            cpu.append((time.process_time() - started_cpu) * 1000)
            assert response.status_code == 200, (viewer, url, response.status_code)
        print(f"  {viewer}: median {statistics.median(wall):.1f} ms   CPU median {statistics.median(cpu):.1f} ms "
              f"(least {min(cpu):.1f})   "
              f"{len(response.content) / 1024:.0f} KB   queries {counts[0]} at 50 players, {counts[1]} at 500"
              f"   (target: CPU < {TARGET_CPU_MS:.0f} ms)")  # fmt: skip
        ok = ok and counts[0] == counts[1] and statistics.median(cpu) < TARGET_CPU_MS
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
