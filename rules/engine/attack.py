"""Resolving one attack with real (seeded) dice.

``resolve_attack`` checks the request (its dice bounded by ``budget``, so the
log of every die stays small), compiles it (``plan``), rolls it
(``rolling``), lets the target strike back when close combat is involved
(``closecombat``) and reports everything in an ``AttackResult``, down to every
die in order. The seed is part of the result: resolving the same request with
the same rule set and seed gives the same result and the same log.
"""

from __future__ import annotations

from rules.engine.budget import check_resolve_dice
from rules.engine.closecombat import StrikeOrder, melee_after_losses, retaliation_request, strike_order
from rules.engine.damage import models_left
from rules.engine.dice import DiceRoller
from rules.engine.plan import AttackPlan, build_plan
from rules.engine.requests import AttackRequest, check_request
from rules.engine.results import AmmoState, AttackResult, SuppressionEffect
from rules.engine.rolling import Tally, roll_cheat_death, roll_critical, roll_weapons
from rules.engine.ruleset import RuleSet
from rules.engine.weapons import Weapon, WeaponTrait


def resolve_attack(*, request: AttackRequest, ruleset: RuleSet, seed: int | None) -> AttackResult:
    """Roll one attack; ``seed=None`` draws a fresh seed, reported in the result."""
    check_request(request, ruleset)
    check_resolve_dice(request)
    roller = DiceRoller(seed=seed)
    return _resolve(request, ruleset, roller, retaliate=True)


def resolve_attack_with(*, request: AttackRequest, ruleset: RuleSet, roller: DiceRoller) -> AttackResult:
    """Roll one attack on dice the caller brings: a battle sharing one roller, or set faces."""
    check_request(request, ruleset)
    check_resolve_dice(request)
    return _resolve(request, ruleset, roller, retaliate=True)


def _resolve(
    request: AttackRequest, ruleset: RuleSet, roller: DiceRoller, *, retaliate: bool
) -> AttackResult:
    start = len(roller.log)
    plan = build_plan(request, ruleset)
    tally = Tally(remaining=plan.remaining)
    roll_weapons(plan.ranged, plan, roller, tally)
    retaliation = None
    if plan.melee and retaliate and request.attacker is not None:
        retaliation = _close_combat(request, ruleset, roller, plan, tally)
    else:
        roll_weapons(plan.melee, plan, roller, tally)
    return _result(request, ruleset, roller, plan, tally, retaliation, start)


def _close_combat(
    request: AttackRequest, ruleset: RuleSet, roller: DiceRoller, plan: AttackPlan, tally: Tally
) -> AttackResult | None:
    """Run the attacker's close-combat lines and the target's strike back, in the right order."""
    order = strike_order(request, ruleset)
    if order is StrikeOrder.ATTACKER_FIRST:
        roll_weapons(plan.melee, plan, roller, tally)
        return _strike_back(request, ruleset, roller, tally)
    if order is StrikeOrder.DEFENDER_FIRST:
        back = _strike_back(request, ruleset, roller, tally)
        melee = plan.melee if back is None else melee_after_losses(request, ruleset, back.models_left)
        roll_weapons(melee, plan, roller, tally)
        return back
    # Simultaneous: the defender strikes with what stood after the ranged fire.
    standing, blocked = models_left(tally.remaining, plan.per_model), tally.stunned or tally.grappled
    roll_weapons(plan.melee, plan, roller, tally)
    return _strike_back(request, ruleset, roller, tally, standing=standing, blocked=blocked)


def _strike_back(
    request: AttackRequest,
    ruleset: RuleSet,
    roller: DiceRoller,
    tally: Tally,
    *,
    standing: int | None = None,
    blocked: bool | None = None,
) -> AttackResult | None:
    per_model = request.target.damage_per_model
    standing = models_left(tally.remaining, per_model) if standing is None else standing
    blocked = (tally.stunned or tally.grappled) if blocked is None else blocked
    back = None if blocked else retaliation_request(request, standing)
    if back is None:
        return None
    return _resolve(back, ruleset, roller, retaliate=False)


def _result(
    request: AttackRequest,
    ruleset: RuleSet,
    roller: DiceRoller,
    plan: AttackPlan,
    tally: Tally,
    retaliation: AttackResult | None,
    start: int,
) -> AttackResult:
    final = tally.remaining
    critical = roll_critical(plan, roller, plan.remaining, final, plan.existing_criticals)
    cheated = roll_cheat_death(plan, roller, final)
    if cheated:
        final = 1  # the hero removes 1 point of damage and stays, stunned
    standing = models_left(final, plan.per_model)
    outcomes = tuple(sorted(tally.outcomes, key=lambda outcome: outcome.index))
    seed = roller.seed if roller.seed is not None else 0
    return AttackResult(
        seed=seed,
        ruleset=ruleset,
        weapons=outcomes,
        models_removed=plan.models - standing,
        damage_removed=plan.remaining - final,
        destroyed=final <= 0,
        models_left=standing,
        damage_taken=standing * plan.per_model - final if final > 0 else 0,
        suppression=SuppressionEffect(
            hit=tally.ranged_hit,
            automatic=tally.automatic,
            close_combat=tally.melee_hit and not tally.ranged_hit,
            immune=plan.suppression_immune,
        ),
        stunned=tally.stunned or bool(cheated),
        grappled=tally.grappled,
        critical_hit=critical,
        cheat_death=cheated,
        ammo=tuple(ammo_after(i, weapon) for i, weapon in enumerate(request.weapons)),
        retaliation=retaliation,
        log=tuple(roller.log[start:]),
    )


def ammo_after(index: int, weapon: Weapon) -> AmmoState:
    """Ammunition once the attack is declared: spent even if another weapon kills first (seed 004)."""
    ammo = None
    if weapon.ammo is not None:
        ammo = weapon.ammo - (weapon.volley if WeaponTrait.VOLLEY in weapon.traits else 1)
    loaded = None
    if weapon.needs_loading:
        # A salvo weapon keeps its token when it fires normally; a reload weapon always spends it.
        spends = WeaponTrait.RELOAD in weapon.traits or weapon.fire_salvo
        loaded = weapon.loaded and not spends
    return AmmoState(index=index, name=weapon.name, ammo=ammo, loaded=loaded)
