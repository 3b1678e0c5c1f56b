"""Attacks in a battle: the engine's attack built from the two units' state, and what it does to them.

An attack on a single unit goes through ``resolve_attack_with`` whole (saves,
damage, criticals, Cheat Death, the strike back in close combat), then the
target takes suppression (``suppression.apply_hit``, rolled on the same dice).
An attack on a combined unit (a hero joined to a squad, both standing) stops
after the saves: its player splits the unsaved hits between the hero and the
squad (``allocate``), then the damage of each hit is rolled on the part it went
to. A destroyed vehicle with its pilot aboard leaves a ``PendingEscape``.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.engine.attack import ammo_after, resolve_attack_with
from rules.engine.budget import check_resolve_dice
from rules.engine.closecombat import retaliation_request, surviving_lines
from rules.engine.damage import models_left
from rules.engine.dice import BLOC_OR_TARGET, DiceRoller, Face
from rules.engine.errors import EngineInputError
from rules.engine.plan import build_plan
from rules.engine.requests import AttackRequest, check_request
from rules.engine.results import AttackResult
from rules.engine.rolling import Tally, roll_cheat_death, roll_damage, roll_hits, roll_saves
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
    PendingAllocation,
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
    alone = base.hero and leader(setup, state, unit_id) == unit_id
    return UnitProfile(
        kind=base.unit_class,
        armour=base.armour,
        lone_hero=alone and base.is_infantry,
        suppression_immune=bool(base.skills & SUPPRESSION_IMMUNE),
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


def is_combined(setup: BattleSetup, state: BattleState, lead: str) -> str | None:
    """The joined hero's id when ``lead`` is a squad with its hero still beside it."""
    hero = setup.joined_hero.get(lead)
    return hero if hero is not None and hero in members(setup, state, lead) else None


def attack(
    setup: BattleSetup,
    state: BattleState,
    request: AttackRequest,
    chosen: tuple[GroupWeapon, ...],
    attacker: str,
    target: str,
    roller: DiceRoller,
) -> tuple[BattleState, str]:
    """Roll one checked attack (``check``) and apply it; returns the new state and a sentence."""
    state = spend_ammo(setup, state, request, chosen)
    hero = is_combined(setup, state, target)
    if hero is not None:
        return _attack_combined(setup, state, request, attacker, target, hero, roller)
    start = len(roller.log)
    result = resolve_attack_with(request=request, ruleset=setup.ruleset, roller=roller)
    back = result.retaliation
    if back is not None:
        names = {outcome.index: outcome.name for outcome in back.weapons}
        reword(roller, start, names, "strike back: ", only={id(record) for record in back.log})
    reword(roller, start, _names(request))
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
    """The unit leaves the table: its AP score for ``by``; a joined hero goes on alone; a pilot must get out."""
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
    hero = setup.joined_hero.get(unit_id)
    if hero is not None and hero in riders:
        # Seed 004, Heroes: once its squad is gone the hero plays on its own, as activated as the squad was.
        hero_status = status(setup, state, hero)
        markers = evolve(hero_status.markers, activated=found.markers.activated)
        state = with_unit(setup, state, hero, detached=True, markers=markers)
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


# -- combined units: the hits are split by their player --------------------------------------


def _attack_combined(
    setup: BattleSetup,
    state: BattleState,
    request: AttackRequest,
    attacker: str,
    squad: str,
    hero: str,
    roller: DiceRoller,
) -> tuple[BattleState, str]:
    plan = build_plan(request, setup.ruleset)
    lines: list[tuple[int, int]] = []
    ranged_hit = automatic = False
    start = len(roller.log)
    for weapon in plan.weapons:
        hits = roll_hits(weapon, roller)
        unsaved = roll_saves(weapon, roller, hits)
        lines.append((weapon.index, unsaved))
        if hits and not weapon.close_combat:
            ranged_hit = True
            automatic = automatic or weapon.suppresses
    reword(roller, start, _names(request))
    if ranged_hit and not plan.suppression_immune:
        state = suppress(setup, state, squad, roller, automatic=automatic)
    strike_back = bool(plan.melee)
    total = sum(unsaved for _, unsaved in lines)
    names = f"{setup.unit(squad).name} with {setup.unit(hero).name}"
    text = f"{setup.unit(attacker).name} attacked {names}: {total} unsaved hit{'s' * (total != 1)}"
    if total == 0:
        if strike_back:
            state, told = _strike_back(setup, state, request, attacker, squad, None, roller)
            return state, f"{text}. {told}".strip()
        return state, text + "."
    pending = PendingAllocation(
        side=setup.unit(squad).side,
        squad=squad,
        hero=hero,
        attacker=attacker,
        request=request,
        lines=tuple(lines),
        strike_back=strike_back,
    )
    return evolve(state, pending=(*state.pending, pending)), f"{text} for its player to split."


def allocate(
    setup: BattleSetup,
    state: BattleState,
    pending: PendingAllocation,
    hero_hits: tuple[int, ...],
    roller: DiceRoller,
) -> tuple[BattleState, str]:
    """Roll each unsaved hit's damage on the part it was given to.

    Hits given to a part already gone land on the other one (a hit always finds a
    miniature still standing); the strike back in close combat comes from the
    squad's models standing once the ranged lines' hits are in.
    """
    if len(hero_hits) != len(pending.lines) or any(
        given > unsaved for given, (_, unsaved) in zip(hero_hits, pending.lines, strict=False)
    ):
        counts = ", ".join(str(unsaved) for _, unsaved in pending.lines)
        raise StepRefused(
            "allocation-invalid",
            f"Give the hero a number of hits for each weapon line, at most its unsaved hits ({counts}).",
        )
    request = pending.request
    hero_target = evolve(
        unit_target(setup, state, pending.hero),
        in_cover=request.target.in_cover,
        in_smoke=request.target.in_smoke,
        in_trench=request.target.in_trench,
        fortification=request.target.fortification,
    )
    squad_plan = build_plan(request, setup.ruleset)
    hero_plan = build_plan(evolve(request, target=hero_target), setup.ruleset)
    squad_lines = {weapon.index: weapon for weapon in squad_plan.weapons}
    hero_lines = {weapon.index: weapon for weapon in hero_plan.weapons}
    squad_tally = Tally(remaining=status(setup, state, pending.squad).remaining)
    hero_tally = Tally(remaining=status(setup, state, pending.hero).remaining)
    standing = None
    start = len(roller.log)
    for given, (index, unsaved) in zip(hero_hits, pending.lines, strict=True):
        if squad_lines[index].close_combat and standing is None:
            standing = models_left(squad_tally.remaining, squad_plan.per_model)
        for hit in range(unsaved):
            to_hero = (hit < given and hero_tally.remaining > 0) or squad_tally.remaining <= 0
            if to_hero and hero_tally.remaining <= 0:
                break
            if to_hero:
                roll_damage(hero_lines[index], hero_plan, roller, 1, hero_tally)
            else:
                roll_damage(squad_lines[index], squad_plan, roller, 1, squad_tally)
    reword(roller, start, _names(request))
    cheated = roll_cheat_death(hero_plan, roller, hero_tally.remaining)
    by = setup.unit(pending.attacker).side
    squad_name, hero_name = setup.unit(pending.squad).name, setup.unit(pending.hero).name
    squad_lost = status(setup, state, pending.squad).remaining - max(squad_tally.remaining, 0)
    hero_lost = status(setup, state, pending.hero).remaining - max(hero_tally.remaining, 0)
    state = hurt(setup, state, pending.squad, squad_tally.remaining, stunned=False, by=by)
    if cheated:
        state = with_unit(setup, state, pending.hero, cheat_death_used=True)
        hero_tally.remaining = 1
    state = hurt(setup, state, pending.hero, hero_tally.remaining, stunned=bool(cheated), by=by)
    text = f"{squad_name} lost {squad_lost} damage point{'s' * (squad_lost != 1)}, {hero_name} {hero_lost}."
    if cheated:
        text += f" {hero_name} cheated death."
    if pending.strike_back:
        state, told = _strike_back(setup, state, request, pending.attacker, pending.squad, standing, roller)
        text = f"{text} {told}".strip()
    return state, text


def _strike_back(
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
    reword(roller, start, _names(back), "strike back: ")
    state = take(setup, state, attacker, result, roller, by=setup.unit(squad).side)
    return state, _told(setup, squad, attacker, result, "strike back")


def _names(request: AttackRequest) -> dict[int, str]:
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
