"""Time the attack engine: exact odds of a big laser attack and of a close assault, and resolutions per second.

Run from the repository root:  .venv/bin/python scripts/bench_rules.py [runs]
Prints the median and mean time of the exact odds (with ``to_dict``) of a
20-dice sustained laser attack on a damage-resilient vehicle in cover, cold
(caches cleared before each run) and warm; the cold odds of a close assault
with the target's strike back; and how many single resolutions
of a typical squad attack one core does per second. Targets: odds under 5 ms,
at least 10,000 resolutions per second.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path
from typing import Any

ODDS_TARGET_MS = 5.0
RESOLUTIONS_TARGET = 10_000

LASER_ATTACK: dict[str, Any] = {
    "action": "sustained_attack",
    "weapons": [{"name": "Heavy laser", "kind": "laser", "line": {"vehicle": "20/2"}}],
    "target": {
        "unit_class": "vehicle",
        "armour": 4,
        "damage_per_model": 6,
        "skills": ["damage_resilient"],
        "in_cover": True,
    },
}

SQUAD_ATTACK: dict[str, Any] = {
    "action": "attack",
    "weapons": [
        {"name": "MG", "line": {"infantry": ["3/1", "3/1", "2/1", "1/1"], "vehicle": "1/1"}, "count": 2},
        {"name": "Rifle", "line": {"infantry": "1/1", "vehicle": "1/1"}, "count": 3},
    ],
    "target": {"unit_class": "infantry", "armour": 2, "models": 5, "in_cover": True},
    "attacker": {"unit_class": "infantry", "armour": 2, "models": 5},
}


# Close combat into a First Strike squad: the odds of its strike back, and of the
# attack rebuilt for every number of attackers it leaves standing.
ASSAULT: dict[str, Any] = {
    "action": "attack",
    "weapons": [
        {"name": "Carbine", "line": {"infantry": "2/1"}, "count": 5},
        {"name": "Spade", "line": {"infantry": "2/1"}, "count": 5, "close_combat": True},
    ],
    "target": {"unit_class": "infantry", "armour": 2, "models": 5, "skills": ["first_strike"]},
    "attacker": {"unit_class": "infantry", "armour": 2, "models": 5},
}


def _times_ms(action: Any, runs: int, before: Any = None) -> list[float]:
    times = []
    for _ in range(runs):
        if before is not None:
            before()
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return times


def main(runs: int) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from rules.engine import RuleSet, attack_odds, parse_attack_request, resolve_attack
    from rules.engine.odds import clear_caches

    ruleset = RuleSet.rtz()
    laser = parse_attack_request(LASER_ATTACK, ruleset=ruleset)
    squad = parse_attack_request(SQUAD_ATTACK, ruleset=ruleset)
    assault = parse_attack_request(ASSAULT, ruleset=ruleset)

    def odds() -> None:
        attack_odds(request=laser, ruleset=ruleset).to_dict()

    cold = _times_ms(odds, runs, before=clear_caches)
    warm = _times_ms(odds, runs)
    print("Exact odds, 20-dice sustained laser vs damage-resilient vehicle in cover (with to_dict):")
    for label, times in (("cold", cold), ("warm", warm)):
        print(f"  {label}: median {statistics.median(times):.2f} ms, mean {statistics.fmean(times):.2f} ms")

    def assault_odds() -> None:
        attack_odds(request=assault, ruleset=ruleset).to_dict()

    strike = _times_ms(assault_odds, max(runs // 4, 5), before=clear_caches)
    print("Exact odds with the strike back, 5 carbines and spades vs a First Strike squad (cold):")
    print(f"  median {statistics.median(strike):.2f} ms, mean {statistics.fmean(strike):.2f} ms")

    count = 0
    start = time.perf_counter()
    while time.perf_counter() - start < 2.0:
        resolve_attack(request=squad, ruleset=ruleset, seed=count)
        count += 1
    rate = count / (time.perf_counter() - start)
    print(f"Single resolutions (5-model squad, 9 dice, vs squad in cover): {rate:,.0f} per second")

    slow = statistics.median(cold) > ODDS_TARGET_MS or rate < RESOLUTIONS_TARGET
    print(
        f"Targets: odds under {ODDS_TARGET_MS} ms, {RESOLUTIONS_TARGET:,} resolutions/s -",
        "MISSED" if slow else "met",
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 200))
