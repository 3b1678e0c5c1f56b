"""How big an exact odds question is, estimated before any of it is computed.

The exact odds (``exact``, ``strikeback``) are exact fractions all the way:
their cost grows with the number of dice (the size of every distribution and
the length of every number in it), with the damage points the target has (the
dynamic program carries one state per point, one step per damaging hit) and,
in close combat, with how many times the strike back and the attacker's
rebuilt close combat are worked out. A question too big to answer in about a
second is refused before any work starts, with an ``EngineInputError`` that
names the field to change and says what to do instead.

Two checks, in this order:

1. dice: at most ``MAX_ODDS_DICE`` dice declared by the attack and its strike
   back (a roll with digital dice may declare up to ``MAX_RESOLVE_DICE``);
2. work: ``odds_work`` follows the operations the program will run, in the
   same order and on the same sizes (the short series it raises to powers are
   built here, they are tiny), tracks how long the numbers grow, and adds up
   what each operation costs on numbers that long, in nanoseconds measured on
   this machine; at most ``ODDS_WORK_BUDGET``.

Measured over about a thousand random requests within the bounds, and the
adversarial search of ``scripts/bench_referee_limits.py --search``: requests
estimated above 0.1 s took between a tenth of their estimate and about the
estimate itself (1.06 times at worst), so nothing accepted should pass about
0.85 s; below 10 ms Python's fixed costs, left out, can double a (tiny)
estimate. The heaviest real attack is estimated at about 4 ms, a two-hundredth
of the budget.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from math import gcd, lcm, pow

from rules.engine import series
from rules.engine.closecombat import StrikeOrder, retaliation_request, strike_order
from rules.engine.damage import damage_distribution
from rules.engine.distributions import FOLLOW_UP, LineSpec, planned
from rules.engine.errors import EngineInputError
from rules.engine.plan import AttackPlan, WeaponPlan, build_plan, dice_count
from rules.engine.requests import MAX_ODDS_DICE, MAX_RESOLVE_DICE, TOO_LARGE, AttackRequest
from rules.engine.ruleset import RuleSet
from rules.engine.targets import Target
from rules.engine.weapons import Weapon

# Estimated nanoseconds the exact odds may take: the slowest accepted request the benchmark
# knows takes about 0.5-0.65 s, leaving room under the 1 s the issue asks for.
ODDS_WORK_BUDGET = 800_000_000

_ADVICE = "roll it with digital dice (resolve) instead, or split the attack into smaller ones"


@dataclass(frozen=True)
class Dice:
    """Dice an attack declares: its own, its strike back's, and the line that rolls most."""

    own: int
    back: int
    largest: int
    field: str  # the field to change to roll fewer dice on that line

    @property
    def total(self) -> int:
        return self.own + self.back


def declared_dice(request: AttackRequest) -> Dice:
    """The attack's dice and its strike back's (at full strength), and the line that rolls most.

    Counted from the request (``plan.dice_count``), not from a compiled plan: a
    roll checks this every time, and compiling is what it must not pay twice.
    """
    lines = [
        (_line_field(weapon, f"weapons[{i}]"), _dice(weapon, request.target))
        for i, weapon in enumerate(request.weapons)
    ]
    own = sum(dice for _, dice in lines)
    back = _strike_back(request)
    back_dice = 0
    if back is not None:
        given = request.target.cc_weapons
        for i, weapon in enumerate(back.weapons):
            where = "target.models" if given is None else _line_field(given[i], f"target.cc_weapons[{i}]")
            dice = _dice(weapon, back.target)
            lines.append((where, dice))
            back_dice += dice
    field, largest = max(lines, key=lambda entry: entry[1])
    return Dice(own=own, back=back_dice, largest=largest, field=field)


def _dice(weapon: Weapon, target: Target) -> int:
    cell = weapon.line.cell(target.unit_class, target.armour)
    return 0 if cell is None else dice_count(weapon, cell, target)


def _strike_back(request: AttackRequest) -> AttackRequest | None:
    attacker = request.attacker
    if attacker is None or not any(weapon.close_combat for weapon in request.weapons):
        return None
    return retaliation_request(request, request.target.models)


def _line_field(weapon: Weapon, path: str) -> str:
    """What makes a line roll many dice: the models firing it, the rockets of a volley, or its cell."""
    if weapon.count > 1:
        return f"{path}.count"
    if weapon.volley > 1:
        return f"{path}.volley"
    return f"{path}.line"


def check_odds_work(request: AttackRequest, ruleset: RuleSet, plan: AttackPlan) -> None:
    """Refuse exact odds too big to answer quickly, naming the field to change."""
    _check_dice(request, MAX_ODDS_DICE, "exact odds")
    work = odds_work(request, ruleset, plan)
    if work > ODDS_WORK_BUDGET:
        raise EngineInputError(
            _heaviest_field(request, plan),
            f"this attack is too big to work out exactly (estimated work {work:,}, at most "
            f"{ODDS_WORK_BUDGET:,}): use fewer weapon lines, dice or damage points, or {_ADVICE}",
            code=TOO_LARGE,
        )


def check_resolve_dice(request: AttackRequest) -> None:
    """A roll records every die it rolls: bound what it declares, so the answer stays small."""
    _check_dice(request, MAX_RESOLVE_DICE, "one roll")


def _check_dice(request: AttackRequest, limit: int, what: str) -> None:
    dice = declared_dice(request)
    if dice.total <= limit:
        return
    field = dice.field
    if dice.largest <= limit:  # no line alone: the lines together
        field = "weapons" if dice.own >= dice.back else _back_field(request)
    advice = _ADVICE if what == "exact odds" else "split the attack into smaller ones"
    raise EngineInputError(
        field,
        f"too many dice for {what}: {dice.total} in all, at most {limit}; {advice}",
        code=TOO_LARGE,
    )


def _back_field(request: AttackRequest) -> str:
    return "target.models" if request.target.cc_weapons is None else "target.cc_weapons"


def _strike_back_plan(request: AttackRequest, ruleset: RuleSet) -> AttackPlan | None:
    back = _strike_back(request)
    return None if back is None else build_plan(back, ruleset)


def _heaviest_field(request: AttackRequest, plan: AttackPlan) -> str:
    if len(plan.weapons) > 1:
        return "weapons"
    return _line_field(request.weapons[plan.weapons[0].index], f"weapons[{plan.weapons[0].index}]")


# -- the estimate ------------------------------------------------------------------
#
# Costs in nanoseconds on this machine (CPython's integers, measured by the
# benchmark script) of one operation on numbers of ``bits`` bits, in 30-bit
# limbs: adding, or multiplying by a small number, is linear; multiplying two
# big numbers is schoolbook below 70 limbs and Karatsuba above (CPython splits
# a lopsided product into pieces the size of the smaller number); a gcd, which
# every exact fraction needs, is quadratic.


def _limbs(bits: float) -> float:
    return bits / 30 + 1


def _lin(bits: float) -> float:
    return 100 + 1.5 * _limbs(bits)


def _mul(a: float, b: float) -> float:
    small, big = sorted((_limbs(a), _limbs(b)))
    if small <= 70:
        return 100 + 1.55 * small * big
    return 100 + (big / small) * 1.55 * 4900 * pow(small / 70, 1.585)


def _gcd(bits: float) -> float:
    return 300 + 2 * _limbs(bits) ** 2


def _normalise(size: int, bits: float) -> float:
    """``series.normalised``: one full gcd, then a pass over the numerators."""
    return _gcd(bits) + size * _lin(bits)


def _bits(value: int) -> int:
    return max(value.bit_length(), 1)


def odds_work(request: AttackRequest, ruleset: RuleSet, plan: AttackPlan) -> int:
    """Estimated cost of ``attack_odds`` for a checked request, in nanoseconds on this machine."""
    if not (plan.melee and request.attacker is not None):
        return round(plan_work(plan))
    attacker = request.attacker
    work = _distributions_work(plan.weapons)
    # The target's state is split in two (free to strike back, or not) while the attack runs.
    program, bits = _program_work(plan.weapons, plan, 0)
    work += 2 * program
    back = _strike_back_plan(request, ruleset)
    groups = request.target.models  # one strike back per number of target models standing
    if back is not None:
        work += groups * plan_work(back)
    if strike_order(request, ruleset) is StrikeOrder.DEFENDER_FIRST:
        # The attacker's close combat again, for every pair (target standing, attackers lost),
        # on states that carry the ranged fire's numbers.
        melee, _ = _program_work(plan.melee, plan, bits)
        work += groups * (attacker.models + 1) * melee
    return round(work)


def plan_work(plan: AttackPlan) -> float:
    """``exact.odds_of_plan``: four distributions and the dynamic program over the plan's weapons."""
    return _distributions_work(plan.weapons) + _program_work(plan.weapons, plan, 0)[0]


def _distributions_work(weapons: tuple[WeaponPlan, ...]) -> float:
    hits = [_spec(w, (Fraction(0), Fraction(1))) for w in weapons]
    saved = [_spec(w, (w.unsaved, 1 - w.unsaved)) for w in weapons]
    unsaved = [_spec(w, (1 - w.unsaved, w.unsaved)) for w in weapons]
    damage = [_spec(w, _damage_per_hit(w)) for w in weapons]
    return sum(_distribution_work(lines) for lines in (hits, saved, unsaved, damage))


def _spec(weapon: WeaponPlan, per_hit: tuple[Fraction, ...]) -> LineSpec:
    return LineSpec(dice=weapon.dice, first_hit=weapon.first_hit, chain=weapon.chain, per_hit=per_hit)


def _damage_per_hit(weapon: WeaponPlan) -> tuple[Fraction, ...]:
    q = weapon.unsaved
    probs = [q * p for p in damage_distribution(weapon.damage, weapon.resilient)]
    probs[0] += 1 - q
    return tuple(probs)


def _distribution_work(lines: list[LineSpec]) -> float:
    """``distributions.distribution``: each line's series, their product, then exact fractions."""
    work_plan = planned(lines)
    live, size = work_plan.lines, work_plan.size
    if not live:
        return 1
    work = 0.0
    total = 0.0
    filled = 0
    for i, line in enumerate(live):
        cost, bits, terms = _series_work(line, size)
        work += cost
        if i:
            # A truncated product: every non-zero term of one by every term of the other.
            pairs = min(size * size / 2, filled * terms)
            work += pairs * _mul(total, bits) + 40 * filled * size + _normalise(size, total + bits)
            filled = min(size, filled + terms * filled)
        else:
            filled = terms
        total += bits
    # Each entry becomes a Fraction (a gcd), and a tail is 1 minus their sum (more of them).
    return work + 3 * filled * _gcd(total)


def _series_work(line: LineSpec, size: int) -> tuple[float, float, int]:
    """``distributions.line_series``: its cost, the bits of its numerators, its non-zero terms.

    The short series it raises to the power ``dice`` are built here as it
    builds them (they are tiny), so their numbers' lengths are known, not
    guessed. A hit that always counts ``k`` (an automatic kill: the whole
    damage track) leaves only every ``k``-th term non-zero, and a hit that
    counts at least ``k`` makes the denominators grow ``k`` times slower.
    """
    width = len(line.per_hit)
    support = [k for k, p in enumerate(line.per_hit) if k and p]
    spacing = gcd(*support)
    h = series.from_fractions(line.per_hit)
    miss = series.from_fractions([1 - line.first_hit])
    loop = 40 * size * width  # the Python loops themselves, on small numbers
    if not line.chain:
        terms = min(size, line.dice * (width - 1) // spacing + 1)
        one = series.add(miss, series.scale(h, line.first_hit))
        bits = line.dice * (_bits(one.den) + 1)
        return loop + terms * (2 * width + 1) * _lin(bits) + _normalise(terms, bits), bits, terms
    # A chain is N**dice / M**dice: Miller's recurrence for both, with M's inverse over a0**(dice+size).
    terms = size // spacing + 1
    stop = series.add(series.ONE, series.scale(h, -FOLLOW_UP))
    top = series.add(series.multiply(miss, stop, size), series.scale(h, line.first_hit * (1 - FOLLOW_UP)))
    power = line.dice * (_bits(top.den) + 1)
    # The m-th term's denominator grows like a0**(m / k) when hits count at least k.
    inverse = (line.dice + size // support[0] + 1) * _bits(stop.nums[0]) + line.dice * _bits(stop.den)
    work = loop + terms * 2 * width * _lin(power) + _normalise(terms, power)
    work += terms * width * _lin(inverse) + 3 * terms * _mul(inverse, inverse) + _normalise(terms, inverse)
    work += terms * terms / 2 * _mul(power, inverse) + _normalise(terms, power + inverse)
    return work, power + inverse, terms


def _program_work(weapons: Iterable[WeaponPlan], plan: AttackPlan, bits: float) -> tuple[float, float]:
    """``exact.weapon_parts`` line by line, on states whose numbers start at ``bits`` bits.

    Per line: the chance of each number of damaging hits up to ``top`` (a line
    series, then fractions), then ``top`` steps over every state, each step
    adding the bits of one bite, then the states weighted and mixed.
    """
    top = plan.remaining
    work = 0.0
    for weapon in weapons:
        per_hit = damage_distribution(weapon.damage, weapon.resilient)
        biting = weapon.unsaved * (1 - per_hit[0])
        if not weapon.dice or not biting:
            continue
        spec = _spec(weapon, (1 - biting, biting))
        counts, count_bits, _ = _series_work(spec, top)
        work += counts + 3 * top * _gcd(count_bits)
        states = 2 * (top + 1) if weapon.snipe else top + 1
        bite = _bits(lcm(*(p.denominator for p in per_hit)) * biting.denominator) + len(per_hit)
        landing = sum(1 for p in per_hit[1:] if p)  # the step skips the damage a hit cannot do
        for step in range(1, top + 1):
            current = bits + step * bite
            mixed = current + count_bits
            work += states * (landing * _lin(current) + 40 * len(per_hit)) + _normalise(states, current)
            work += states * _mul(current, count_bits) + 2 * _normalise(states, mixed)
        bits += top * bite + count_bits
    return work, bits
