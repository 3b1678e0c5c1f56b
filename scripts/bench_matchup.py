"""Benchmark: a battle's matchup sheet for two 200-AP lists, in the worker's code path.

The demo is seeded (``core.demo``) and the open round's first scheduled battle
gets, on each side, a registered list of about 200 AP of its bloc's demo units
(every card of the bloc in turn, about 20 units), frozen as registration does
(the document's entries and the unit cards). Each repeat asks for the sheet
(``matchup_start``) and runs what the task runs (``matchup_run``: reading the
snapshots, the budget check, the exact odds, storing the sheet), with the
engine's caches cleared first, so nothing is reused from the run before.
Timed twice: as listed (a card fielded twice is worked out once), and with every
repeat of a card worn (a model or a damage point fewer), so that no two units
share a profile and every pair is worked out. Target: under 2 s.

    .venv/bin/python scripts/bench_matchup.py [--repeats 5] [--postgres]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchenv import bench_database, django_migrated  # noqa: E402

TARGET_S = 2.0
LIST_AP = 200


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--postgres", action="store_true")
    args = parser.parse_args()
    with bench_database(args.postgres) as engine_name:
        return run(args.repeats, engine_name)


def _worn(profile: dict[str, Any], copy: int) -> dict[str, Any]:
    """The ``copy``-th repeat of a card as a profile of its own: a model or a damage point fewer each time."""
    worn = dict(profile, key=f"{profile['key']}#{copy}")
    models, damage = int(profile["model_count"]), int(profile["damage"])
    if models > 1:
        left = max(1, models - copy)
        worn.update(model_count=left, damage=damage // models * left)
    else:
        worn.update(damage=max(1, damage - copy))
    return worn


def two_hundred_ap(registration: Any, *, distinct: bool) -> tuple[int, int]:
    """Give ``registration`` about 200 AP of its bloc's demo units (each card in turn); (units, AP). With
    ``distinct``, a card's repeats are worn (``_worn``), so no two units share a profile."""
    from armies.models import Unit
    from campaign.models import Registration
    from campaign.services.registrations import UNIT_FIELDS

    cards = list(
        Unit.objects.filter(catalogue=registration.catalogue, bloc=registration.bloc).order_by("key")
    )
    card_profiles = {card.key: {name: getattr(card, name) for name in UNIT_FIELDS} for card in cards}
    entries: list[dict[str, Any]] = []
    ap, profiles = 0, dict(card_profiles)
    while ap < LIST_AP:
        card = cards[len(entries) % len(cards)]
        copy = len(entries) // len(cards)
        key = card.key
        if distinct and copy:
            worn = _worn(card_profiles[card.key], copy)
            key = worn["key"]
            profiles[key] = worn
        entries.append({"id": f"e{len(entries) + 1}", "unit": key, "joined_to": None, "pilot_of": None})
        ap += card.ap
    Registration.objects.filter(pk=registration.pk).update(
        document={**registration.document, "entries": entries}, profiles=list(profiles.values()), total_ap=ap
    )
    return len(entries), ap


def run(repeats: int, engine_name: str) -> int:
    django_migrated()
    from core.demo import demo_data_seed

    demo_data_seed()
    medians = [timed(repeats, engine_name, distinct=distinct) for distinct in (False, True)]
    return 0 if max(medians) < TARGET_S else 1


def timed(repeats: int, engine_name: str, *, distinct: bool) -> float:
    from battles.matchup_services import matchup_run, matchup_start
    from battles.models import MatchupSheet, MatchupStatus
    from campaign.models import Battle, BattleStatus, Registration
    from rules.engine.odds import clear_caches

    battle = (
        Battle.objects.filter(status=BattleStatus.SCHEDULED, round__status="open")
        .select_related("campaign", "attacker", "defender")
        .order_by("id")
        .first()
    )
    assert battle is not None, "the demo has a scheduled battle in its open round"
    lists = {}
    for side, place in (("attacker", battle.attacker), ("defender", battle.defender)):
        registration = Registration.objects.filter(enrolment=place, superseded_by__isnull=True).latest("id")
        units, ap = two_hundred_ap(registration, distinct=distinct)
        print(f"{side}: {place.display_name}, {units} units, {ap} AP ({registration.bloc})")
        lists[side] = Registration.objects.get(pk=registration.pk)
    timings = []
    for _ in range(repeats):
        MatchupSheet.objects.all().delete()
        clear_caches()
        started = time.perf_counter()
        sheet, _ = matchup_start(
            battle=battle, attacker=lists["attacker"], defender=lists["defender"], actor=None
        )
        matchup_run(sheet_id=sheet.pk)
        timings.append(time.perf_counter() - started)
        sheet.refresh_from_db()
        assert sheet.status == MatchupStatus.DONE, sheet.problem
    result: dict[str, Any] = sheet.result or {}
    cells = sum(len(row["cells"]) for rows in result["firing"].values() for row in rows)
    median = statistics.median(timings)
    shape = "every unit a profile of its own" if distinct else "as listed (a card's repeats share a profile)"
    print(f"matchup sheet, {engine_name}, {shape}: {cells} cells; median {median:.2f} s, "
          f"max {max(timings):.2f} s over {repeats} runs (target < {TARGET_S:.0f} s)")  # fmt: skip
    return median


if __name__ == "__main__":
    sys.exit(main())
