"""Benchmark: exporting and importing a 500-player campaign with 20 rounds and 20,000 confirmed reports.

The campaign is scripts/bench_standings.py's (500 players, 30 sectors, 20 rounds,
20,000 battles, 3 % forfeited), with what an export must also carry: a
registered list per player (a snapshot of about 3 KB: document, profiles,
costs, verdict), a battle report per confirmed battle, and the log entry that
recorded each result (so the import's replay has its order). Then, timed:
``campaign_export`` and ``json.dumps`` (the download), ``json.loads`` and
``campaign_import`` (the upload), the round trip's target being under 30 s.
Checked, not timed: every section has as many rows in the copy, and the
standings recomputed from the copy equal the original's.

    .venv/bin/python scripts/bench_exchange.py [--postgres]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TARGET_S = 30.0


def _bench_standings() -> Any:
    spec = importlib.util.spec_from_file_location("bench_standings", ROOT / "scripts" / "bench_standings.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


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
    from exchange.importer import campaign_import, imported_rows
    from standings.selectors import standings_for
    from standings.services import standings_recompute

    call_command("migrate", verbosity=0)
    bench = _bench_standings()
    began = time.perf_counter()
    original = bench.build("large", bench.REPORTS, seed=1)
    enrich(original, seed=1)
    built = time.perf_counter() - began
    importer = User.objects.create_user(username="importer")

    started = time.perf_counter()
    document = campaign_export(campaign=original)
    exported = time.perf_counter() - started
    started = time.perf_counter()
    text = json.dumps(document, separators=(",", ":"))
    dumped = time.perf_counter() - started
    started = time.perf_counter()
    parsed = json.loads(text)
    loaded = time.perf_counter() - started
    started = time.perf_counter()
    copy = campaign_import(document=parsed, user=importer)
    imported = time.perf_counter() - started
    total = exported + dumped + loaded + imported

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
    print(f"campaign export + import round trip, 500 players, 20 rounds, {rows_before['reports']:,} reports, "
          f"{rows:,} rows in all, {engine_name} (set up in {built:.1f} s)")  # fmt: skip
    print(f"  export {exported:.2f} s   json.dumps {dumped:.2f} s ({len(text) / 1e6:.1f} MB)   "
          f"json.loads {loaded:.2f} s   import (checks + writes) {imported:.2f} s")  # fmt: skip
    print(f"  round trip {total:.1f} s (target: < {TARGET_S:.0f} s); copy equal to the original "
          f"(rows per section, standings): {same}")  # fmt: skip
    return 0 if total < TARGET_S and same else 1


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--postgres", action="store_true")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="zverograd-bench-")
    with _bench_standings().database(args.postgres, folder) as url:
        os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.test"
        os.environ["DATABASE_URL"] = url
        os.environ["ZVEROGRAD_EMBEDDED_BROKER_DIR"] = f"{folder}/celery"
        os.environ.pop("CELERY_BROKER_URL", None)
        return run("PostgreSQL" if args.postgres else "SQLite")


if __name__ == "__main__":
    sys.exit(main())
