"""Every bound of an attack request, at its edge, just over it and absurdly over it.

One table for the engine, the API, the schema and the command tests: each case
builds a referee request (``{"attack": ..., "ruleset": ...}``) from one value
and says which field a refusal names and which limit it states.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules.engine.requests import (
    MAX_AMMO,
    MAX_BLAST,
    MAX_CELL_DICE,
    MAX_CELL_LENGTH,
    MAX_COUNT,
    MAX_CRITICAL_HITS,
    MAX_DAMAGE_PER_MODEL,
    MAX_DISTANCE,
    MAX_HIT_DAMAGE,
    MAX_MODELS,
    MAX_NAME_LENGTH,
    MAX_SKILLS,
    MAX_TRAITS,
    MAX_UNIT_DAMAGE,
    MAX_WEAPONS,
)

ABSURD = 1_000_000
# Lists this long are absurd enough, and quick to build.
ABSURD_LIST = 10_000

GUN: dict[str, Any] = {"name": "Rifle", "line": {"infantry": "1/1", "vehicle": "1/1"}, "count": 1}
CLUB: dict[str, Any] = {"name": "Club", "line": {"infantry": "1/1"}, "close_combat": True}


def referee(attack: dict[str, Any]) -> dict[str, Any]:
    return {"ruleset": {"name": "rtz"}, "attack": attack}


def squad_attack(**weapon: Any) -> dict[str, Any]:
    """One line fired by a squad of the largest size at a one-model infantry target."""
    return referee(
        {
            "weapons": [{**GUN, **weapon}],
            "target": {"unit_class": "infantry", "armour": 2, "models": 1},
            "attacker": {"unit_class": "infantry", "armour": 2, "models": MAX_MODELS},
        }
    )


def _cell(text: str) -> dict[str, Any]:
    return squad_attack(line={"infantry": text})


def _target(**target: Any) -> dict[str, Any]:
    request = squad_attack()
    request["attack"]["target"] = {"unit_class": "infantry", "armour": 2, **target}
    return request


def _vehicle(**target: Any) -> dict[str, Any]:
    request = squad_attack()
    request["attack"]["target"] = {"unit_class": "vehicle", "armour": 2, **target}
    return request


def _weapons(n: int) -> dict[str, Any]:
    request = squad_attack()
    request["attack"]["weapons"] = [copy.deepcopy(GUN) for _ in range(n)]
    return request


def _cc_weapons(n: int) -> dict[str, Any]:
    return referee(
        {
            "weapons": [{**CLUB, "count": 1}],
            "target": {
                "unit_class": "infantry",
                "armour": 2,
                "models": 1,
                "cc_weapons": [{**CLUB, "count": 1} for _ in range(n)],
            },
            "attacker": {"unit_class": "infantry", "armour": 2, "models": 1},
        }
    )


def _attacker_models(n: int) -> dict[str, Any]:
    request = squad_attack()
    request["attack"]["attacker"]["models"] = n
    return request


def _distance(n: int) -> dict[str, Any]:
    request = squad_attack()
    request["attack"]["conditions"] = {"distance": n}
    return request


def _blast_over(models: int) -> dict[str, Any]:
    request = _target(models=MAX_MODELS)
    request["attack"]["weapons"] = [{**GUN, "line": {"infantry": "B/1"}, "models_touched": models}]
    return request


def _padded(length: int) -> str:
    return "1/1".ljust(length)


@dataclass(frozen=True)
class Bound:
    """One bound: the request for a value, the values to try, the refused field and the stated limit."""

    name: str
    build: Callable[[Any], dict[str, Any]]
    edge: Any
    over: Any
    absurd: Any
    field: str  # in the attack request (the referee prefixes it with "attack.")
    limit: int
    absurd_field: str = ""  # when an absurd value trips another bound first...
    absurd_limit: int = 0  # ...and that bound's limit
    in_the_schema: bool = True  # False: ties two fields together, which the schema cannot say

    def refused_field(self, value: Any) -> str:
        return self.absurd_field if self._other(value) else self.field

    def stated_limit(self, value: Any) -> int:
        return self.absurd_limit if self._other(value) else self.limit

    def _other(self, value: Any) -> bool:
        return value not in (self.edge, self.over) and bool(self.absurd_field)


BOUNDS = [
    Bound(
        "count",
        lambda n: squad_attack(count=n),
        MAX_COUNT,
        MAX_COUNT + 1,
        ABSURD,
        "weapons[0].count",
        MAX_COUNT,
    ),
    Bound(
        "dice in a cell",
        lambda n: _cell(f"{n}/1"),
        MAX_CELL_DICE,
        MAX_CELL_DICE + 1,
        ABSURD,
        "weapons[0].line.infantry[0]",
        MAX_CELL_DICE,
    ),
    Bound(
        "blast symbols",
        lambda n: _cell("B" * n + "/1"),
        MAX_BLAST,
        MAX_BLAST + 1,
        ABSURD,
        "weapons[0].line.infantry[0]",
        MAX_BLAST,
        absurd_field="weapons[0].line.infantry",
        absurd_limit=MAX_CELL_LENGTH,
    ),
    Bound(
        "damage per hit",
        lambda n: _cell(f"1/{n}"),
        MAX_HIT_DAMAGE,
        MAX_HIT_DAMAGE + 1,
        ABSURD,
        "weapons[0].line.infantry[0]",
        MAX_HIT_DAMAGE,
    ),
    Bound(
        "cell text",
        lambda n: _cell(_padded(n)),
        MAX_CELL_LENGTH,
        MAX_CELL_LENGTH + 1,
        ABSURD,
        "weapons[0].line.infantry",
        MAX_CELL_LENGTH,
    ),
    Bound(
        "weapon name",
        lambda n: squad_attack(name="x" * n),
        MAX_NAME_LENGTH,
        MAX_NAME_LENGTH + 1,
        ABSURD,
        "weapons[0].name",
        MAX_NAME_LENGTH,
    ),
    Bound(
        "traits",
        lambda n: squad_attack(traits=["reload"] * n),
        MAX_TRAITS,
        MAX_TRAITS + 1,
        ABSURD_LIST,
        "weapons[0].traits",
        MAX_TRAITS,
    ),
    Bound("weapon lines", _weapons, MAX_WEAPONS, MAX_WEAPONS + 1, ABSURD_LIST, "weapons", MAX_WEAPONS),
    Bound(
        "ammo",
        lambda n: squad_attack(traits=["limited_ammo"], ammo=n),
        MAX_AMMO,
        MAX_AMMO + 1,
        ABSURD,
        "weapons[0].ammo",
        MAX_AMMO,
    ),
    Bound(
        "volley",
        lambda n: squad_attack(traits=["volley"], ammo=MAX_AMMO, volley=n),
        MAX_AMMO,
        MAX_AMMO + 1,
        ABSURD,
        "weapons[0].volley",
        MAX_AMMO,
    ),
    Bound(
        "models under a blast",
        _blast_over,
        MAX_MODELS,
        MAX_MODELS + 1,
        ABSURD,
        "weapons[0].models_touched",
        MAX_MODELS,
    ),
    Bound(
        "target models",
        lambda n: _target(models=n),
        MAX_MODELS,
        MAX_MODELS + 1,
        ABSURD,
        "target.models",
        MAX_MODELS,
    ),
    Bound(
        "damage per model",
        lambda n: _vehicle(damage_per_model=n),
        MAX_DAMAGE_PER_MODEL,
        MAX_DAMAGE_PER_MODEL + 1,
        ABSURD,
        "target.damage_per_model",
        MAX_DAMAGE_PER_MODEL,
    ),
    Bound(
        "damage points in a unit",
        lambda n: _target(models=2, damage_per_model=n),
        MAX_UNIT_DAMAGE // 2,
        MAX_UNIT_DAMAGE // 2 + 1,
        MAX_DAMAGE_PER_MODEL,
        "target.damage_per_model",
        MAX_UNIT_DAMAGE,
        in_the_schema=False,
    ),
    Bound(
        "skills",
        lambda n: _target(skills=["first_strike"] * n),
        MAX_SKILLS,
        MAX_SKILLS + 1,
        ABSURD_LIST,
        "target.skills",
        MAX_SKILLS,
    ),
    Bound(
        "critical hits",
        lambda n: _vehicle(damage_per_model=5, critical_hits=["on_fire"] * n),
        MAX_CRITICAL_HITS,
        MAX_CRITICAL_HITS + 1,
        ABSURD_LIST,
        "target.critical_hits",
        MAX_CRITICAL_HITS,
    ),
    Bound(
        "strike-back lines",
        _cc_weapons,
        MAX_WEAPONS,
        MAX_WEAPONS + 1,
        ABSURD_LIST,
        "target.cc_weapons",
        MAX_WEAPONS,
    ),
    Bound(
        "attacker models",
        _attacker_models,
        MAX_MODELS,
        MAX_MODELS + 1,
        ABSURD,
        "attacker.models",
        MAX_MODELS,
    ),
    Bound("distance", _distance, MAX_DISTANCE, MAX_DISTANCE + 1, ABSURD, "conditions.distance", MAX_DISTANCE),
]

# Through a JSON body the absurd texts and lists must stay under the body limit, or the 413
# answers first (tested on its own): still hundreds of times over their bound.
_IN_A_BODY = {
    "cell text": 5_000,
    "weapon name": 5_000,
    "blast symbols": 5_000,
    "traits": 2_000,
    "weapon lines": 300,
    "skills": 2_000,
    "critical hits": 2_000,
    "strike-back lines": 300,
}


def absurd_in_a_body(bound: Bound) -> Any:
    return _IN_A_BODY.get(bound.name, bound.absurd)
