"""Attack requests: the plain-dict shape every caller sends, and its checks.

The REST API, the management command and the odds calculator page all send the
same JSON-ready mapping. ``parse_attack_request`` turns it into an
``AttackRequest``; every problem raises ``EngineInputError(field, reason)``
with the field's path (``weapons[0].kind``, ``target.armour``...).

Shape (keys other than ``weapons`` and ``target`` are optional)::

    {
      "action": "sustained_attack",        # or "attack" (the default)
      "sustained_close_combat": false,     # a sustained attack with ranged AND close-combat
                                           # weapons sustains the ranged ones unless true
      "fighting_spirit": false,            # spend the attacker's once-per-game Fighting Spirit
      "spotter": false,                    # a spotter in the unit holds fire (helps snipers)
      "weapons": [
        {
          "name": "Laser cannon",
          "kind": "laser",                 # standard, laser, cutting, flame, flame_burst, grapple,
                                           # artillery, phaser, railgun, sniper, tesla, grenade,
                                           # radiation, wire_guided, improvised
          "traits": ["limited_ammo"],      # limited_ammo, reload, salvo, volley, power_scope
          "line": {                        # per class: one cell per armour, or one cell for all;
            "infantry": "3/1",             # a class left out cannot be targeted ("-")
            "vehicle": ["6/1", "6/2", "5/2", "4/2", "3/3", "2/3", "1/4"],
            "aircraft": ["2/1", "2/1", "1/2"]
          },
          "count": 1,                      # models firing this line
          "close_combat": false,           # a range C weapon
          "ammo": 3,                       # unmarked boxes (limited_ammo, volley)
          "loaded": true,                  # reload / salvo token
          "fire_salvo": false,             # salvo: double dice, spends the token
          "volley": 0,                     # volley: rockets fired now (dice multiplied)
          "expert": false,                 # an Expert skill names this weapon
          "savage_animal": false,          # a Savage Animal skill names this weapon
          "snipe": false,                  # sniper picks one miniature
          "models_touched": null           # blast: models under the template (default: all)
        }
      ],
      "target": {
        "unit_class": "vehicle",           # infantry, vehicle, aircraft
        "armour": 4,
        "models": 1,
        "damage_per_model": 5,             # a vehicle's or hero's damage track; 1 for soldiers
        "damage_taken": 0,                 # damage already on the model being worn down
        "hero": false,
        "skills": ["damage_resilient"],    # damage_resilient, cheat_death, steel_guard, zombie,
                                           # superhuman, mindless, mythos_creature, first_strike,
                                           # flying, fighting_spirit, and_stay_down
        "in_cover": true, "in_smoke": false, "in_trench": false,
        "fortification": "none",           # none, strongpoint, bunker
        "structural_save": null,           # optional check: "structural" or "improved_structural"
        "aircraft_move": "none",           # none, move, march (aircraft only)
        "cheat_death_used": false, "stunned": false, "grappled": false,
        "critical_hits": [],
        "cc_weapons": null                 # weapons it retaliates with (default: improvised)
      },
      "attacker": {"unit_class": "vehicle", "armour": 3, "damage_per_model": 4},
      "conditions": {
        "height": "level",                 # level, attacker_higher, target_higher
        "weather": "none",                 # none, mild, moderate, severe
        "distance": 4,                     # range to the target (weather cover needs it)
        "attacker_is_aircraft": false      # derived from attacker when it is given
      }
    }

The ``attacker`` block is needed for close combat (the target retaliates
against it) and for the rules that depend on who shoots (light infantry
flamers, First Strike, And Stay Down); without it those rules are skipped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rules.engine.errors import EngineInputError
from rules.engine.ruleset import RuleSet
from rules.engine.state import UnitKind, is_whole
from rules.engine.targets import (
    Conditions,
    Fortification,
    Height,
    Skill,
    Target,
    check_target,
    target_from_dict,
)
from rules.engine.weapons import Weapon, WeaponKind, check_weapon, improvised_weapon, weapon_from_dict
from rules.engine.weather import EFFECTS, Severity, weather_cover


@dataclass(frozen=True)
class AttackRequest:
    """One attack action by one unit against one target."""

    weapons: tuple[Weapon, ...]
    target: Target
    attacker: Target | None = None
    sustained: bool = False
    sustained_close_combat: bool = False
    fighting_spirit: bool = False
    spotter: bool = False
    conditions: Conditions = field(default_factory=Conditions)


_ACTIONS = {"attack": False, "sustained_attack": True}
_TOP_KEYS = {
    "action",
    "sustained_close_combat",
    "fighting_spirit",
    "spotter",
    "weapons",
    "target",
    "attacker",
    "conditions",
}


def parse_attack_request(data: object, *, ruleset: RuleSet) -> AttackRequest:
    """Build and check an AttackRequest from the documented dict shape."""
    if not isinstance(data, Mapping):
        raise EngineInputError("request", "must be a mapping")
    unknown = sorted(str(key) for key in data if key not in _TOP_KEYS)
    if unknown:
        raise EngineInputError(unknown[0], "is not a field of an attack request")
    action = data.get("action", "attack")
    if action not in _ACTIONS:
        raise EngineInputError("action", "must be attack or sustained_attack")
    weapons = _weapons(data.get("weapons"), "weapons")
    target_data = data.get("target")
    target = target_from_dict(target_data, "target", _cc_weapons(target_data, "target"))
    _check_structural_claim(target_data, target, ruleset)
    attacker_data = data.get("attacker")
    attacker = None
    if attacker_data is not None:
        attacker = target_from_dict(attacker_data, "attacker", _cc_weapons(attacker_data, "attacker"))
    flags = {name: _flag(data, name) for name in ("sustained_close_combat", "fighting_spirit", "spotter")}
    request = AttackRequest(
        weapons=weapons,
        target=target,
        attacker=attacker,
        sustained=_ACTIONS[str(action)],
        conditions=_conditions(data.get("conditions", {}), target, attacker),
        **flags,
    )
    check_request(request, ruleset)
    return request


def check_request(request: AttackRequest, ruleset: RuleSet) -> None:
    """What a request must satisfy whoever built it (dict parser or Python caller)."""
    if not request.weapons:
        raise EngineInputError("weapons", "an attack uses at least one weapon")
    check_target(request.target, "target")
    attacker = request.attacker
    if attacker is not None:
        check_target(attacker, "attacker")
    target = request.target
    for i, weapon in enumerate(request.weapons):
        path = f"weapons[{i}]"
        check_weapon(weapon, path)
        cell = weapon.line.cell(target.unit_class, target.armour)
        if cell is None:
            raise EngineInputError(
                f"{path}.line",
                f"cannot target {target.unit_class.value} armour {target.armour} (its cell is -)",
            )
        if weapon.models_touched is not None and weapon.models_touched > target.models:
            raise EngineInputError(f"{path}.models_touched", f"the target has only {target.models} models")
        if attacker is not None and attacker.is_infantry and weapon.count > attacker.models:
            raise EngineInputError(f"{path}.count", f"the attacking unit has only {attacker.models} models")
        if weapon.close_combat and attacker is not None and attacker.unit_class is UnitKind.AIRCRAFT:
            raise EngineInputError(f"{path}.close_combat", "aircraft do not fight in close combat")
    _check_action(request)
    _check_height(request)
    _check_retaliation(request)


def retaliation_weapons(target: Target) -> tuple[Weapon, ...]:
    """What a unit strikes back with in close combat: its own list, or the improvised weapon."""
    if target.cc_weapons is not None:
        return target.cc_weapons
    return (improvised_weapon(target.models),)


def _check_retaliation(request: AttackRequest) -> None:
    """The defender's close-combat weapons must be usable against the attacker."""
    attacker, target = request.attacker, request.target
    if attacker is None or not any(weapon.close_combat for weapon in request.weapons):
        return
    for i, weapon in enumerate(retaliation_weapons(target)):
        path = f"target.cc_weapons[{i}]"
        check_weapon(weapon, path)
        if weapon.line.cell(attacker.unit_class, attacker.armour) is None:
            raise EngineInputError(
                f"{path}.line", f"cannot strike back at {attacker.unit_class.value} armour {attacker.armour}"
            )
        if target.is_infantry and weapon.count > target.models:
            raise EngineInputError(f"{path}.count", f"the target has only {target.models} models")


def _check_action(request: AttackRequest) -> None:
    has_cc = any(weapon.close_combat for weapon in request.weapons)
    if request.sustained_close_combat and not (request.sustained and has_cc):
        raise EngineInputError("sustained_close_combat", "only a sustained attack with close-combat weapons")
    if has_cc and request.target.unit_class is UnitKind.AIRCRAFT:
        raise EngineInputError("target.unit_class", "aircraft cannot be attacked in close combat")
    if request.fighting_spirit and (
        request.attacker is None or not request.attacker.has(Skill.FIGHTING_SPIRIT)
    ):
        raise EngineInputError("fighting_spirit", "the attacker needs the Fighting Spirit skill")
    if request.spotter and not any(weapon.kind is WeaponKind.SNIPER for weapon in request.weapons):
        raise EngineInputError("spotter", "a spotter only helps sniper weapons")
    if has_cc and request.conditions.distance not in (None, 1):
        raise EngineInputError("conditions.distance", "close combat needs an adjacent target (distance 1)")


def _check_height(request: AttackRequest) -> None:
    if request.conditions.height is Height.LEVEL:
        return
    aircraft = request.target.unit_class is UnitKind.AIRCRAFT or (
        request.attacker is not None and request.attacker.unit_class is UnitKind.AIRCRAFT
    )
    if aircraft:
        raise EngineInputError(
            "conditions.height", "attacks by or against aircraft never have height advantage"
        )


def _check_structural_claim(data: object, target: Target, ruleset: RuleSet) -> None:
    """``structural_save`` is optional and only confirms what the fortification gives."""
    if not isinstance(data, Mapping) or data.get("structural_save") is None:
        return
    claim = data["structural_save"]
    expected = {Fortification.STRONGPOINT: "structural", Fortification.BUNKER: "improved_structural"}
    if claim not in {"structural", "improved_structural"}:
        raise EngineInputError("target.structural_save", "must be structural, improved_structural or null")
    if target.fortification is Fortification.NONE:
        raise EngineInputError("target.structural_save", "a structural save needs a strongpoint or a bunker")
    if not ruleset.structural_saves:
        raise EngineInputError("target.structural_save", "this rule set has no structural saves")
    if expected[target.fortification] != claim:
        wanted = expected[target.fortification]
        raise EngineInputError(
            "target.structural_save", f"a {target.fortification.value} gives a {wanted} save"
        )


def _weapons(data: object, path: str) -> tuple[Weapon, ...]:
    if not isinstance(data, Sequence) or isinstance(data, str):
        raise EngineInputError(path, "must be a list of weapon lines")
    if not data:
        raise EngineInputError(path, "an attack uses at least one weapon")
    return tuple(weapon_from_dict(item, f"{path}[{i}]") for i, item in enumerate(data))


def _cc_weapons(data: object, path: str) -> tuple[Weapon, ...] | None:
    if not isinstance(data, Mapping) or data.get("cc_weapons") is None:
        return None
    weapons = data["cc_weapons"]
    if not isinstance(weapons, Sequence) or isinstance(weapons, str):
        raise EngineInputError(f"{path}.cc_weapons", "must be a list of weapon lines")
    parsed = tuple(weapon_from_dict(item, f"{path}.cc_weapons[{i}]") for i, item in enumerate(weapons))
    for i, weapon in enumerate(parsed):
        if not weapon.close_combat:
            raise EngineInputError(
                f"{path}.cc_weapons[{i}].close_combat", "retaliation uses close-combat weapons"
            )
    return parsed


def _flag(data: Mapping[str, object], name: str) -> bool:
    value = data.get(name, False)
    if not isinstance(value, bool):
        raise EngineInputError(name, "must be true or false")
    return value


def _conditions(data: object, target: Target, attacker: Target | None) -> Conditions:
    if not isinstance(data, Mapping):
        raise EngineInputError("conditions", "must be a mapping")
    unknown = sorted(
        str(key) for key in data if key not in {"height", "weather", "distance", "attacker_is_aircraft"}
    )
    if unknown:
        raise EngineInputError(f"conditions.{unknown[0]}", "is not a known condition")
    try:
        height = Height(str(data.get("height", "level")))
    except ValueError:
        raise EngineInputError(
            "conditions.height", "must be level, attacker_higher or target_higher"
        ) from None
    distance = data.get("distance")
    if distance is not None and (not is_whole(distance) or distance < 1):
        raise EngineInputError("conditions.distance", "must be a whole number of at least 1")
    by_aircraft = data.get("attacker_is_aircraft", False)
    if not isinstance(by_aircraft, bool):
        raise EngineInputError("conditions.attacker_is_aircraft", "must be true or false")
    if attacker is not None:
        if "attacker_is_aircraft" in data and by_aircraft != (attacker.unit_class is UnitKind.AIRCRAFT):
            raise EngineInputError("conditions.attacker_is_aircraft", "contradicts attacker.unit_class")
        by_aircraft = attacker.unit_class is UnitKind.AIRCRAFT
    weather = data.get("weather", "none")
    if weather in (None, "none"):
        return Conditions(height=height, distance=distance)
    try:
        severity = Severity(str(weather))
    except ValueError:
        raise EngineInputError("conditions.weather", "must be none, mild, moderate or severe") from None
    if distance is None:
        raise EngineInputError("conditions.distance", "weather cover depends on the range: give the distance")
    cover = weather_cover(
        EFFECTS[severity],
        distance,
        attacker_is_aircraft=by_aircraft,
        target_is_ground=target.unit_class is not UnitKind.AIRCRAFT,
    )
    # Weather cover shelters ground units only; aircraft evade instead.
    sheltered = target.unit_class is not UnitKind.AIRCRAFT
    return Conditions(
        height=height,
        weather_cover=cover.cover and sheltered,
        weather_reroll_failed_cover=cover.reroll_failed_cover and cover.cover and sheltered,
        distance=distance,
    )
