"""Benchmark: exporting and importing a 500-player campaign with 20 rounds and 20,000 confirmed reports.

The campaign is scripts/bench_standings.py's (500 players, 30 sectors, 20 rounds,
20,000 battles, 3 % forfeited), with what an export must also carry: a
registered list per player (a snapshot of about 3 KB: document, profiles,
costs, verdict), a battle report per confirmed battle, and the log entry that
recorded each result (so the import's replay has its order). Then, timed:
``campaign_export`` and ``json.dumps`` (the download), and the import job as
the worker runs it (``exchange.jobs.import_run``: read, check, write), the round
trip's target being under 30 s. The job runs in a fresh interpreter, whose peak
resident memory is the import's (scripts/bench_import_limits.py runs the same job
on the costliest files the bounds admit, against ``MEMORY_BUDGET_MB``). Checked, not
timed: every section has as many rows in the copy, and the standings
recomputed from the copy equal the original's.

    .venv/bin/python scripts/bench_exchange.py [--postgres]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import bench_standings  # noqa: E402
from benchenv import bench_database  # noqa: E402

TARGET_S = 30.0
MB = 1024 * 1024
# What one import may take of a worker's memory (exchange/limits.py sets the file bound from it).
MEMORY_BUDGET_MB = 512


def _snapshot(rng: random.Random, bloc: str) -> dict[str, Any]:
    units = [f"{bloc.lower()}.unit-{n}" for n in rng.sample(range(40), 6)]
    return {
        "document": {"format": 1, "name": "Bench list", "bloc": bloc,
                     "entries": [{"unit": unit, "options": ["upgrade-a"]} for unit in units]},
        "profiles": [{"key": unit, "name": unit.title(), "hero": False, "strongpoint_unit": False,
                      "armour": rng.randint(1, 7), "health": rng.randint(1, 4), "move": 2,
                      "weapons": [{"name": "Rifle", "range": "long", "dice": 2}]} for unit in units],
        "costs": {"entries": [{"entry_id": f"e{n + 1}", "unit": unit, "paid_ap": rng.randint(10, 45)}
                              for n, unit in enumerate(units)]},
        "verdict": {"valid": True, "problems": [], "total_ap": 150},
    }  # fmt: skip


def enrich(campaign: Any, seed: int) -> None:
    """Registrations, reports and result log entries for the bench campaign (bulk_create, no services)."""
    from armies.models import Catalogue
    from battles.models import BattleReport
    from campaign.models import Battle, BattleStatus, LogEntry, LogKind, Registration

    rng = random.Random(seed)
    catalogue = Catalogue.objects.create(name="Bench catalogue", version="1", source="json")
    registrations = Registration.objects.bulk_create(
        [Registration(campaign=campaign, enrolment=place, name="Bench list", bloc=place.bloc,
                      faction=place.faction, catalogue=catalogue, catalogue_name=catalogue.name,
                      catalogue_version=catalogue.version, total_ap=150, terms={"points_limit": 150},
                      **_snapshot(rng, place.bloc)) for place in campaign.enrolments.all()],
        batch_size=500,
    )  # fmt: skip
    listed = {registration.enrolment_id: registration for registration in registrations}
    confirmed = list(Battle.objects.filter(campaign=campaign, status=BattleStatus.CONFIRMED).order_by("id"))
    markers = LogEntry.objects.bulk_create(
        [LogEntry(campaign=campaign, kind=LogKind.RESULT_RECORDED, subject=f"battle:{battle.pk}",
                  before="reported", after="confirmed",
                  map_version=campaign.map_version) for battle in confirmed],
        batch_size=1000,
    )  # fmt: skip
    for battle, marker in zip(confirmed, markers, strict=True):
        battle.result_order = marker.pk
    Battle.objects.bulk_update(confirmed, ["result_order"], batch_size=1000)
    BattleReport.objects.bulk_create(
        [BattleReport(
            battle=battle, campaign=campaign, status="confirmed", attacker_registration=listed[battle.attacker_id],
            defender_registration=listed[battle.defender_id], turns=rng.randint(3, 7), ending="turn_limit",
            sides={side: {"lost": ["e1"], "reserves": [], "objective": False, "scenario_vp": rng.randint(0, 6)}
                   for side in ("attacker", "defender")},
            judgement={**(battle.result or {}), "units_in_play": {"attacker": 6, "defender": 6},
                       "lost": {"attacker": ["e1"], "defender": ["e1"]}},
            submitted_by=battle.attacker,
        ) for battle in confirmed],
        batch_size=1000,
    )  # fmt: skip


def run(engine_name: str) -> int:
    import django

    django.setup()
    from django.core.management import call_command

    from accounts.models import User
    from exchange.export import campaign_export
    from exchange.importer import imported_rows
    from exchange.models import ImportStatus
    from exchange.reading import json_values
    from standings.selectors import standings_for
    from standings.services import standings_recompute

    call_command("migrate", verbosity=0)
    bench = bench_standings
    began = time.perf_counter()
    original = bench.build("large", bench.REPORTS, seed=1)
    enrich(original, seed=1)
    built = time.perf_counter() - began
    importer = User.objects.create_user(username="importer")

    started = time.perf_counter()
    document = campaign_export(campaign=original)
    exported = time.perf_counter() - started
    started = time.perf_counter()
    text = json.dumps(document, separators=(",", ":")).encode()
    dumped = time.perf_counter() - started
    del document
    job, measured = _import_job(importer, text)
    assert job.status == ImportStatus.SUCCEEDED, job.problems
    copy = job.campaign
    assert copy is not None
    total = exported + dumped + measured["seconds"]

    rows_before, rows_after = dict(imported_rows(original)), dict(imported_rows(copy))
    rows_after["log"] -= 1  # the import's own entry
    standings_recompute(campaign_id=original.pk, force=True)
    standings_recompute(campaign_id=copy.pk, force=True)
    was, now = standings_for(campaign=original), standings_for(campaign=copy)
    assert was is not None
    assert now is not None

    def table(view: Any) -> list[tuple[Any, ...]]:
        return [(r.name, r.rank, r.points, r.played, r.won, r.drawn, r.lost, r.vp_for, r.ap_destroyed)
                for r in view.players]  # fmt: skip

    same = rows_before == rows_after and table(was) == table(now)
    rows = sum(rows_before.values())
    megabytes = len(text) / MB
    worst = measured["peak_mb"]
    print(f"campaign export + import round trip, 500 players, 20 rounds, {rows_before['reports']:,} reports, "
          f"{rows:,} rows in all, {engine_name} (set up in {built:.1f} s)")  # fmt: skip
    print(f"  export {exported:.2f} s   json.dumps {dumped:.2f} s ({megabytes:.1f} MB)   "
          f"import job (read, check, write) {measured['seconds']:.2f} s")  # fmt: skip
    print(f"  round trip {total:.1f} s (target: < {TARGET_S:.0f} s); copy equal to the original "
          f"(rows per section, standings): {same}")  # fmt: skip
    print(f"  import worker's peak memory: {measured['peak_mb']:.0f} MB for this file "
          f"({json_values(text):,} values; {measured['baseline_mb']:.0f} MB before it); budget "
          f"{MEMORY_BUDGET_MB} MB (the costliest files the bounds admit: scripts/bench_import_limits.py)")  # fmt: skip
    return 0 if total < TARGET_S and same and worst <= MEMORY_BUDGET_MB else 1


def _import_job(importer: Any, body: bytes) -> tuple[Any, dict[str, float]]:
    """The import of ``body`` as the worker runs it, in a fresh interpreter whose peak memory is the import's."""
    from django.core.files.base import ContentFile

    from exchange.models import CampaignImport

    job = CampaignImport(created_by=importer, size=len(body), file_name="bench.json")
    job.file.save(f"{job.id}.json", ContentFile(body), save=False)
    job.save()
    worker = subprocess.run(
        [sys.executable, __file__, "--run-job", str(job.pk)], env=os.environ, check=True, capture_output=True,
        text=True,
    )  # fmt: skip
    job.refresh_from_db()
    return job, json.loads(worker.stdout.strip().splitlines()[-1])


def _resident_mb(field: str) -> float:
    """VmRSS (now) or VmHWM (the peak) of this process: unlike getrusage's, the peak starts afresh at exec."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no {field} in /proc/self/status")


def run_job(job_id: str) -> None:
    """The worker's part, measured: prints one JSON line (seconds, resident MB before and at the peak)."""
    import django

    django.setup()
    from exchange.jobs import import_run

    baseline = _resident_mb("VmRSS")
    started = time.perf_counter()
    import_run(job_id=job_id)
    seconds = time.perf_counter() - started
    print(json.dumps({"seconds": seconds, "baseline_mb": baseline, "peak_mb": _resident_mb("VmHWM")}))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--run-job", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.run_job:
        run_job(args.run_job)
        return 0
    with bench_database(args.postgres) as engine_name:
        return run(engine_name)


if __name__ == "__main__":
    sys.exit(main())
