"""Time replaying a whole 6-turn battle of two ~200 AP lists from its steps (issue 20: under 20 ms).

Run from the repository root:  .venv/bin/python scripts/bench_battle_replay.py [runs]
Each side fields eleven units (200 AP): squads, a squad with a joined hero, a
walker with its pilot and a heavy walker. The battle is played once by picking legal
steps at random with a fixed seed (the site's dice, no concession; attacks preferred
whenever one is offered, as players mostly shoot) until it ends at the turn limit;
then the same steps are replayed from the setup ``runs`` times (and
once more from their JSON, as the app stores them). Prints the median and 95th
percentile per replay in milliseconds.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

TARGET_MS = 20.0
RIFLES = {"name": "Rifles", "line": {"infantry": "1/1", "vehicle": "-"}, "count": 5}
MG = {"name": "Machine gun", "line": {"infantry": "3/1", "vehicle": ["1/1", "1/1", "-", "-", "-", "-", "-"]}}
LASER = {"name": "Laser", "kind": "laser", "line": {"infantry": "2/1", "vehicle": "2/2", "aircraft": "1/2"}}
CANNON = {"name": "Cannon", "line": {"infantry": "B/1", "vehicle": "3/3"}}
ROCKETS = {
    "name": "Rockets",
    "traits": ["limited_ammo"],
    "ammo": 2,
    "line": {"infantry": "2/1", "vehicle": "4/2"},
}
CLAWS = {"name": "Claws", "close_combat": True, "line": {"infantry": "2/1", "vehicle": "2/1"}}
PISTOL = {"name": "Pistol", "line": {"infantry": "2/1"}}


def unit(
    uid: str,
    name: str,
    ap: int,
    kind: str,
    armour: int,
    models: int,
    damage: int,
    weapons: list[Any],
    **extra: Any,
) -> dict[str, Any]:
    return {
        "id": uid, "name": name, "ap": ap, "unit_class": kind, "armour": armour, "models": models,
        "damage_per_model": damage, "weapons": weapons, **extra,
    }  # fmt: skip


def force(prefix: str) -> list[dict[str, Any]]:
    """Eleven units, 200 AP."""
    return [
        unit(f"{prefix}1", "Grenadiers", 20, "infantry", 2, 5, 1, [RIFLES, MG]),
        unit(f"{prefix}2", "Sigrid", 15, "infantry", 2, 1, 3, [PISTOL], hero=True, joined_to=f"{prefix}1"),
        unit(f"{prefix}3", "Ludwig", 30, "vehicle", 3, 1, 4, [LASER, ROCKETS]),
        unit(f"{prefix}4", "Hermann", 15, "infantry", 2, 1, 3, [PISTOL], hero=True, pilot_of=f"{prefix}3"),
        unit(f"{prefix}5", "Laser Grenadiers", 25, "infantry", 3, 2, 1, [dict(LASER, count=2)]),
        unit(f"{prefix}6", "Zombies", 10, "infantry", 2, 4, 1, [CLAWS], skills=["mindless"]),
        unit(f"{prefix}7", "Recon Boys", 15, "infantry", 2, 4, 1, [dict(RIFLES, count=4)]),
        unit(f"{prefix}8", "Heavy Walker", 35, "vehicle", 5, 1, 6, [CANNON, MG]),
        unit(f"{prefix}9", "Gorillas", 20, "infantry", 3, 3, 1, [CLAWS]),
        unit(f"{prefix}10", "Snipers", 10, "infantry", 1, 2, 1, [dict(RIFLES, count=2)]),
        unit(f"{prefix}11", "Command Squad", 5, "infantry", 2, 3, 1, [dict(RIFLES, count=3)]),
    ]


def setup_data(rtz: bool) -> dict[str, Any]:
    return {
        "ruleset": {"name": "rtz" if rtz else "rulebook"},
        "mission": {"name": "Bench", "turn_limit": 6, "reserves": {"attacker": 2, "defender": 2}},
        "attacker": {"player": "Anna", "units": force("a")},
        "defender": {"player": "Boris", "units": force("d")},
    }


def play(battle: Any, setup: Any, seed: int) -> list[Any]:
    pick = random.Random(seed)
    state = battle.initial_state(setup)
    steps = []
    while state.phase is not battle.Phase.ENDED:
        choices = [step for step in battle.legal_steps(setup, state) if step.kind != "concede"]
        # Players mostly shoot when they can, and mostly declare an attack: a busy battle.
        attacks = [step for step in choices if step.kind == "attack"]
        if attacks and pick.random() < 0.9:
            choices = attacks
        elif any(step.kind == "activate" for step in choices):
            shooting = [step for step in choices if step.kind == "activate" and "attack" in str(step)]
            choices = shooting if shooting and pick.random() < 0.8 else choices
        step = battle.with_seed(pick.choice(choices), pick.randrange(2**32))
        state = battle.apply(setup, state, step)
        steps.append(step)
    return steps


def main() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from rules.engine import battle

    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    for rtz in (False, True):
        setup = battle.setup_from_dict(setup_data(rtz))
        ap = sum(unit.ap for unit in setup.attacker.units)
        steps = play(battle, setup, seed=20)
        final = battle.replay(setup, steps)
        dice = sum(len(entry.dice) for entry in final.log)
        attacks = sum(1 for step in steps if step.kind == "attack")
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            battle.replay(setup, steps)
            times.append((time.perf_counter() - start) * 1000)
        stored = json.dumps([battle.step_to_dict(step) for step in steps])
        start = time.perf_counter()
        battle.replay(setup, [battle.step_from_dict(item) for item in json.loads(stored)])
        from_json = (time.perf_counter() - start) * 1000
        times.sort()
        median, p95 = statistics.median(times), times[int(len(times) * 0.95) - 1]
        rules = "RtZ" if rtz else "rulebook"
        print(
            f"{rules}: {len(steps)} steps ({attacks} attacks), {final.turn} turns, {dice} dice, {ap} AP a side; "
            f"replay median "
            f"{median:.1f} ms, p95 {p95:.1f} ms (from JSON {from_json:.1f} ms; target < {TARGET_MS:.0f} ms)"
        )


if __name__ == "__main__":
    main()
