"""What a battle starts from: the two forces, the mission and the rule set, frozen.

``setup_from_dict`` builds a ``BattleSetup`` from plain dicts. A unit is the
engine's attack-request unit block (``unit_class``, ``armour``, ``models``,
``damage_per_model``, ``hero``, ``skills``, ``cc_weapons``) with its weapons in
the request's weapon shape (a limited-ammo or volley weapon carries the boxes it
starts with in ``ammo``), plus what the battle needs beyond one attack::

    {
      "ruleset": {"name": "rtz"},
      "mission": {"name": "Breakthrough", "turn_limit": 6,
                  "reserves": {"attacker": 2, "defender": 1}, "objective": "Hold the bridge"},
      "attacker": {"player": "Anna", "initiative_dice": 3, "units": [
          {"id": "a-e1", "entry": "e1", "name": "Grenadiers", "ap": 25,
           "unit_class": "infantry", "armour": 2, "models": 5, "damage_per_model": 1,
           "skills": [], "weapons": [{"name": "Rifles", "line": {"infantry": "1/1"}, "count": 5}],
           "joined_to": null, "pilot_of": null, "strongpoint_unit": false, "fortification": "none"},
          ...]},
      "defender": {...}
    }

``id`` names the unit in every step and must be unique over both sides (the two
lists' entry ids collide, so prefix them); ``entry`` is the list entry's id the
battle report names (``id`` when left out). A hero or a ``commissar`` ``joined_to`` a
squad of infantry of the same armour rides with it as one combined unit (``riders.py``
says who may ride together); a hero ``pilot_of`` a vehicle rides in it. ``fortification``
is what the unit sits in (infantry only) unless an attack's conditions say otherwise.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from rules.engine.errors import EngineInputError
from rules.engine.requests import MAX_NAME_LENGTH, MAX_WEAPONS, AttackRequest, check_bounds, check_sizes
from rules.engine.ruleset import RuleSet
from rules.engine.state import UnitKind, is_whole
from rules.engine.targets import Fortification, Target, check_target, target_from_dict
from rules.engine.weapons import Weapon, check_weapon, weapon_from_dict

SIDES: tuple[str, str] = ("attacker", "defender")
# Bounds (the app's forms and serializers read these): about twice what a 300 AP list fields.
MAX_UNITS = 40  # units a side
MAX_UNIT_AP = 500
MAX_TURN_LIMIT = 20  # battles.judging.MAX_TURNS: a report may say at most as many turns
MAX_RESERVES = 10  # reserve placements a mission gives a side
MAX_ID_LENGTH = 40
MAX_TEXT_LENGTH = 200  # the mission's objective in words
MIN_INITIATIVE_DICE, MAX_INITIATIVE_DICE = 1, 6
SETUP_CODE = "invalid-battle-setup"

_TARGET_KEYS = ("unit_class", "armour", "models", "damage_per_model", "hero", "skills")
_UNIT_KEYS = frozenset(
    {*_TARGET_KEYS, "cc_weapons", "id", "entry", "name", "ap", "weapons", "joined_to", "pilot_of"}
    | {"strongpoint_unit", "fortification", "commissar", "siblings"}
)


def other(side: str) -> str:
    return SIDES[1] if side == SIDES[0] else SIDES[0]


@dataclass(frozen=True)
class UnitSetup:
    """One unit as it enters the battle: full strength, in the open, every ammo box unmarked."""

    id: str
    entry: str
    name: str
    side: str
    ap: int
    base: Target  # the engine's unit at full strength (cover and the like come with each attack)
    weapons: tuple[Weapon, ...]
    joined_to: str | None = None
    pilot_of: str | None = None
    strongpoint_unit: bool = False
    fortification: Fortification = Fortification.NONE
    commissar: bool = False  # seed 004, Commissar: joins a squad for the whole game, hero or not
    siblings: bool = False  # seed 004, Heroes: a pair of Siblings heroes may join one squad together

    @property
    def hero(self) -> bool:
        return self.base.hero

    @property
    def capacity(self) -> int:
        """Damage points at full strength."""
        return self.base.models * self.base.damage_per_model


@dataclass(frozen=True)
class SideSetup:
    player: str
    units: tuple[UnitSetup, ...]
    initiative_dice: int = 3


@dataclass(frozen=True)
class Mission:
    name: str
    turn_limit: int
    reserves: tuple[int, int]  # placements for the attacker, the defender
    objective: str = ""


@dataclass(frozen=True)
class BattleSetup:
    ruleset: RuleSet
    mission: Mission
    attacker: SideSetup
    defender: SideSetup

    def side(self, name: str) -> SideSetup:
        return self.attacker if name == SIDES[0] else self.defender

    @cached_property
    def units(self) -> tuple[UnitSetup, ...]:
        """Every unit, the attacker's first: the order ``BattleState.units`` follows."""
        return self.attacker.units + self.defender.units

    @cached_property
    def index(self) -> Mapping[str, int]:
        return {unit.id: i for i, unit in enumerate(self.units)}

    @cached_property
    def riders(self) -> Mapping[str, tuple[str, ...]]:
        """Squad id -> the ids of the heroes and commissar joined to it, in the setup's order."""
        found: dict[str, tuple[str, ...]] = {}
        for unit in self.units:
            if unit.joined_to:
                found[unit.joined_to] = (*found.get(unit.joined_to, ()), unit.id)
        return found

    @cached_property
    def pilot(self) -> Mapping[str, str]:
        """Vehicle id -> the id of the hero piloting it."""
        return {unit.pilot_of: unit.id for unit in self.units if unit.pilot_of}

    def roster(self, side: str) -> tuple[tuple[int, str, bool], ...]:
        """Each unit of ``side``: its index in ``units``, its id, whether it rides with a host (hero or pilot)."""
        return self._rosters[SIDES.index(side)]

    @cached_property
    def _rosters(self) -> tuple[tuple[tuple[int, str, bool], ...], ...]:
        return tuple(
            tuple(
                (self.index[unit.id], unit.id, bool(unit.joined_to or unit.pilot_of))
                for unit in self.side(side).units
            )
            for side in SIDES
        )

    def unit(self, unit_id: str) -> UnitSetup:
        return self.units[self.index[unit_id]]

    def reserve_allowed(self, side: str) -> int:
        return self.mission.reserves[SIDES.index(side)]


def setup_from_dict(data: object) -> BattleSetup:
    """Build and check a setup; every problem raises ``EngineInputError`` naming its field."""
    if not isinstance(data, Mapping):
        raise _error("setup", "must be a mapping with ruleset, mission, attacker and defender")
    _no_unknown(data, {"ruleset", *SIDES, "mission"}, "")
    ruleset = RuleSet.from_dict(_mapping(data.get("ruleset"), "ruleset"))
    mission = _mission(_mapping(data.get("mission"), "mission"))
    attacker = _side(data.get(SIDES[0]), SIDES[0])
    defender = _side(data.get(SIDES[1]), SIDES[1])
    setup = BattleSetup(ruleset=ruleset, mission=mission, attacker=attacker, defender=defender)
    _check_links(setup)
    return setup


def _mission(data: Mapping[str, object]) -> Mission:
    _no_unknown(data, {"name", "turn_limit", "reserves", "objective"}, "mission.")
    name = _text(data.get("name", "Battle"), "mission.name", MAX_NAME_LENGTH)
    limit = _whole(data.get("turn_limit"), "mission.turn_limit", 1, MAX_TURN_LIMIT)
    raw = _mapping(data.get("reserves", {}), "mission.reserves")
    _no_unknown(raw, set(SIDES), "mission.reserves.")
    reserves = tuple(_whole(raw.get(side, 0), f"mission.reserves.{side}", 0, MAX_RESERVES) for side in SIDES)
    objective = _text(data.get("objective", ""), "mission.objective", MAX_TEXT_LENGTH, empty=True)
    return Mission(name=name, turn_limit=limit, reserves=(reserves[0], reserves[1]), objective=objective)


def _side(data: object, side: str) -> SideSetup:
    data = _mapping(data, side)
    _no_unknown(data, {"player", "units", "initiative_dice"}, f"{side}.")
    player = _text(data.get("player"), f"{side}.player", MAX_NAME_LENGTH)
    dice = _whole(
        data.get("initiative_dice", 3), f"{side}.initiative_dice", MIN_INITIATIVE_DICE, MAX_INITIATIVE_DICE
    )
    raw = data.get("units")
    if not isinstance(raw, Sequence) or isinstance(raw, str | bytes):
        raise _error(f"{side}.units", "must be a list of units")
    if not 1 <= len(raw) <= MAX_UNITS:
        raise _error(f"{side}.units", f"a side fields from 1 to {MAX_UNITS} units, not {len(raw)}")
    units = tuple(_unit(item, side, f"{side}.units[{i}]") for i, item in enumerate(raw))
    return SideSetup(player=player, units=units, initiative_dice=dice)


def _unit(data: object, side: str, path: str) -> UnitSetup:
    data = _mapping(data, path)
    _no_unknown(data, _UNIT_KEYS, f"{path}.")
    unit_id = _text(data.get("id"), f"{path}.id", MAX_ID_LENGTH)
    # Lists and texts measured before anything reads them, as an attack request's are.
    try:
        check_sizes({"weapons": data.get("weapons", []), "target": data})
    except EngineInputError as error:
        raise error.with_field_prefix(path) from None
    weapons_raw = data.get("weapons", [])
    if not isinstance(weapons_raw, Sequence) or isinstance(weapons_raw, str | bytes):
        raise _error(f"{path}.weapons", "must be a list of weapons")
    if len(weapons_raw) > MAX_WEAPONS:
        raise _error(f"{path}.weapons", f"at most {MAX_WEAPONS} weapon lines, not {len(weapons_raw)}")
    weapons = tuple(weapon_from_dict(item, f"{path}.weapons[{i}]") for i, item in enumerate(weapons_raw))
    for i, weapon in enumerate(weapons):
        check_weapon(weapon, f"{path}.weapons[{i}]")
    cc_raw = data.get("cc_weapons")
    cc_weapons = None
    if cc_raw is not None:
        if not isinstance(cc_raw, Sequence) or isinstance(cc_raw, str | bytes) or len(cc_raw) > MAX_WEAPONS:
            raise _error(f"{path}.cc_weapons", f"must be a list of at most {MAX_WEAPONS} weapons")
        cc_weapons = tuple(weapon_from_dict(item, f"{path}.cc_weapons[{i}]") for i, item in enumerate(cc_raw))
    base = target_from_dict({key: data[key] for key in _TARGET_KEYS if key in data}, path, cc_weapons)
    fortification = base.fortification
    raw_fort = data.get("fortification", "none")
    try:
        fortification = Fortification(str(raw_fort))
    except ValueError:
        raise _error(f"{path}.fortification", "must be none, strongpoint or bunker") from None
    if fortification is not Fortification.NONE and not base.is_infantry:
        raise _error(f"{path}.fortification", "only infantry units hold a fortification")
    check_target(base, path)
    # The request bounds (models, damage, weapons' dice) hold for every unit: one attack by it fits them.
    check_bounds(AttackRequest(weapons=weapons or (), target=base))
    return UnitSetup(
        id=unit_id,
        entry=_text(data.get("entry", unit_id), f"{path}.entry", MAX_ID_LENGTH),
        name=_text(data.get("name"), f"{path}.name", MAX_NAME_LENGTH),
        side=side,
        ap=_whole(data.get("ap"), f"{path}.ap", 0, MAX_UNIT_AP),
        base=base,
        weapons=weapons,
        joined_to=_optional_id(data.get("joined_to"), f"{path}.joined_to"),
        pilot_of=_optional_id(data.get("pilot_of"), f"{path}.pilot_of"),
        strongpoint_unit=_flag(data.get("strongpoint_unit", False), f"{path}.strongpoint_unit"),
        fortification=fortification,
        commissar=_flag(data.get("commissar", False), f"{path}.commissar"),
        siblings=_flag(data.get("siblings", False), f"{path}.siblings"),
    )


def _check_links(setup: BattleSetup) -> None:
    """Unique ids; heroes and commissars joined to squads, heroes piloting vehicles, as the rules allow."""
    seen: set[str] = set()
    for unit in setup.units:
        if unit.id in seen:
            raise _error("units", f"two units are called {unit.id!r}: ids must be unique in a battle")
        seen.add(unit.id)
    piloted: dict[str, str] = {}
    for unit in setup.units:
        for link, what in ((unit.joined_to, "joined_to"), (unit.pilot_of, "pilot_of")):
            if link is None:
                continue
            where = f"{unit.side}.{unit.id}.{what}"
            if what == "pilot_of" and not unit.hero:
                raise _error(where, f"{unit.name} is not a hero: only heroes pilot vehicles")
            if what == "joined_to" and not (unit.hero or unit.commissar):
                raise _error(where, f"{unit.name} is neither a hero nor a commissar: only they join squads")
            if unit.joined_to and unit.pilot_of:
                raise _error(where, f"{unit.name} either joins a squad or pilots a vehicle, not both")
            if link not in setup.index or setup.unit(link).side != unit.side:
                raise _error(where, f"{link!r} is not a unit of the same side")
            host = setup.unit(link)
            if what == "pilot_of":
                if link in piloted:
                    raise _error(where, f"{host.name} already has a hero ({piloted[link]})")
                piloted[link] = unit.name
                if host.base.is_infantry:
                    raise _error(where, f"{host.name} is not a vehicle or an aircraft")
            elif (
                host.hero
                or host.commissar
                or not host.base.is_infantry
                or host.base.armour != unit.base.armour
            ):
                raise _error(
                    where, f"{unit.name} joins a squad of infantry (no hero or commissar) of the same armour"
                )
    for squad, riders in setup.riders.items():
        _check_riders(setup.unit(squad), tuple(setup.unit(rider) for rider in riders))


def _check_riders(squad: UnitSetup, riders: tuple[UnitSetup, ...]) -> None:
    """Seed 004, Heroes and Commissar: one hero (or a pair of Siblings) and one commissar to a squad; a hero
    who is also a commissar (Commissar Poon) rides with nobody else."""
    both = next((rider for rider in riders if rider.hero and rider.commissar), None)
    if both is not None and len(riders) > 1:
        second = next(rider for rider in riders if rider is not both)
        raise _error(
            f"{second.side}.{second.id}.joined_to",
            f"{both.name} is a hero and a commissar: no other hero or commissar joins {squad.name}",
        )
    heroes: list[UnitSetup] = []
    commissars: list[UnitSetup] = []
    for rider in riders:
        where = f"{rider.side}.{rider.id}.joined_to"
        if rider.hero:
            if heroes and not (len(heroes) == 1 and heroes[0].siblings and rider.siblings):
                raise _error(
                    where,
                    f"{squad.name} already has a hero ({heroes[0].name}): "
                    "only a pair of Siblings joins a squad together",
                )
            heroes.append(rider)
        if rider.commissar:
            if commissars:
                raise _error(where, f"{squad.name} already has a commissar ({commissars[0].name})")
            commissars.append(rider)


def _error(field: str, reason: str) -> EngineInputError:
    return EngineInputError(field, reason, code=SETUP_CODE)


def _no_unknown(data: Mapping[str, object], known: set[str] | frozenset[str], prefix: str) -> None:
    unknown = sorted(str(key) for key in data if key not in known)
    if unknown:
        raise _error(f"{prefix}{unknown[0]}"[:MAX_TEXT_LENGTH], "is not a field here")


def _mapping(data: object, path: str) -> Mapping[str, object]:
    if not isinstance(data, Mapping):
        raise _error(path, "must be a mapping")
    return data


def _text(value: object, path: str, most: int, *, empty: bool = False) -> str:
    if not isinstance(value, str) or (not empty and not value.strip()):
        raise _error(path, "must be a text" if empty else "must be a non-empty text")
    if len(value) > most:
        raise _error(path, f"at most {most} characters, not {len(value)}")
    return value.strip()


def _optional_id(value: object, path: str) -> str | None:
    return None if value is None else _text(value, path, MAX_ID_LENGTH)


def _whole(value: object, path: str, low: int, high: int) -> int:
    if not is_whole(value) or not low <= value <= high:
        raise _error(path, f"must be a whole number from {low} to {high}")
    return value


def _flag(value: object, path: str) -> bool:
    if not isinstance(value, bool):
        raise _error(path, "must be true or false")
    return value


__all__ = [
    "MAX_UNITS",
    "SIDES",
    "BattleSetup",
    "Mission",
    "SideSetup",
    "UnitKind",
    "UnitSetup",
    "other",
    "setup_from_dict",
]
