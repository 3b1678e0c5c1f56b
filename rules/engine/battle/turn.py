"""The steps of the turn itself: initiative, who goes first, activations, passing, the end of a turn.

Seed 004 ("Game turn"), with seed 002's RtZ initiative and pass tokens when the
rule set has them: each turn starts with an initiative roll whose winner chooses
who activates first; players alternate activations, and one may pass only with
fewer units left to activate than the opponent (under RtZ a pass token also lets
them); at the end of the turn the victory conditions are checked.
"""

from __future__ import annotations

from rules.engine.dice import BLOC_ONLY, DiceRoller, DieRecord, Face
from rules.engine.initiative import (
    FIRST_RTZ_ROLLING_TURN,
    InitiativeSide,
    decide,
    initiative_dice,
    may_pass,
    roll_initiative,
)
from rules.engine.reserves import enter_from_reserve
from rules.engine.state import UnitKind, new_turn
from rules.engine.suppression import start_activation
from rules.engine.victory import SideReport, judge_battle

from . import combat, criticals, riders, third
from .errors import StepRefused
from .flow import (
    be,
    close,
    have,
    in_play,
    need_phase,
    open_activation,
    own_unit,
    reaction_waiting,
    their,
    their_turn,
)
from .setup import SIDES, BattleSetup, other
from .state import (
    Activation,
    BattleState,
    Ending,
    Phase,
    evolve,
    fresh_status,
    leader,
    left_to_activate,
    members,
    status,
    units_in_play,
    with_side,
    with_unit,
)
from .steps import ACTION_COST, Action, Activate, ChooseFirst, Initiative, MissionScore, Step

_MOVES = {Action.MOVE, Action.MARCH}
_DECIDED = {
    "bloc": "more bloc faces",
    "tiebreak_face": "as many bloc faces, more target faces",
    "attacker": "a tie, which the attacker wins",
}
_ATTACKS = {Action.ATTACK, Action.SUSTAINED}


# -- the turn ---------------------------------------------------------------------------------


def initiative(
    setup: BattleSetup, state: BattleState, step: Step, roller: DiceRoller
) -> tuple[BattleState, str]:
    assert isinstance(step, Initiative)
    need_phase(state, Phase.INITIATIVE, "It is not time to roll for initiative.")
    sides = [
        InitiativeSide(side, units_in_play(setup, state, side), setup.side(side).initiative_dice)
        for side in SIDES
    ]
    entered = (step.attacker_faces, step.defender_faces)
    if step.seed is not None and any(faces is not None for faces in entered):
        raise StepRefused(
            "dice-both", "Give either a seed for the site's dice or the faces rolled, not both."
        )
    if step.seed is not None:
        result = roll_initiative(sides, setup.ruleset, roller, turn=state.turn, attacker=SIDES[0])
        # The engine tags each side's dice by the side's key; the log names the player.
        for i, record in enumerate(roller.log):
            side = record.purpose.removeprefix("initiative: ")
            roller.log[i] = evolve(record, purpose=f"initiative: {setup.side(side).player}")
        winner, how = result.winner, result.decided_by.value
    else:
        faces = _entered_initiative(setup, state, sides, step, roller)
        decided = decide(faces, setup.ruleset, SIDES[0])
        if decided is None:
            return state, "The initiative roll is tied: roll again."
        winner, how = decided[0], decided[1].value
    player = setup.side(winner).player
    state = evolve(state, phase=Phase.CHOOSE_FIRST, initiative=winner)
    return state, f"{player} won the initiative for turn {state.turn}: {_DECIDED[how]}."


def _entered_initiative(
    setup: BattleSetup, state: BattleState, sides: list[InitiativeSide], step: Initiative, roller: DiceRoller
) -> dict[str, tuple[Face, ...]]:
    dice = initiative_dice(sides, setup.ruleset)
    faces = {SIDES[0]: step.attacker_faces, SIDES[1]: step.defender_faces}
    for side, shown in faces.items():
        player = setup.side(side).player
        if shown is None:
            raise StepRefused("dice-missing", f"Enter the faces {player} rolled, or let the site roll.")
        if len(shown) != dice[side]:
            code = "dice-too-few" if len(shown) < dice[side] else "dice-too-many"
            raise StepRefused(code, f"{player} rolls {dice[side]} dice for initiative, not {len(shown)}.")
        roller.log.extend(DieRecord(f"initiative: {player}", face, face in BLOC_ONLY) for face in shown)
    return {side: tuple(shown or ()) for side, shown in faces.items()}


def choose_first(
    setup: BattleSetup, state: BattleState, step: Step, roller: DiceRoller
) -> tuple[BattleState, str]:
    assert isinstance(step, ChooseFirst)
    need_phase(state, Phase.CHOOSE_FIRST, "Nobody is choosing who activates first now.")
    if step.by != state.initiative:
        winner = setup.side(state.initiative or SIDES[0]).player
        raise StepRefused("not-initiative-winner", f"{winner} won the initiative and chooses who goes first.")
    state = evolve(state, phase=Phase.ACTIVATIONS, first=step.first, to_act=step.first)
    return state, f"{setup.side(step.first).player} activates first."


def pass_(setup: BattleSetup, state: BattleState, step: Step, roller: DiceRoller) -> tuple[BattleState, str]:
    their_turn(setup, state, step.by)
    own, theirs = left_to_activate(setup, state, step.by), left_to_activate(setup, state, other(step.by))
    player = setup.side(step.by).player
    if own == 0:
        state = with_side(state, step.by, done=True)
        text = f"{player} passed and brings no unit back from reserve this turn."
    elif may_pass(own, theirs):
        text = f"{player} passed ({own} unit{'s' * (own != 1)} left against {theirs})."
    elif setup.ruleset.pass_tokens_rtz and state.side(step.by).pass_tokens > 0:
        state = with_side(state, step.by, pass_tokens=state.side(step.by).pass_tokens - 1)
        text = f"{player} spent a pass token to pass."
    else:
        raise StepRefused(
            "pass-not-allowed",
            f"{player} may pass only with fewer units left to activate ({own}) than "
            f"{setup.side(other(step.by)).player} ({theirs}).",
        )
    return evolve(state, to_act=other(step.by)), text


def end_turn(
    setup: BattleSetup, state: BattleState, step: Step, roller: DiceRoller
) -> tuple[BattleState, str]:
    if state.phase is not Phase.TURN_OVER:
        raise StepRefused("turn-not-over", "The turn is not over: units are still to activate.")
    reports = [
        SideReport(
            name=side,
            units_in_play=units_in_play(setup, state, side),
            objective_completed=state.side(side).objective,
            eliminated_enemy_ap=state.side(side).eliminated_enemy_ap,
            scenario_vp=state.side(side).scenario_vp,
        )
        for side in SIDES
    ]
    verdict = judge_battle(reports[0], reports[1], turn=state.turn, turn_limit=setup.mission.turn_limit)
    if verdict.ended:
        assert verdict.decided_by is not None
        ending = Ending(
            reasons=tuple(reason.value for reason in verdict.end_reasons),
            winner=verdict.winner,
            draw=verdict.draw,
            decided_by=verdict.decided_by.value,
        )
        won = "a draw" if verdict.winner is None else f"{setup.side(verdict.winner).player} won"
        return evolve(state, phase=Phase.ENDED, ending=ending, to_act=None), f"The battle ended: {won}."
    turn = state.turn + 1
    units = tuple(evolve(found, markers=new_turn(found.markers)) for found in state.units)
    sides = tuple(evolve(side, done=False) for side in state.sides)
    state = evolve(state, units=units, sides=(sides[0], sides[1]), turn=turn, to_act=None, initiative=None)
    if setup.ruleset.initiative_rtz and turn < FIRST_RTZ_ROLLING_TURN:
        # Seed 002, Initiative: the order of turn 1 is kept for turn 2.
        return evolve(
            state, phase=Phase.ACTIVATIONS, to_act=state.first
        ), f"Turn {turn} keeps turn 1's order."
    return evolve(state, phase=Phase.INITIATIVE, first=None), f"Turn {turn} begins."


def concede(
    setup: BattleSetup, state: BattleState, step: Step, roller: DiceRoller
) -> tuple[BattleState, str]:
    winner = other(step.by)
    ending = Ending(
        reasons=("concession",), winner=winner, draw=False, decided_by="concession", conceded_by=step.by
    )
    state = evolve(state, phase=Phase.ENDED, ending=ending, to_act=None, activation=None, pending=())
    return state, f"{setup.side(step.by).player} conceded."


def mission(
    setup: BattleSetup, state: BattleState, step: Step, roller: DiceRoller
) -> tuple[BattleState, str]:
    assert isinstance(step, MissionScore)
    state = with_side(state, step.by, objective=step.objective, scenario_vp=step.scenario_vp)
    done = "completed the objective" if step.objective else "has not completed the objective"
    return state, f"{setup.side(step.by).player} {done} and scores {step.scenario_vp} scenario VP."


# -- activations ------------------------------------------------------------------------------


def activate(
    setup: BattleSetup, state: BattleState, step: Step, roller: DiceRoller
) -> tuple[BattleState, str]:
    assert isinstance(step, Activate)
    their_turn(setup, state, step.by)
    unit = own_unit(setup, step.unit, step.by)
    _check_actions(setup, state, step)
    found = status(setup, state, step.unit)
    returning = found.in_reserve
    if returning:
        squad = riders.rides_to_reserve(setup, step.unit)
        if squad is not None:
            raise StepRefused(
                "reserve-with-squad",
                f"{unit.name} comes back from reserve with {setup.unit(squad).name}, never on {their(unit.name)} own.",
                "unit",
            )
        if found.eliminated_turn >= state.turn:
            raise StepRefused(
                "reserve-too-early",
                f"{unit.name} left the table this turn and may come back from the next one.",
            )
        ledger, back = enter_from_reserve(state.side(step.by).reserve, step.unit, turn=state.turn)
        state = with_side(state, step.by, reserve=ledger)
        state = with_unit(setup, state, step.unit, **_whole(setup, step.unit), markers=back.state)
        state = riders.back_from_reserve(setup, state, step.unit, back.state)
        lead = step.unit
    else:
        in_play(setup, state, step.unit)
        lead = leader(setup, state, step.unit)
        criticals.check_moves(setup, state, lead, step.actions)
        lead_status = status(setup, state, lead)
        if lead_status.markers.activated:
            name = setup.unit(lead).name
            raise StepRefused("unit-already-activated", f"{name} {have(name)} already activated this turn.")
        start = start_activation(
            lead_status.markers, combat.profile(setup, state, lead), setup.ruleset, roller
        )
        limits = start.restrictions
        name = setup.unit(lead).name
        if limits.first_action_nothing and step.actions[0] is not Action.NOTHING:
            raise StepRefused(
                "first-action-nothing",
                f"{name} {be(name)} suppressed or stunned: the first action is nothing.",
            )
        if not limits.may_attack and set(step.actions) & _ATTACKS:
            raise StepRefused("stunned-cannot-attack", f"{name} {be(name)} stunned and cannot attack.")
        state = with_unit(setup, state, lead, markers=start.state)
        for rider in members(setup, state, lead)[1:]:
            rider_markers = evolve(status(setup, state, rider).markers, activated=True)
            state = with_unit(setup, state, rider, markers=rider_markers)
    name = setup.unit(lead).name
    first_doing = next((action for action in step.actions if action is not Action.NOTHING), None)
    if setup.unit(lead).base.unit_class is UnitKind.AIRCRAFT and first_doing not in _MOVES:
        raise StepRefused("aircraft-must-move", f"{name} must move or march as its first action.")
    attack = next((action for action in step.actions if action in _ATTACKS), None)
    activation = Activation(
        side=step.by,
        unit=lead,
        actions=tuple(action.value for action in step.actions),
        attack_left=attack is not None,
        sustained=attack is Action.SUSTAINED,
        trigger=bool(set(step.actions) & _MOVES),
    )
    declared = ", ".join(action.value for action in step.actions)
    came = " came back from reserve and" if returning else ""
    state, burned = _burn(setup, evolve(state, activation=activation), lead)
    return state, f"{name}{came} activated: {declared}.{burned}"


def _burn(setup: BattleSetup, state: BattleState, lead: str) -> tuple[BattleState, str]:
    """Seed 004, Critical hits, on fire: the vehicle loses a damage point each time it activates
    (no die, no Damage Resilient); burned out, its activation ends at once."""
    if not criticals.on_fire(setup, state, lead):
        return state, ""
    unit = setup.unit(lead)
    left = status(setup, state, lead).remaining - criticals.ON_FIRE_DAMAGE
    state = combat.hurt(setup, state, lead, left, stunned=False, by=other(unit.side))
    if status(setup, state, lead).eliminated:
        return state, f" {unit.name} burned out: eliminated by the fire."
    return state, f" {unit.name} {be(unit.name)} on fire and lost {criticals.ON_FIRE_DAMAGE} damage point."


def _whole(setup: BattleSetup, unit_id: str) -> dict[str, object]:
    fresh = fresh_status(setup.unit(unit_id))
    return {
        "remaining": fresh.remaining,
        "ammo": fresh.ammo,
        "loaded": fresh.loaded,
        "in_reserve": False,
        "eliminated": False,
        "critical_hits": frozenset(),
    }


def _check_actions(setup: BattleSetup, state: BattleState, step: Activate) -> None:
    name = setup.unit(step.unit).name
    actions = step.actions
    moves, attacks = [a for a in actions if a in _MOVES], [a for a in actions if a in _ATTACKS]
    cost = sum(ACTION_COST.get(action, 1) for action in actions)
    # Seed 004, Activations: two actions, three with a skill's third action (third.py).
    most = third.allowance(setup, state, leader(setup, state, step.unit), actions)
    if not actions or cost > most or len(moves) > 1 or len(attacks) > 1:
        count = "three actions this activation" if most == third.THREE else "two actions"
        raise StepRefused(
            "actions-invalid",
            f"{name} take {count}: at most one move (two make a march) and one attack "
            "(a sustained attack takes two actions).",
        )


def end_activation(
    setup: BattleSetup, state: BattleState, step: Step, roller: DiceRoller
) -> tuple[BattleState, str]:
    activation = open_activation(setup, state, step.by)
    if activation.reaction is not None:
        raise StepRefused("reaction-waiting", reaction_waiting(setup, activation.reaction))
    name = setup.unit(activation.unit).name
    return close(setup, state), f"{name} ended {their(name)} activation."
