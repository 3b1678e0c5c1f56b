"""Small builders for the attack engine tests: units, weapons, requests, set dice."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

from rules.engine import (
    AttackRequest,
    AttackResult,
    Conditions,
    Distribution,
    RuleSet,
    Target,
    Weapon,
    WeaponKind,
    WeaponTrait,
    resolve_attack_with,
)
from rules.engine.dice import DiceRoller, DieRecord, Face
from rules.engine.state import UnitKind
from rules.engine.weapons import parse_line

B, T, S = Face.BLOC, Face.TARGET, Face.SHIELD
RTZ = RuleSet.rtz()
RULEBOOK = RuleSet.rulebook()


def weapon(
    cell: str = "1/1",
    *,
    kind: WeaponKind = WeaponKind.STANDARD,
    traits: Iterable[WeaponTrait] = (),
    aircraft: str | None = None,
    name: str = "gun",
    **options: object,
) -> Weapon:
    """A weapon with the same cell against every infantry and vehicle armour."""
    line = parse_line({"infantry": cell, "vehicle": cell, "aircraft": aircraft or cell}, "line")
    return Weapon(name=name, line=line, kind=kind, traits=frozenset(traits), **options)


def infantry(armour: int = 2, models: int = 5, **options: object) -> Target:
    return Target(unit_class=UnitKind.INFANTRY, armour=armour, models=models, **options)


def hero(armour: int = 2, damage: int = 3, **options: object) -> Target:
    return Target(
        unit_class=UnitKind.INFANTRY, armour=armour, models=1, damage_per_model=damage, hero=True, **options
    )


def vehicle(armour: int = 4, damage: int = 5, **options: object) -> Target:
    return Target(unit_class=UnitKind.VEHICLE, armour=armour, damage_per_model=damage, **options)


def aircraft(armour: int = 2, damage: int = 4, **options: object) -> Target:
    return Target(unit_class=UnitKind.AIRCRAFT, armour=armour, damage_per_model=damage, **options)


def attack(
    *weapons: Weapon, target: Target, conditions: Conditions | None = None, **options: object
) -> AttackRequest:
    return AttackRequest(weapons=weapons, target=target, conditions=conditions or Conditions(), **options)


@dataclass
class ScriptedRoller(DiceRoller):
    """A roller that shows the faces it is given, in order, and fails loudly when they run out."""

    script: list[Face] = field(default_factory=list)

    def roll(self, count: int, purpose: str, success: Iterable[Face] | None = None) -> list[Face]:
        if count > len(self.script):
            raise AssertionError(f"{purpose}: wants {count} dice, {len(self.script)} scripted")
        wanted = None if success is None else frozenset(success)
        faces, self.script = self.script[:count], self.script[count:]
        for face in faces:
            self.log.append(DieRecord(purpose, face, None if wanted is None else face in wanted))
        return faces


def scripted(request: AttackRequest, faces: Iterable[Face], ruleset: RuleSet = RTZ) -> AttackResult:
    """Resolve with set faces; every scripted die must be used."""
    roller = ScriptedRoller(seed=0, script=list(faces))
    result = resolve_attack_with(request=request, ruleset=ruleset, roller=roller)
    assert not roller.script, f"{len(roller.script)} scripted dice were not rolled"
    return result


def purposes(result: AttackResult) -> list[str]:
    return [record.purpose for record in result.log]


# Monte Carlo checks roll this many attacks with a fixed seed.
TRIALS = 20_000


def close_to_exact(sampled: float, exact: Distribution) -> bool:
    """A sampled mean agrees with the exact one within max(0.02, 4 standard errors of TRIALS rolls)."""
    mean = float(exact.expected)
    spread = math.sqrt(sum(float(p) * (k - mean) ** 2 for k, p in enumerate(exact.probabilities)))
    return abs(sampled - mean) < max(0.02, 4 * spread / math.sqrt(TRIALS))
