"""Seed 004, Command actions (and the Makeshift Repair skill): the special actions the referee resolves.

A unit declares ``special`` among its actions when it activates; each ``special`` step then uses one
(the Makeshift Repair skill uses two) for a command at a unit of its own side, and rolls its dice
(seeded, or the faces entered). Who may give which command:

- an officer (a hero with the Officer skill, or a command squad): rally, ammo drop, get moving;
- a medic (a hero with the Medic or Combat Medic skill, or a command squad): heal ("get up");
- a mechanic (a hero with the Mechanic skill, or a command squad): makeshift repair of a vehicle;
- a vehicle with the Makeshift Repair skill: a makeshift repair of itself, for two actions.

A joined hero lends its skills to the combined unit; a hero piloting a vehicle gives officer commands
from inside it (never to the vehicle itself), but no medic's or mechanic's. The table judges range,
line of sight, radios and scenery: the players say the target is in reach; the site checks only what
the rules need (the skill or soldier, the kind and side of the target, zombies, what the target has
lost, one reactivation a turn). Our readings where the text leaves room (its die faces were lost) are
in docs/battle-engine.md, "Special actions".
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import StrEnum

from rules.engine.damage import models_left
from rules.engine.dice import BLOC_ONLY, BLOC_OR_TARGET, DiceRoller, Face
from rules.engine.state import UnitKind, UnitState
from rules.engine.suppression import RallyKind, needs_rally, rank, resolve_rally
from rules.engine.targets import Skill

from .errors import StepRefused
from .flow import be, close, have, open_activation, own_unit, plural, reaction_waiting, their
from .setup import BattleSetup, UnitSetup
from .state import Activation, BattleState, evolve, leader, members, status, with_unit
from .steps import (
    Action,
    Activate,
    Command,
    Concede,
    MissionScore,
    PlaceInReserve,
    Special,
    Step,
    ThirdAction,
)

REPAIR_DICE = 5  # a makeshift repair: each [BLOC] gives a damage point back
RALLY_DICE = 2
SKILL_REPAIR_ACTIONS = 2  # the vehicle's own Makeshift Repair skill takes both its actions
# Our readings of the faces the seed lost: "on X or Y" is [BLOC] or [TARGET], "on X" and "each X" [BLOC].
HEAL_SUCCESS = BLOC_OR_TARGET
AMMO_DROP_SUCCESS = BLOC_OR_TARGET
GET_MOVING_SUCCESS = BLOC_ONLY
REPAIR_SUCCESS = BLOC_ONLY


class Role(StrEnum):
    OFFICER = "officer"
    MEDIC = "medic"
    MECHANIC = "mechanic"


ROLE_OF: dict[Command, Role] = {
    Command.RALLY: Role.OFFICER,
    Command.AMMO_DROP: Role.OFFICER,
    Command.GET_MOVING: Role.OFFICER,
    Command.HEAL: Role.MEDIC,
    Command.MAKESHIFT_REPAIR: Role.MECHANIC,
}
# Our reading of a command squad's losses: its player takes the other soldiers first, then the mechanic,
# then the medic; the officer is the last model standing. The role stays while this many models do.
SQUAD_MODELS_FOR: dict[Role, int] = {Role.OFFICER: 1, Role.MEDIC: 2, Role.MECHANIC: 3}
WORDS: dict[Command, str] = {
    Command.MAKESHIFT_REPAIR: "makeshift repair",
    Command.HEAL: "get up (heal)",
    Command.RALLY: "rally",
    Command.AMMO_DROP: "ammo drop",
    Command.GET_MOVING: "get moving (reactivate)",
}
_ZOMBIES = (Skill.ZOMBIE, Skill.MINDLESS)
_GROUND = (UnitKind.INFANTRY, UnitKind.VEHICLE)
# Steps that may come while a reactivated unit waits to activate again.
_WHILE_REACTIVATING = (Concede, MissionScore, PlaceInReserve)


# -- who may give which command -----------------------------------------------------------------


def roles(setup: BattleSetup, state: BattleState, lead: str) -> frozenset[Role]:
    """The command soldiers the group led by ``lead`` has now."""
    found: set[Role] = set()
    for member in members(setup, state, lead):
        unit, member_status = setup.unit(member), status(setup, state, member)
        skills = unit.base.skills
        piloting = unit.pilot_of is not None and not member_status.detached
        if Skill.OFFICER in skills:
            found.add(Role.OFFICER)
        if Skill.MEDIC in skills and not piloting:
            found.add(Role.MEDIC)
        if Skill.MECHANIC in skills and not piloting:
            found.add(Role.MECHANIC)
        if Skill.COMMAND_SQUAD in skills:
            standing = models_left(member_status.remaining, unit.base.damage_per_model)
            found.update(role for role, need in SQUAD_MODELS_FOR.items() if standing >= need)
    return frozenset(found)


def self_repairs(setup: BattleSetup, lead: str) -> bool:
    base = setup.unit(lead).base
    return base.unit_class is UnitKind.VEHICLE and Skill.MAKESHIFT_REPAIR in base.skills


def available(setup: BattleSetup, state: BattleState, lead: str) -> tuple[Command, ...]:
    """The commands the group could give now (whatever their targets)."""
    have_roles = roles(setup, state, lead)
    return tuple(
        command
        for command in Command
        if ROLE_OF[command] in have_roles
        or (command is Command.MAKESHIFT_REPAIR and self_repairs(setup, lead))
    )


# -- the hooks apply and legal_steps call -----------------------------------------------------------


def check_reactivation(setup: BattleSetup, state: BattleState, step: Step) -> None:
    """Seed 004, Get moving: the reactivated unit activates right after the officer's unit."""
    waiting = state.reactivating
    if waiting is None or isinstance(step, _WHILE_REACTIVATING):
        return
    unit = setup.unit(waiting)
    if (
        isinstance(step, Activate | ThirdAction)  # its ace may roll for a third action as it activates
        and step.by == unit.side
        and step.unit in setup.index
        and leader(setup, state, step.unit) == waiting
    ):
        return
    raise StepRefused(
        "reactivation-waiting",
        f"{unit.name} {be(unit.name)} reactivated and first {_verb(unit.name, 'activate')} again.",
    )


def after_step(setup: BattleSetup, before: BattleState, after: BattleState, step: Step) -> BattleState:
    """An activation that declared special actions keeps them open for its commands; a reactivation is used."""
    if not isinstance(step, Activate):
        return after
    if before.reactivating is not None:
        after = evolve(after, reactivating=None)
    activation = after.activation
    declared = step.actions.count(Action.SPECIAL)
    if activation is not None and declared and available(setup, after, activation.unit):
        after = evolve(after, activation=evolve(activation, specials_left=declared))
    return after


def candidates(setup: BattleSetup, state: BattleState, activation: Activation) -> Iterator[Special]:
    """Every command the activating unit may give now, at every unit it may give it to."""
    if not activation.specials_left or activation.reaction is not None:
        return
    for command in available(setup, state, activation.unit):
        for unit in setup.side(activation.side).units:
            step = Special(by=activation.side, unit=activation.unit, command=command.value, target=unit.id)
            try:
                _check(setup, state, step)
            except StepRefused:
                continue
            yield step


# -- the step ------------------------------------------------------------------------------------


def special(
    setup: BattleSetup, state: BattleState, step: Step, roller: DiceRoller
) -> tuple[BattleState, str]:
    """One declared special action used for a command (seed 004, Command actions; Makeshift Repair)."""
    assert isinstance(step, Special)
    command, lead, target, cost = _check(setup, state, step)
    activation = state.activation
    assert activation is not None
    state = evolve(state, activation=evolve(activation, specials_left=activation.specials_left - cost))
    name = setup.unit(lead).name
    return _RESOLVE[command](setup, state, step.by, name, target, roller)


def _check(setup: BattleSetup, state: BattleState, step: Special) -> tuple[Command, str, str, int]:
    """Every refusal before a die is rolled: the command, the activating group, the target, actions it takes."""
    activation = open_activation(setup, state, step.by)
    if activation.reaction is not None:
        raise StepRefused("reaction-waiting", reaction_waiting(setup, activation.reaction))
    own_unit(setup, step.unit, step.by)
    lead = activation.unit
    name = setup.unit(lead).name
    if leader(setup, state, step.unit) != lead:
        raise StepRefused("not-your-activation", f"{name} {be(name)} the unit activating now.", "unit")
    command = Command(step.command)
    target = _target(setup, state, step)
    on_itself = leader(setup, state, target.id) == lead
    skill_repair = command is Command.MAKESHIFT_REPAIR and on_itself and self_repairs(setup, lead)
    role = ROLE_OF[command]
    if not skill_repair and role not in roles(setup, state, lead):
        raise StepRefused("command-unavailable", _no_role(setup, state, lead, role, command))
    cost = SKILL_REPAIR_ACTIONS if skill_repair else 1
    if activation.specials_left < cost:
        wanted = "two special actions" if cost > 1 else "a special action"
        raise StepRefused(
            "no-special-left",
            f"{name} {have(name)} not {wanted} left in this activation for a {WORDS[command]}.",
        )
    if on_itself and not skill_repair and setup.unit(lead).base.unit_class is not UnitKind.INFANTRY:
        raise StepRefused(
            "command-target-invalid",
            f"Commands given from inside {name} are never given to {name} {_self(name)}.",
            "target",
        )
    _fits(setup, state, command, lead, target)
    return command, lead, target.id, cost


def _target(setup: BattleSetup, state: BattleState, step: Special) -> UnitSetup:
    if step.target not in setup.index:
        raise StepRefused("unknown-unit", "No unit of this battle has that name.", "target")
    target = setup.unit(step.target)
    if target.side != step.by:
        raise StepRefused(
            "target-enemy",
            f"{target.name} {be(target.name)} the enemy's: commands go to your own units.",
            "target",
        )
    found = status(setup, state, target.id)
    if not found.in_play:
        raise StepRefused(
            "target-out-of-play", f"{target.name} {be(target.name)} not on the table.", "target"
        )
    if target.pilot_of and not found.detached:
        raise StepRefused(
            "pilot-not-a-target",
            f"{target.name} {be(target.name)} piloting a vehicle: name the vehicle.",
            "target",
        )
    lead = setup.unit(leader(setup, state, target.id))
    if any(skill in lead.base.skills or skill in target.base.skills for skill in _ZOMBIES):
        raise StepRefused(
            "target-zombie",
            f"{target.name} {be(target.name)} zombies: no officer, medic or mechanic commands zombies.",
            "target",
        )
    return target


def _fits(setup: BattleSetup, state: BattleState, command: Command, lead: str, target: UnitSetup) -> None:
    """The target is of the kind the command names, and the command would change something."""
    kind, found = target.base.unit_class, status(setup, state, target.id)
    group = leader(setup, state, target.id)
    name = target.name
    if command is Command.MAKESHIFT_REPAIR:
        _kind(
            kind is UnitKind.VEHICLE, f"A makeshift repair is made on a vehicle; {name} {be(name)} not one."
        )
        _effect(found.remaining < target.capacity, f"{name} {have(name)} lost no damage point to repair.")
    elif command is Command.HEAL:
        _kind(kind is UnitKind.INFANTRY, f"A medic heals infantry; {name} {be(name)} not infantry.")
        _effect(found.remaining < target.capacity, f"{name} {have(name)} lost nobody to heal.")
    elif command is Command.RALLY:
        markers = status(setup, state, group).markers
        _effect(
            needs_rally(markers, setup.ruleset, RallyKind.COMMAND),
            f"{name} {have(name)} no marker to rally from.",
        )
    elif command is Command.AMMO_DROP:
        _kind(kind in _GROUND, f"An ammo drop is for ground units; {name} {be(name)} an aircraft.")
        limited = [
            (member, i)
            for member in members(setup, state, group)
            for i, weapon in enumerate(setup.unit(member).weapons)
            if weapon.ammo is not None
        ]
        _kind(bool(limited), f"{name} {have(name)} no limited-ammo weapon.")
        full = all(status(setup, state, m).ammo[i] == setup.unit(m).weapons[i].ammo for m, i in limited)
        _effect(not full, f"{name} {have(name)} every ammunition box still unmarked.")
    else:
        _kind(kind in _GROUND, f"Only a ground unit is reactivated; {name} {be(name)} an aircraft.")
        _kind(group != lead, f"{name} cannot reactivate {_self(name)}.")
        if not status(setup, state, group).markers.activated:
            raise StepRefused(
                "target-not-activated", f"{name} {have(name)} not activated yet this turn.", "target"
            )
        if (state.turn, group) in state.reactivated:
            raise StepRefused(
                "unit-reactivated", f"{name} {have(name)} already been reactivated this turn.", "target"
            )


def _kind(ok: bool, message: str) -> None:
    if not ok:
        raise StepRefused("command-target-invalid", message, "target")


def _effect(ok: bool, message: str) -> None:
    if not ok:
        raise StepRefused("command-no-effect", message, "target")


def _no_role(setup: BattleSetup, state: BattleState, lead: str, role: Role, command: Command) -> str:
    name = setup.unit(lead).name
    squad = any(Skill.COMMAND_SQUAD in setup.unit(m).base.skills for m in members(setup, state, lead))
    if squad:
        return f"{name} {have(name)} lost {their(name)} {role.value}: no {WORDS[command]}."
    return f"{name} {have(name)} no {role.value} for a {WORDS[command]}."


# -- the effects ------------------------------------------------------------------------------------


def _repair(
    setup: BattleSetup, state: BattleState, side: str, name: str, target: str, roller: DiceRoller
) -> tuple[BattleState, str]:
    """Each [BLOC] of five dice gives the vehicle a damage point back; critical hits stay (our reading)."""
    unit, found = setup.unit(target), status(setup, state, target)
    faces = roller.roll(REPAIR_DICE, f"makeshift repair: {unit.name}", REPAIR_SUCCESS)
    back = min(_count(faces, REPAIR_SUCCESS), unit.capacity - found.remaining)
    state = with_unit(setup, state, target, remaining=found.remaining + back)
    left = found.remaining + back
    return state, (
        f"{name} made a makeshift repair on {unit.name}: {_points(back)} back "
        f"({left} of {unit.capacity} left)."
    )


def _heal(
    setup: BattleSetup, state: BattleState, side: str, name: str, target: str, roller: DiceRoller
) -> tuple[BattleState, str]:
    """A hero or a support weapon (one model with a damage track) gets a point back; a squad a soldier."""
    unit, found = setup.unit(target), status(setup, state, target)
    faces = roller.roll(1, f"get up: {unit.name}", HEAL_SUCCESS)
    if not _count(faces, HEAL_SUCCESS):
        return state, f"{name} tried to get {unit.name} up: no luck."
    single = unit.base.models == 1
    back = min(1 if single else unit.base.damage_per_model, unit.capacity - found.remaining)
    state = with_unit(setup, state, target, remaining=found.remaining + back)
    got = _points(back) if single else "a soldier"
    return state, f"{name} got {unit.name} up: {got} back."


def _rally(
    setup: BattleSetup, state: BattleState, side: str, name: str, target: str, roller: DiceRoller
) -> tuple[BattleState, str]:
    group = leader(setup, state, target)
    unit, markers = setup.unit(group), status(setup, state, group).markers
    faces = roller.roll(RALLY_DICE, f"rally: {unit.name}", BLOC_ONLY)
    result = resolve_rally(markers, setup.ruleset, faces, RallyKind.COMMAND)
    state = with_unit(setup, state, group, markers=result.after)
    left = _markers_words(setup, result.after)
    return state, f"{name} rallied {unit.name}: {left}."


def _ammo_drop(
    setup: BattleSetup, state: BattleState, side: str, name: str, target: str, roller: DiceRoller
) -> tuple[BattleState, str]:
    group = leader(setup, state, target)
    unit = setup.unit(group)
    faces = roller.roll(1, f"ammo drop: {unit.name}", AMMO_DROP_SUCCESS)
    if not _count(faces, AMMO_DROP_SUCCESS):
        return state, f"{name} called an ammo drop for {unit.name}: it went astray."
    for member in members(setup, state, group):
        weapons = setup.unit(member).weapons
        state = with_unit(setup, state, member, ammo=tuple(weapon.ammo for weapon in weapons))
    return state, f"{name} called an ammo drop: {unit.name} {have(unit.name)} full ammunition again."


def _get_moving(
    setup: BattleSetup, state: BattleState, side: str, name: str, target: str, roller: DiceRoller
) -> tuple[BattleState, str]:
    """Success ends the officer's activation at once; the target activates next, once a turn."""
    group = leader(setup, state, target)
    unit = setup.unit(group)
    faces = roller.roll(1, f"get moving: {unit.name}", GET_MOVING_SUCCESS)
    if not _count(faces, GET_MOVING_SUCCESS):
        return state, f"{name} shouted at {unit.name} to get moving: nothing happened."
    markers = status(setup, state, group).markers
    state = with_unit(setup, state, group, markers=evolve(markers, activated=False))
    state = close(setup, state)
    state = evolve(
        state, to_act=side, reactivating=group, reactivated=(*state.reactivated, (state.turn, group))
    )
    return (
        state,
        f"{name} ended {their(name)} activation: {unit.name} {_verb(unit.name, 'activate')} again now.",
    )


_RESOLVE = {
    Command.MAKESHIFT_REPAIR: _repair,
    Command.HEAL: _heal,
    Command.RALLY: _rally,
    Command.AMMO_DROP: _ammo_drop,
    Command.GET_MOVING: _get_moving,
}


# -- words ----------------------------------------------------------------------------------------


def _count(faces: list[Face], success: frozenset[Face]) -> int:
    return sum(1 for face in faces if face in success)


def _points(count: int) -> str:
    return f"{count} damage point{'s' * (count != 1)}"


def _self(name: str) -> str:
    return "themselves" if plural(name) else "itself"


def _verb(name: str, verb: str) -> str:
    return verb if plural(name) else f"{verb}s"


def _markers_words(setup: BattleSetup, markers: UnitState) -> str:
    level = rank(markers, setup.ruleset)
    if setup.ruleset.suppression_rtz:
        word = ("no longer suppressed", "still suppressed", "still pinned")[level]
    else:
        word = ("no marker left", "under fire", "still suppressed")[level]
    return f"{word}{', still stunned' if markers.stunned else ''}"
