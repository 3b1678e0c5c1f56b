"""The steps inside an activation: attacks, reactive attempts, and the decisions they leave.

Also a reserve placement, which an eliminated unit's player makes in the turn it fell.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.engine.dice import DiceRoller
from rules.engine.reactive import ReactiveOutcome, Refusal, attempt_reactive, reactive_refusal
from rules.engine.requests import AttackRequest
from rules.engine.reserves import ReserveCandidate, ReserveCode, place_in_reserve, refusal
from rules.engine.suppression import restrictions

from . import combat, riders
from .errors import StepRefused
from .flow import be, have, in_play, open_activation, own_unit, plural, reaction_waiting, their
from .setup import BattleSetup, other
from .state import (
    BattleState,
    PendingAllocation,
    PendingEscape,
    Phase,
    Reaction,
    evolve,
    leader,
    members,
    status,
    with_side,
    with_unit,
)
from .steps import Allocate, Attack, Escape, PlaceInReserve, Reactive, Step

_RESERVE_CODES = {
    ReserveCode.NOT_ALLOWED: "reserve-not-allowed",
    ReserveCode.FULL: "reserve-full",
    ReserveCode.HERO: "reserve-hero",
    ReserveCode.STRONGPOINT_UNIT: "reserve-strongpoint-unit",
    ReserveCode.ALREADY_IN_RESERVE: "unit-in-reserve",
}
_REACTIVE_REFUSALS = {
    Refusal.AIRCRAFT: "aircraft never react",
    Refusal.ALREADY_ACTIVATED: "it has already activated this turn",
    Refusal.PINNED: "it is pinned down",
}


@dataclass(frozen=True)
class PreparedAttack:
    lead: str  # the attacking group's leading unit
    target: str  # the target group's leading unit
    request: AttackRequest
    chosen: tuple[combat.GroupWeapon, ...]
    reactive: bool


def attack_request(setup: BattleSetup, state: BattleState, step: Attack) -> AttackRequest:
    """The engine's request this attack step would roll, checked as ``apply`` checks it.

    For the exact odds before the roll: ``rules.engine.attack_odds(request=..., ruleset=setup.ruleset)``.
    Against a combined unit these are the odds against its squad (the hits are split afterwards).
    """
    return prepare_attack(setup, state, step).request


def prepare_attack(setup: BattleSetup, state: BattleState, step: Attack) -> PreparedAttack:
    """Every check an attack step must pass before a die is rolled."""
    activation = state.activation
    if state.phase is not Phase.ACTIVATIONS or activation is None:
        raise StepRefused("no-activation", "No unit is activating now.")
    reaction = activation.reaction
    reactive = reaction is not None and step.by == reaction.side
    if reaction is not None and reactive:
        lead, sustained = reaction.unit, step.sustained
        if sustained and not reaction.sustained:
            raise StepRefused(
                "sustained-not-allowed", "One success allows a plain attack, not a sustained one."
            )
    else:
        activation = open_activation(setup, state, step.by)
        if reaction is not None:
            raise StepRefused("reaction-waiting", reaction_waiting(setup, reaction))
        lead = activation.unit
        name = setup.unit(lead).name
        if not activation.attack_left:
            raise StepRefused("no-attack-left", f"{name} {have(name)} no attack left in this activation.")
        if step.sustained:
            raise StepRefused(
                "sustained-not-allowed", "A sustained attack is declared when the unit activates."
            )
        sustained = activation.sustained
    own_unit(setup, step.unit, step.by)
    name = setup.unit(lead).name
    if leader(setup, state, step.unit) != lead:
        raise StepRefused("not-your-activation", f"{name} {be(name)} the unit attacking now.", "unit")
    target = _target(setup, state, step)
    request, chosen = combat.build_request(
        setup, state, lead, target, step.weapons, step.conditions,
        sustained=sustained, sustained_close_combat=step.sustained_close_combat,
    )  # fmt: skip
    if not request.weapons:
        raise StepRefused("weapon-unknown", "Name at least one weapon for the attack.")
    close_combat = any(weapon.close_combat for weapon in request.weapons)
    if close_combat and reactive:
        raise StepRefused(
            "close-combat-in-reaction", "Close-combat weapons are never used in a reactive attack."
        )
    markers = status(setup, state, lead).markers
    if close_combat and not restrictions(markers, setup.ruleset).may_close_combat_attack:
        raise StepRefused(
            "close-combat-suppressed", f"{name} {be(name)} suppressed and cannot attack in close combat."
        )
    combat.check(request, setup.ruleset)
    return PreparedAttack(lead, target, request, chosen, reactive)


def attack(setup: BattleSetup, state: BattleState, step: Step, roller: DiceRoller) -> tuple[BattleState, str]:
    """The activating unit's declared attack, or a reacting unit's, at one enemy unit."""
    assert isinstance(step, Attack)
    prepared = prepare_attack(setup, state, step)
    state, text = riders.attack(
        setup, state, prepared.request, prepared.chosen, prepared.lead, prepared.target, roller
    )
    activation = state.activation
    assert activation is not None
    # A reaction's attack is made, or the activating unit's declared one.
    changes: dict[str, object] = {"reaction": None} if prepared.reactive else {"attack_left": False}
    return evolve(state, activation=evolve(activation, **changes)), text


def _target(setup: BattleSetup, state: BattleState, step: Attack) -> str:
    if step.target not in setup.index:
        raise StepRefused("unknown-unit", "No unit of this battle has that name.", "target")
    target = setup.unit(step.target)
    if target.side == step.by:
        raise StepRefused("target-friendly", f"{target.name} {be(target.name)} on your side.", "target")
    found = status(setup, state, step.target)
    if not found.in_play:
        raise StepRefused(
            "target-out-of-play", f"{target.name} {be(target.name)} not on the table.", "target"
        )
    if target.pilot_of and not found.detached:
        raise StepRefused(
            "pilot-not-a-target",
            f"{target.name} {be(target.name)} piloting a vehicle and cannot be attacked.",
            "target",
        )
    return leader(setup, state, step.target)


def hold_fire(
    setup: BattleSetup, state: BattleState, step: Step, roller: DiceRoller
) -> tuple[BattleState, str]:
    activation = state.activation
    if activation is None or activation.reaction is None or activation.reaction.side != step.by:
        raise StepRefused("no-reaction", "You have no reactive attack to make or hold.")
    name = setup.unit(activation.reaction.unit).name
    return evolve(state, activation=evolve(activation, reaction=None)), f"{name} held {their(name)} fire."


def reactive(
    setup: BattleSetup, state: BattleState, step: Step, roller: DiceRoller
) -> tuple[BattleState, str]:
    """Seed 004, Reactive attacks: one unit that has not acted tries to answer an enemy's activation."""
    assert isinstance(step, Reactive)
    activation = state.activation
    if state.phase is not Phase.ACTIVATIONS or activation is None or activation.side == step.by:
        raise StepRefused("no-activation", "A reactive attack answers an enemy unit's activation.")
    enemy = setup.unit(activation.unit).name
    if activation.reaction_used:
        raise StepRefused("reaction-used", f"A unit has already tried to react to {enemy} this activation.")
    if not activation.trigger:
        raise StepRefused(
            "reaction-not-triggered", f"{enemy} {have(enemy)} not moved: nothing triggers a reaction."
        )
    unit = own_unit(setup, step.unit, step.by)
    in_play(setup, state, step.unit)
    lead = leader(setup, state, step.unit)
    found, unit_profile = status(setup, state, lead), combat.profile(setup, state, lead)
    refused = reactive_refusal(found.markers, unit_profile, setup.ruleset, distance=0)
    if refused is Refusal.ALREADY_ACTIVATED:
        raise StepRefused(
            "unit-already-activated", f"{unit.name} {have(unit.name)} already activated this turn."
        )
    if refused is not None:
        raise StepRefused("reaction-refused", f"{unit.name} cannot react: {_REACTIVE_REFUSALS[refused]}.")
    attempt = attempt_reactive(found.markers, unit_profile, setup.ruleset, roller, distance=0)
    state = with_unit(setup, state, lead, markers=attempt.state)
    for rider in members(setup, state, lead)[1:]:
        state = with_unit(
            setup, state, rider, markers=evolve(status(setup, state, rider).markers, activated=True)
        )
    if attempt.pass_tokens:
        state = with_side(state, step.by, pass_tokens=state.side(step.by).pass_tokens + attempt.pass_tokens)
    reaction = None
    if attempt.outcome is not ReactiveOutcome.NOTHING:
        sustained = attempt.outcome is ReactiveOutcome.SUSTAINED_OR_TURN_AND_ATTACK
        reaction = Reaction(side=step.by, unit=lead, sustained=sustained)
    words = {
        ReactiveOutcome.SUSTAINED_OR_TURN_AND_ATTACK: "a sustained attack (or a turn and an attack)",
        ReactiveOutcome.ATTACK: "an attack",
        ReactiveOutcome.NOTHING: "nothing",
    }
    activation = evolve(activation, reaction_used=True, reaction=reaction)
    name = setup.unit(lead).name
    return evolve(
        state, activation=activation
    ), f"{name} tried to react to {enemy}: {words[attempt.outcome]}."


def allocate(
    setup: BattleSetup, state: BattleState, step: Step, roller: DiceRoller
) -> tuple[BattleState, str]:
    """The combined unit's player splits the unsaved hits among its parts (squad, heroes, commissar)."""
    assert isinstance(step, Allocate)
    pending = state.pending[0] if state.pending else None
    if not isinstance(pending, PendingAllocation):
        raise StepRefused("wrong-phase", "No hits are waiting to be split.")
    if pending.side != step.by:
        player = setup.side(pending.side).player
        raise StepRefused("not-your-decision", f"{player} splits the hits on their own units.")
    rows = riders.split_of(setup, pending, step)
    state = evolve(state, pending=state.pending[1:])
    return riders.allocate(setup, state, pending, rows, roller)


def escape(setup: BattleSetup, state: BattleState, step: Step, roller: DiceRoller) -> tuple[BattleState, str]:
    assert isinstance(step, Escape)
    pending = state.pending[0] if state.pending else None
    if not isinstance(pending, PendingEscape):
        raise StepRefused("wrong-phase", "No pilot is waiting to escape.")
    if pending.side != step.by:
        player = setup.side(pending.side).player
        raise StepRefused("not-your-decision", f"{player} rolls for their own pilot.")
    state = evolve(state, pending=state.pending[1:])
    return combat.escape(setup, state, pending, roller, blocked=step.blocked)


def reserve(
    setup: BattleSetup, state: BattleState, step: Step, roller: DiceRoller
) -> tuple[BattleState, str]:
    """Seed 004, Reserve (#): an eliminated unit may go to reserve, in the turn it fell."""
    assert isinstance(step, PlaceInReserve)
    if state.phase is Phase.ENDED:
        raise StepRefused("battle-over", "The battle is over: no more steps.")
    unit = own_unit(setup, step.unit, step.by)
    found = status(setup, state, step.unit)
    if found.in_reserve:
        raise StepRefused("unit-in-reserve", f"{unit.name} {be(unit.name)} already in reserve.", "unit")
    squad = riders.rides_to_reserve(setup, step.unit)
    if squad is not None:
        raise StepRefused(
            "reserve-with-squad",
            f"{unit.name} goes to reserve with {setup.unit(squad).name}, never on {their(unit.name)} own.",
            "unit",
        )
    if not found.eliminated:
        raise StepRefused("unit-not-eliminated", f"{unit.name} {be(unit.name)} still on the table.", "unit")
    if found.eliminated_turn != state.turn:
        raise StepRefused(
            "reserve-too-late",
            f"{unit.name} fell in turn {found.eliminated_turn}: only then could it go to reserve.",
        )
    ledger = state.side(step.by).reserve
    candidate = ReserveCandidate(unit.id, is_hero=unit.hero, strongpoint_unit=unit.strongpoint_unit)
    refused = refusal(ledger, candidate)
    if refused is not None:
        code = ReserveCode(refused.code)
        raise StepRefused(_RESERVE_CODES[code], _reserve_words(unit.name, code, ledger.allowed))
    state = with_side(state, step.by, reserve=place_in_reserve(ledger, candidate, turn=state.turn))
    state = riders.to_reserve(setup, with_unit(setup, state, step.unit, in_reserve=True), step.unit)
    left = state.side(step.by).reserve.remaining
    return state, f"{unit.name} went to reserve ({left} placement{'s' * (left != 1)} left)."


def _reserve_words(name: str, code: ReserveCode, allowed: int) -> str:
    return {
        ReserveCode.NOT_ALLOWED: "This mission allows no reserve.",
        ReserveCode.FULL: f"All {allowed} reserve placements of this mission are used.",
        ReserveCode.HERO: f"{name} {be(name)} a hero: heroes never go to reserve.",
        ReserveCode.STRONGPOINT_UNIT: f"{name} {be(name)} a strongpoint unit and never goes to reserve.",
        ReserveCode.ALREADY_IN_RESERVE: f"{name} {be(name)} already in reserve.",
    }[code]


__all__ = ["allocate", "attack", "escape", "hold_fire", "other", "plural", "reactive", "reserve"]
