"""Exact odds of close combat with the target's strike back (seed 004, close combat and First Strike).

The small cases are worked out by hand in each docstring (one die hits on
[BLOC], 1/3; soldiers in the open have no save under the rulebook). The larger
ones are checked against 20,000 rolled resolutions, strike back included, with
the tolerance of ``attack_builders.close_to_exact``.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine import (
    Conditions,
    Height,
    RuleSet,
    Skill,
    WeaponKind,
    attack_odds,
    monte_carlo_odds,
)
from rules.engine.closecombat import StrikeOrder
from rules.engine.exact import QUANTITIES, odds_of_plan
from rules.engine.plan import build_plan
from rules.engine.weapons import improvised_weapon

from .attack_builders import RTZ, RULEBOOK, TRIALS, attack, close_to_exact, hero, infantry, vehicle, weapon

FIRST_STRIKE = frozenset({Skill.FIRST_STRIKE})


def duel(*, attacker_skills=frozenset(), target_skills=frozenset(), ranged=(), target_models=1, **target):
    """One soldier with a 1/1 close-combat weapon against soldiers of armour 1."""
    return attack(
        *ranged,
        weapon("1/1", close_combat=True),
        target=infantry(armour=1, models=target_models, skills=target_skills, **target),
        attacker=infantry(armour=1, models=1, skills=attacker_skills),
    )


def test_the_target_strikes_back_at_the_same_time():
    """Seed 004, Resolve close combat: both sides strike together, so each kills the other 1 time in 3."""
    odds = attack_odds(request=duel(), ruleset=RULEBOOK)

    back = odds.strike_back
    assert back is not None
    assert back.order is StrikeOrder.SIMULTANEOUS
    assert (odds.p_destroyed, back.p_strikes_back, back.p_destroyed) == (Fraction(1, 3), 1, Fraction(1, 3))
    assert back.models_removed.probabilities == (Fraction(2, 3), Fraction(1, 3))


def test_only_the_survivors_strike_back_after_a_first_strike():
    """Seed 004, First Strike: the target strikes back only if it lives (2/3), then kills 1 in 3: 2/9."""
    odds = attack_odds(request=duel(attacker_skills=FIRST_STRIKE), ruleset=RULEBOOK)

    back = odds.strike_back
    assert back is not None
    assert back.order is StrikeOrder.ATTACKER_FIRST
    assert (odds.p_destroyed, back.p_strikes_back, back.p_destroyed) == (
        Fraction(1, 3),
        Fraction(2, 3),
        Fraction(2, 9),
    )


def test_a_defender_striking_first_leaves_fewer_attackers_to_strike():
    """Seed 004, First Strike on the defender: it kills the attacker 1 time in 3 first; 2/3 x 1/3 = 2/9 left for it."""
    odds = attack_odds(request=duel(target_skills=FIRST_STRIKE), ruleset=RULEBOOK)

    back = odds.strike_back
    assert back is not None
    assert back.order is StrikeOrder.DEFENDER_FIRST
    assert (back.p_strikes_back, back.p_destroyed) == (1, Fraction(1, 3))
    assert odds.p_destroyed == Fraction(2, 9)
    assert odds.models_removed.probabilities == (Fraction(7, 9), Fraction(2, 9))
    # The hits count every die the attacker declared (its one die), as documented.
    assert odds.hits.expected == Fraction(1, 3)


def test_a_defender_striking_first_thins_a_squad_before_it_strikes():
    """Seed 004: three attackers against one First Strike soldier; a dead attacker's die is never rolled.

    The defender's die kills one attacker 1 time in 3; then 3 or 2 dice at 1/3:
    P(target survives) = 2/3 x (2/3)^3 + 1/3 x (2/3)^2 = 16/81 + 12/81 = 28/81.
    """
    request = attack(
        improvised_weapon(3),
        target=infantry(armour=1, models=1, skills=FIRST_STRIKE),
        attacker=infantry(armour=1, models=3),
    )
    odds = attack_odds(request=request, ruleset=RULEBOOK)

    assert odds.p_destroyed == 1 - Fraction(28, 81)


def test_a_tesla_hit_that_does_damage_keeps_the_target_from_striking_back():
    """Seed 001, Tesla, and seed 004: a stunned unit cannot strike back.

    A ranged 1/1 tesla die hits 1 time in 3 and the soldiers' save fails 2
    times in 3, so it stuns 2 times in 9. Two soldiers survive the attacker's
    single close-combat die and strike back 7 times in 9, with two dice that
    kill the lone attacker with 1 - (2/3)^2 = 5/9: 7/9 x 5/9 = 35/81.
    """
    tesla = weapon("1/1", kind=WeaponKind.TESLA, name="tesla")
    odds = attack_odds(request=duel(ranged=(tesla,), target_models=2), ruleset=RULEBOOK)

    back = odds.strike_back
    assert back is not None
    assert back.p_strikes_back == Fraction(7, 9)
    assert back.p_destroyed == Fraction(35, 81)


def test_a_grapple_hit_holds_the_target_even_when_it_is_saved():
    """Seed 001, Grapple: any hit grabs, saved or not, so the strike back comes only with no hit: 2/3."""
    grapple = weapon("1/1", kind=WeaponKind.GRAPPLE, name="claw")
    odds = attack_odds(request=duel(ranged=(grapple,), target_models=2), ruleset=RULEBOOK)

    back = odds.strike_back
    assert back is not None
    assert back.p_strikes_back == Fraction(2, 3)


def test_a_stunned_target_never_strikes_back():
    """Seed 004: a stunned unit cannot retaliate, so the attacker loses nothing."""
    odds = attack_odds(request=duel(stunned=True), ruleset=RULEBOOK)

    back = odds.strike_back
    assert back is not None
    assert (back.p_strikes_back, back.p_destroyed) == (0, 0)
    assert back.models_removed.probabilities == (1, 0)


def test_there_is_no_strike_back_without_close_combat_or_a_known_attacker():
    ranged = attack(weapon("1/1"), target=infantry(), attacker=infantry())
    unknown = attack(weapon("1/1", close_combat=True), target=infantry())

    assert attack_odds(request=ranged, ruleset=RTZ).strike_back is None
    assert attack_odds(request=unknown, ruleset=RTZ).strike_back is None
    assert attack_odds(request=duel(), ruleset=RTZ).to_dict()["strike_back"]["order"] == "simultaneous"


CASES = {
    "squads at the same time, rifles first": (
        attack(
            weapon("1/1", count=2),
            weapon("2/1", close_combat=True, count=4),
            target=infantry(armour=2, models=5),
            attacker=infantry(armour=2, models=4),
        ),
        RTZ,
    ),
    "first strike attacker against a hero who cheats death": (
        attack(
            weapon("3/2", close_combat=True),
            target=hero(damage=3, skills=frozenset({Skill.CHEAT_DEATH})),
            attacker=infantry(armour=3, models=3, skills=FIRST_STRIKE),
        ),
        RULEBOOK,
    ),
    "first strike defender against a squad with a grenade first": (
        attack(
            weapon("2/1", kind=WeaponKind.GRENADE),
            improvised_weapon(4),
            target=infantry(armour=2, models=3, skills=FIRST_STRIKE),
            attacker=infantry(armour=2, models=4),
        ),
        RULEBOOK,
    ),
    "walker claws a squad that strikes back at a resilient vehicle": (
        attack(
            weapon("1/1", kind=WeaponKind.TESLA),
            weapon("3/AK", close_combat=True),
            target=infantry(armour=3, models=4),
            attacker=vehicle(armour=3, damage=4),
        ),
        RTZ,
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_strike_back_odds_agree_with_rolled_resolutions(name):
    """Exact odds and 20,000 resolutions agree on both sides' losses and on how often the target strikes back."""
    request, ruleset = CASES[name]
    exact = attack_odds(request=request, ruleset=ruleset)
    sampled = monte_carlo_odds(request=request, ruleset=ruleset, trials=TRIALS, seed=1947)
    back = exact.strike_back
    assert back is not None

    counted = (
        QUANTITIES if back.order is not StrikeOrder.DEFENDER_FIRST else ("models_removed", "damage_removed")
    )
    for quantity in counted:
        assert close_to_exact(sampled.expected[quantity], getattr(exact, quantity)), quantity
    assert abs(sampled.p_destroyed - float(exact.p_destroyed)) < 0.02
    assert abs(sampled.p_cheat_death - float(exact.p_cheat_death)) < 0.02
    assert abs(sampled.strike_back["strikes"] - float(back.p_strikes_back)) < 0.02
    assert abs(sampled.strike_back["destroyed"] - float(back.p_destroyed)) < 0.02
    assert close_to_exact(sampled.strike_back["models_removed"], back.models_removed)
    assert close_to_exact(sampled.strike_back["damage_removed"], back.damage_removed)


def test_every_strike_back_distribution_sums_to_one():
    for request, ruleset in CASES.values():
        back = attack_odds(request=request, ruleset=ruleset).strike_back
        assert back is not None
        assert sum(back.models_removed.probabilities) == 1
        assert sum(back.damage_removed.probabilities) == 1
        assert 0 <= back.p_destroyed <= back.p_strikes_back <= 1


def test_the_rule_set_decides_the_strike_order_on_high_ground():
    """Seed 002, close combat and height: under RtZ a higher defender strikes first."""
    request = attack(
        weapon("1/1", close_combat=True),
        target=infantry(armour=1, models=1),
        attacker=infantry(armour=1, models=1),
        conditions=Conditions(height=Height.TARGET_HIGHER),
    )
    rtz = attack_odds(request=request, ruleset=RTZ).strike_back
    plain = attack_odds(request=request, ruleset=RuleSet.rulebook()).strike_back
    assert rtz is not None
    assert plain is not None
    assert (rtz.order, plain.order) == (StrikeOrder.DEFENDER_FIRST, StrikeOrder.SIMULTANEOUS)


@given(
    attackers=st.integers(1, 4),
    defenders=st.integers(1, 4),
    armour=st.integers(1, 4),
    dice=st.integers(1, 3),
    attacker_first=st.booleans(),
    defender_first=st.booleans(),
    ranged=st.booleans(),
)
def test_strike_back_odds_are_distributions_and_a_first_strike_never_helps_the_attacker(
    attackers, defenders, armour, dice, attacker_first, defender_first, ranged
):
    """Every strike-back answer sums to 1; striking first never makes the attacker's odds worse.

    Against the attacker's odds with no strike back at all, a defender striking
    first can only lower the chance to destroy it (fallen attackers roll nothing).
    """
    request = attack(
        *([weapon("1/1", count=attackers)] if ranged else []),
        weapon(f"{dice}/1", close_combat=True, count=attackers),
        target=infantry(
            armour=armour, models=defenders, skills=FIRST_STRIKE if defender_first else frozenset()
        ),
        attacker=infantry(
            armour=armour, models=attackers, skills=FIRST_STRIKE if attacker_first else frozenset()
        ),
    )
    odds = attack_odds(request=request, ruleset=RULEBOOK)
    back = odds.strike_back
    assert back is not None
    assert sum(back.models_removed.probabilities) == 1
    assert sum(odds.models_removed.probabilities) == 1
    assert 0 <= back.p_destroyed <= back.p_strikes_back <= 1
    unopposed = odds_of_plan(build_plan(request, RULEBOOK))
    if back.order is StrikeOrder.DEFENDER_FIRST:
        assert odds.p_destroyed <= unopposed.p_destroyed
    else:
        assert odds.p_destroyed == unopposed.p_destroyed
