"""Battles for the battle engine's tests: small forces as the plain dicts the app will send."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from rules.engine.battle import (
    Action,
    Activate,
    Attack,
    BattleSetup,
    BattleState,
    ChooseFirst,
    Initiative,
    Step,
    WeaponUse,
    apply,
    initial_state,
    legal_steps,
    replay,
    setup_from_dict,
    step_from_dict,
    with_seed,
)
from rules.engine.battle.state import status
from rules.engine.dice import Face
from rules.engine.targets import CriticalHit

RIFLES = {"name": "Rifles", "line": {"infantry": "1/1", "vehicle": "-"}, "count": 5}
MG = {"name": "Machine gun", "line": {"infantry": "3/1", "vehicle": ["1/1", "1/1", "-", "-", "-", "-", "-"]}}
LASER = {"name": "Laser", "kind": "laser", "line": {"infantry": "2/1", "vehicle": "2/2", "aircraft": "1/2"}}
CANNON = {"name": "Cannon", "line": {"infantry": "B/1", "vehicle": "3/3"}}
PISTOL = {"name": "Pistol", "line": {"infantry": "2/1", "vehicle": "-"}}
ROCKETS = {
    "name": "Rockets",
    "traits": ["limited_ammo"],
    "ammo": 1,
    "line": {"infantry": "2/1", "vehicle": "4/2"},
}
CLAWS = {"name": "Claws", "close_combat": True, "line": {"infantry": "2/1", "vehicle": "2/1"}}


def squad(
    unit_id: str, name: str, *, armour: int = 2, models: int = 5, ap: int = 20, **extra: Any
) -> dict[str, Any]:
    weapons = extra.pop("weapons", [dict(RIFLES, count=models)])
    return {
        "id": unit_id,
        "name": name,
        "ap": ap,
        "unit_class": "infantry",
        "armour": armour,
        "models": models,
        "damage_per_model": 1,
        "weapons": weapons,
        **extra,
    }


def hero(
    unit_id: str, name: str, *, armour: int = 2, damage: int = 3, ap: int = 15, **extra: Any
) -> dict[str, Any]:
    return {
        "id": unit_id,
        "name": name,
        "ap": ap,
        "unit_class": "infantry",
        "armour": armour,
        "models": 1,
        "damage_per_model": damage,
        "hero": True,
        "weapons": extra.pop("weapons", [PISTOL]),
        **extra,
    }


def commissar(unit_id: str, name: str, *, armour: int = 2, ap: int = 5, **extra: Any) -> dict[str, Any]:
    """A commissar who is no hero: one soldier (seed 004, Commissar)."""
    return {
        "id": unit_id,
        "name": name,
        "ap": ap,
        "unit_class": "infantry",
        "armour": armour,
        "models": 1,
        "damage_per_model": 1,
        "commissar": True,
        "weapons": extra.pop("weapons", [PISTOL]),
        **extra,
    }


def walker(
    unit_id: str, name: str, *, armour: int = 3, damage: int = 4, ap: int = 30, **extra: Any
) -> dict[str, Any]:
    return {
        "id": unit_id,
        "name": name,
        "ap": ap,
        "unit_class": "vehicle",
        "armour": armour,
        "models": 1,
        "damage_per_model": damage,
        "weapons": extra.pop("weapons", [LASER]),
        **extra,
    }


def battle(
    attacker: list[dict[str, Any]] | None = None,
    defender: list[dict[str, Any]] | None = None,
    *,
    rtz: bool = False,
    turn_limit: int = 3,
    reserves: tuple[int, int] = (1, 1),
) -> dict[str, Any]:
    return {
        "ruleset": {"name": "rtz" if rtz else "rulebook"},
        "mission": {
            "name": "Crossroads",
            "turn_limit": turn_limit,
            "reserves": {"attacker": reserves[0], "defender": reserves[1]},
            "objective": "Hold the crossroads",
        },
        "attacker": {"player": "Anna", "units": attacker or [squad("a1", "Grenadiers")]},
        "defender": {"player": "Boris", "units": defender or [squad("d1", "Rifles Platoon")]},
    }


def mixed_battle(*, rtz: bool = False, turn_limit: int = 4, riders: bool = False) -> dict[str, Any]:
    """Each side: a squad with a joined hero, a walker with its pilot, two more squads; officers, a medic,
    a mechanic, a command squad and a vehicle that repairs itself give the special actions their turn;
    an ace pilot (Hermann), an infantry ace (Rosie) and scouts (the Gorillas) take third actions.

    With ``riders``, more ride along: on the attacker's side a second Siblings hero with Sigrid and a
    commissar with the Laser Grenadiers; on the defender's a Siblings pair and a commissar with the
    Rangers, and a hero who is a commissar with the Recon Boys.
    """
    attacker = [
        squad("a1", "Grenadiers", weapons=[dict(RIFLES), CLAWS]),
        hero("a2", "Sigrid", joined_to="a1", skills=["officer", "medic"]),
        walker("a3", "Ludwig", weapons=[LASER, ROCKETS], skills=["makeshift_repair"]),
        hero("a4", "Hermann", pilot_of="a3", skills=["mechanic", "ace_pilot"]),
        squad("a5", "Laser Grenadiers", armour=3, weapons=[dict(LASER, count=2)], models=2),
        squad("a6", "Zombies", models=4, weapons=[CLAWS], skills=["mindless"]),
    ]
    defender = [
        squad("d1", "Ranger Squad", weapons=[dict(RIFLES), MG]),
        hero("d2", "Rosie", joined_to="d1", skills=["officer", "infantry_ace"]),
        walker("d3", "Pounder", weapons=[CANNON, MG]),
        hero("d4", "Joe", pilot_of="d3"),
        squad("d5", "Gorillas", armour=3, models=3, weapons=[CLAWS], skills=["scout"]),
        squad("d6", "Recon Boys", models=4, skills=["command_squad"]),
    ]
    if riders:
        attacker[1]["siblings"] = True
        attacker += [
            hero("a7", "Sif", joined_to="a1", siblings=True),
            commissar("a8", "Commissar Brandt", armour=3, joined_to="a5"),
        ]
        defender[1]["siblings"] = True
        defender += [
            hero("d7", "Rita", joined_to="d1", siblings=True),
            commissar("d8", "Commissar Vera", joined_to="d1"),
            hero("d9", "Commissar Pyotr", damage=4, commissar=True, joined_to="d6"),
        ]
    return battle(attacker, defender, rtz=rtz, turn_limit=turn_limit, reserves=(2, 2))


def random_battle(
    setup: BattleSetup, seed: int, *, most: int = 400, concede: bool = False
) -> tuple[list[Step], list[BattleState]]:
    """Play legal steps picked at random; every rolling step gets a seed. Returns the steps and each state."""
    pick = random.Random(seed)
    state = initial_state(setup)
    steps: list[Step] = []
    states = [state]
    for _ in range(most):
        choices = [step for step in legal_steps(setup, state) if concede or step.kind != "concede"]
        if not choices:
            break
        step = with_seed(pick.choice(choices), pick.randrange(2**32))
        state = apply(setup, state, step)
        steps.append(step)
        states.append(state)
    return steps, states


AT_RIFLES = {
    "name": "Anti-tank rifles",
    "line": {"infantry": "1/1", "vehicle": "3/1", "aircraft": "3/1"},
    "count": 3,
}


def vehicle_hunted(target: dict[str, Any]) -> BattleSetup:
    return setup_from_dict(
        battle([squad("a1", "Tank Hunters", models=3, weapons=[AT_RIFLES])], [target], turn_limit=6)
    )


def struck(
    setup: BattleSetup, hit: CriticalHit, wanted: Callable[[BattleState], bool] = lambda state: True
) -> BattleState:
    """The Tank Hunters' sustained attack that left ``hit`` on d1 (the first seed that does): the
    defender acts next."""
    opening = replay(
        setup,
        [
            Initiative(by="attacker", attacker_faces=(Face.BLOC,) * 3, defender_faces=(Face.SHIELD,) * 3),
            ChooseFirst(by="attacker", first="attacker"),
            Activate(by="attacker", unit="a1", actions=(Action.SUSTAINED,)),
        ],
    )
    for seed in range(2000):
        fire = Attack(by="attacker", unit="a1", target="d1", weapons=(WeaponUse(0),), seed=seed)
        after = apply(setup, opening, fire)
        if hit in status(setup, after, "d1").critical_hits and wanted(after):
            return after
    raise AssertionError("no seed under 2000 gives it")


def setup_of(data: dict[str, Any]) -> BattleSetup:
    return setup_from_dict(data)


_FACES = ("BLOC", "TARGET", "SHIELD")
_KINDS = (
    "initiative", "first", "activate", "attack", "hold-fire", "reactive", "allocate", "escape",
    "reserve", "end-activation", "pass", "mission", "end-turn", "concede", "special", "third-action",
)  # fmt: skip
_COMMANDS = ("makeshift_repair", "heal", "rally", "ammo_drop", "get_moving")


def random_step(pick: random.Random, ids: list[str]) -> Step:
    """Any step within the JSON bounds, most of them out of place: what a careless or hostile client sends."""
    kind = pick.choice(_KINDS)
    data: dict[str, Any] = {"kind": kind, "by": pick.choice(("attacker", "defender"))}

    def faces(most: int) -> list[str]:
        return [pick.choice(_FACES) for _ in range(pick.randrange(most))]

    if kind == "initiative":
        if pick.random() < 0.5:
            data["seed"] = pick.randrange(1000)
        else:
            data.update(attacker_faces=faces(5), defender_faces=faces(5))
    elif kind == "first":
        data["first"] = pick.choice(("attacker", "defender"))
    elif kind in {"activate", "reactive", "attack", "allocate", "escape", "special", "third-action"}:
        if pick.random() < 0.6:
            data["seed"] = pick.randrange(1000)
        elif pick.random() < 0.8:
            data["faces"] = faces(12)
    if kind in {"activate", "reactive", "attack", "reserve", "special", "third-action"}:
        data["unit"] = pick.choice(ids)
    if kind == "special":
        data.update(command=pick.choice(_COMMANDS), target=pick.choice(ids))
    if kind == "activate":
        actions = ("nothing", "move", "march", "attack", "sustained", "special")
        data["actions"] = [pick.choice(actions) for _ in range(pick.randrange(4))]
    if kind == "attack":
        data["target"] = pick.choice(ids)
        data["weapons"] = [
            {"index": pick.randrange(4), "count": pick.randrange(1, 8), "volley": pick.randrange(3)}
            for _ in range(pick.randrange(4))
        ]
        data["conditions"] = {
            "cover": pick.random() < 0.3,
            "smoke": pick.random() < 0.2,
            "trench": pick.random() < 0.2,
            "fortification": pick.choice((None, "none", "strongpoint", "bunker")),
            "height": pick.choice(("level", "attacker_higher", "target_higher")),
            "distance": pick.choice((None, 1, 3, 10)),
            "aircraft_move": pick.choice(("none", "move", "march")),
        }
        data["sustained"] = pick.random() < 0.2
    if kind == "allocate" and pick.random() < 0.5:
        data["hero_hits"] = [pick.randrange(4) for _ in range(pick.randrange(3))]
    elif kind == "allocate":
        data["rider_hits"] = [
            [pick.randrange(3) for _ in range(pick.randrange(3))] for _ in range(pick.randrange(4))
        ]
    if kind == "escape":
        data["blocked"] = pick.random() < 0.3
    if kind == "mission":
        data.update(objective=pick.random() < 0.5, scenario_vp=pick.randrange(101))
    return step_from_dict(data)
