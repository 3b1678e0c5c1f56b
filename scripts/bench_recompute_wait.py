"""Benchmark: how long a battle's confirmation waits while the standings of a 500-player campaign recompute.

The campaign is ``bench_standings``'s (500 players, 20 rounds, 20,000 reports),
with reported battles in its open round. Each sample starts a forced
recompute in a process of its own (as the Celery worker runs it), lets it get well into its work, and then records a
battle's result as a confirmation does (the campaign's row locked, the result
recorded with its awards, map and version bump: ``battle_result_record``). It
prints how long the confirmation took and whether it finished before the
recompute did: a recompute that holds a lock the confirmation needs makes it
wait for the rest of the recompute.

    .venv/bin/python scripts/bench_recompute_wait.py [--samples 10] [--postgres]

``--postgres`` runs against a throw-away PostgreSQL cluster (the case that
matters: SQLite has one writer, so there every write waits for any other).
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_standings import REPORTS, build  # noqa: E402
from benchenv import bench_database  # noqa: E402

HEAD_START_S = 0.15  # the confirmation starts this long after the recompute: well inside its ~0.6 s


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--samples", type=int, default=10)
    parser.add_argument("--postgres", action="store_true")
    args = parser.parse_args()
    with bench_database(args.postgres) as engine_name:
        return run(args.samples, engine_name)


def scheduled_battles(campaign: Any, count: int) -> list[Any]:
    from campaign.models import Battle, BattleSource, BattleStatus, Round, sides_recorded

    played = Round.objects.get(campaign=campaign, number=campaign.current_round)
    places = list(campaign.enrolments.order_by("pk")[: 2 * count])
    return Battle.objects.bulk_create(
        Battle(campaign=campaign, round=played, attacker=a, defender=d, mission="hold-the-line", points_limit=150,
               **sides_recorded(attacker=a, defender=d), status=BattleStatus.REPORTED, source=BattleSource.PAIRING)
        for a, d in zip(places[::2], places[1::2], strict=True)
    )  # fmt: skip


def confirm(battle: Any) -> None:
    """What a confirmation does to the campaign: under its row lock, the result recorded and the version bumped."""
    from django.db import transaction

    from campaign.models import Campaign
    from campaign.services.results import battle_result_record

    result = {"winner": "attacker", "draw": False, "decided_by": "victory_points",
              "victory_points": {"attacker": 6, "defender": 2},
              "ap_destroyed": {"attacker": 90, "defender": 40}}  # fmt: skip
    with transaction.atomic():
        Campaign.objects.select_for_update().get(pk=battle.campaign_id)
        battle_result_record(battle=battle, result=result, actor=None, reason="bench confirmation")


def recompute(campaign_id: int, finished: Any) -> None:
    """In a process of its own (forked), as the Celery worker runs it: the recompute, and when it ended."""
    from standings.services import standings_recompute

    standings_recompute(campaign_id=campaign_id, force=True)
    finished.value = time.perf_counter()  # CLOCK_MONOTONIC: the same clock in every process


def run(samples: int, engine_name: str) -> int:
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from config.celery import app
    from standings.services import standings_recompute

    call_command("migrate", verbosity=0)
    app.send_task = lambda *_a, **_k: None  # the benchmark runs the recomputes itself: no worker, no queue
    campaign = build("large", REPORTS, seed=1)
    battles = scheduled_battles(campaign, 2 * samples + 1)
    standings_recompute(campaign_id=campaign.pk)
    confirm(battles[-1])  # warm up: imports, the map's parse cache
    alone = []
    for battle in battles[samples : 2 * samples]:  # the same confirmation with nothing else running
        started = time.perf_counter()
        confirm(battle)
        alone.append((time.perf_counter() - started) * 1000)

    waits, recomputes, first = [], [], 0
    fork = multiprocessing.get_context("fork")
    for battle in battles[:samples]:
        connection.close()  # the recompute's process opens its own, as a worker would
        finished = fork.Value("d", 0.0)
        worker = fork.Process(target=recompute, args=(campaign.pk, finished))
        began = time.perf_counter()
        worker.start()
        time.sleep(HEAD_START_S)
        started = time.perf_counter()
        confirm(battle)
        done = time.perf_counter()
        worker.join()
        assert worker.exitcode == 0, worker.exitcode
        waits.append((done - started) * 1000)
        recomputes.append((finished.value - began) * 1000)
        first += done < finished.value
    print(f"a confirmation while a forced recompute of a 500-player campaign ({REPORTS:,} reports) runs, "
          f"{engine_name}, x{samples}")  # fmt: skip
    print(f"  confirmation: median {statistics.median(waits):.0f} ms, max {max(waits):.0f} ms "
          f"(started {HEAD_START_S * 1000:.0f} ms into the recompute); alone: median "
          f"{statistics.median(alone):.0f} ms")  # fmt: skip
    print(f"  recompute: median {statistics.median(recomputes):.0f} ms; "
          f"the confirmation finished first {first} times of {samples}")  # fmt: skip
    # The target: a confirmation never waits for the recompute, so it ends first every time (its own time
    # depends on how busy the cores are). On SQLite every write waits for any other (one writer): no target.
    return 0 if engine_name != "PostgreSQL" or first == samples else 1


if __name__ == "__main__":
    sys.exit(main())
