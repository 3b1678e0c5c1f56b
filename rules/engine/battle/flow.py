"""What every step handler shares: the guards that refuse a step, closing an activation, who acts next."""

from __future__ import annotations

from rules.engine.suppression import end_activation

from . import combat, riders
from .errors import StepRefused
from .setup import SIDES, BattleSetup, UnitSetup, other
from .state import (
    Activation,
    BattleState,
    PendingAllocation,
    Phase,
    Reaction,
    can_act,
    evolve,
    status,
    with_unit,
)
from .steps import Action

MOVE_ACTIONS = frozenset({Action.MOVE.value, Action.MARCH.value})
ATTACK_ACTIONS = frozenset({Action.ATTACK.value, Action.SUSTAINED.value})


# -- guards -----------------------------------------------------------------------------------


def need_phase(state: BattleState, phase: Phase, message: str) -> None:
    if state.phase is not phase:
        raise StepRefused("wrong-phase", message)


def their_turn(setup: BattleSetup, state: BattleState, side: str) -> None:
    """Only the side whose activation it is, with no activation open."""
    need_phase(state, Phase.ACTIVATIONS, "It is not time for activations.")
    if state.activation is not None:
        name = setup.unit(state.activation.unit).name
        raise StepRefused("activation-open", f"{name} {have(name)} not finished {their(name)} activation.")
    if state.to_act != side:
        player = setup.side(state.to_act or other(side)).player
        raise StepRefused("not-your-activation", f"It is {player}'s activation.")


def own_unit(setup: BattleSetup, unit_id: str, side: str) -> UnitSetup:
    if unit_id not in setup.index:
        raise StepRefused("unknown-unit", "No unit of this battle has that name.", "unit")
    unit = setup.unit(unit_id)
    if unit.side != side:
        raise StepRefused(
            "not-your-unit", f"{unit.name} {be(unit.name)} {setup.side(unit.side).player}'s.", "unit"
        )
    return unit


def in_play(setup: BattleSetup, state: BattleState, unit_id: str) -> None:
    found, name = status(setup, state, unit_id), setup.unit(unit_id).name
    if found.in_reserve:
        raise StepRefused("unit-in-reserve", f"{name} {be(name)} in reserve.", "unit")
    if found.eliminated:
        raise StepRefused("unit-eliminated", f"{name} {have(name)} been eliminated.", "unit")


def open_activation(setup: BattleSetup, state: BattleState, side: str) -> Activation:
    """The open activation, which ``side`` is making."""
    activation = state.activation
    if state.phase is not Phase.ACTIVATIONS or activation is None:
        raise StepRefused("no-activation", "No unit is activating now.")
    if activation.side != side:
        player = setup.side(activation.side).player
        raise StepRefused("not-your-activation", f"It is {player}'s activation.")
    return activation


def waiting(setup: BattleSetup, state: BattleState) -> str:
    pending = state.pending[0]
    player = setup.side(pending.side).player
    if isinstance(pending, PendingAllocation):
        parts = riders.names(setup, (pending.squad, *pending.riders))
        return f"{player} first splits the hits among {parts}."
    return f"{player} first rolls for {setup.unit(pending.pilot).name} to escape the wreck."


def reaction_waiting(setup: BattleSetup, reaction: Reaction) -> str:
    name = setup.unit(reaction.unit).name
    return f"{name} first {'make' if plural(name) else 'makes'} {their(name)} reactive attack (or hold fire)."


# -- the flow of a turn -----------------------------------------------------------------------


def reaction_window(activation: Activation) -> bool:
    """Whether one enemy unit may still try a reactive attack during this activation.

    Seed 004, Reactive attacks: the attempt comes after the activating unit's move;
    when it attacks first and moves after, the attempt comes after its attack.
    """
    if not activation.trigger or activation.reaction_used:
        return False
    acts = activation.actions
    attack_at = next((i for i, action in enumerate(acts) if action in ATTACK_ACTIONS), None)
    if attack_at is None or activation.attack_left:
        return True
    move_at = next(i for i, action in enumerate(acts) if action in MOVE_ACTIONS)
    return move_at > attack_at


def close(setup: BattleSetup, state: BattleState) -> BattleState:
    """The open activation ends: suppression it waited for lands, and the other side is next."""
    activation = state.activation
    assert activation is not None
    lead = status(setup, state, activation.unit)
    if lead.in_play:
        markers = end_activation(lead.markers, combat.profile(setup, state, activation.unit), setup.ruleset)
        state = with_unit(setup, state, activation.unit, markers=markers)
    return evolve(state, activation=None, to_act=other(activation.side))


def settle(setup: BattleSetup, state: BattleState) -> BattleState:
    """After each step: close a finished activation, then find who acts next, or end the turn."""
    if state.phase is not Phase.ACTIVATIONS or state.pending:
        return state
    activation = state.activation
    if activation is not None:
        gone = not status(setup, state, activation.unit).in_play
        finished = (
            not activation.attack_left
            and activation.reaction is None
            and not reaction_window(activation)
            and not activation.specials_left
        )
        if gone or finished:
            state = close(setup, state)
        else:
            return state
    side = state.to_act or SIDES[0]
    if can_act(setup, state, side):
        return evolve(state, to_act=side)
    if can_act(setup, state, other(side)):
        return evolve(state, to_act=other(side))
    return evolve(state, phase=Phase.TURN_OVER, to_act=None)


# -- words ------------------------------------------------------------------------------------


def plural(name: str) -> bool:
    """Unit names are mostly plural squads ("Grenadiers") or single heroes and vehicles."""
    return name.endswith("s")


def have(name: str) -> str:
    return "have" if plural(name) else "has"


def be(name: str) -> str:
    return "are" if plural(name) else "is"


def their(name: str) -> str:
    return "their" if plural(name) else "its"
