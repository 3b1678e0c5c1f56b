"""The exact dynamic program over the target's damage points, and the odds result types.

``odds_of_plan`` works out, with exact fractions, the distributions of hits,
saved hits, unsaved hits and damage dealt over every die (``distributions``),
and the losses of the target by dynamic programming over its remaining damage
points: hit by hit, weapon line by weapon line, in the order the dice resolve
them. Only hits that do at least 1 damage change the target, and a target of T
points is gone after at most T of them, so the program is finite and exact
even for lasers.

The strike-back odds (``strikeback``) run the same program on a split state,
and ``odds`` puts both behind ``attack_odds``; this module imports neither.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from rules.engine import series
from rules.engine.closecombat import StrikeOrder
from rules.engine.damage import (
    CHEAT_DEATH_CHANCE,
    CRITICAL_CHANCE,
    CRITICAL_TABLE,
    damage_distribution,
    models_left,
)
from rules.engine.distributions import Counted, LineSpec, distribution, truncated
from rules.engine.plan import AttackPlan, WeaponPlan
from rules.engine.series import Series

QUANTITIES = ("hits", "saved", "unsaved", "damage", "models_removed", "damage_removed")


@dataclass(frozen=True)
class Distribution:
    """P(value = k) for k = 0, 1, ...; with ``tail`` the last entry is P(value >= k)."""

    probabilities: tuple[Fraction, ...]
    expected: Fraction
    tail: bool = False

    def probability_at_least(self, value: int) -> Fraction:
        return sum(self.probabilities[value:], Fraction(0))

    def to_dict(self) -> dict[str, object]:
        return {
            "probabilities": [float(p) for p in self.probabilities],
            "tail_from": len(self.probabilities) - 1 if self.tail else None,
            "expected": float(self.expected),
        }


@dataclass(frozen=True)
class OddsResult:
    hits: Distribution
    saved: Distribution
    unsaved: Distribution
    damage: Distribution  # dealt, after Damage Resilient, before losses are capped
    models_removed: Distribution
    damage_removed: Distribution
    p_destroyed: Fraction
    p_critical_hit: Fraction
    p_cheat_death: Fraction  # chance a destroyed hero comes back
    # Close combat by a known attacker: the target's strike back (None otherwise).
    strike_back: StrikeBackOdds | None = None

    @property
    def expected(self) -> dict[str, Fraction]:
        return {name: getattr(self, name).expected for name in QUANTITIES}

    def to_dict(self) -> dict[str, object]:
        return {
            **{name: getattr(self, name).to_dict() for name in QUANTITIES},
            "expected": {name: float(value) for name, value in self.expected.items()},
            "p_destroyed": float(self.p_destroyed),
            "p_critical_hit": float(self.p_critical_hit),
            "p_cheat_death": float(self.p_cheat_death),
            "strike_back": None if self.strike_back is None else self.strike_back.to_dict(),
        }


@dataclass(frozen=True)
class StrikeBackOdds:
    """The target's strike back: how likely it comes, and what it does to the attacker."""

    order: StrikeOrder
    p_strikes_back: Fraction
    models_removed: Distribution  # the attacker's models
    damage_removed: Distribution  # the attacker's damage points
    p_destroyed: Fraction  # the attacker is wiped out
    p_cheat_death: Fraction  # a hero attacker falls and comes back

    def to_dict(self) -> dict[str, object]:
        return {
            "order": self.order.value,
            "p_strikes_back": float(self.p_strikes_back),
            "models_removed": self.models_removed.to_dict(),
            "damage_removed": self.damage_removed.to_dict(),
            "p_destroyed": float(self.p_destroyed),
            "p_cheat_death": float(self.p_cheat_death),
        }


def odds_of_plan(plan: AttackPlan) -> OddsResult:
    """Exact odds of a compiled plan (``attack_odds`` without the checks or the strike back)."""
    return assemble(plan, losses_through(start_state(plan), plan.weapons, plan))


def assemble(plan: AttackPlan, before: tuple[Fraction, ...]) -> OddsResult:
    """The odds of a plan whose target ends with ``before[r]`` = P(r points left), before Cheat Death."""
    weapons = plan.weapons
    losses = before
    p_critical = Fraction(0)
    if plan.criticals and len(plan.existing_criticals) < len(CRITICAL_TABLE):
        p_critical = sum(before[1 : plan.remaining], Fraction(0)) * CRITICAL_CHANCE
    p_cheat = Fraction(0)
    if plan.cheat_death:
        p_cheat = before[0] * CHEAT_DEATH_CHANCE
        losses = (before[0] - p_cheat, before[1] + p_cheat, *before[2:])
    return OddsResult(
        hits=_dist(distribution([_spec(w, (Fraction(0), Fraction(1))) for w in weapons])),
        saved=_dist(distribution([_spec(w, (w.unsaved, 1 - w.unsaved)) for w in weapons])),
        unsaved=_dist(distribution([_spec(w, (1 - w.unsaved, w.unsaved)) for w in weapons])),
        damage=_dist(distribution([_spec(w, _damage_per_hit(w)) for w in weapons])),
        models_removed=_removed(losses, lambda r: plan.models - models_left(r, plan.per_model), plan.models),
        damage_removed=_removed(losses, lambda r: plan.remaining - r, plan.remaining),
        p_destroyed=losses[0],
        p_critical_hit=p_critical,
        p_cheat_death=p_cheat,
    )


def _spec(weapon: WeaponPlan, per_hit: tuple[Fraction, ...]) -> LineSpec:
    return LineSpec(dice=weapon.dice, first_hit=weapon.first_hit, chain=weapon.chain, per_hit=per_hit)


def _dist(counted: Counted) -> Distribution:
    return Distribution(probabilities=counted.probabilities, expected=counted.expected, tail=counted.tail)


def _damage_after_resilience(weapon: WeaponPlan) -> tuple[Fraction, ...]:
    return damage_distribution(weapon.damage, weapon.resilient)


def _damage_per_hit(weapon: WeaponPlan) -> tuple[Fraction, ...]:
    """Damage one hit deals: nothing if saved, else its damage after Damage Resilient."""
    q = weapon.unsaved
    probs = [q * p for p in _damage_after_resilience(weapon)]
    probs[0] += 1 - q
    return tuple(probs)


def _removed(losses: tuple[Fraction, ...], measure: Callable[[int], int], top: int) -> Distribution:
    probs = [Fraction(0)] * (top + 1)
    for remaining, p in enumerate(losses):
        if p:
            probs[measure(remaining)] += p
    mean = sum((k * p for k, p in enumerate(probs)), Fraction(0))
    return Distribution(probabilities=tuple(probs), expected=mean)


def start_state(plan: AttackPlan) -> Series:
    """The target before the attack: all of its remaining points, for certain."""
    return series.from_fractions([0] * plan.remaining + [1])


def losses_through(state: Series, weapons: tuple[WeaponPlan, ...], plan: AttackPlan) -> tuple[Fraction, ...]:
    """P(remaining points = r), r = 0..plan.remaining, once ``weapons`` have fired on ``state``."""
    for weapon in weapons:
        state = after_weapon(state, weapon, plan)
    return as_fractions(state, plan.remaining)


def as_fractions(state: Series, top: int) -> tuple[Fraction, ...]:
    probs = list(state.fractions())
    probs.extend([Fraction(0)] * (top + 1 - len(probs)))
    return tuple(probs)


def after_weapon(state: Series, weapon: WeaponPlan, plan: AttackPlan) -> Series:
    """Mix the states reached after k damaging hits by the chance of k such hits."""
    untouched, bitten = weapon_parts(state, weapon, plan)
    return series.add(series.scale(state, untouched), bitten)


def weapon_parts(state: Series, weapon: WeaponPlan, plan: AttackPlan) -> tuple[Fraction, Series]:
    """P(no hit of this line does damage), and the states after one or more hits that do, weighted."""
    per_hit = _damage_after_resilience(weapon)
    biting = weapon.unsaved * (1 - per_hit[0])  # a hit that gets through and does damage
    if not weapon.dice or not biting:
        return Fraction(1), series.from_fractions([])
    top = plan.remaining
    spec = LineSpec(weapon.dice, weapon.first_hit, weapon.chain, (1 - biting, biting))
    counts, more = truncated(spec, top)
    # Given that a hit bites, how much it does.
    bite = series.from_fractions([weapon.unsaved * p / biting for p in per_hit[1:]])
    # While a sniper's hits resolve, index top+1+r holds "r points left, the chosen model fell".
    fallen = top + 1 if weapon.snipe else None
    mixed = series.from_fractions([])
    current = state
    for k in range(1, top + 1):
        current = _step(current, bite, plan.per_model, fallen)
        weight = counts[k] if k < top else more
        if weight:
            mixed = series.add(mixed, series.scale(_merged(current, fallen), weight))
    return counts[0], mixed


def _step(state: Series, bite: Series, per_model: int, fallen: int | None) -> Series:
    """One more damaging hit on every state."""
    nums = [0] * max(len(state.nums), 2 * fallen if fallen else 0)
    for index, weight in enumerate(state.nums):
        if not weight:
            continue
        if index == 0 or (fallen is not None and index >= fallen):
            nums[index] += weight * bite.den  # nothing left to hit, or the sniper's model is gone
            continue
        standing = models_left(index, per_model)
        current = index - (standing - 1) * per_model
        for extra, chance in enumerate(bite.nums):
            if chance:
                after = index - min(extra + 1, current)
                if fallen is not None and models_left(after, per_model) < standing:
                    after += fallen
                nums[after] += weight * chance
    return series.normalised(nums, state.den * bite.den)


def _merged(state: Series, fallen: int | None) -> Series:
    if fallen is None:
        return state
    nums = list(state.nums[:fallen])
    nums.extend([0] * (fallen - len(nums)))
    for index, weight in enumerate(state.nums[fallen:]):
        nums[index] += weight
    return series.normalised(nums, state.den)
