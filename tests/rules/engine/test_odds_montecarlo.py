"""Exact odds against Monte Carlo runs of the real dice code.

Each case rolls 20,000 attacks with a fixed seed. Tolerance: an expected value
may differ by at most max(0.02, 4 standard errors), the standard error taken
from the exact distribution; P(destroyed) and P(critical hit) by at most 0.02.
"""

from __future__ import annotations

import pytest

from rules.engine import (
    AttackRequest,
    Fortification,
    Height,
    RuleSet,
    Skill,
    WeaponKind,
    attack_odds,
    monte_carlo_odds,
)
from rules.engine.odds import QUANTITIES
from rules.engine.targets import Conditions
from rules.engine.weapons import improvised_weapon

from .attack_builders import RTZ, RULEBOOK, TRIALS, attack, close_to_exact, hero, infantry, vehicle, weapon

CASES: dict[str, tuple[AttackRequest, RuleSet]] = {
    "sustained laser vs resilient tank in cover": (
        attack(
            weapon("20/2", kind=WeaponKind.LASER),
            target=vehicle(damage=6, in_cover=True, skills=frozenset({Skill.DAMAGE_RESILIENT})),
            sustained=True,
        ),
        RTZ,
    ),
    "blasts and rifles vs squad in smoke": (
        attack(weapon("B/1", count=2), weapon("1/1", count=3), target=infantry(models=5, in_smoke=True)),
        RTZ,
    ),
    "sniper and rifles vs hero who may cheat death": (
        attack(
            weapon("2/2", kind=WeaponKind.SNIPER, expert=True),
            weapon("1/1", count=4),
            target=hero(damage=3, skills=frozenset({Skill.CHEAT_DEATH})),
            sustained=True,
        ),
        RTZ,
    ),
    "radiation from above into a rulebook bunker": (
        attack(
            weapon("4/1", kind=WeaponKind.RADIATION, count=2),
            target=infantry(models=6, fortification=Fortification.BUNKER),
            conditions=Conditions(height=Height.ATTACKER_HIGHER),
        ),
        RULEBOOK,
    ),
    "close combat automatic kills vs heavy infantry": (
        attack(
            weapon("2/AK", close_combat=True),
            improvised_weapon(2),
            target=infantry(armour=3, models=3, damage_per_model=2),
        ),
        RTZ,
    ),
    "cutting weapon vs damaged walker that may take a critical": (
        attack(
            weapon("3/2", kind=WeaponKind.CUTTING, close_combat=True),
            target=vehicle(damage=7, damage_taken=1),
        ),
        RULEBOOK,
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_it_agrees_with_monte_carlo_within_tolerance(name):
    """Exact odds and 20,000 rolled attacks agree on every expected value and on P(destroyed)."""
    request, ruleset = CASES[name]
    exact = attack_odds(request=request, ruleset=ruleset)
    sampled = monte_carlo_odds(request=request, ruleset=ruleset, trials=TRIALS, seed=1947)
    for quantity in QUANTITIES:
        assert close_to_exact(sampled.expected[quantity], getattr(exact, quantity)), quantity
    assert abs(sampled.p_destroyed - float(exact.p_destroyed)) < 0.02
    assert abs(sampled.p_critical_hit - float(exact.p_critical_hit)) < 0.02
    assert abs(sampled.p_cheat_death - float(exact.p_cheat_death)) < 0.02


def test_it_repeats_a_monte_carlo_run_from_its_seed():
    """The same seed rolls the same Monte Carlo run."""
    request, ruleset = CASES["blasts and rifles vs squad in smoke"]
    first = monte_carlo_odds(request=request, ruleset=ruleset, trials=500, seed=7)
    again = monte_carlo_odds(request=request, ruleset=ruleset, trials=500, seed=7)
    assert first == again
    assert first.to_dict()["trials"] == 500
