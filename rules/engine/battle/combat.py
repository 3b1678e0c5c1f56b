"""Attacks in a battle: the engine's attack built from the two units' state, and what it does to them.

An attack on a single unit goes through ``resolve_attack_with`` whole (saves,
damage, criticals, Cheat Death, the strike back in close combat), then the
target takes suppression (``suppression.apply_hit``, rolled on the same dice).
An attack on a combined unit (a squad with a hero or commissar standing beside it)
is ``riders.py``'s: its player splits the unsaved hits among the parts. A destroyed
vehicle with its pilot aboard leaves a ``PendingEscape``.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.engine.attack import ammo_after, resolve_attack_with
from rules.engine.budget import check_resolve_dice
from rules.engine.closecombat import retaliation_request, surviving_lines
from rules.engine.damage import models_left
from rules.engine.dice import BLOC_OR_TARGET, DiceRoller, Face
from rules.engine.errors import EngineInputError
from rules.engine.requests import AttackRequest, check_request
from rules.engine.results import AttackResult
from rules.engine.ruleset import RuleSet
from rules.engine.state import UnitKind, UnitProfile, stun
from rules.engine.suppression import apply_hit
from rules.engine.targets import (
    SUPPRESSION_IMMUNE,
    AircraftMove,
    Conditions,
    CriticalHit,
    Fortification,
    Height,
    Target,
)
from rules.engine.weapons import Weapon

from . import criticals
from .errors import StepRefused
from .rolls import reword
from .setup import BattleSetup, other
from .state import (
    BattleState,
    PendingEscape,
    evolve,
    leader,
    members,
    status,
    with_side,
    with_unit,
)
from .steps import AttackConditions, WeaponUse

# Seed 004, Piloting vehicles: the glyphs were lost. Our reading: the pilot always gets out;
# on [BLOC] or [TARGET] unharmed, on [SHIELD] with 1 point of damage (which may finish them).
ESCAPE_UNHARMED = BLOC_OR_TARGET
ESCAPE_DAMAGE = 1
COMMISSAR_RALLY_DICE = 3


@dataclass(frozen=True)
class GroupWeapon:
    owner: str  # the unit whose card lists it (the squad, or its joined hero)
    index: int  # in that unit's weapons
    weapon: Weapon


def group_weapons(setup: BattleSetup, state: BattleState, lead: str) -> tuple[GroupWeapon, ...]:
    """The weapons a group fires: its leader's, then a joined hero's (a pilot's stay holstered)."""
    found: list[GroupWeapon] = []
    for unit_id in members(setup, state, lead):
        unit = setup.unit(unit_id)
        if unit.pilot_of:
            continue
        standing = models_left(status(setup, state, unit_id).remaining, unit.base.damage_per_model)
        lines = surviving_lines(unit.weapons, unit.base, standing)
        found.extend(GroupWeapon(unit_id, i, weapon) for i, weapon in enumerate(lines))
    return tuple(found)


def profile(setup: BattleSetup, state: BattleState, unit_id: str) -> UnitProfile:
    base = setup.unit(unit_id).base
    lead = leader(setup, state, unit_id)
    alone = base.hero and lead == unit_id
    # Seed 004, Commissar: a unit with a commissar rolls 3 dice instead of 2 to shed its markers.
    commissar = setup.unit(lead).commissar or (
        lead in setup.riders and any(setup.unit(rider).commissar for rider in members(setup, state, lead)[1:])
    )
    return UnitProfile(
        kind=base.unit_class,
        armour=base.armour,
        lone_hero=alone and base.is_infantry,
        suppression_immune=bool(base.skills & SUPPRESSION_IMMUNE),
        rally_dice=COMMISSAR_RALLY_DICE if commissar else UnitProfile.rally_dice,
    )


def unit_target(
    setup: BattleSetup, state: BattleState, unit_id: str, conditions: AttackConditions | None = None
) -> Target:
    """The unit as the engine sees it now: models standing, damage on the current one, markers."""
    unit, found = setup.unit(unit_id), status(setup, state, unit_id)
    per_model = unit.base.damage_per_model
    standing = max(1, models_left(found.remaining, per_model))
    target = evolve(
        unit.base,
        models=standing,
        damage_taken=standing * per_model - max(found.remaining, 1),
        stunned=found.markers.stunned,
        cheat_death_used=found.cheat_death_used,
        critical_hits=found.critical_hits,
    )
    if conditions is None:
        return target
    fortification = conditions.fortification or unit.fortification.value
    return evolve(
        target,
        in_cover=conditions.cover,
        in_smoke=conditions.smoke,
        in_trench=conditions.trench,
        fortification=Fortification(fortification) if target.is_infantry else Fortification.NONE,
        aircraft_move=AircraftMove(conditions.aircraft_move),
    )


def build_request(
    setup: BattleSetup,
    state: BattleState,
    lead: str,
    target_id: str,
    uses: tuple[WeaponUse, ...],
    conditions: AttackConditions,
    *,
    sustained: bool,
    sustained_close_combat: bool,
) -> tuple[AttackRequest, tuple[GroupWeapon, ...]]:
    available = group_weapons(setup, state, lead)
    chosen: list[GroupWeapon] = []
    weapons: list[Weapon] = []
    for use in uses:
        if use.index >= len(available):
            name = setup.unit(lead).name
            raise StepRefused("weapon-unknown", f"{name} have no weapon number {use.index + 1}.")
        picked = available[use.index]
        if picked in chosen:
            raise StepRefused("weapon-repeated", f"{picked.weapon.name} is named twice in one attack.")
        criticals.check_weapon(setup, state, picked.owner, picked.index, picked.weapon.name)
        found = status(setup, state, picked.owner)
        weapons.append(
            evolve(
                picked.weapon,
                count=picked.weapon.count if use.count is None else use.count,
                ammo=found.ammo[picked.index],
                loaded=found.loaded[picked.index],
                fire_salvo=use.fire_salvo,
                volley=use.volley,
            )
        )
        chosen.append(picked)
    request = AttackRequest(
        weapons=tuple(weapons),
        target=unit_target(setup, state, target_id, conditions),
        attacker=unit_target(setup, state, lead),
        sustained=sustained,
        sustained_close_combat=sustained_close_combat,
        conditions=Conditions(height=Height(conditions.height), distance=conditions.distance),
    )
    return request, tuple(chosen)


def check(request: AttackRequest, ruleset: RuleSet) -> None:
    """What the attack engine refuses, as the battle's refusal (its reason in the sentence)."""
    try:
        check_request(request, ruleset)
        check_resolve_dice(request)
    except EngineInputError as error:
        raise StepRefused("attack-invalid", f"This attack cannot be made: {error.message}.") from None


def attack(
    setup: BattleSetup,
    state: BattleState,
    request: AttackRequest,
    chosen: tuple[GroupWeapon, ...],
    attacker: str,
    target: str,
    roller: DiceRoller,
) -> tuple[BattleState, str]:
    """Roll one checked attack (``check``) on a unit alone and apply it; returns the new state and a sentence."""
    state = spend_ammo(setup, state, request, chosen)
    start = len(roller.log)
    result = resolve_attack_with(request=request, ruleset=setup.ruleset, roller=roller)
    back = result.retaliation
    if back is not None:
        names = {outcome.index: outcome.name for outcome in back.weapons}
        reword(roller, start, names, "strike back: ", only={id(record) for record in back.log})
    reword(roller, start, weapon_names(request))
    state = take(setup, state, target, result, roller, by=setup.unit(attacker).side)
    text = _told(setup, attacker, target, result)
    if result.retaliation is not None:
        state = take(setup, state, attacker, result.retaliation, roller, by=setup.unit(target).side)
        text += " " + _told(setup, target, attacker, result.retaliation, "strike back")
    return state, text


def spend_ammo(
    setup: BattleSetup, state: BattleState, request: AttackRequest, chosen: tuple[GroupWeapon, ...]
) -> BattleState:
    for i, (weapon, picked) in enumerate(zip(request.weapons, chosen, strict=True)):
        after = ammo_after(i, weapon)
        found = status(setup, state, picked.owner)
        ammo, loaded = list(found.ammo), list(found.loaded)
        ammo[picked.index] = after.ammo
        if after.loaded is not None:
            loaded[picked.index] = after.loaded
        state = with_unit(setup, state, picked.owner, ammo=tuple(ammo), loaded=tuple(loaded))
    return state


def take(
    setup: BattleSetup, state: BattleState, unit_id: str, result: AttackResult, roller: DiceRoller, *, by: str
) -> BattleState:
    """What a resolved attack did to ``unit_id``: damage, markers, and the suppression roll."""
    per_model = setup.unit(unit_id).base.damage_per_model
    remaining = 0 if result.destroyed else result.models_left * per_model - result.damage_taken
    state = hurt(setup, state, unit_id, remaining, stunned=result.stunned, by=by)
    found = status(setup, state, unit_id)
    changes: dict[str, object] = {}
    if result.cheat_death:
        changes["cheat_death_used"] = True
    if result.critical_hit is not None:
        changes["critical_hits"] = found.critical_hits | {result.critical_hit}
    if changes:
        state = with_unit(setup, state, unit_id, **changes)
    if result.critical_hit is CriticalHit.IMMOBILIZED and is_aircraft(setup, unit_id):
        state = eliminate(setup, state, unit_id, by=by)  # seed 004: an immobilised aircraft is destroyed
    effect = result.suppression
    if status(setup, state, unit_id).in_play and effect.hit and not effect.immune:
        state = suppress(setup, state, unit_id, roller, automatic=effect.automatic)
    return state


def suppress(
    setup: BattleSetup, state: BattleState, unit_id: str, roller: DiceRoller, *, automatic: bool
) -> BattleState:
    lead = leader(setup, state, unit_id)
    found = status(setup, state, lead)
    outcome = apply_hit(
        found.markers, profile(setup, state, lead), setup.ruleset, roller, automatic=automatic
    )
    return with_unit(setup, state, lead, markers=outcome.state)


def hurt(
    setup: BattleSetup, state: BattleState, unit_id: str, remaining: int, *, stunned: bool, by: str
) -> BattleState:
    found = status(setup, state, unit_id)
    if remaining <= 0:
        return eliminate(setup, state, unit_id, by=by)
    markers = stun(found.markers) if stunned else found.markers
    return with_unit(setup, state, unit_id, remaining=remaining, markers=markers)


def eliminate(setup: BattleSetup, state: BattleState, unit_id: str, *, by: str) -> BattleState:
    """The unit leaves the table: its AP score for ``by``; a joined hero goes on alone, a commissar falls with
    its squad (seed 004, Commissar: part of the unit for the rest of the game); a pilot must get out."""
    unit, found = setup.unit(unit_id), status(setup, state, unit_id)
    if found.eliminated:
        return state
    riders = members(setup, state, unit_id)
    state = with_unit(
        setup,
        state,
        unit_id,
        remaining=0,
        eliminated=True,
        eliminated_turn=state.turn,
        losses=found.losses + 1,
        markers=evolve(found.markers, activating=False, pending=()),
    )
    scored = (*state.side(by).eliminated_enemy_ap, unit.ap)
    state = with_side(state, by, eliminated_enemy_ap=scored)
    for rider in setup.riders.get(unit_id, ()):
        if rider not in riders:
            continue
        if setup.unit(rider).commissar:
            state = eliminate(setup, state, rider, by=by)
            continue
        # Seed 004, Heroes: once its squad is gone the hero plays on its own, as activated as the squad was.
        hero_status = status(setup, state, rider)
        markers = evolve(hero_status.markers, activated=found.markers.activated)
        state = with_unit(setup, state, rider, detached=True, markers=markers)
    pilot = setup.pilot.get(unit_id)
    if pilot is not None and pilot in riders:
        state = evolve(state, pending=(*state.pending, PendingEscape(unit.side, pilot, unit_id)))
    return state


def escape(
    setup: BattleSetup, state: BattleState, pending: PendingEscape, roller: DiceRoller, *, blocked: bool
) -> tuple[BattleState, str]:
    """Seed 004, Piloting vehicles: the pilot of a destroyed vehicle rolls one die to get out."""
    pilot = setup.unit(pending.pilot)
    found = status(setup, state, pending.pilot)
    markers = evolve(found.markers, activated=True, activating=False)
    state = with_unit(setup, state, pending.pilot, detached=True, markers=markers)
    if blocked:
        state = eliminate(setup, state, pending.pilot, by=other(pending.side))
        return state, f"{pilot.name} found no free square beside the wreck and is lost."
    (face,) = roller.roll(1, "pilot escape", ESCAPE_UNHARMED)
    if face in ESCAPE_UNHARMED:
        return state, f"{pilot.name} escaped the wreck unharmed."
    state = hurt(
        setup, state, pending.pilot, found.remaining - ESCAPE_DAMAGE, stunned=False, by=other(pending.side)
    )
    if status(setup, state, pending.pilot).eliminated:
        return state, f"{pilot.name} was killed getting out of the wreck."
    return state, f"{pilot.name} escaped the wreck with {ESCAPE_DAMAGE} point of damage."


def strike_back(
    setup: BattleSetup,
    state: BattleState,
    request: AttackRequest,
    attacker: str,
    squad: str,
    standing: int | None,
    roller: DiceRoller,
) -> tuple[BattleState, str]:
    found = status(setup, state, squad)
    if standing is None:
        standing = models_left(found.remaining, setup.unit(squad).base.damage_per_model)
    back = retaliation_request(
        evolve(request, target=evolve(request.target, stunned=found.markers.stunned)), standing
    )
    if back is None:
        return state, ""
    # The strike back is never struck back at: the engine resolves it without an attacker block.
    start = len(roller.log)
    result = resolve_attack_with(request=evolve(back, attacker=None), ruleset=setup.ruleset, roller=roller)
    reword(roller, start, weapon_names(back), "strike back: ")
    state = take(setup, state, attacker, result, roller, by=setup.unit(squad).side)
    return state, _told(setup, squad, attacker, result, "strike back")


def weapon_names(request: AttackRequest) -> dict[int, str]:
    return {i: weapon.name for i, weapon in enumerate(request.weapons)}


def _told(setup: BattleSetup, attacker: str, target: str, result: AttackResult, what: str = "attack") -> str:
    name, victim = setup.unit(attacker).name, setup.unit(target).name
    if result.destroyed:
        outcome = f"{victim} {'were' if _plural(victim) else 'was'} eliminated"
    elif result.damage_removed:
        outcome = f"{victim} lost {result.damage_removed} damage point{'s' * (result.damage_removed != 1)}"
    else:
        outcome = f"{victim} took no damage"
    owner = f"{name}'" if _plural(name) else f"{name}'s"
    hits = f"{result.hits} hit{'s' * (result.hits != 1)}"
    told = f"{owner} {what}: {hits}, {result.unsaved} unsaved; {outcome}."
    if result.critical_hit is not None:
        told += f" Critical hit on {victim}: {criticals.WORDS[result.critical_hit]}."
    return told


def _plural(name: str) -> bool:
    return name.endswith("s")


def is_aircraft(setup: BattleSetup, unit_id: str) -> bool:
    return setup.unit(unit_id).base.unit_class is UnitKind.AIRCRAFT


UNHARMED_FACES: frozenset[Face] = ESCAPE_UNHARMED
