"""Benchmark: generating a round's pairings through the service, 500 players in three blocs after 10 rounds.

Where ``bench_pairing.py`` times the pure engine, this times what an organiser
waits for: ``campaign.services.pairings.pairings_generate``, which locks the
campaign, reads the free players and every earlier battle and bye from the
database, works out the fronts on the campaign's map, runs the engine and
stores the draft (replacing the last one). Against a throw-away SQLite
database: a running campaign on the default map with 500 admitted players
(170 Allies, 165 Axis, 165 SSU), 10 earlier rounds played through the services
(opened, generated, published, closed: byes, roles and opponents are what a
real campaign would have), then the eleventh round open. Prints the median and
p95 of generating its pairings; the target is under 1 s.

    .venv/bin/python scripts/bench_pairing_service.py [--repeats 20]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchenv import bench_sqlite  # noqa: E402

TARGET_S = 1.0
SHAPE = {"Allies": 170, "Axis": 165, "SSU": 165}
EARLIER_ROUNDS = 10


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args()
    bench_sqlite()

    import django

    django.setup()
    from django.core.management import call_command
    from django.utils import timezone

    from accounts.models import User
    from campaign.models import Battle, BattleStatus, Bye, Campaign, Enrolment, EnrolmentStatus, Round
    from campaign.options import Status
    from campaign.services.map import campaign_map_load
    from campaign.services.pairings import pairings_generate, pairings_publish
    from campaign.services.rounds import round_close, round_open

    call_command("migrate", verbosity=0)
    organiser = User.objects.create_user(username="olga")
    campaign = Campaign.objects.create(name="Bench", organiser=organiser, points_limit=150)
    campaign_map_load(campaign=campaign, actor=organiser)
    # Accounts without e-mail addresses: players are told in the site, and no mail is queued.
    users = User.objects.bulk_create(
        User(username=f"{bloc.lower()}{n}") for bloc, count in SHAPE.items() for n in range(count)
    )
    blocs = [bloc for bloc, count in SHAPE.items() for _ in range(count)]
    Enrolment.objects.bulk_create(
        Enrolment(campaign=campaign, player=user, bloc=bloc, status=EnrolmentStatus.ADMITTED)
        for user, bloc in zip(users, blocs, strict=True)
    )
    Campaign.objects.filter(pk=campaign.pk).update(status=Status.RUNNING)
    campaign.refresh_from_db()

    def next_round() -> Round:
        return round_open(campaign=campaign, actor=organiser, deadline=timezone.now() + timedelta(days=7))

    started = time.perf_counter()
    for _ in range(EARLIER_ROUNDS):
        played = next_round()
        pairings_generate(round=played, actor=organiser)
        pairings_publish(round=played, actor=organiser)
        round_close(round=played, actor=organiser)
    history = time.perf_counter() - started
    current = next_round()
    pairings_generate(round=current, actor=organiser)  # warm up: imports, the map's parse cache
    samples = []
    for _ in range(args.repeats):
        began = time.perf_counter()
        pairings_generate(round=current, actor=organiser)
        samples.append(time.perf_counter() - began)
    drafted = Battle.objects.filter(round=current, status=BattleStatus.DRAFT)
    no_sector = drafted.filter(sector__isnull=True).count()
    byes = Bye.objects.filter(round=current, published=False).count()
    median = statistics.median(samples)
    p95 = statistics.quantiles(samples, n=20, method="inclusive")[-1]
    shape = "/".join(str(count) for count in SHAPE.values())
    print(f"pairings_generate, {sum(SHAPE.values())} players ({shape}) on the default map after "
          f"{EARLIER_ROUNDS} rounds (set up in {history:.1f} s), SQLite, x{args.repeats}")  # fmt: skip
    print(f"  {drafted.count()} battles ({no_sector} without a sector), {byes} byes")
    print(f"  median {median * 1000:.0f} ms   p95 {p95 * 1000:.0f} ms   (target: < {TARGET_S:.0f} s)")
    return 0 if p95 < TARGET_S else 1


if __name__ == "__main__":
    sys.exit(main())
