"""The referee's worst accepted requests: time and peak memory, and how fast the absurd ones are refused.

Run from the repository root:  .venv/bin/python scripts/bench_referee_limits.py [--search N]

For each of the heaviest requests the bounds and the work budget let through
(found by the search below, plus the extremes of each bound), prints the
budget's estimate, the CPU time of the whole answer (parse, budget, exact
odds, ``to_dict``, JSON; caches cold; the slowest of three runs) and the peak
memory it allocates (tracemalloc, in a separate run: tracing slows Python
down). Then the largest roll with digital dice (time and body size), and how
long the requests of the issue's finding 1 take to be refused. Target: every
accepted request under 1 s and 100 MB.

``--search N`` runs N hypothesis examples that steer (``hypothesis.target``)
towards the slowest accepted request and the worst underestimate, and prints
the worst found as JSON, ready to be added to ``HEAVIEST``.
"""

from __future__ import annotations

import json
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.engine import EngineInputError, parse_attack_request
from rules.engine import requests as bounds
from rules.engine.budget import ODDS_WORK_BUDGET, odds_work
from rules.engine.odds import clear_caches
from rules.engine.plan import build_plan
from rules.referee import referee_odds, referee_resolve, ruleset_from

TIME_TARGET_S = 1.0
ARMOUR_HIGH = {"infantry": 4, "vehicle": 7, "aircraft": 3}
MEMORY_TARGET_MB = 100.0

TANK = {"unit_class": "vehicle", "armour": 1, "damage_per_model": 24, "skills": ["damage_resilient"]}
SQUAD = {"unit_class": "infantry", "armour": 2, "models": bounds.MAX_MODELS}


def _cells(cell: str) -> dict[str, str]:
    return {"infantry": cell, "vehicle": cell, "aircraft": cell}


# The heaviest accepted requests known: from --search runs, and each bound at its extreme.
HEAVIEST: dict[str, dict[str, Any]] = {
    "search: three lasers and a 93-dice line into a resilient vehicle (rtz)": {
        "attack": {
            "weapons": [
                {"kind": "laser", "line": {"aircraft": "B/1", "infantry": "0/AK", "vehicle": "0/1"}},
                {"kind": "standard", "line": {"vehicle": "21/3"}, "count": 3},
                {"kind": "laser", "line": {"vehicle": "1/AK"}},
                {
                    "kind": "laser",
                    "line": {"vehicle": "B/AK"},
                    "count": 2,
                    "traits": ["salvo"],
                    "fire_salvo": True,
                    "expert": True,
                },
            ],
            "target": {
                "unit_class": "vehicle",
                "armour": 3,
                "damage_per_model": 23,
                "skills": ["damage_resilient"],
            },
        },
    },
    f"{bounds.MAX_ODDS_DICE} dice of 16 damage into a 24-point resilient vehicle": {
        "attack": {
            "action": "sustained_attack",
            "weapons": [{"line": _cells("40/16"), "count": 3}],
            "target": TANK,
            "attacker": {**SQUAD, "models": 3},
        }
    },
    "a 40-dice laser of 8 damage into a 24-point resilient vehicle": {
        "attack": {"weapons": [{"kind": "laser", "line": _cells("40/8")}], "target": TANK}
    },
    "10 v 10 close combat, the defender strikes first with cutting weapons": {
        "attack": {
            "weapons": [{"kind": "cutting", "close_combat": True, "line": _cells("6/1"), "count": 10}],
            "target": {
                **SQUAD,
                "skills": ["first_strike"],
                "cc_weapons": [{"kind": "cutting", "close_combat": True, "line": _cells("5/1"), "count": 10}],
            },
            "attacker": SQUAD,
        }
    },
    "search: ten lines of blasts, lasers and close combat into a 15-point vehicle (rulebook)": {
        "ruleset": {"name": "rulebook"},
        "attack": {
            "action": "attack",
            "weapons": [
                {
                    "kind": "grapple",
                    "line": {"vehicle": "BBB/AK"},
                    "count": 3,
                    "traits": ["salvo"],
                    "fire_salvo": True,
                },
                {"kind": "laser", "line": {"vehicle": "BBBB/10"}, "count": 3},
                {"kind": "cutting", "line": {"vehicle": "B/13"}, "count": 6, "close_combat": True},
                {
                    "kind": "laser",
                    "line": {"vehicle": "0/AK"},
                    "count": 6,
                    "close_combat": True,
                    "traits": ["volley"],
                    "ammo": 12,
                    "volley": 2,
                },
                {
                    "kind": "phaser",
                    "line": {"vehicle": "BB/AK"},
                    "close_combat": True,
                    "traits": ["salvo"],
                    "fire_salvo": True,
                },
                {
                    "kind": "standard",
                    "line": {"vehicle": "BBB/AK"},
                    "count": 3,
                    "close_combat": True,
                    "traits": ["salvo"],
                    "fire_salvo": True,
                },
                {
                    "kind": "cutting",
                    "line": {"vehicle": "3/11"},
                    "count": 5,
                    "traits": ["salvo"],
                    "fire_salvo": True,
                },
                {"kind": "laser", "line": {"vehicle": "0/AK"}, "count": 2, "close_combat": True},
                {
                    "kind": "sniper",
                    "line": {"vehicle": "BB/AK"},
                    "count": 4,
                    "snipe": True,
                    "traits": ["volley"],
                    "ammo": 12,
                    "volley": 2,
                },
                {
                    "kind": "standard",
                    "line": {"vehicle": "1/AK"},
                    "count": 6,
                    "traits": ["volley"],
                    "ammo": 12,
                    "volley": 2,
                },
            ],
            "target": {"unit_class": "vehicle", "armour": 7, "models": 1, "damage_per_model": 15},
            "attacker": {"unit_class": "infantry", "armour": 1, "models": 6, "damage_per_model": 1},
        },
    },
}
LARGEST_ROLL: dict[str, Any] = {
    "attack": {
        "action": "sustained_attack",
        "weapons": [{"kind": "laser", "line": _cells("40/16"), "count": 3}] * 2,
        "target": TANK,
        "attacker": SQUAD,
    }
}
ISSUE = {
    "count 1,000,000": {"weapons": [{"line": _cells("3/1"), "count": 1_000_000}], "target": SQUAD},
    '"1000000/2" dice': {"weapons": [{"line": _cells("1000000/2")}], "target": SQUAD},
    "damage_per_model 1,000,000": {
        "weapons": [{"line": _cells("3/1")}],
        "target": {**TANK, "damage_per_model": 10**6},
    },
}


def _cpu(action: Callable[[], object]) -> float:
    start = time.process_time()
    action()
    return time.process_time() - start


def _peak_mb(action: Callable[[], object]) -> float:
    tracemalloc.start()
    try:
        action()
        return tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()


def _answer(body: dict[str, Any]) -> Callable[[], object]:
    def answer() -> object:
        clear_caches()
        return json.dumps(referee_odds(body))

    return answer


def _estimate(body: dict[str, Any]) -> int:
    ruleset = ruleset_from(body.get("ruleset"))
    request = parse_attack_request(body["attack"], ruleset=ruleset)
    return odds_work(request, ruleset, build_plan(request, ruleset))


def main() -> int:
    print(
        f"Work budget: {ODDS_WORK_BUDGET / 1e9:.2f} s estimated; targets {TIME_TARGET_S} s, {MEMORY_TARGET_MB} MB"
    )
    worst_time = worst_memory = 0.0
    for name, body in HEAVIEST.items():
        seconds = max(_cpu(_answer(body)) for _ in range(3))
        memory = _peak_mb(_answer(body))
        worst_time, worst_memory = max(worst_time, seconds), max(worst_memory, memory)
        print(f"  {name}: estimate {_estimate(body) / 1e9:.2f} s, took {seconds:.2f} s, peak {memory:.1f} MB")

    dice = sum(w["count"] for w in LARGEST_ROLL["attack"]["weapons"]) * 40
    roll_times, sizes = [], []
    for seed in range(20):
        body = {**LARGEST_ROLL, "seed": seed}
        start = time.process_time()
        sizes.append(len(json.dumps(referee_resolve(body))))
        roll_times.append(time.process_time() - start)
    print(
        f"Largest roll ({dice} dice, lasers of 16 damage, re-rolls, saves, resilience), 20 seeds: "
        f"slowest {max(roll_times) * 1000:.0f} ms, largest answer {max(sizes) / 1000:.0f} KB"
    )

    for name, attack in ISSUE.items():
        start = time.perf_counter()
        try:
            referee_odds({"attack": attack})
        except EngineInputError as exc:
            print(f"Refused {name} in {(time.perf_counter() - start) * 1000:.2f} ms: {exc}")

    met = worst_time < TIME_TARGET_S and worst_memory < MEMORY_TARGET_MB
    print(f"Worst accepted: {worst_time:.2f} s, {worst_memory:.1f} MB -", "met" if met else "MISSED")
    return 0


# -- the search ----------------------------------------------------------------------------


def search(examples: int) -> int:
    from hypothesis import HealthCheck, Phase, given, settings, target
    from hypothesis import strategies as st

    kinds = ["standard", "laser", "cutting", "flame", "phaser", "sniper", "tesla", "grapple", "artillery"]
    dice = st.one_of(
        st.integers(0, bounds.MAX_CELL_DICE).map(str), st.integers(1, bounds.MAX_BLAST).map(lambda n: "B" * n)
    )
    damage = st.one_of(st.just("AK"), st.integers(1, bounds.MAX_HIT_DAMAGE).map(str))
    cell = st.builds(lambda d, g: f"{d}/{g}", dice, damage)

    @st.composite
    def weapon(draw: st.DrawFn, melee: bool, most: int) -> dict[str, Any]:
        kind = draw(st.sampled_from(kinds[:5] if melee else kinds))
        line: dict[str, Any] = {"kind": kind, "line": _cells(draw(cell)), "count": draw(st.integers(1, most))}
        line["close_combat"] = melee
        line["snipe"] = kind == "sniper" and draw(st.booleans())
        choice = draw(st.sampled_from(["", "salvo", "volley"]))
        if choice == "salvo":
            line.update(traits=["salvo"], fire_salvo=True)
        elif choice == "volley":
            line.update(traits=["volley"], ammo=bounds.MAX_AMMO, volley=draw(st.integers(1, bounds.MAX_AMMO)))
        return line

    @st.composite
    def unit(draw: st.DrawFn) -> dict[str, Any]:
        kind = draw(st.sampled_from(["infantry", "vehicle", "aircraft"]))
        found: dict[str, Any] = {"unit_class": kind, "armour": draw(st.integers(1, ARMOUR_HIGH[kind]))}
        models = draw(st.integers(1, bounds.MAX_MODELS)) if kind == "infantry" else 1
        found["models"] = models
        found["damage_per_model"] = draw(st.integers(1, bounds.MAX_UNIT_DAMAGE // models))
        found["skills"] = draw(st.lists(st.sampled_from(["damage_resilient", "first_strike"]), unique=True))
        return found

    @st.composite
    def attack(draw: st.DrawFn) -> dict[str, Any]:
        aimed, shooter = draw(unit()), draw(unit())
        melee = draw(st.booleans()) and "aircraft" not in (aimed["unit_class"], shooter["unit_class"])
        weapons = [
            draw(weapon(melee and draw(st.booleans()), shooter["models"]))
            for _ in range(draw(st.integers(1, bounds.MAX_WEAPONS)))
        ]
        if melee and draw(st.booleans()):
            aimed["cc_weapons"] = [
                draw(weapon(True, aimed["models"])) for _ in range(draw(st.integers(1, 3)))
            ]
        action = draw(st.sampled_from(["attack", "sustained_attack"]))
        return {"action": action, "weapons": weapons, "target": aimed, "attacker": shooter}

    worst: dict[str, Any] = {"seconds": 0.0}

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        phases=[Phase.generate, Phase.target],
        suppress_health_check=list(HealthCheck),
    )
    @given(attack(), st.sampled_from(["rtz", "rulebook"]))
    def slowest(data: dict[str, Any], ruleset: str) -> None:
        body = {"ruleset": {"name": ruleset}, "attack": data}
        try:
            estimate = _estimate(body)
            seconds = _cpu(_answer(body))
        except EngineInputError:
            return
        target(seconds, label="seconds")
        target(seconds * 1e9 / max(estimate, 1), label="underestimate")
        if seconds > worst["seconds"]:
            worst.update(seconds=seconds, estimate=estimate / 1e9, body=body)
            print(f"  slowest so far {seconds:.3f} s (estimated {estimate / 1e9:.3f} s)", flush=True)

    slowest()
    print(json.dumps(worst, indent=1))
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--search":
        sys.exit(search(int(sys.argv[2])))
    sys.exit(main())
