"""Time the army-list validator on a 40-entry list against a catalogue of realistic size.

Run from the repository root:  .venv/bin/python scripts/bench_validator.py [runs]
Prints the median and 95th percentile time per list in milliseconds; the
target is under 2 ms per list.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path
from typing import Any

TARGET_MS = 2.0
BLOCS = ("Axis", "Allies", "SSU")
FACTIONS = {
    "Axis": ("blutkreuz", "luftwaffe", "ndak"),
    "Allies": ("usmc", "desert-scorpions", "rangers"),
    "SSU": ("red-guard", "spetsnaz", "pla"),
}


def build_catalogue(v: Any) -> Any:
    """About 150 units: per faction squads, walkers, an aircraft and heroes; bloc and mercenary units."""
    units = []
    charts = []
    for bloc in BLOCS:
        for faction in FACTIONS[bloc]:
            for n in range(8):
                units.append(
                    v.UnitProfile(
                        f"{faction}-squad-{n}",
                        f"{faction} squad {n}",
                        bloc,
                        "infantry",
                        1 + n % 4,
                        15 + 5 * n,
                        faction=faction,
                    )
                )
            for n in range(4):
                units.append(
                    v.UnitProfile(
                        f"{faction}-walker-{n}",
                        f"{faction} walker {n}",
                        bloc,
                        "vehicle",
                        2 + n,
                        30 + 10 * n,
                        faction=faction,
                    )
                )
            units.append(
                v.UnitProfile(
                    f"{faction}-plane", f"{faction} plane", bloc, "aircraft", 2, 60, faction=faction
                )
            )
            units.append(
                v.UnitProfile(
                    f"{faction}-hero",
                    f"{faction} hero",
                    bloc,
                    "infantry",
                    2,
                    25,
                    faction=faction,
                    hero=True,
                    skills={"Pilot": None},
                )
            )
            charts.append(
                v.PlatoonChart(
                    key=f"{faction}-platoon",
                    name=f"{faction} platoon",
                    bloc=bloc,
                    faction=faction,
                    command=v.PlatoonSlot("command", frozenset({f"{faction}-squad-0"})),
                    combat=tuple(
                        v.PlatoonSlot(
                            f"combat-{n}", frozenset({f"{faction}-squad-{n}", f"{faction}-squad-{n + 4}"})
                        )
                        for n in range(1, 4)
                    ),
                    support=(v.PlatoonSlot("support", frozenset(), frozenset({"vehicle"})),),
                )
            )
        units.append(v.UnitProfile(f"{bloc}-bloc-squad", f"{bloc} bloc squad", bloc, "infantry", 2, 20))
        units.append(
            v.UnitProfile(
                f"{bloc}-commissar",
                f"{bloc} commissar",
                bloc,
                "infantry",
                2,
                15,
                hero=True,
                skills={"Commissar": None},
            )
        )
        units.append(
            v.UnitProfile(
                f"{bloc}-ace", f"{bloc} ace", bloc, "infantry", 2, 25, hero=True, skills={"Ace Pilot": None}
            )
        )
        units.append(
            v.UnitProfile(
                f"{bloc}-crew", f"{bloc} bunker crew", bloc, "infantry", 2, 30, strongpoint_unit=True
            )
        )
        units.append(v.UnitProfile(f"{bloc}-tank", f"{bloc} tank", bloc, "vehicle", 5, 55, capturable=True))
    for n in range(10):
        units.append(
            v.UnitProfile(
                f"merc-{n}", f"Mercenary {n}", "Mercenaries", "infantry", 2 + n % 2, 20 + n, mercenary=True
            )
        )
    factions = tuple(v.Faction(f, f, bloc) for bloc in BLOCS for f in FACTIONS[bloc])
    captured = tuple(v.CapturedVehicleEntry(f"{bloc}-tank") for bloc in BLOCS)
    return v.Catalogue("Bench", "1", BLOCS, factions, tuple(units), tuple(charts), captured)


def build_list(v: Any) -> Any:
    entries = []
    platoons = []
    for p, faction in enumerate(("red-guard", "red-guard")):
        members = []
        for slot, key in (
            ("command", "squad-0"),
            ("combat-1", "squad-1"),
            ("combat-2", "squad-2"),
            ("combat-3", "squad-3"),
        ):
            eid = f"p{p}-{slot}"
            entries.append(v.ListEntry(eid, f"{faction}-{key}", platoon=f"p{p}", slot=slot))
            members.append(eid)
        for n in range(3):
            eid = f"p{p}-support-{n}"
            entries.append(v.ListEntry(eid, f"{faction}-walker-{n}", platoon=f"p{p}", slot="support"))
            members.append(eid)
        platoons.append(v.PlatoonClaim(f"p{p}", f"{faction}-platoon", tuple(members)))
    while len(entries) < 32:
        n = len(entries)
        entries.append(v.ListEntry(f"free-{n}", f"red-guard-squad-{n % 8}", reserve=n % 3 == 0))
    entries += [
        v.ListEntry("hero", "red-guard-hero", pilot_of="p0-support-0"),
        v.ListEntry("ace", "SSU-ace", pilot_of="p1-support-0"),
        v.ListEntry("commissar", "SSU-commissar", joined_to="free-17"),
        v.ListEntry("crew", "SSU-crew"),
        v.ListEntry("captured", "Axis-tank", captured=True),
        v.ListEntry("merc", "merc-1"),
        v.ListEntry("bloc", "SSU-bloc-squad"),
        v.ListEntry("plane", "red-guard-plane"),
    ]
    forts = (v.Fortification("f1", "bunker", "crew"), v.Fortification("f2", "strongpoint"))
    return v.ArmyList(
        "Bench list", "SSU", 2000, "1", "red-guard", "defender", tuple(entries), tuple(platoons), forts
    )


def main(runs: int) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import armies.validation as v

    catalogue = build_catalogue(v)
    army = build_list(v)
    assert len(army.entries) == 40
    verdict = v.validate(army, catalogue)
    for _ in range(200):  # warm caches and the interpreter
        v.validate(army, catalogue)
    samples = []
    for _ in range(runs):
        start = time.perf_counter_ns()
        v.validate(army, catalogue)
        samples.append((time.perf_counter_ns() - start) / 1e6)
    median = statistics.median(samples)
    p95 = statistics.quantiles(samples, n=20)[-1]
    print(f"catalogue: {len(catalogue.units)} units, {len(catalogue.platoon_charts)} charts")
    print(
        f"list: {len(army.entries)} entries, {len(army.platoons)} platoons; verdict ok={verdict.ok}, "
        f"{len(verdict.problems)} problems, paid {verdict.totals.paid_ap} AP"
    )
    print(f"validate x{runs}: median {median:.3f} ms, p95 {p95:.3f} ms per list (target < {TARGET_MS} ms)")
    return 0 if p95 < TARGET_MS else 1


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 5000))
