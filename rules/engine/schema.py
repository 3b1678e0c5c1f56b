"""The referee's request and answers as JSON Schema, built from the engine's own names and bounds.

The API publishes these as OpenAPI components (``rules.api``), so the schema
cannot drift from what the engine reads: every enum comes from the engine's
enums, every bound from ``rules.engine.requests``, and the cell pattern from
the same limits the parser enforces (tests hold the parser and the pattern to
the same set of texts). The schema says what a single field may be; rules that
tie fields together (a volley weapon needs its ammo, a weapon must be able to
target the unit...) are the engine's, answered with a 400 that names the field.

Written in the subset OpenAPI 3.0 shares with JSON Schema (``nullable``, no
``const``, patterns in the syntax ECMAScript and Python share).
"""

from __future__ import annotations

from typing import Any

from rules.engine import requests as bounds
from rules.engine.closecombat import StrikeOrder
from rules.engine.dice import Face
from rules.engine.ruleset import NAMES, SWITCHES
from rules.engine.state import ARMOUR_RANGE, UnitKind
from rules.engine.targets import AircraftMove, CriticalHit, Fortification, Height, Skill
from rules.engine.weapons import WeaponKind, WeaponTrait
from rules.engine.weather import Severity

Schema = dict[str, Any]
# Digits a cell number may have, leading zeros included (the parser reads at most nine).
_DIGITS = 9


def ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def nullable_ref(name: str) -> Schema:
    """A component or null (OpenAPI 3.0 ignores anything written beside a ``$ref``)."""
    return {"allOf": [ref(name)], "nullable": True}


def whole_number_pattern(low: int, high: int) -> str:
    """A regex for the decimal numbers ``low``..``high`` (below 100), leading zeros allowed."""
    if not 0 <= low <= high < 100:
        raise ValueError("only numbers from 0 to 99")
    ones = [n for n in range(low, high + 1) if n < 10]
    tens = [n for n in range(low, high + 1) if n >= 10]
    parts = []
    if ones:
        parts.append(f"0{{0,{_DIGITS - 1}}}[{ones[0]}-{ones[-1]}]")
    if tens:
        alternatives = []
        for first in range(tens[0] // 10, tens[-1] // 10 + 1):
            seconds = [n % 10 for n in tens if n // 10 == first]
            alternatives.append(f"{first}[{seconds[0]}-{seconds[-1]}]")
        parts.append(f"0{{0,{_DIGITS - 2}}}(?:{'|'.join(alternatives)})")
    return f"(?:{'|'.join(parts)})"


def cell_pattern() -> str:
    """Every cell text a request may hold: ``3/1``, ``bb/2``, ``2 / AK``, ``1/[death]``, ``-``."""
    dice = whole_number_pattern(0, bounds.MAX_CELL_DICE)
    blast = f"[Bb]{{1,{bounds.MAX_BLAST}}}"
    damage = whole_number_pattern(1, bounds.MAX_HIT_DAMAGE)
    kill = r"[Aa][Kk]|\[[Dd][Ee][Aa][Tt][Hh]\]"
    return f"^ *(?:[-—]|(?:{dice}|{blast}) */ *(?:{damage}|{kill})) *$"


def enum_components() -> dict[str, Schema]:
    """Every choice set, as a named component (so each is defined once, and named well)."""
    choices: dict[str, list[str]] = {
        "UnitClass": [kind.value for kind in UnitKind],
        "WeaponKind": [kind.value for kind in WeaponKind],
        "WeaponTrait": [trait.value for trait in WeaponTrait],
        "UnitSkill": [skill.value for skill in Skill],
        "CriticalHit": [hit.value for hit in CriticalHit],
        "Fortification": [fortification.value for fortification in Fortification],
        "StructuralSave": ["structural", "improved_structural"],
        "AircraftMove": [move.value for move in AircraftMove],
        "Height": [height.value for height in Height],
        "Weather": ["none", *(severity.value for severity in Severity)],
        "AttackAction": ["attack", "sustained_attack"],
        "RuleSetName": list(NAMES),
        "StrikeOrder": [order.value for order in StrikeOrder],
        "DieFace": [face.value for face in Face],
    }
    return {name: {"type": "string", "enum": values} for name, values in choices.items()}


def _choice(name: str, *, nullable: bool = False) -> Schema:
    return nullable_ref(name) if nullable else ref(name)


def _integer(low: int, high: int, **extra: Any) -> Schema:
    return {"type": "integer", "minimum": low, "maximum": high, **extra}


def _flag(description: str = "") -> Schema:
    return {"type": "boolean", **({"description": description} if description else {})}


def _list(items: Schema, most: int, **extra: Any) -> Schema:
    return {"type": "array", "items": items, "maxItems": most, **extra}


def _object(properties: dict[str, Schema], required: tuple[str, ...] = (), **extra: Any) -> Schema:
    schema: Schema = {"type": "object", "properties": properties, "additionalProperties": False, **extra}
    if required:
        schema["required"] = list(required)
    return schema


def _cells(kind: UnitKind) -> Schema:
    size = ARMOUR_RANGE[kind][1]
    return {
        "oneOf": [
            ref("AttackCell"),
            {"type": "array", "items": ref("AttackCell"), "minItems": size, "maxItems": size},
        ],
        "description": f"One cell for every armour, or {size} cells (armour 1 to {size}); left out: cannot target.",
    }


def _weapon() -> Schema:
    return _object(
        {
            "name": {"type": "string", "minLength": 1, "maxLength": bounds.MAX_NAME_LENGTH, "pattern": r"\S"},
            "kind": _choice("WeaponKind"),
            "traits": _list(_choice("WeaponTrait"), bounds.MAX_TRAITS),
            "line": ref("WeaponLine"),
            "count": _integer(1, bounds.MAX_COUNT, description="Models firing this line."),
            "close_combat": _flag("A range C weapon."),
            "ammo": _integer(0, bounds.MAX_AMMO, nullable=True, description="Unmarked ammo boxes."),
            "loaded": _flag("The reload or salvo token."),
            "fire_salvo": _flag(),
            "volley": _integer(0, bounds.MAX_AMMO, description="Rockets or bombs fired now."),
            "expert": _flag(),
            "savage_animal": _flag(),
            "snipe": _flag(),
            "models_touched": _integer(1, bounds.MAX_MODELS, nullable=True),
        },
        description="One weapon line; ``line`` is required except for the improvised weapon.",
    )


def _unit() -> Schema:
    armour_high = max(high for _, high in ARMOUR_RANGE.values())
    return _object(
        {
            "unit_class": _choice("UnitClass"),
            "armour": _integer(1, armour_high, description="Infantry 1-4, vehicles 1-7, aircraft 1-3."),
            "models": _integer(1, bounds.MAX_MODELS),
            "damage_per_model": _integer(
                1,
                bounds.MAX_DAMAGE_PER_MODEL,
                description=f"At most {bounds.MAX_UNIT_DAMAGE} damage points in all (models x this).",
            ),
            "damage_taken": _integer(0, bounds.MAX_DAMAGE_PER_MODEL - 1),
            "hero": _flag(),
            "skills": _list(_choice("UnitSkill"), bounds.MAX_SKILLS),
            "in_cover": _flag(),
            "in_smoke": _flag(),
            "in_trench": _flag(),
            "fortification": _choice("Fortification"),
            "structural_save": _choice("StructuralSave", nullable=True),
            "aircraft_move": _choice("AircraftMove"),
            "cheat_death_used": _flag(),
            "stunned": _flag(),
            "grappled": _flag(),
            "critical_hits": _list(_choice("CriticalHit"), bounds.MAX_CRITICAL_HITS),
            "cc_weapons": _list(ref("AttackWeapon"), bounds.MAX_WEAPONS, nullable=True),
        },
        required=("unit_class", "armour"),
    )


def request_components() -> dict[str, Schema]:
    """The referee request's parts, by component name."""
    line = {kind.value: _cells(kind) for kind in UnitKind}
    return {
        "AttackCell": {
            "type": "string",
            "maxLength": bounds.MAX_CELL_LENGTH,
            "pattern": cell_pattern(),
            "description": (
                f"dice/damage: at most {bounds.MAX_CELL_DICE} dice or {bounds.MAX_BLAST} blast symbols (B), "
                f"{bounds.MAX_HIT_DAMAGE} damage or AK; - cannot target."
            ),
        },
        "WeaponLine": _object(line),
        "AttackWeapon": _weapon(),
        "AttackUnit": _unit(),
        "AttackConditions": _object(
            {
                "height": _choice("Height"),
                "weather": _choice("Weather", nullable=True),
                "distance": _integer(1, bounds.MAX_DISTANCE, nullable=True),
                "attacker_is_aircraft": _flag(),
            }
        ),
        "AttackRequest": _object(
            {
                "action": _choice("AttackAction"),
                "sustained_close_combat": _flag(),
                "fighting_spirit": _flag(),
                "spotter": _flag(),
                "weapons": _list(ref("AttackWeapon"), bounds.MAX_WEAPONS, minItems=1),
                "target": ref("AttackUnit"),
                "attacker": nullable_ref("AttackUnit"),
                "conditions": ref("AttackConditions"),
            },
            required=("weapons", "target"),
        ),
        "RuleSetRequest": _object(
            {"name": _choice("RuleSetName"), **{name: _flag(text) for name, text in SWITCHES.items()}},
            required=("name",),
            description="A preset, then the switches given; GET /api/rules/switches/ describes them.",
        ),
        "RefereeRequest": _object(
            {
                "attack": ref("AttackRequest"),
                "ruleset": nullable_ref("RuleSetRequest"),
                "seed": _integer(0, bounds.MAX_SEED, nullable=True, description="Replay a roll (resolve)."),
            },
            required=("attack",),
        ),
    }


def _number(low: float = 0) -> Schema:
    return {"type": "number", "minimum": low}


def _count() -> Schema:
    return {"type": "integer", "minimum": 0}


def _distribution() -> Schema:
    return _object(
        {
            "probabilities": {"type": "array", "items": {"type": "number", "minimum": 0, "maximum": 1}},
            "tail_from": {"type": "integer", "minimum": 0, "nullable": True},
            "expected": _number(),
        },
        required=("probabilities", "tail_from", "expected"),
    )


def answer_components() -> dict[str, Schema]:
    """The odds and the resolution, by component name."""
    quantities = ("hits", "saved", "unsaved", "damage", "models_removed", "damage_removed")
    chance = {"type": "number", "minimum": 0, "maximum": 1}
    ruleset = _object(
        {"name": _choice("RuleSetName"), **{name: _flag() for name in SWITCHES}},
        required=("name", *SWITCHES),
    )
    outcome_fields = ("dice", "hits", "saved", "unsaved", "damage", "resisted")
    totals = ("hits", "saved", "unsaved", "damage", "resisted", "models_removed", "damage_removed")
    resolution = _object(
        {
            "seed": _integer(0, bounds.MAX_SEED),
            "ruleset": ref("RuleSet"),
            **{name: _count() for name in totals},
            "destroyed": _flag(),
            "models_left": _count(),
            "damage_taken": _count(),
            "suppression": _object(
                {name: _flag() for name in ("hit", "automatic", "close_combat", "immune")},
                required=("hit", "automatic", "close_combat", "immune"),
            ),
            "stunned": _flag(),
            "grappled": _flag(),
            "critical_hit": _choice("CriticalHit", nullable=True),
            "cheat_death": {"type": "boolean", "nullable": True},
            "weapons": {
                "type": "array",
                "items": _object(
                    {
                        "index": _count(),
                        "name": {"type": "string"},
                        **{name: _count() for name in outcome_fields},
                    },
                    required=("index", "name", *outcome_fields),
                ),
            },
            "ammo": {
                "type": "array",
                "items": _object(
                    {
                        "index": _count(),
                        "name": {"type": "string"},
                        "ammo": {"type": "integer", "nullable": True},
                        "loaded": {"type": "boolean", "nullable": True},
                    },
                    required=("index", "name", "ammo", "loaded"),
                ),
            },
            "retaliation": nullable_ref("AttackResolution"),
            "log": {"type": "array", "items": ref("DieRoll")},
        },
    )
    resolution["required"] = list(resolution["properties"])
    return {
        "RuleSet": ruleset,
        "OddsDistribution": _distribution(),
        "StrikeBackOdds": _object(
            {
                "order": _choice("StrikeOrder"),
                "p_strikes_back": chance,
                "models_removed": ref("OddsDistribution"),
                "damage_removed": ref("OddsDistribution"),
                "p_destroyed": chance,
                "p_cheat_death": chance,
            },
            required=(
                "order",
                "p_strikes_back",
                "models_removed",
                "damage_removed",
                "p_destroyed",
                "p_cheat_death",
            ),
        ),
        "AttackOdds": _object(
            {
                "ruleset": ref("RuleSet"),
                **{name: ref("OddsDistribution") for name in quantities},
                "expected": _object({name: _number() for name in quantities}, required=quantities),
                "p_destroyed": chance,
                "p_critical_hit": chance,
                "p_cheat_death": chance,
                "strike_back": nullable_ref("StrikeBackOdds"),
            },
            required=(
                "ruleset",
                *quantities,
                "expected",
                "p_destroyed",
                "p_critical_hit",
                "p_cheat_death",
                "strike_back",
            ),
        ),
        "DieRoll": _object(
            {
                "purpose": {"type": "string"},
                "face": _choice("DieFace"),
                "success": {"type": "boolean", "nullable": True},
            },
            required=("purpose", "face", "success"),
        ),
        "AttackResolution": resolution,
    }
