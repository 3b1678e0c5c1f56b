"""Riders: the heroes and commissar joined to a squad, and what the combined unit does with them.

Seed 004, Heroes and Commissar. A squad of infantry carries at most one hero (or a
pair of heroes with the Siblings skill) and at most one commissar, each of its
armour; a hero who is also a commissar (Commissar Poon) rides alone with it
(``setup._check_riders`` refuses the rest). The squad and its riders standing beside
it are one unit: they activate together, count once for the passing rule, and the
squad carries the markers (``state.members``). A unit with a commissar rallies with 3
dice (``combat.profile``).

An attack on the combined unit rolls its hits and saves once (its parts share an
armour); its player then gives each weapon line's unsaved hits to the parts
(``allocate``), and the damage of each hit is rolled on the part it went to. A hit
given to a part already gone lands on the first one still standing (the squad, then
the riders in the setup's order). Once the squad falls, a hero plays on alone and a
commissar falls with it (``combat.eliminate``); placing the squad in reserve takes its
commissar along (one placement), and the two come back together, whole.
"""

from __future__ import annotations

from rules.engine.damage import models_left
from rules.engine.dice import DiceRoller
from rules.engine.plan import AttackPlan, WeaponPlan, build_plan
from rules.engine.requests import AttackRequest
from rules.engine.rolling import Tally, roll_cheat_death, roll_damage, roll_hits, roll_saves
from rules.engine.state import UnitState

from . import combat
from .errors import StepRefused
from .rolls import reword
from .setup import BattleSetup
from .state import BattleState, PendingAllocation, evolve, fresh_status, members, status, with_unit
from .steps import Allocate


def standing(setup: BattleSetup, state: BattleState, lead: str) -> tuple[str, ...]:
    """The heroes and commissar still beside the squad ``lead`` (none for a unit alone or a vehicle)."""
    riders = setup.riders.get(lead)
    if not riders:
        return ()
    return tuple(unit_id for unit_id in members(setup, state, lead)[1:] if unit_id in riders)


def names(setup: BattleSetup, unit_ids: tuple[str, ...]) -> str:
    """ "Rangers, Wren and Jude": the parts of a combined unit in words."""
    words = [setup.unit(unit_id).name for unit_id in unit_ids]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def attack(
    setup: BattleSetup,
    state: BattleState,
    request: AttackRequest,
    chosen: tuple[combat.GroupWeapon, ...],
    attacker: str,
    target: str,
    roller: DiceRoller,
) -> tuple[BattleState, str]:
    """One checked attack: on a combined unit its hits wait for their split, on a unit alone it is whole."""
    riders = standing(setup, state, target)
    if not riders:
        return combat.attack(setup, state, request, chosen, attacker, target, roller)
    state = combat.spend_ammo(setup, state, request, chosen)
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
    reword(roller, start, combat.weapon_names(request))
    if ranged_hit and not plan.suppression_immune:
        state = combat.suppress(setup, state, target, roller, automatic=automatic)
    strike_back = bool(plan.melee)
    total = sum(unsaved for _, unsaved in lines)
    together = f"{setup.unit(target).name} with {names(setup, riders)}"
    text = f"{setup.unit(attacker).name} attacked {together}: {total} unsaved hit{'s' * (total != 1)}"
    if total == 0:
        if strike_back:
            state, told = combat.strike_back(setup, state, request, attacker, target, None, roller)
            return state, f"{text}. {told}".strip()
        return state, text + "."
    pending = PendingAllocation(
        side=setup.unit(target).side,
        squad=target,
        riders=riders,
        attacker=attacker,
        request=request,
        lines=tuple(lines),
        strike_back=strike_back,
    )
    return evolve(state, pending=(*state.pending, pending)), f"{text} for its player to split."


def split_of(setup: BattleSetup, pending: PendingAllocation, step: Allocate) -> tuple[tuple[int, ...], ...]:
    """Each rider's hits per weapon line, as the step gives them (``hero_hits`` is the one rider's row)."""
    rows = step.rider_hits or ((step.hero_hits,) if len(pending.riders) == 1 else ())
    counts = ", ".join(str(unsaved) for _, unsaved in pending.lines)
    riders = names(setup, pending.riders)
    if (step.rider_hits and step.hero_hits) or len(rows) != len(pending.riders):
        raise StepRefused(
            "allocation-invalid",
            f"Give {riders} each a number of hits for each weapon line (unsaved hits: {counts}).",
        )
    for line, (_, unsaved) in enumerate(pending.lines):
        if any(len(row) != len(pending.lines) for row in rows) or sum(row[line] for row in rows) > unsaved:
            raise StepRefused(
                "allocation-invalid",
                f"Give {riders} a number of hits for each weapon line, at most its unsaved hits ({counts}).",
            )
    return rows


def offered(pending: PendingAllocation) -> list[Allocate]:
    """The splits a page offers in one tap: every hit to the squad, or the first k to one rider."""
    total = sum(unsaved for _, unsaved in pending.lines)
    if len(pending.riders) == 1:
        return [Allocate(by=pending.side, hero_hits=_first(k, pending.lines)) for k in range(total + 1)]
    none = tuple(0 for _ in pending.lines)
    found = [Allocate(by=pending.side, rider_hits=tuple(none for _ in pending.riders))]
    for i in range(len(pending.riders)):
        for k in range(1, total + 1):
            rows = tuple(_first(k, pending.lines) if j == i else none for j in range(len(pending.riders)))
            found.append(Allocate(by=pending.side, rider_hits=rows))
    return found


def _first(k: int, lines: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    """``k`` hits, taken from the first lines."""
    given = []
    for _, unsaved in lines:
        take = min(k, unsaved)
        given.append(take)
        k -= take
    return tuple(given)


def allocate(
    setup: BattleSetup,
    state: BattleState,
    pending: PendingAllocation,
    rows: tuple[tuple[int, ...], ...],
    roller: DiceRoller,
) -> tuple[BattleState, str]:
    """Roll each unsaved hit's damage on the part it was given to (each rider's hits first, then the
    squad's); the strike back in close combat comes from the squad's models standing once the ranged
    lines' hits are in."""
    request = pending.request
    parts = (pending.squad, *pending.riders)
    plans: dict[str, AttackPlan] = {pending.squad: build_plan(request, setup.ruleset)}
    for rider in pending.riders:
        target = evolve(
            combat.unit_target(setup, state, rider),
            in_cover=request.target.in_cover,
            in_smoke=request.target.in_smoke,
            in_trench=request.target.in_trench,
            fortification=request.target.fortification,
        )
        plans[rider] = build_plan(evolve(request, target=target), setup.ruleset)
    lines: dict[str, dict[int, WeaponPlan]] = {
        part: {weapon.index: weapon for weapon in plan.weapons} for part, plan in plans.items()
    }
    tallies = {part: Tally(remaining=status(setup, state, part).remaining) for part in parts}
    commissars = {rider for rider in pending.riders if setup.unit(rider).commissar}

    def up(part: str) -> bool:
        # A commissar falls with his squad (seed 004, Commissar: part of the unit).
        squad_up = tallies[pending.squad].remaining > 0
        return tallies[part].remaining > 0 and (squad_up or part not in commissars)

    squad_standing = None
    start = len(roller.log)
    for line, (index, unsaved) in enumerate(pending.lines):
        if lines[pending.squad][index].close_combat and squad_standing is None:
            squad_standing = models_left(tallies[pending.squad].remaining, plans[pending.squad].per_model)
        meant = [rider for row, rider in zip(rows, pending.riders, strict=True) for _ in range(row[line])]
        meant += [pending.squad] * (unsaved - len(meant))
        for part in meant:
            landed = next((found for found in (part, *parts) if up(found)), None)
            if landed is None:
                break
            roll_damage(lines[landed][index], plans[landed], roller, 1, tallies[landed])
    reword(roller, start, combat.weapon_names(request))
    by = setup.unit(pending.attacker).side
    told = []
    for part in (*pending.riders, pending.squad):
        lost = status(setup, state, part).remaining - max(tallies[part].remaining, 0)
        told.append((setup.unit(part).name, lost))
        if part == pending.squad:
            continue
        cheated = roll_cheat_death(plans[part], roller, tallies[part].remaining)
        if cheated:
            state = with_unit(setup, state, part, cheat_death_used=True)
            tallies[part].remaining = 1
            told.append((f"{setup.unit(part).name} cheated death", -1))
        state = combat.hurt(setup, state, part, tallies[part].remaining, stunned=bool(cheated), by=by)
    still = [rider for rider in commissars if not status(setup, state, rider).eliminated]
    state = combat.hurt(setup, state, pending.squad, tallies[pending.squad].remaining, stunned=False, by=by)
    text = _losses(told)
    squad_name = setup.unit(pending.squad).name
    for rider in (rider for rider in pending.riders if rider in still):
        if status(setup, state, rider).eliminated:
            text += f" {setup.unit(rider).name} fell with {squad_name}."
    if pending.strike_back:
        state, back = combat.strike_back(
            setup, state, request, pending.attacker, pending.squad, squad_standing, roller
        )
        text = f"{text} {back}".strip()
    return state, text


def _losses(told: list[tuple[str, int]]) -> str:
    """ "Rangers lost 2 damage points, Rosie 1." with any cheated death after it."""
    lost = [(name, points) for name, points in told if points >= 0]
    squad, points = lost[-1]
    parts = [f"{squad} lost {points} damage point{'s' * (points != 1)}"]
    parts += [f"{name} {points}" for name, points in lost[:-1]]
    text = ", ".join(parts) + "."
    return " ".join([text, *(f"{name}." for name, points in told if points < 0)])


# -- reserves -----------------------------------------------------------------------------------


def rides_to_reserve(setup: BattleSetup, unit_id: str) -> str | None:
    """The squad a joined commissar goes to reserve with (he is never placed on his own)."""
    unit = setup.unit(unit_id)
    return unit.joined_to if unit.commissar else None


def to_reserve(setup: BattleSetup, state: BattleState, squad: str) -> BattleState:
    """Seed 004, Commissar: the squad's commissar goes with it (gone with it, or before it)."""
    for rider in setup.riders.get(squad, ()):
        if setup.unit(rider).commissar and status(setup, state, rider).eliminated:
            state = with_unit(setup, state, rider, in_reserve=True)
    return state


def back_from_reserve(setup: BattleSetup, state: BattleState, squad: str, markers: UnitState) -> BattleState:
    """The squad's commissar comes back with it, whole, having activated with it."""
    for rider in setup.riders.get(squad, ()):
        if status(setup, state, rider).in_reserve:
            fresh = fresh_status(setup.unit(rider))
            state = with_unit(
                setup, state, rider,
                remaining=fresh.remaining, ammo=fresh.ammo, loaded=fresh.loaded, in_reserve=False,
                eliminated=False, critical_hits=frozenset(), markers=evolve(markers, activating=False),
            )  # fmt: skip
    return state
