"""The steps of a battle: small frozen records of what a player did, and their JSON.

Every step has a ``kind`` and ``by``, the side that made it ("attacker" or
"defender"; an organiser acting for a placeholder acts as that side). A step that
rolls dice carries either a ``seed`` (the site rolls: the same seed always gives
the same dice) or the ``faces`` the table's dice showed, in the order the rules
roll them; with neither it is refused (``dice-missing``). ``step_to_dict`` and
``step_from_dict`` are an exact round trip; the parser bounds every number, list
and text (``EngineInputError`` with the code ``invalid-step``, naming the field).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from typing import Any, ClassVar

from rules.engine.dice import Face, read_faces
from rules.engine.errors import EngineInputError
from rules.engine.requests import MAX_DISTANCE, MAX_RESOLVE_DICE, MAX_SEED, MAX_WEAPONS
from rules.engine.state import is_whole
from rules.engine.targets import AircraftMove, Fortification, Height

from .setup import MAX_ID_LENGTH, SIDES
from .step_shapes import check_step_types

STEP_CODE = "invalid-step"
MAX_FACES = MAX_RESOLVE_DICE + 60  # an attack's dice, its strike back, suppression and criticals
MAX_FACES_TEXT = 8 * MAX_FACES  # the faces typed as words: "shield, " for each die
UNREADABLE_FACES = "Type each die as B for bloc, T for target or S for shield, in the order rolled."
MAX_RIDERS = 3  # joined to one squad: a pair of Siblings heroes and a commissar
MAX_GROUP_WEAPONS = (1 + MAX_RIDERS) * MAX_WEAPONS  # a squad's lines and its riders'
MAX_ACTIONS = 3
MAX_SCENARIO_VP = 100  # battles.judging.MAX_SCENARIO_VP
MAX_HITS = 999


class Action(StrEnum):
    NOTHING = "nothing"
    MOVE = "move"
    MARCH = "march"
    ATTACK = "attack"
    SUSTAINED = "sustained"
    SPECIAL = "special"


class Command(StrEnum):
    """The special actions the referee resolves (commands.py; docs/battle-engine.md, "Special actions")."""

    MAKESHIFT_REPAIR = "makeshift_repair"  # a mechanic's, or a vehicle's own Makeshift Repair skill
    HEAL = "heal"  # a medic's "get up"
    RALLY = "rally"  # an officer's
    AMMO_DROP = "ammo_drop"  # an officer's
    GET_MOVING = "get_moving"  # an officer's reactivation


# Actions each declaration uses: a march move and a sustained attack take two.
ACTION_COST = {Action.MARCH: 2, Action.SUSTAINED: 2}


@dataclass(frozen=True)
class WeaponUse:
    """One of the unit's weapon lines fired in an attack, with this attack's choices."""

    index: int  # in the unit's weapons, then its joined hero's
    count: int | None = None  # models firing it; by default every model still standing that carries it
    fire_salvo: bool = False
    volley: int = 0


@dataclass(frozen=True)
class AttackConditions:
    """What the table shows: cover, smoke, a trench or fortification, height, range."""

    cover: bool = False
    smoke: bool = False
    trench: bool = False
    fortification: str | None = None  # None: the fortification the target holds (its setup)
    height: str = Height.LEVEL.value
    distance: int | None = None
    aircraft_move: str = AircraftMove.NONE.value


@dataclass(frozen=True)
class Step:
    kind: ClassVar[str]
    by: str


@dataclass(frozen=True)
class Initiative(Step):
    kind: ClassVar[str] = "initiative"
    seed: int | None = None
    attacker_faces: tuple[Face, ...] | None = None  # one roll-off entered by hand
    defender_faces: tuple[Face, ...] | None = None


@dataclass(frozen=True)
class ChooseFirst(Step):
    kind: ClassVar[str] = "first"
    first: str = SIDES[0]


@dataclass(frozen=True)
class Activate(Step):
    kind: ClassVar[str] = "activate"
    unit: str = ""
    actions: tuple[Action, ...] = ()
    seed: int | None = None  # a suppressed unit's rally roll
    faces: tuple[Face, ...] | None = None


@dataclass(frozen=True)
class ThirdAction(Step):
    """The roll a unit's Ace Pilot, Ace Air Pilot or Infantry Ace makes as it activates (third.py)."""

    kind: ClassVar[str] = "third-action"
    unit: str = ""
    seed: int | None = None
    faces: tuple[Face, ...] | None = None


@dataclass(frozen=True)
class Attack(Step):
    kind: ClassVar[str] = "attack"
    unit: str = ""
    target: str = ""
    weapons: tuple[WeaponUse, ...] = ()
    conditions: AttackConditions = field(default_factory=AttackConditions)
    sustained: bool = False  # a reaction's attack only: sustained, as two successes allow
    sustained_close_combat: bool = False
    seed: int | None = None
    faces: tuple[Face, ...] | None = None


@dataclass(frozen=True)
class Special(Step):
    """One declared special action of the activating unit used for a command, at a unit of its side."""

    kind: ClassVar[str] = "special"
    unit: str = ""
    command: str = Command.RALLY.value
    target: str = ""
    seed: int | None = None
    faces: tuple[Face, ...] | None = None


@dataclass(frozen=True)
class HoldFire(Step):
    kind: ClassVar[str] = "hold-fire"


@dataclass(frozen=True)
class Reactive(Step):
    kind: ClassVar[str] = "reactive"
    unit: str = ""
    seed: int | None = None
    faces: tuple[Face, ...] | None = None


@dataclass(frozen=True)
class Allocate(Step):
    kind: ClassVar[str] = "allocate"
    hero_hits: tuple[int, ...] = ()  # per weapon line waiting, the unsaved hits the hero takes (one rider)
    # Per rider waiting (in the order the state's pending allocation lists them), per weapon line waiting,
    # the unsaved hits it takes; the squad takes the rest. For one rider ``hero_hits`` says the same.
    rider_hits: tuple[tuple[int, ...], ...] = ()
    seed: int | None = None
    faces: tuple[Face, ...] | None = None


@dataclass(frozen=True)
class Escape(Step):
    kind: ClassVar[str] = "escape"
    blocked: bool = False  # no free square next to the wreck: the pilot is lost
    seed: int | None = None
    faces: tuple[Face, ...] | None = None


@dataclass(frozen=True)
class PlaceInReserve(Step):
    kind: ClassVar[str] = "reserve"
    unit: str = ""


@dataclass(frozen=True)
class EndActivation(Step):
    kind: ClassVar[str] = "end-activation"


@dataclass(frozen=True)
class Pass(Step):
    kind: ClassVar[str] = "pass"


@dataclass(frozen=True)
class MissionScore(Step):
    kind: ClassVar[str] = "mission"
    objective: bool = False
    scenario_vp: int = 0


@dataclass(frozen=True)
class EndTurn(Step):
    kind: ClassVar[str] = "end-turn"


@dataclass(frozen=True)
class Concede(Step):
    kind: ClassVar[str] = "concede"


STEP_TYPES: Mapping[str, type[Step]] = {
    kind.kind: kind
    for kind in (
        Initiative,
        ChooseFirst,
        ThirdAction,
        Activate,
        Attack,
        Special,
        HoldFire,
        Reactive,
        Allocate,
        Escape,
        PlaceInReserve,
        EndActivation,
        Pass,
        MissionScore,
        EndTurn,
        Concede,
    )
}
ROLLING = (Initiative, ThirdAction, Activate, Attack, Special, Reactive, Allocate, Escape)


def with_seed(step: Step, seed: int) -> Step:
    """The same step rolled by the site with ``seed`` (steps that roll nothing come back as they are)."""
    return replace(step, seed=seed) if isinstance(step, ROLLING) else step  # type: ignore[call-arg]


# -- JSON ----------------------------------------------------------------------------------------


def step_to_dict(step: Step) -> dict[str, Any]:
    data: dict[str, Any] = {"kind": step.kind}
    for item in fields(step):
        data[item.name] = _dump(getattr(step, item.name))
    return data


def _dump(value: object) -> object:
    if isinstance(value, WeaponUse | AttackConditions):
        return {item.name: _dump(getattr(value, item.name)) for item in fields(value)}
    if isinstance(value, tuple):
        return [_dump(item) for item in value]
    if isinstance(value, StrEnum):
        return value.value
    return value


def step_from_dict(data: object) -> Step:
    """Parse and bound one step; an unknown kind or field is refused by name."""
    if not isinstance(data, Mapping):
        raise _error("step", "must be a mapping with a kind")
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in STEP_TYPES:
        raise _error("kind", f"must be one of {', '.join(STEP_TYPES)}")
    cls = STEP_TYPES[kind]
    names = {item.name for item in fields(cls)}
    unknown = sorted(str(key) for key in data if key != "kind" and key not in names)
    if unknown:
        raise _error(unknown[0][:MAX_ID_LENGTH], f"is not a field of a {kind} step")
    check_step_types(data, names, STEP_CODE)  # the types first: a value test on a list is no refusal
    values: dict[str, Any] = {}
    for item in fields(cls):
        if item.name in data:
            values[item.name] = _PARSERS[item.name](data[item.name], item.name)
        elif item.name == "by":
            raise _error("by", "says which side made the step: attacker or defender")
    return cls(**values)


def _error(path: str, reason: str) -> EngineInputError:
    return EngineInputError(path, reason, code=STEP_CODE)


def _side(value: object, path: str) -> str:
    if value not in SIDES:
        raise _error(path, "must be attacker or defender")
    return str(value)


def _unit_id(value: object, path: str) -> str:
    if not isinstance(value, str) or not value or len(value) > MAX_ID_LENGTH:
        raise _error(path, f"must name a unit (1 to {MAX_ID_LENGTH} characters)")
    return value


def _whole(value: object, path: str, low: int, high: int) -> int:
    if not is_whole(value) or not low <= value <= high:
        raise _error(path, f"must be a whole number from {low} to {high}")
    return value


def _optional_whole(low: int, high: int) -> Callable[[object, str], int | None]:
    return lambda value, path: None if value is None else _whole(value, path, low, high)


def _flag(value: object, path: str) -> bool:
    if not isinstance(value, bool):
        raise _error(path, "must be true or false")
    return value


def _list(value: object, path: str, most: int) -> Sequence[object]:
    if not isinstance(value, Sequence) or isinstance(value, str | bytes):
        raise _error(path, "must be a list")
    if len(value) > most:
        raise _error(path, f"at most {most} items, not {len(value)}")
    return value


def _faces(value: object, path: str) -> tuple[Face, ...] | None:
    """The dice as typed (``"BBT"``, ``"b b t"``, ``"b,b,t"``) or as a list (``["BLOC", "t", ...]``): each
    face's name or letter in any case; the one reading of faces for the pages and the API."""
    if value is None:
        return None
    if isinstance(value, str):
        if len(value) > MAX_FACES_TEXT:
            raise _error(path, f"That is more dice than any roll takes: at most {MAX_FACES}.")
        words: Sequence[object] = [value]
    else:
        words = _list(value, path, MAX_FACES)
    faces: list[Face] = []
    for i, word in enumerate(words):
        where = path if isinstance(value, str) else f"{path}[{i}]"
        if not isinstance(word, str) or len(word) > MAX_FACES_TEXT:
            raise _error(where, UNREADABLE_FACES)
        read, unreadable = read_faces(word)
        if unreadable is not None:
            raise _error(where, f'{UNREADABLE_FACES} "{unreadable[:12]}" is none of them.')
        faces.extend(read)
        if len(faces) > MAX_FACES:
            raise _error(path, f"That is more dice than any roll takes: at most {MAX_FACES}.")
    return tuple(faces)


def _actions(value: object, path: str) -> tuple[Action, ...]:
    items = _list(value, path, MAX_ACTIONS)
    known = {action.value for action in Action}
    for i, item in enumerate(items):
        if item not in known:
            raise _error(f"{path}[{i}]", f"must be one of {', '.join(sorted(known))}")
    return tuple(Action(str(item)) for item in items)


def _weapon_uses(value: object, path: str) -> tuple[WeaponUse, ...]:
    uses = []
    for i, item in enumerate(_list(value, path, MAX_GROUP_WEAPONS)):
        where = f"{path}[{i}]"
        if not isinstance(item, Mapping):
            raise _error(where, "must be a mapping with the weapon's index")
        unknown = sorted(str(key) for key in item if key not in {"index", "count", "fire_salvo", "volley"})
        if unknown:
            raise _error(f"{where}.{unknown[0][:MAX_ID_LENGTH]}", "is not a field of a weapon's use")
        count = item.get("count")
        uses.append(
            WeaponUse(
                index=_whole(item.get("index"), f"{where}.index", 0, MAX_GROUP_WEAPONS - 1),
                count=None if count is None else _whole(count, f"{where}.count", 1, MAX_WEAPONS),
                fire_salvo=_flag(item.get("fire_salvo", False), f"{where}.fire_salvo"),
                volley=_whole(item.get("volley", 0), f"{where}.volley", 0, MAX_WEAPONS + 2),
            )
        )
    return tuple(uses)


def _choice(value: object, path: str, kinds: type[StrEnum]) -> str:
    if not isinstance(value, str) or value not in {kind.value for kind in kinds}:  # a list is no choice
        raise _error(path, f"must be one of {', '.join(kind.value for kind in kinds)}")
    return str(value)


def _conditions(value: object, path: str) -> AttackConditions:
    if not isinstance(value, Mapping):
        raise _error(path, "must be a mapping")
    names = {item.name for item in fields(AttackConditions)}
    unknown = sorted(str(key) for key in value if key not in names)
    if unknown:
        raise _error(f"{path}.{unknown[0][:MAX_ID_LENGTH]}", "is not a condition")
    fortification = value.get("fortification")
    distance = value.get("distance")
    return AttackConditions(
        cover=_flag(value.get("cover", False), f"{path}.cover"),
        smoke=_flag(value.get("smoke", False), f"{path}.smoke"),
        trench=_flag(value.get("trench", False), f"{path}.trench"),
        fortification=None
        if fortification is None
        else _choice(fortification, f"{path}.fortification", Fortification),
        height=_choice(value.get("height", Height.LEVEL.value), f"{path}.height", Height),
        distance=None if distance is None else _whole(distance, f"{path}.distance", 1, MAX_DISTANCE),
        aircraft_move=_choice(
            value.get("aircraft_move", AircraftMove.NONE.value), f"{path}.aircraft_move", AircraftMove
        ),
    )


def _hits(value: object, path: str) -> tuple[int, ...]:
    items = _list(value, path, MAX_GROUP_WEAPONS)
    return tuple(_whole(item, f"{path}[{i}]", 0, MAX_HITS) for i, item in enumerate(items))


def _rows_of_hits(value: object, path: str) -> tuple[tuple[int, ...], ...]:
    return tuple(_hits(row, f"{path}[{i}]") for i, row in enumerate(_list(value, path, MAX_RIDERS)))


_PARSERS: Mapping[str, Callable[[object, str], Any]] = {
    "by": _side,
    "first": _side,
    "unit": _unit_id,
    "target": _unit_id,
    "seed": _optional_whole(0, MAX_SEED),
    "faces": _faces,
    "attacker_faces": _faces,
    "defender_faces": _faces,
    "actions": _actions,
    "weapons": _weapon_uses,
    "conditions": _conditions,
    "command": lambda value, path: _choice(value, path, Command),
    "sustained": _flag,
    "sustained_close_combat": _flag,
    "blocked": _flag,
    "objective": _flag,
    "hero_hits": _hits,
    "rider_hits": _rows_of_hits,
    "scenario_vp": lambda value, path: _whole(value, path, 0, MAX_SCENARIO_VP),
}
