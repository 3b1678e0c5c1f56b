"""Seed 004, Activations and Skills: the third action some skills give an activation.

A unit takes two actions, never more than three, and still at most one move or march and one
attack or sustained attack (seed 004, "2. Activations"). Three skills roll for a third one as
the unit activates: the ``third-action`` step, made before ``activate``; its result waits in
``state.third`` until that unit activates, and nothing else may happen meanwhile but a
concession, the mission's score or a reserve placement:

- Ace Pilot: the hero piloting a vehicle rolls; Ace Air Pilot: the hero piloting an aircraft.
  Neither is shared with a squad the hero joins.
- Infantry Ace: the hero rolls as it activates; on a success the hero and the squad it joined
  (or the hero that joined it) have a third action.

Scout needs no roll: a unit with it (or its joined hero, or the squad its hero joined) whose
first action of its first activation of the game is a march move has a third action.

A reactive attack is one attack inside the enemy's activation, never an activation of its own,
so a reacting unit never has a third action (seed 004, Reactive attacks). The lost die faces are
read as in commands.py: "on X or Y" is [BLOC] or [TARGET] (docs/battle-engine.md, "Third actions").
"""

from __future__ import annotations

from rules.engine.dice import BLOC_OR_TARGET, DiceRoller
from rules.engine.state import UnitKind
from rules.engine.targets import Skill

from .errors import StepRefused
from .flow import have, in_play, own_unit, their_turn
from .setup import BattleSetup
from .state import BattleState, ThirdRoll, evolve, leader, members, status
from .steps import Action, Activate, Concede, MissionScore, PlaceInReserve, Step, ThirdAction

THIRD_ACTION_SUCCESS = BLOC_OR_TARGET  # our reading of "on X or Y", as commands.py reads it
TWO, THREE = 2, 3
WORDS = {
    Skill.ACE_PILOT: "Ace pilot",
    Skill.ACE_AIR_PILOT: "Ace air pilot",
    Skill.INFANTRY_ACE: "Infantry ace",
}
_PILOTED = {Skill.ACE_PILOT: UnitKind.VEHICLE, Skill.ACE_AIR_PILOT: UnitKind.AIRCRAFT}
# Steps that may come while a unit that rolled waits to activate.
_WHILE_WAITING = (Concede, MissionScore, PlaceInReserve)

M, R, A, S, N = Action.MOVE, Action.MARCH, Action.ATTACK, Action.SUSTAINED, Action.NOTHING
P = Action.SPECIAL
# The three-action declarations legal_steps offers (one move or march, one attack at most).
PLANS = ((R, A), (A, R), (M, S))
HELD_PLANS = ((N, M, A), (N, S), (N, R))
AIRCRAFT_PLANS = ((R, A), (M, S))
HELD_AIRCRAFT_PLANS = ((N, M, A), (N, R))
COMMAND_PLANS = ((M, A, P), (R, P), (P, P, P))
HELD_COMMAND_PLANS = ((N, M, P), (N, P, P))
AIRCRAFT_COMMAND_PLANS = ((M, A, P), (R, P))
SCOUT_PLANS = ((R, A),)
SCOUT_COMMAND_PLANS = ((R, P),)


def roller_of(setup: BattleSetup, state: BattleState, lead: str) -> tuple[str, Skill] | None:
    """The member of the group led by ``lead`` that rolls for a third action, with its skill."""
    kind = setup.unit(lead).base.unit_class
    for member in members(setup, state, lead):
        unit = setup.unit(member)
        skills = unit.base.skills
        if member != lead and unit.pilot_of is not None:
            # Ace (Air) Pilot: only from the pilot's seat, and only in the right kind of machine.
            for skill, machine in _PILOTED.items():
                if skill in skills and kind is machine:
                    return member, skill
        elif Skill.INFANTRY_ACE in skills and unit.base.unit_class is UnitKind.INFANTRY:
            return member, Skill.INFANTRY_ACE
    return None


def scouts(setup: BattleSetup, state: BattleState, lead: str) -> bool:
    """The group has Scout and has not activated yet in this battle."""
    if lead in state.activated_once:
        return False
    return any(Skill.SCOUT in setup.unit(member).base.skills for member in members(setup, state, lead))


def may_roll(setup: BattleSetup, state: BattleState, lead: str) -> bool:
    return state.third is None and roller_of(setup, state, lead) is not None


def allowance(setup: BattleSetup, state: BattleState, lead: str, actions: tuple[Action, ...]) -> int:
    """How many actions the activation of ``lead`` declaring ``actions`` may take."""
    held = state.third
    if held is not None and held.unit == lead and held.success:
        return THREE
    if actions and actions[0] is Action.MARCH and scouts(setup, state, lead):
        return THREE
    return TWO


def plans(
    setup: BattleSetup, state: BattleState, lead: str, *, aircraft: bool, held: bool, commands: bool
) -> tuple[tuple[Action, ...], ...]:
    """The three-action declarations to offer ``lead`` now, beside its two-action ones."""
    rolled = state.third
    found: tuple[tuple[Action, ...], ...]
    if rolled is not None and rolled.unit == lead and rolled.success:
        if aircraft:
            found = HELD_AIRCRAFT_PLANS if held else AIRCRAFT_PLANS
            return found if held or not commands else (*found, *AIRCRAFT_COMMAND_PLANS)
        found = HELD_PLANS if held else PLANS
        return (*found, *(HELD_COMMAND_PLANS if held else COMMAND_PLANS)) if commands else found
    if not held and scouts(setup, state, lead):
        return (*SCOUT_PLANS, *SCOUT_COMMAND_PLANS) if commands else SCOUT_PLANS
    return ()


# -- the hooks apply calls --------------------------------------------------------------------


def check_waiting(setup: BattleSetup, state: BattleState, step: Step) -> None:
    """A unit that rolled for a third action activates next."""
    rolled = state.third
    if rolled is None or isinstance(step, _WHILE_WAITING):
        return
    unit = setup.unit(rolled.unit)
    if (
        isinstance(step, Activate)
        and step.by == unit.side
        and step.unit in setup.index
        and leader(setup, state, step.unit) == rolled.unit
    ):
        return
    raise StepRefused(
        "third-action-waiting", f"{unit.name} rolled for a third action and activates now.", "unit"
    )


def after_step(setup: BattleSetup, before: BattleState, after: BattleState, step: Step) -> BattleState:
    """An activation uses the roll it waited for, and marks its group as having activated (Scout)."""
    if not isinstance(step, Activate):
        return after
    lead = after.activation.unit if after.activation is not None else step.unit
    group = members(setup, before, lead) if status(setup, before, lead).in_play else (lead,)
    return evolve(after, third=None, activated_once=after.activated_once | {lead, *group})


# -- the step ---------------------------------------------------------------------------------


def third_action(
    setup: BattleSetup, state: BattleState, step: Step, roller: DiceRoller
) -> tuple[BattleState, str]:
    """Seed 004, Ace Pilot, Ace Air Pilot, Infantry Ace: one die as the unit activates."""
    assert isinstance(step, ThirdAction)
    their_turn(setup, state, step.by)
    own_unit(setup, step.unit, step.by)
    in_play(setup, state, step.unit)
    lead = leader(setup, state, step.unit)
    name = setup.unit(lead).name
    if status(setup, state, lead).markers.activated:
        raise StepRefused("unit-already-activated", f"{name} {have(name)} already activated this turn.")
    found = roller_of(setup, state, lead)
    if found is None:
        scout = " (a scout's needs no roll: a march move first, in its first activation)"
        raise StepRefused(
            "third-action-unavailable",
            f"{name} {have(name)} no ace to roll for a third action{scout if scouts(setup, state, lead) else ''}.",
            "unit",
        )
    member, skill = found
    hero = setup.unit(member).name
    faces = roller.roll(1, f"third action: {hero}", THIRD_ACTION_SUCCESS)
    success = faces[0] in THIRD_ACTION_SUCCESS
    state = evolve(state, third=ThirdRoll(unit=lead, success=success))
    who = (
        "" if member == lead else f"{name} {have(name)} "
    )  # the ace is the unit itself: no need to name it twice
    result = f"success, {who}three actions" if success else "failure, two actions"
    return state, f"{WORDS[skill]} {hero} rolls for a third action: {result}."
