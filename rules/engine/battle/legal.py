"""What may happen next: every step ``apply`` would accept now, for a page's choices and random battles.

Steps that roll come without dice: give them a seed (``with_seed``) or the faces
rolled. Attacks are listed in the open at level ground, with every weapon of the
group that can hurt the target (ranged weapons; close-combat weapons as a second
choice), so a page starts from them and changes what the table shows.
A suppressed or stunned unit is offered only declarations that start with nothing.
"""

from __future__ import annotations

from dataclasses import replace

from rules.engine.budget import check_resolve_dice
from rules.engine.errors import EngineInputError
from rules.engine.initiative import may_pass
from rules.engine.reactive import reactive_refusal
from rules.engine.requests import check_request
from rules.engine.reserves import ReserveCandidate, refusal
from rules.engine.state import UnitKind
from rules.engine.suppression import RallyKind, needs_rally, restrictions
from rules.engine.weapons import WeaponTrait

from . import combat, commands, criticals, riders, third
from .errors import StepRefused
from .flow import reaction_window
from .setup import SIDES, BattleSetup, other
from .state import (
    BattleState,
    PendingAllocation,
    Phase,
    groups,
    left_to_activate,
    returnable,
    status,
)
from .steps import (
    Action,
    Activate,
    Attack,
    AttackConditions,
    ChooseFirst,
    Concede,
    EndActivation,
    EndTurn,
    Escape,
    HoldFire,
    Initiative,
    Pass,
    PlaceInReserve,
    Reactive,
    Step,
    ThirdAction,
    WeaponUse,
)

_PLANS = (
    (Action.MOVE, Action.ATTACK),
    (Action.SUSTAINED,),
    (Action.MARCH,),
    (Action.ATTACK, Action.MOVE),
    (Action.NOTHING, Action.NOTHING),
)
_HELD_PLANS = (
    (Action.NOTHING, Action.ATTACK),
    (Action.NOTHING, Action.MOVE),
    (Action.NOTHING, Action.NOTHING),
)
_AIRCRAFT_PLANS = ((Action.MOVE, Action.ATTACK), (Action.MARCH,))
_MOVES = frozenset({Action.MOVE, Action.MARCH})
_HELD_AIRCRAFT_PLANS = ((Action.NOTHING, Action.MOVE),)
# Offered to a unit that can give a command (commands.py).
_COMMAND_PLANS = ((Action.SPECIAL, Action.SPECIAL), (Action.MOVE, Action.SPECIAL))
_HELD_COMMAND_PLANS = ((Action.NOTHING, Action.SPECIAL),)
_AIRCRAFT_COMMAND_PLANS = ((Action.MOVE, Action.SPECIAL),)  # an officer flying it: it moves first


def legal_steps(setup: BattleSetup, state: BattleState) -> list[Step]:
    if state.phase is Phase.ENDED:
        return []
    if state.pending:
        return _decisions(setup, state)
    found: list[Step] = []
    if state.phase is Phase.INITIATIVE:
        found += [Initiative(by=side) for side in SIDES]
    elif state.phase is Phase.CHOOSE_FIRST:
        found += [ChooseFirst(by=state.initiative or SIDES[0], first=side) for side in SIDES]
    elif state.phase is Phase.TURN_OVER:
        found += [EndTurn(by=side) for side in SIDES]
    elif state.activation is not None:
        found += _inside_activation(setup, state)
    elif state.to_act is not None:
        found += _activations(setup, state, state.to_act)
    found += _reserve_placements(setup, state)
    found += [Concede(by=side) for side in SIDES]
    return found


def _decisions(setup: BattleSetup, state: BattleState) -> list[Step]:
    pending = state.pending[0]
    if isinstance(pending, PendingAllocation):
        return list(riders.offered(pending))
    return [Escape(by=pending.side), Escape(by=pending.side, blocked=True)]


def _activations(setup: BattleSetup, state: BattleState, side: str) -> list[Step]:
    found: list[Step] = []
    rolled = state.third.unit if state.third is not None else None
    for lead in groups(setup, state, side):
        markers = status(setup, state, lead).markers
        if markers.activated or state.reactivating not in (None, lead) or rolled not in (None, lead):
            continue
        if third.may_roll(setup, state, lead):
            found.append(ThirdAction(by=side, unit=lead))
        held = markers.stunned or needs_rally(markers, setup.ruleset, RallyKind.ACTIVATION)
        aircraft = setup.unit(lead).base.unit_class is UnitKind.AIRCRAFT
        plans = (
            (_HELD_AIRCRAFT_PLANS if held else _AIRCRAFT_PLANS)
            if aircraft
            else _HELD_PLANS
            if held
            else _PLANS
        )
        commanding = bool(commands.available(setup, state, lead)) and not (aircraft and held)
        if commanding:
            more = _AIRCRAFT_COMMAND_PLANS if aircraft else _HELD_COMMAND_PLANS if held else _COMMAND_PLANS
            plans = (*plans, *more)
        plans = (*plans, *third.plans(setup, state, lead, aircraft=aircraft, held=held, commands=commanding))
        for plan in plans:
            if markers.stunned and set(plan) & {Action.ATTACK, Action.SUSTAINED}:
                continue
            if set(plan) & _MOVES and not criticals.may_move(setup, state, lead):
                continue
            found.append(Activate(by=side, unit=lead, actions=plan))
    if state.reactivating is not None or rolled is not None:
        return found  # the reactivated unit, or the one that rolled for a third action, activates now
    for unit_id in returnable(setup, state, side):
        aircraft = setup.unit(unit_id).base.unit_class is UnitKind.AIRCRAFT
        # A scout that fell before its first activation still marches first for a third action.
        scouting = third.plans(setup, state, unit_id, aircraft=aircraft, held=False, commands=False)
        found += [
            Activate(by=side, unit=unit_id, actions=plan)
            for plan in (*(_AIRCRAFT_PLANS if aircraft else _PLANS), *scouting)
        ]
    own, theirs = left_to_activate(setup, state, side), left_to_activate(setup, state, other(side))
    tokens = setup.ruleset.pass_tokens_rtz and state.side(side).pass_tokens > 0
    if own == 0 or may_pass(own, theirs) or tokens:
        found.append(Pass(by=side))
    return found


def _inside_activation(setup: BattleSetup, state: BattleState) -> list[Step]:
    activation = state.activation
    assert activation is not None
    reaction = activation.reaction
    if reaction is not None:
        attacks = _attacks(setup, state, reaction.side, reaction.unit, reactive=True)
        if reaction.sustained:
            attacks += [_sustained(step) for step in attacks if isinstance(step, Attack)]
        return [*attacks, HoldFire(by=reaction.side)]
    found: list[Step] = []
    if activation.attack_left:
        found += _attacks(setup, state, activation.side, activation.unit, reactive=False)
    found += commands.candidates(setup, state, activation)
    if reaction_window(activation):
        found += _reactions(setup, state, other(activation.side))
    found.append(EndActivation(by=activation.side))
    return found


def _sustained(step: Attack) -> Attack:
    return replace(step, sustained=True)


def _reactions(setup: BattleSetup, state: BattleState, side: str) -> list[Step]:
    found: list[Step] = []
    for lead in groups(setup, state, side):
        unit_profile = combat.profile(setup, state, lead)
        if (
            reactive_refusal(status(setup, state, lead).markers, unit_profile, setup.ruleset, distance=0)
            is None
        ):
            found.append(Reactive(by=side, unit=lead))
    return found


def _attacks(setup: BattleSetup, state: BattleState, side: str, lead: str, *, reactive: bool) -> list[Step]:
    weapons = combat.group_weapons(setup, state, lead)
    markers = status(setup, state, lead).markers
    close_ok = not reactive and restrictions(markers, setup.ruleset).may_close_combat_attack
    activation = state.activation
    sustained = activation is not None and not reactive and activation.sustained
    found: list[Step] = []
    for target in groups(setup, state, other(side)):
        unit = setup.unit(target).base
        for close_combat in (False, True) if close_ok else (False,):
            uses = tuple(
                WeaponUse(index=i, volley=1 if WeaponTrait.VOLLEY in picked.weapon.traits else 0)
                for i, picked in enumerate(weapons)
                if picked.weapon.close_combat == close_combat
                and picked.weapon.count > 0
                and picked.weapon.line.cell(unit.unit_class, unit.armour) is not None
                and _armed(setup, state, picked)
                and picked.index not in criticals.destroyed_lines(setup, state, picked.owner)
            )
            if uses and _acceptable(setup, state, lead, target, uses, sustained):
                found.append(Attack(by=side, unit=lead, target=target, weapons=uses))
    return found


def _armed(setup: BattleSetup, state: BattleState, picked: combat.GroupWeapon) -> bool:
    found = status(setup, state, picked.owner)
    ammo = found.ammo[picked.index]
    if picked.weapon.uses_ammo and not ammo:
        return False
    return found.loaded[picked.index] or not picked.weapon.needs_loading


def _acceptable(
    setup: BattleSetup,
    state: BattleState,
    lead: str,
    target: str,
    uses: tuple[WeaponUse, ...],
    sustained: bool,
) -> bool:
    try:
        request, _ = combat.build_request(
            setup,
            state,
            lead,
            target,
            uses,
            AttackConditions(),
            sustained=sustained,
            sustained_close_combat=False,
        )
        check_request(request, setup.ruleset)
        check_resolve_dice(request)
    except (EngineInputError, StepRefused):
        return False
    return True


def _reserve_placements(setup: BattleSetup, state: BattleState) -> list[Step]:
    found: list[Step] = []
    for unit in setup.units:
        unit_status = status(setup, state, unit.id)
        if not unit_status.eliminated or unit_status.in_reserve or unit_status.eliminated_turn != state.turn:
            continue
        if riders.rides_to_reserve(setup, unit.id) is not None:
            continue
        candidate = ReserveCandidate(unit.id, is_hero=unit.hero, strongpoint_unit=unit.strongpoint_unit)
        if refusal(state.side(unit.side).reserve, candidate) is None:
            found.append(PlaceInReserve(by=unit.side, unit=unit.id))
    return found
