"""Benchmark: recomputing the standings of a 500-player campaign with 20 rounds and 20,000 confirmed reports.

The campaign is written straight to a throw-away database with bulk_create (no
services): 500 admitted players (170 Allies, 165 Axis, 165 SSU, two factions a
bloc), a 30-sector grid map, 20 rounds of 1,000 battles each (3 % of them
forfeited, the rest confirmed: wins, losses and draws with victory points and AP
destroyed), five sector changes and an income entry per bloc a round, and 50
adjustments. Then ``standings.services.standings_recompute`` (forced, so every
run does the whole work: every round's table, ranked with the default
tiebreakers, head to head included) is timed; the target is under 2 s.

It also counts the recompute's queries at 2,000 and at 20,000 reports (the
same number is the point), and times once a naive recompute, the first version
anyone writes: a loop over the battles as ORM objects, reading each one's
round, players and report as it goes, as the ratio to the real one.

    .venv/bin/python scripts/bench_standings.py [--repeats 10] [--postgres]

``--postgres`` runs against a throw-away PostgreSQL cluster (as ``CI=true make
test`` starts one); without it, SQLite.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchenv import bench_database  # noqa: E402

TARGET_S = 2.0
SHAPE = {"Allies": 170, "Axis": 165, "SSU": 165}
ROUNDS = 20
REPORTS = 20_000
GRID = (6, 5)  # columns, rows: 30 sectors


def grid_map() -> dict[str, Any]:
    """A 6 x 5 grid of sectors, each next to the ones beside it; the headquarters in three corners."""
    columns, rows = GRID
    hq = {(0, 0): "Axis", (columns - 1, 0): "SSU", (columns // 2, rows - 1): "Allies"}

    def key(c: int, r: int) -> str:
        return f"grid-{c}-{r}"

    sectors = []
    for r in range(rows):
        for c in range(columns):
            near = [(c + dc, r + dr) for dc, dr in ((-1, 0), (1, 0), (0, -1), (0, 1))]
            owner = hq.get((c, r))
            sectors.append({
                "key": key(c, r), "name": f"Block {c}-{r}", "terrain": "urban", "value": 1 + (c + r) % 3,
                "x": 50 + c * 150, "y": 50 + r * 120,
                "neighbours": [key(x, y) for x, y in near if 0 <= x < columns and 0 <= y < rows],
                "owner": owner, "headquarters_of": owner, "fortification": "none",
            })  # fmt: skip
    return {"format": "zverograd-map", "version": 1, "name": "Bench grid", "width": 1000, "height": 700,
            "sectors": sectors}  # fmt: skip


def build(name: str, reports: int, seed: int) -> Any:
    """The campaign, written with bulk_create; returns it."""
    from django.utils import timezone

    from accounts.models import User
    from campaign.models import (
        Battle,
        BattleSource,
        BattleStatus,
        Campaign,
        Enrolment,
        EnrolmentStatus,
        EntryKind,
        LogEntry,
        LogKind,
        ResourceEntry,
        Round,
        sides_recorded,
    )  # fmt: skip
    from campaign.options import Status
    from campaign.services.map import campaign_map_load
    from standings.models import Adjustment

    rng = random.Random(seed)
    organiser = User.objects.create_user(username=f"{name}-olga")
    campaign = Campaign.objects.create(name=name, organiser=organiser, points_limit=150)
    campaign_map_load(campaign=campaign, actor=organiser, document=grid_map())
    users = User.objects.bulk_create(
        User(username=f"{name}-{bloc.lower()}{n}") for bloc, count in SHAPE.items() for n in range(count)
    )
    blocs = [bloc for bloc, count in SHAPE.items() for _ in range(count)]
    places = Enrolment.objects.bulk_create(
        Enrolment(
            campaign=campaign,
            player=user,
            bloc=bloc,
            faction=f"{bloc.lower()}-{n % 2}",
            status=EnrolmentStatus.ADMITTED,
        )
        for n, (user, bloc) in enumerate(zip(users, blocs, strict=True))
    )
    deadline = timezone.now() + timedelta(days=7)
    rounds = Round.objects.bulk_create(
        Round(campaign=campaign, number=n, deadline=deadline, status="closed" if n < ROUNDS else "open")
        for n in range(1, ROUNDS + 1)
    )
    battles = []
    for played in rounds:
        for _ in range(reports // ROUNDS):
            attacker, defender = rng.sample(places, 2)
            roll = rng.random()
            if roll < 0.03:
                battles.append(Battle(campaign=campaign, round=played, attacker=attacker, defender=defender,
                                      **sides_recorded(attacker=attacker, defender=defender),
                                      mission="hold-the-line", points_limit=150, status=BattleStatus.FORFEITED,
                                      source=BattleSource.PAIRING))  # fmt: skip
                continue
            winner = "attacker" if roll < 0.5 else "defender" if roll < 0.9 else None
            vp = {"attacker": rng.randint(0, 9), "defender": rng.randint(0, 9)}
            ap = {"attacker": rng.randint(0, 200), "defender": rng.randint(0, 200)}
            result = {"winner": winner, "draw": winner is None, "decided_by": "victory_points",
                      "victory_points": vp, "ap_destroyed": ap}  # fmt: skip
            battles.append(Battle(
                campaign=campaign, round=played, attacker=attacker, defender=defender, mission="hold-the-line",
                **sides_recorded(attacker=attacker, defender=defender), points_limit=150,
                status=BattleStatus.CONFIRMED, source=BattleSource.PAIRING, result=result,
                winner={"attacker": attacker, "defender": defender}.get(winner or ""),
            ))  # fmt: skip
    Battle.objects.bulk_create(battles, batch_size=1000)
    keys = [s["key"] for s in grid_map()["sectors"] if s["headquarters_of"] is None]
    LogEntry.objects.bulk_create(
        LogEntry(
            campaign=campaign,
            kind=LogKind.SECTOR_CHANGED,
            subject=f"sector:{rng.choice(keys)}",
            field="owner",
            before="",
            after=rng.choice(list(SHAPE)),
            round_number=n,
            map_version=campaign.map_version,
            cause="result",
        )
        for n in range(1, ROUNDS + 1)
        for _ in range(5)
    )
    ResourceEntry.objects.bulk_create(
        ResourceEntry(
            campaign=campaign,
            bloc=bloc,
            amount=rng.randint(3, 9),
            kind=EntryKind.INCOME,
            reason=f"Round {n} income",
            round_number=n,
        )
        for n in range(1, ROUNDS + 1)
        for bloc in SHAPE
    )
    Adjustment.objects.bulk_create(
        Adjustment(
            campaign=campaign,
            enrolment=rng.choice(places),
            points=rng.choice([-2, -1, 1, 2]),
            reason="bench",
            round_number=rng.randint(1, ROUNDS),
        )
        for _ in range(50)
    )
    Campaign.objects.filter(pk=campaign.pk).update(
        status=Status.RUNNING, current_round=ROUNDS, results_version=1
    )
    campaign.refresh_from_db()
    return campaign


def naive_recompute(campaign: Any) -> int:
    """The standings now as a first attempt computes them: one ORM object per battle, its relations read
    one by one. Returns the number of players ranked."""
    from campaign.models import Battle, BattleStatus
    from standings import engine

    scoring = engine.Scoring(campaign.points_win, campaign.points_draw, campaign.points_loss)
    records: dict[int, engine.PlayerRecord] = {}
    for battle in Battle.objects.filter(campaign=campaign, status__in=[BattleStatus.CONFIRMED,
                                                                     BattleStatus.FORFEITED]):  # fmt: skip
        _round = battle.round.number
        sides = {"attacker": battle.attacker, "defender": battle.defender}
        reporter = getattr(getattr(battle, "report", None), "submitted_by_id", None)
        for side, place in sides.items():
            other = sides["defender" if side == "attacker" else "attacker"]
            record = records.get(place.pk, engine.PlayerRecord(place.pk))
            if battle.status == BattleStatus.FORFEITED:
                outcome = "win" if reporter == place.pk else "loss"
            else:
                result = battle.result or {}
                outcome = "draw" if result["draw"] else "win" if result["winner"] == side else "loss"
            record = engine.with_result(record, scoring, result=outcome, opponent=other.pk)
            if battle.result:
                mine, theirs = side, "defender" if side == "attacker" else "attacker"
                vp, ap = battle.result["victory_points"], battle.result["ap_destroyed"]
                record = engine.PlayerRecord(
                    **{**record.__dict__, "vp_for": record.vp_for + vp[mine],
                       "vp_against": record.vp_against + vp[theirs], "ap_destroyed": record.ap_destroyed + ap[mine]}
                )  # fmt: skip
            records[place.pk] = record
    return len(engine.rank_players(records.values(), campaign.tiebreakers))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--postgres", action="store_true")
    args = parser.parse_args()
    with bench_database(args.postgres) as engine_name:
        return run(args.repeats, engine_name)


def run(repeats: int, engine_name: str) -> int:
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from standings.models import Standings
    from standings.services import standings_recompute

    call_command("migrate", verbosity=0)
    began = time.perf_counter()
    large = build("large", REPORTS, seed=1)
    small = build("small", REPORTS // 10, seed=2)
    built = time.perf_counter() - began

    def queries(campaign: Any) -> int:
        with CaptureQueriesContext(connection) as captured:
            standings_recompute(campaign_id=campaign.pk, force=True)
        return len(captured.captured_queries)

    for campaign in (small, large):  # warm up: imports, the map's parse cache, the standings' first row
        standings_recompute(campaign_id=campaign.pk)
    samples = []
    for _ in range(repeats):
        started = time.perf_counter()
        standings_recompute(campaign_id=large.pk, force=True)
        samples.append(time.perf_counter() - started)
    small_queries, large_queries = queries(small), queries(large)
    started = time.perf_counter()
    ranked = naive_recompute(large)
    naive = time.perf_counter() - started
    stored = Standings.objects.get(campaign=large)
    median = statistics.median(samples)
    p95 = statistics.quantiles(samples, n=20, method="inclusive")[-1] if len(samples) > 1 else samples[0]
    shape = "/".join(str(count) for count in SHAPE.values())
    print(f"standings_recompute, {sum(SHAPE.values())} players ({shape}), {GRID[0] * GRID[1]} sectors, "
          f"{ROUNDS} rounds, {stored.reports_counted:,} confirmed reports + {stored.forfeits_counted} forfeits, "
          f"{engine_name} (set up in {built:.1f} s), x{repeats}")  # fmt: skip
    print(f"  median {median * 1000:.0f} ms   p95 {p95 * 1000:.0f} ms   (target: < {TARGET_S:.0f} s)")
    print(f"  queries: {small_queries} at {REPORTS // 10:,} reports, {large_queries} at {REPORTS:,}")
    print(f"  naive per-report ORM recompute (the standings now only, {ranked} players): {naive:.1f} s, "
          f"{naive / median:.0f}x the real one")  # fmt: skip
    return 0 if p95 < TARGET_S and small_queries == large_queries else 1


if __name__ == "__main__":
    sys.exit(main())
