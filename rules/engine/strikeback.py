"""Exact odds of close combat with the target's strike back (seed 004, close combat).

When a known attacker uses close-combat weapons, the target strikes back with
the models it has standing at the moment it strikes (``closecombat``):

- at the same time (no First Strike, or both): the models left after the
  attacker's ranged lines, and it may not be stunned or grappled by then;
- after the attacker (the attacker has First Strike): whatever is left at the end;
- before the attacker's close combat (the defender has First Strike, or the
  RtZ high ground): the models left after the ranged lines; the attacker then
  strikes with the models the strike back left it.

So the dynamic program of ``exact`` runs with the target's state split in two,
free to strike or stunned/grappled, up to the moment the defender strikes; each
number of standing models gives one strike-back attack, whose exact odds are
mixed by the chance of that number. When the defender strikes first, the
attacker's close-combat lines are rebuilt for each number of attackers left
and the target's losses are mixed the same way. Everything stays exact.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace
from fractions import Fraction

from rules.engine import series
from rules.engine.closecombat import StrikeOrder, melee_after_losses, retaliation_request, strike_order
from rules.engine.damage import models_left
from rules.engine.exact import (
    Distribution,
    OddsResult,
    StrikeBackOdds,
    as_fractions,
    assemble,
    losses_through,
    odds_of_plan,
    start_state,
    weapon_parts,
)
from rules.engine.plan import AttackPlan, WeaponPlan, build_plan
from rules.engine.requests import AttackRequest
from rules.engine.ruleset import RuleSet
from rules.engine.series import Series
from rules.engine.weapons import WeaponKind


@dataclass(frozen=True)
class _Split:
    """The target's states (points left), split by whether it can still strike back."""

    free: Series
    blocked: Series


def close_combat_odds(request: AttackRequest, ruleset: RuleSet, plan: AttackPlan) -> OddsResult:
    """``attack_odds`` for a checked close-combat request with an attacker."""
    order = strike_order(request, ruleset)
    after_ranged = _through(_Split(start_state(plan), series.from_fractions([])), plan.ranged, plan)
    if order is StrikeOrder.DEFENDER_FIRST:
        groups = _by_standing(after_ranged.free, plan)
        answers = {standing: _strike_back(request, ruleset, standing) for standing in groups}
        odds = _defender_first(request, ruleset, plan, after_ranged, groups, answers)
        return replace(odds, strike_back=_mixed_strike_back(order, request, groups, answers))
    # The strike back does not change the attacker's dice: its whole attack runs on.
    after_all = _through(after_ranged, plan.melee, plan)
    at_strike = after_all if order is StrikeOrder.ATTACKER_FIRST else after_ranged
    groups = _by_standing(at_strike.free, plan)
    answers = {standing: _strike_back(request, ruleset, standing) for standing in groups}
    before = as_fractions(series.add(after_all.free, after_all.blocked), plan.remaining)
    return replace(assemble(plan, before), strike_back=_mixed_strike_back(order, request, groups, answers))


def _through(split: _Split, weapons: tuple[WeaponPlan, ...], plan: AttackPlan) -> _Split:
    """Fire ``weapons`` on both halves; a tesla hit that does damage stuns, a grapple hit grabs."""
    free, blocked = split.free, split.blocked
    for weapon in weapons:
        untouched, bitten = weapon_parts(free, weapon, plan)
        blocked_untouched, blocked_bitten = weapon_parts(blocked, weapon, plan)
        blocked = series.add(series.scale(blocked, blocked_untouched), blocked_bitten)
        if weapon.kind is WeaponKind.TESLA:
            free, blocked = series.scale(free, untouched), series.add(blocked, bitten)
        elif weapon.kind is WeaponKind.GRAPPLE:
            # No damaging hit splits into "no hit at all" (still free) and "hits that did nothing".
            no_hit = (1 - weapon.first_hit) ** weapon.dice
            blocked = series.add(blocked, series.add(series.scale(free, untouched - no_hit), bitten))
            free = series.scale(free, no_hit)
        else:
            free = series.add(series.scale(free, untouched), bitten)
    return _Split(free, blocked)


def _by_standing(state: Series, plan: AttackPlan) -> dict[int, Series]:
    """The free states grouped by how many of the target's models stand (0 strikes nothing)."""
    grouped: dict[int, list[int]] = defaultdict(lambda: [0] * len(state.nums))
    for remaining, weight in enumerate(state.nums):
        if weight and remaining > 0:
            grouped[models_left(remaining, plan.per_model)][remaining] = weight
    return {standing: series.normalised(nums, state.den) for standing, nums in sorted(grouped.items())}


def _strike_back(request: AttackRequest, ruleset: RuleSet, standing: int) -> OddsResult | None:
    back = retaliation_request(request, standing)
    return None if back is None else odds_of_plan(build_plan(back, ruleset))


def _mixed_strike_back(
    order: StrikeOrder,
    request: AttackRequest,
    groups: dict[int, Series],
    answers: dict[int, OddsResult | None],
) -> StrikeBackOdds:
    attacker = request.attacker
    assert attacker is not None  # close_combat_odds is only asked with an attacker
    models = [Fraction(0)] * (attacker.models + 1)
    damage = [Fraction(0)] * (attacker.remaining + 1)
    strikes = destroyed = cheats = Fraction(0)
    for standing, group in groups.items():
        answer = answers[standing]
        if answer is None:
            continue
        weight = group.total()
        strikes += weight
        destroyed += weight * answer.p_destroyed
        cheats += weight * answer.p_cheat_death
        _add_into(models, answer.models_removed.probabilities, weight)
        _add_into(damage, answer.damage_removed.probabilities, weight)
    models[0] += 1 - strikes
    damage[0] += 1 - strikes
    return StrikeBackOdds(
        order=order,
        p_strikes_back=strikes,
        models_removed=_distribution(models),
        damage_removed=_distribution(damage),
        p_destroyed=destroyed,
        p_cheat_death=cheats,
    )


def _defender_first(
    request: AttackRequest,
    ruleset: RuleSet,
    plan: AttackPlan,
    after_ranged: _Split,
    groups: dict[int, Series],
    answers: dict[int, OddsResult | None],
) -> OddsResult:
    """The target's losses when its strike back comes before the attacker's close combat."""
    attacker = request.attacker
    assert attacker is not None
    top = plan.remaining
    final = [Fraction(0)] * (top + 1)
    struck = series.from_fractions([])
    for standing, group in groups.items():
        answer = answers[standing]
        if answer is None:
            struck = series.add(struck, group)
            continue
        for removed, chance in enumerate(answer.models_removed.probabilities):
            if chance:
                melee = melee_after_losses(request, ruleset, attacker.models - removed)
                _add_into(final, losses_through(group, melee, plan), chance)
    # Blocked targets, lone survivors with nothing to strike with, and targets already gone.
    rest = series.add(series.add(after_ranged.blocked, struck), _gone(after_ranged.free))
    _add_into(final, losses_through(rest, plan.melee, plan), Fraction(1))
    return assemble(plan, tuple(final))


def _gone(state: Series) -> Series:
    return series.normalised(list(state.nums[:1]), state.den)


def _add_into(total: list[Fraction], values: tuple[Fraction, ...], weight: Fraction) -> None:
    for index, value in enumerate(values):
        if value:
            total[index] += weight * value


def _distribution(probabilities: list[Fraction]) -> Distribution:
    expected = sum((k * p for k, p in enumerate(probabilities)), Fraction(0))
    return Distribution(probabilities=tuple(probabilities), expected=expected)
