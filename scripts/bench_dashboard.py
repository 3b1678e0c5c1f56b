"""Benchmark: the organisers' dashboard, its polled panel and endpoint, and the close page at 500 players.

A campaign of 500 players in three blocs (bench_standings' shape) on its 30-sector
grid, in an open round of 250 battles: half scheduled, a fifth reported and waiting
for the opponent, a tenth disputed, the rest agreed and hidden until the close; a
challenge waiting per four players, 100 join requests, and a registered list for
four players in five. A small campaign (50 players) is built the same way beside
it. Each page is requested through Django's test client as the campaign's
organiser, timed, and its queries counted at both sizes (the same number is the
point). Target: a median under 100 ms for the panel poll and the endpoint, under
300 ms for the pages (the close page lists every battle it settles).

    .venv/bin/python scripts/bench_dashboard.py [--repeats 30] [--postgres]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import bench_standings  # noqa: E402
from benchenv import bench_database, django_migrated, organiser_client, time_get  # noqa: E402


def build(name: str, scale: int) -> Any:
    """The campaign (``500 // scale`` players), written with bulk_create; returns it."""
    from django.utils import timezone

    from accounts.models import User
    from armies.models import Catalogue
    from battles.models import BattleReport, ReportStatus
    from campaign.models import (
        Battle,
        BattleSource,
        BattleStatus,
        Campaign,
        Challenge,
        Enrolment,
        EnrolmentStatus,
        Registration,
        Round,
        sides_recorded,
    )  # fmt: skip
    from campaign.options import Status
    from campaign.services.map import campaign_map_load

    catalogue = Catalogue.objects.create(name=f"{name} catalogue", version="1", source=Catalogue.Source.JSON)
    organiser = User.objects.create_user(username=f"{name}-olga")
    campaign = Campaign.objects.create(name=name, organiser=organiser, points_limit=150, catalogue=catalogue)
    campaign_map_load(campaign=campaign, actor=organiser, document=bench_standings.grid_map())
    Campaign.objects.filter(pk=campaign.pk).update(status=Status.RUNNING, current_round=1)
    campaign.refresh_from_db()
    shape = {bloc: count // scale for bloc, count in bench_standings.SHAPE.items()}
    users = User.objects.bulk_create(
        User(username=f"{name}-{bloc.lower()}{n}") for bloc, count in shape.items() for n in range(count)
    )
    blocs = [bloc for bloc, count in shape.items() for _ in range(count)]
    places = Enrolment.objects.bulk_create(
        Enrolment(campaign=campaign, player=user, bloc=bloc, status=EnrolmentStatus.ADMITTED)
        for user, bloc in zip(users, blocs, strict=True)
    )
    asking = User.objects.bulk_create(User(username=f"{name}-asking{n}") for n in range(len(places) // 5))
    Enrolment.objects.bulk_create(
        Enrolment(campaign=campaign, player=user, bloc="Axis", status=EnrolmentStatus.PENDING)
        for user in asking
    )
    round = Round.objects.create(campaign=campaign, number=1, deadline=timezone.now() + timedelta(days=7))
    sectors = list(campaign.sectors.order_by("position"))
    # Pair players of different blocs: the list is ordered by bloc, so n and n + half differ.
    half = len(places) // 2
    pairs = [(places[n], places[n + half]) for n in range(half)]
    states = []
    battles = []
    for n, (attacker, defender) in enumerate(pairs):
        state = ["scheduled"] * 5 + ["waiting"] * 2 + ["disputed", "hidden", "hidden"]
        kind = state[n % 10]
        states.append(kind)
        battles.append(Battle(
            campaign=campaign, round=round, sector=sectors[n % len(sectors)], attacker=attacker, defender=defender,
            **sides_recorded(attacker=attacker, defender=defender), mission="hold-the-line", points_limit=150,
            status=BattleStatus.SCHEDULED if kind == "scheduled" else BattleStatus.REPORTED,
            source=BattleSource.PAIRING,
            pending_result={"winner": "attacker", "draw": False} if kind == "hidden" else None,
            pending_at=timezone.now() if kind == "hidden" else None,
        ))  # fmt: skip
    # A list for every player of a reported battle (its report names both) and for four players in five else.
    reported = {
        p.pk for (a, d), kind in zip(pairs, states, strict=True) if kind != "scheduled" for p in (a, d)
    }
    listed = [place for n, place in enumerate(places) if place.pk in reported or n % 5]
    lists = {
        registration.enrolment_id: registration
        for registration in Registration.objects.bulk_create(
            Registration(campaign=campaign, enrolment=place, name=f"List {place.pk}", bloc=place.bloc, document={},
                         catalogue=catalogue, catalogue_name="Bench", catalogue_version="1", total_ap=150,
                         verdict={"ok": True, "totals": {}, "problems": []})
            for place in listed
        )
    }  # fmt: skip
    battles = Battle.objects.bulk_create(battles)
    BattleReport.objects.bulk_create(
        BattleReport(
            battle=battle, campaign=campaign, attacker_registration=lists[battle.attacker_id],
            defender_registration=lists[battle.defender_id], turns=6, ending="turn_limit", sides={}, judgement={},
            submitted_by=battle.attacker,
            status={"waiting": ReportStatus.SUBMITTED, "disputed": ReportStatus.DISPUTED}.get(
                kind, ReportStatus.CONFIRMED),
            dispute_reason="Not as I remember it" if kind == "disputed" else "",
            disputed_at=timezone.now() if kind == "disputed" else None,
        )
        for battle, kind in zip(battles, states, strict=True)
        if kind != "scheduled"
    )  # fmt: skip
    Challenge.objects.bulk_create(
        Challenge(campaign=campaign, round=round, challenger=a, challenged=d, sector=sectors[0],
                  deadline=round.deadline)
        for a, d in pairs[:: 2]
    )  # fmt: skip
    return campaign


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument("--postgres", action="store_true")
    args = parser.parse_args()
    with bench_database(args.postgres) as engine_name:
        return run(args.repeats, engine_name)


def run(repeats: int, engine_name: str) -> int:
    django_migrated()

    began = time.perf_counter()
    # Battles in closed rounds would not change a count: the dashboard reads the open round only.
    large, small = build("large", 1), build("small", 10)
    built = time.perf_counter() - began

    targets: dict[str, tuple[Callable[[Any], str], bool, float]] = {
        "dashboard page": (lambda c: f"/campaigns/{c.pk}/dashboard/", False, 300.0),
        "panel poll (changed)": (lambda c: f"/campaigns/{c.pk}/dashboard/waits/", False, 100.0),
        "dashboard endpoint": (lambda c: f"/api/campaigns/{c.pk}/dashboard/", True, 100.0),
        "close page": (lambda c: f"/campaigns/{c.pk}/rounds/1/close/", False, 300.0),
        "close preview endpoint": (lambda c: f"/api/campaigns/{c.pk}/rounds/1/close/", True, 300.0),
    }
    print(f"dashboard and close page: 500 players, 250 battles in the open round, {engine_name} "
          f"(set up in {built:.1f} s), x{repeats}")  # fmt: skip
    ok = True
    for name, (url_of, api, target) in targets.items():
        timing = time_get(url_of, api, small, large, repeats)
        print(f"  {name}: median {timing.median_ms:.1f} ms   p95 {timing.p95_ms:.1f} ms   "
              f"(CPU median {timing.cpu_median_ms:.1f} ms)   {timing.size_bytes / 1024:.0f} KB   "
              f"queries {timing.queries[0]} at 50 players, {timing.queries[1]} at 500"
              f"   (target: median < {target:.0f} ms)")  # fmt: skip
        ok = ok and timing.queries[0] == timing.queries[1] and timing.median_ms < target
    # The unchanged poll: the digest the page carries, answered 204.
    client = organiser_client(large, False)
    body = client.get(f"/campaigns/{large.pk}/dashboard/waits/").content.decode()
    digest = body.split("dashboard/waits/?v=", 1)[1].split('"', 1)[0]
    samples = []
    for _ in range(repeats):
        started = time.perf_counter()
        response = client.get(f"/campaigns/{large.pk}/dashboard/waits/", {"v": digest})
        samples.append((time.perf_counter() - started) * 1000)
    assert response.status_code == 204, response.status_code
    print(f"  panel poll (unchanged, 204): median {statistics.median(samples):.1f} ms")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
