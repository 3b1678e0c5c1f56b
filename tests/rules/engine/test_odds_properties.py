"""Properties every exact odds answer must have, over many generated attacks."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine import AttackRequest, OddsResult, RuleSet, Skill, Target, WeaponKind, attack_odds
from rules.engine.odds import QUANTITIES

from .attack_builders import RTZ, RULEBOOK, attack, infantry, vehicle, weapon

KINDS = [
    WeaponKind.STANDARD,
    WeaponKind.LASER,
    WeaponKind.CUTTING,
    WeaponKind.FLAME,
    WeaponKind.PHASER,
    WeaponKind.SNIPER,
    WeaponKind.ARTILLERY,
    WeaponKind.RAILGUN,
    WeaponKind.GRENADE,
    WeaponKind.RADIATION,
]


@st.composite
def targets(draw: st.DrawFn) -> Target:
    cover = {"in_smoke": draw(st.booleans())}
    if draw(st.booleans()):
        skills = frozenset(
            draw(st.sets(st.sampled_from([Skill.STEEL_GUARD, Skill.DAMAGE_RESILIENT]), max_size=1))
        )
        return infantry(
            armour=draw(st.integers(1, 4)),
            models=draw(st.integers(1, 4)),
            damage_per_model=draw(st.integers(1, 2)),
            in_trench=draw(st.booleans()),
            skills=skills,
            **cover,
        )
    resilient = frozenset({Skill.DAMAGE_RESILIENT}) if draw(st.booleans()) else frozenset()
    return vehicle(armour=draw(st.integers(1, 7)), damage=draw(st.integers(1, 6)), skills=resilient, **cover)


@st.composite
def attacks(draw: st.DrawFn) -> tuple[AttackRequest, RuleSet]:
    lines = []
    for _ in range(draw(st.integers(1, 2))):
        dice = draw(st.integers(0, 4))
        damage = draw(st.sampled_from(["1", "2", "3", "AK"]))
        kind = draw(st.sampled_from(KINDS))
        lines.append(weapon(f"{dice}/{damage}", kind=kind, expert=draw(st.booleans())))
    request = attack(*lines, target=draw(targets()), sustained=draw(st.booleans()))
    return request, draw(st.sampled_from([RTZ, RULEBOOK]))


def odds(request: AttackRequest, ruleset: RuleSet) -> OddsResult:
    return attack_odds(request=request, ruleset=ruleset)


PROPERTY = settings(max_examples=60, deadline=None)


@PROPERTY
@given(attacks())
def test_it_makes_every_distribution_sum_to_exactly_one(case):
    """Every distribution is exact: it sums to 1 and its mean is the exact expected value."""
    result = odds(*case)
    for name in QUANTITIES:
        distribution = getattr(result, name)
        assert sum(distribution.probabilities, Fraction(0)) == 1
        assert all(p >= 0 for p in distribution.probabilities)
        if not distribution.tail:
            mean = sum((k * p for k, p in enumerate(distribution.probabilities)), Fraction(0))
            assert mean == distribution.expected
    assert 0 <= result.p_destroyed <= 1


@PROPERTY
@given(attacks())
def test_it_never_lowers_expected_hits_with_more_dice(case):
    """Seed 004, Attack step 4: one more model firing never makes the attack worse."""
    request, ruleset = case
    first = request.weapons[0]
    cell = first.line.cell(request.target.unit_class, request.target.armour)
    assert cell is not None
    more = replace(first, count=first.count + 1)
    bigger = replace(request, weapons=(more, *request.weapons[1:]))
    before, after = odds(request, ruleset), odds(bigger, ruleset)
    assert after.hits.expected >= before.hits.expected
    assert after.damage_removed.expected >= before.damage_removed.expected
    assert after.p_destroyed >= before.p_destroyed


@PROPERTY
@given(attacks())
def test_it_never_does_worse_with_a_sustained_attack(case):
    """Seed 004, Sustained Attack: re-rolling misses can only add hits."""
    request, ruleset = case
    plain = odds(replace(request, sustained=False), ruleset)
    sustained = odds(replace(request, sustained=True), ruleset)
    assert sustained.hits.expected >= plain.hits.expected
    assert sustained.damage.expected >= plain.damage.expected
    assert sustained.damage_removed.expected >= plain.damage_removed.expected
    assert sustained.p_destroyed >= plain.p_destroyed


@PROPERTY
@given(attacks())
def test_it_never_raises_expected_damage_with_cover(case):
    """Seeds 000 and 004, Cover Save: cover replaces weaker saves, so it never helps the attacker."""
    request, ruleset = case
    open_ground = odds(replace(request, target=replace(request.target, in_cover=False)), ruleset)
    covered = odds(replace(request, target=replace(request.target, in_cover=True)), ruleset)
    assert covered.damage.expected <= open_ground.damage.expected
    assert covered.damage_removed.expected <= open_ground.damage_removed.expected
    assert covered.p_destroyed <= open_ground.p_destroyed
