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
flamers, First Strike, And Stay Down, and a vehicle's damaged targeting system
in its ``critical_hits``: every hit of the first roll re-rolled, no sustained
re-roll of misses, in its own attacks but not in its strike back); without it
those rules are skipped.

Bounds
------
Every number, list and text of a request is bounded so that no request can
hold a server process (the constants below; the API schema, the odds page's
form and the ``referee`` command read the same ones). They come from the real
Dust 1947 catalogue (the BattleScribe data: 365 units), with about twice the
largest real figure as margin, so no real attack comes near them:

=====================  =====  ==============================================
bound                  limit  largest in the real catalogue
=====================  =====  ==============================================
weapons (cc_weapons)   10     5 weapon lines on one unit card
count, models          10     5 models in a squad (6 with a hero joined);
                              6 weapons of one kind on a card
damage_per_model       24     11 (a vehicle's damage track); heroes 6
models x damage        24     11 damage points in one unit
dice in a cell         40     20 (a dual laser gun); 28 once a support
                              weapon's four guns are folded into one model
blast symbols          4      BB
damage per hit         16     8
ammo, volley           12     a volley of 6 bombs
distance               36     range 18
name                   80     40 characters
cell text              16     5 (``BB/AK``; ``2/[DEATH]`` is 9)
=====================  =====  ==============================================

Lists of traits, skills and critical hits hold at most as many entries as
there are values to name. A bound broken raises ``EngineInputError`` with the
code ``too-large`` and a message naming the limit. Above these, how much work
the exact odds may do is ``budget``'s business (at most ``MAX_ODDS_DICE`` dice
in all, and a work estimate); a roll with digital dice may declare at most
``MAX_RESOLVE_DICE`` dice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rules.engine.errors import EngineInputError
from rules.engine.ruleset import RuleSet
from rules.engine.state import ARMOUR_RANGE, UnitKind
from rules.engine.targets import (
    Conditions,
    CriticalHit,
    Fortification,
    Height,
    Skill,
    Target,
    check_target,
    conditions_from_dict,
    target_from_dict,
)
from rules.engine.weapons import (
    Cell,
    Weapon,
    WeaponKind,
    WeaponTrait,
    check_weapon,
    improvised_weapon,
    weapon_from_dict,
)

# -- bounds (see "Bounds" above; rules.engine.schema publishes them) -----------------

MAX_WEAPONS = 10
MAX_COUNT = 10
MAX_MODELS = 10
MAX_DAMAGE_PER_MODEL = 24
MAX_UNIT_DAMAGE = 24  # models x damage_per_model
MAX_CELL_DICE = 40
MAX_BLAST = 4
MAX_HIT_DAMAGE = 16
MAX_AMMO = 12  # also the most rockets or bombs one volley fires
MAX_DISTANCE = 36
MAX_NAME_LENGTH = 80
MAX_CELL_LENGTH = 16
MAX_TRAITS = len(WeaponTrait)
MAX_SKILLS = len(Skill)
MAX_CRITICAL_HITS = len(CriticalHit)
MAX_SEED = 2**63 - 1
# Dice an attack may declare, its strike back included: exact odds, and a roll.
MAX_ODDS_DICE = 120
MAX_RESOLVE_DICE = 240
# A JSON request body (API, command file): the largest the bounds allow is about 23 KB
# written compactly, 38 KB pretty-printed.
MAX_REQUEST_BYTES = 64 * 1024
TOO_LARGE = "too-large"


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
    check_sizes(data)
    action = data.get("action", "attack")
    if not isinstance(action, str) or action not in _ACTIONS:
        raise EngineInputError("action", "must be attack or sustained_attack")
    weapons = _weapons(data.get("weapons"), "weapons")
    target_data = data.get("target")
    target = target_from_dict(target_data, "target", _cc_weapons(target_data, "target"))
    _check_structural_claim(target_data, target, ruleset, "target")
    attacker_data = data.get("attacker")
    attacker = None
    if attacker_data is not None:
        attacker = target_from_dict(attacker_data, "attacker", _cc_weapons(attacker_data, "attacker"))
        _check_structural_claim(attacker_data, attacker, ruleset, "attacker")
    flags = {name: _flag(data, name) for name in ("sustained_close_combat", "fighting_spirit", "spotter")}
    request = AttackRequest(
        weapons=weapons,
        target=target,
        attacker=attacker,
        sustained=_ACTIONS[str(action)],
        conditions=conditions_from_dict(data.get("conditions", {}), target, attacker),
        **flags,
    )
    check_request(request, ruleset)
    return request


def check_request(request: AttackRequest, ruleset: RuleSet) -> None:
    """What a request must satisfy whoever built it (dict parser or Python caller)."""
    if not request.weapons:
        raise EngineInputError("weapons", "an attack uses at least one weapon")
    check_bounds(request)
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


def _check_structural_claim(data: object, target: Target, ruleset: RuleSet, path: str) -> None:
    """``structural_save`` is optional and only confirms what the fortification gives."""
    if not isinstance(data, Mapping) or data.get("structural_save") is None:
        return
    claim = data["structural_save"]
    expected = {Fortification.STRONGPOINT: "structural", Fortification.BUNKER: "improved_structural"}
    if not isinstance(claim, str) or claim not in {"structural", "improved_structural"}:
        raise EngineInputError(f"{path}.structural_save", "must be structural, improved_structural or null")
    if target.fortification is Fortification.NONE:
        raise EngineInputError(f"{path}.structural_save", "a structural save needs a strongpoint or a bunker")
    if not ruleset.structural_saves:
        raise EngineInputError(f"{path}.structural_save", "this rule set has no structural saves")
    if expected[target.fortification] != claim:
        wanted = expected[target.fortification]
        raise EngineInputError(
            f"{path}.structural_save", f"a {target.fortification.value} gives a {wanted} save"
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


# -- bounds ------------------------------------------------------------------------


def too_large(path: str, message: str) -> EngineInputError:
    return EngineInputError(path, message, code=TOO_LARGE)


def check_sizes(data: Mapping[str, object]) -> None:
    """The texts and lists of a raw request, measured before anything reads them."""
    _list_size(data.get("weapons"), "weapons", MAX_WEAPONS, "weapon lines")
    for i, weapon in enumerate(_items(data.get("weapons"))):
        _weapon_sizes(weapon, f"weapons[{i}]")
    for unit in ("target", "attacker"):
        block = data.get(unit)
        if not isinstance(block, Mapping):
            continue
        _list_size(block.get("skills"), f"{unit}.skills", MAX_SKILLS, "skills")
        _list_size(block.get("critical_hits"), f"{unit}.critical_hits", MAX_CRITICAL_HITS, "critical hits")
        _list_size(block.get("cc_weapons"), f"{unit}.cc_weapons", MAX_WEAPONS, "weapon lines")
        for i, weapon in enumerate(_items(block.get("cc_weapons"))):
            _weapon_sizes(weapon, f"{unit}.cc_weapons[{i}]")


def _items(value: object) -> Sequence[object]:
    if isinstance(value, Sequence) and not isinstance(value, str) and len(value) <= MAX_WEAPONS:
        return value
    return ()


def _list_size(value: object, path: str, limit: int, what: str) -> None:
    if isinstance(value, Sequence) and not isinstance(value, str) and len(value) > limit:
        raise too_large(path, f"at most {limit} {what}, not {len(value)}")


def _text_size(value: object, path: str, limit: int) -> None:
    if isinstance(value, str) and len(value) > limit:
        raise too_large(path, f"at most {limit} characters, not {len(value)}")


def _weapon_sizes(weapon: object, path: str) -> None:
    if not isinstance(weapon, Mapping):
        return
    _text_size(weapon.get("name"), f"{path}.name", MAX_NAME_LENGTH)
    _list_size(weapon.get("traits"), f"{path}.traits", MAX_TRAITS, "traits")
    line = weapon.get("line")
    if not isinstance(line, Mapping):
        return
    for kind in UnitKind:
        cells = line.get(kind.value)
        where = f"{path}.line.{kind.value}"
        if isinstance(cells, str):
            _text_size(cells, where, MAX_CELL_LENGTH)
        elif isinstance(cells, Sequence):
            _list_size(cells, where, ARMOUR_RANGE[kind][1], "cells, one per armour")
            for i, cell in enumerate(cells):
                _text_size(cell, f"{where}[{i}]", MAX_CELL_LENGTH)


def check_bounds(request: AttackRequest) -> None:
    """Every number of a built request within the bounds (whoever built it)."""
    if len(request.weapons) > MAX_WEAPONS:
        raise too_large("weapons", f"at most {MAX_WEAPONS} weapon lines, not {len(request.weapons)}")
    for i, weapon in enumerate(request.weapons):
        _weapon_bounds(weapon, f"weapons[{i}]")
    _unit_bounds(request.target, "target")
    if request.attacker is not None:
        _unit_bounds(request.attacker, "attacker")
    distance = request.conditions.distance
    if distance is not None and distance > MAX_DISTANCE:
        raise too_large("conditions.distance", f"at most {MAX_DISTANCE}, not {distance}")


def _at_most(value: int | None, limit: int, path: str, what: str = "") -> None:
    if value is not None and value > limit:
        raise too_large(path, f"at most {limit}{' ' + what if what else ''}, not {value}")


def _unit_bounds(unit: Target, path: str) -> None:
    _at_most(unit.models, MAX_MODELS, f"{path}.models", "models")
    _at_most(unit.damage_per_model, MAX_DAMAGE_PER_MODEL, f"{path}.damage_per_model")
    if unit.models * unit.damage_per_model > MAX_UNIT_DAMAGE:
        raise too_large(
            f"{path}.damage_per_model",
            f"a unit has at most {MAX_UNIT_DAMAGE} damage points in all (models x damage per model), "
            f"not {unit.models * unit.damage_per_model}",
        )
    if unit.cc_weapons is not None:
        if len(unit.cc_weapons) > MAX_WEAPONS:
            raise too_large(
                f"{path}.cc_weapons", f"at most {MAX_WEAPONS} weapon lines, not {len(unit.cc_weapons)}"
            )
        for i, weapon in enumerate(unit.cc_weapons):
            _weapon_bounds(weapon, f"{path}.cc_weapons[{i}]")


def _weapon_bounds(weapon: Weapon, path: str) -> None:
    # Every resolution checks this: a quick pass first, the messages only when something is over.
    within = (
        len(weapon.name) <= MAX_NAME_LENGTH
        and weapon.count <= MAX_COUNT
        and (weapon.ammo or 0) <= MAX_AMMO
        and weapon.volley <= MAX_AMMO
        and (weapon.models_touched or 0) <= MAX_MODELS
    )
    line = weapon.line
    for cell in (*line.infantry, *line.vehicle, *line.aircraft):
        if cell is not None and (
            cell.dice > (MAX_BLAST if cell.blast else MAX_CELL_DICE)
            or (cell.damage > MAX_HIT_DAMAGE and not cell.automatic_kill)
        ):
            within = False
    if within:
        return
    if len(weapon.name) > MAX_NAME_LENGTH:
        raise too_large(f"{path}.name", f"at most {MAX_NAME_LENGTH} characters, not {len(weapon.name)}")
    _at_most(weapon.count, MAX_COUNT, f"{path}.count", "models firing one line")
    _at_most(weapon.ammo, MAX_AMMO, f"{path}.ammo", "ammo boxes")
    _at_most(weapon.volley, MAX_AMMO, f"{path}.volley", "rockets or bombs at once")
    _at_most(weapon.models_touched, MAX_MODELS, f"{path}.models_touched", "models")
    for kind in UnitKind:
        for armour, cell in enumerate(weapon.line.cells(kind)):
            if cell is not None:
                _cell_bounds(cell, f"{path}.line.{kind.value}[{armour}]")


def _cell_bounds(cell: Cell, path: str) -> None:
    if cell.blast:
        _at_most(cell.dice, MAX_BLAST, path, "blast symbols (B)")
    else:
        _at_most(cell.dice, MAX_CELL_DICE, path, "dice in a cell")
    if not cell.automatic_kill:
        _at_most(cell.damage, MAX_HIT_DAMAGE, path, "damage per hit")
