"""``apply`` folds one step into the battle's state, or refuses it; ``replay`` folds them all."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from rules.engine.dice import DiceRoller

from . import actions, commands, third, turn
from .errors import StepRefused
from .flow import settle, waiting
from .rolls import OutOfDiceError, finish, out_of_dice, roller_for
from .setup import BattleSetup
from .state import BattleState, LogEntry, Phase, evolve, initial_state
from .steps import (
    Activate,
    Allocate,
    Attack,
    ChooseFirst,
    Concede,
    EndActivation,
    EndTurn,
    Escape,
    HoldFire,
    Initiative,
    MissionScore,
    Pass,
    PlaceInReserve,
    Reactive,
    Special,
    Step,
    ThirdAction,
)

Handler = Callable[[BattleSetup, BattleState, Step, DiceRoller], tuple[BattleState, str]]

HANDLERS: Mapping[type[Step], Handler] = {
    Initiative: turn.initiative,
    ChooseFirst: turn.choose_first,
    ThirdAction: third.third_action,
    Activate: turn.activate,
    EndActivation: turn.end_activation,
    Pass: turn.pass_,
    EndTurn: turn.end_turn,
    Concede: turn.concede,
    MissionScore: turn.mission,
    Attack: actions.attack,
    Special: commands.special,
    HoldFire: actions.hold_fire,
    Reactive: actions.reactive,
    Allocate: actions.allocate,
    Escape: actions.escape,
    PlaceInReserve: actions.reserve,
}
# Steps that may come while a decision (a hero's hits, a pilot's escape) is waiting.
_WHILE_WAITING = (Allocate, Escape, Concede, MissionScore)


def replay(setup: BattleSetup, steps: Iterable[Step]) -> BattleState:
    """The state after every step in order; the first step refused raises ``StepRefused``."""
    state = initial_state(setup)
    for step in steps:
        state = apply(setup, state, step)
    return state


def apply(setup: BattleSetup, state: BattleState, step: Step) -> BattleState:
    """The state after ``step``, or ``StepRefused`` (nothing changes) if the rules do not allow it now."""
    if state.phase is Phase.ENDED:
        raise StepRefused("battle-over", "The battle is over: no more steps.")
    if state.pending and not isinstance(step, _WHILE_WAITING):
        raise StepRefused("decision-waiting", waiting(setup, state))
    commands.check_reactivation(setup, state, step)
    third.check_waiting(setup, state, step)
    roller = roller_for(getattr(step, "seed", None), getattr(step, "faces", None))
    try:
        after, text = HANDLERS[type(step)](setup, state, step, roller)
    except OutOfDiceError as error:
        raise out_of_dice(error) from None
    dice = finish(roller)
    after = third.after_step(setup, state, commands.after_step(setup, state, after, step), step)
    after = settle(setup, after)
    entry = LogEntry(
        step=state.steps + 1,
        by=step.by,
        kind=step.kind,
        text=text,
        dice=dice,
        seed=getattr(step, "seed", None),
    )
    return evolve(after, steps=state.steps + 1, log=(*state.log, entry))
