"""Close combat: the improvised weapon, retaliation and First Strike (seeds 002 and 004)."""

from __future__ import annotations

import pytest

from rules.engine import Conditions, EngineInputError, Height, Skill, WeaponKind
from rules.engine.weapons import IMPROVISED_LINE, improvised_weapon

from .attack_builders import RTZ, RULEBOOK, B, S, aircraft, attack, infantry, scripted, vehicle, weapon

FIRST_STRIKE = frozenset({Skill.FIRST_STRIKE})


def brawl(*, attacker_skills=frozenset(), target_skills=frozenset(), **options):
    """Three soldiers with improvised weapons against two, at the same level."""
    return attack(
        improvised_weapon(3),
        target=infantry(models=2, skills=target_skills, **options),
        attacker=infantry(models=3, skills=attacker_skills),
    )


def test_it_gives_every_model_an_improvised_weapon_against_infantry_and_vehicles_only():
    """Seed 004, Resolve close combat: the improvised weapon: 1/1 vs infantry and vehicles, - vs aircraft."""
    assert {cell.to_text() for cell in IMPROVISED_LINE.infantry + IMPROVISED_LINE.vehicle} == {"1/1"}
    assert IMPROVISED_LINE.aircraft == (None, None, None)
    with pytest.raises(EngineInputError) as error:
        scripted(attack(improvised_weapon(1), target=aircraft()), [])
    assert error.value.field == "weapons[0].line"


def test_it_lets_the_target_strike_back_with_its_improvised_weapons():
    """Seed 004, Resolve close combat: the target retaliates, both sides at the same time."""
    result = scripted(brawl(), [B, S, S, B, B], RULEBOOK)
    assert result.models_removed == 1
    assert result.retaliation is not None
    assert (result.retaliation.weapons[0].dice, result.retaliation.models_removed) == (2, 2)


def test_it_removes_first_strike_casualties_before_the_target_strikes_back():
    """Seed 004, First Strike: the unit strikes and removes casualties before the enemy strikes."""
    result = scripted(brawl(attacker_skills=FIRST_STRIKE), [B, S, S, B], RULEBOOK)
    assert result.retaliation is not None
    assert result.retaliation.weapons[0].dice == 1


def test_it_lets_a_first_strike_defender_thin_the_attackers_before_they_strike():
    """Seed 004, First Strike: it applies when retaliating too; the attacker fights with its survivors."""
    result = scripted(brawl(target_skills=FIRST_STRIKE), [B, B, B], RULEBOOK)
    assert result.retaliation is not None
    assert result.retaliation.models_removed == 2
    assert result.weapons[0].dice == 1
    assert result.models_removed == 1


def test_it_resolves_two_first_strikes_at_the_same_time():
    """Seed 004, First Strike: when both sides have it they strike simultaneously."""
    request = brawl(attacker_skills=FIRST_STRIKE, target_skills=FIRST_STRIKE)
    result = scripted(request, [B, S, S, B, B], RULEBOOK)
    assert result.retaliation is not None
    assert result.retaliation.weapons[0].dice == 2


def test_it_gives_a_higher_defender_first_strike_under_rtz():
    """Seed 002, I Have the High Ground: a defender at a higher elevation gains First Strike."""
    request = brawl()
    higher = attack(
        *request.weapons,
        target=request.target,
        attacker=request.attacker,
        conditions=Conditions(height=Height.TARGET_HIGHER),
    )
    result = scripted(higher, [B, B, B], RTZ)
    assert result.weapons[0].dice == 1


def test_it_denies_the_high_ground_against_a_flying_attacker():
    """Seed 002, I Have the High Ground: it does not apply if the attacking unit has Flying."""
    flyers = infantry(models=3, skills=frozenset({Skill.FLYING}))
    request = attack(
        improvised_weapon(3),
        target=infantry(models=2),
        attacker=flyers,
        conditions=Conditions(height=Height.TARGET_HIGHER),
    )
    result = scripted(request, [B, S, S, B, B], RTZ)
    assert result.weapons[0].dice == 3


def test_it_lets_no_stunned_or_grappled_unit_strike_back():
    """Seed 001, Tesla and Grapple Weapons: a stunned or grappled unit cannot fight back in close combat."""
    for state in ("stunned", "grappled"):
        result = scripted(brawl(**{state: True}), [B, S, S], RULEBOOK)
        assert result.retaliation is None


def test_it_stops_retaliation_when_a_first_strike_stuns_the_target():
    """Seed 004, First Strike: a first-strike attack that stuns the target leaves it unable to retaliate."""
    shock = weapon("1/1", kind=WeaponKind.TESLA, close_combat=True)
    request = attack(shock, target=infantry(models=2), attacker=infantry(models=1, skills=FIRST_STRIKE))
    result = scripted(request, [B], RULEBOOK)
    assert result.stunned
    assert result.retaliation is None


def test_it_removes_ranged_casualties_before_close_combat():
    """Seed 004, Resolve close combat: ranged attacks resolve first and their casualties are removed."""
    gun = weapon("1/1")
    request = attack(gun, improvised_weapon(1), target=infantry(models=2), attacker=infantry(models=1))
    # gun hits, no infantry save; improvised misses; the one survivor strikes back.
    result = scripted(request, [B, S, S, B], RULEBOOK)
    assert result.retaliation is not None
    assert result.retaliation.weapons[0].dice == 1


def test_it_never_sustains_the_retaliation():
    """Seed 004, Resolve close combat: the retaliatory attack is not a sustained attack."""
    request = attack(
        improvised_weapon(1),
        target=infantry(models=1),
        attacker=infantry(models=1),
        sustained=True,
        sustained_close_combat=True,
    )
    result = scripted(request, [S, S, S], RULEBOOK)  # miss, re-roll miss, retaliation miss with no re-roll
    assert result.retaliation is not None
    assert [record.purpose for record in result.retaliation.log] == ["weapons[0] hit"]


def test_it_retaliates_with_the_target_s_own_close_combat_weapons():
    """Seed 004, Resolve close combat: the target fights back with its close-combat weapons."""
    claws = weapon("2/2", close_combat=True, name="claws")
    walker = vehicle(damage=6, cc_weapons=(claws,))
    request = attack(improvised_weapon(2), target=walker, attacker=infantry(models=2))
    result = scripted(request, [S, S, B, S], RULEBOOK)
    assert result.retaliation is not None
    assert (result.retaliation.weapons[0].name, result.retaliation.models_removed) == ("claws", 1)


def test_it_refuses_close_combat_against_aircraft():
    """Seed 004, Resolve close combat: aircraft take no part in close combat."""
    claws = weapon("1/1", close_combat=True)
    with pytest.raises(EngineInputError) as error:
        scripted(attack(claws, target=aircraft()), [])
    assert error.value.field == "target.unit_class"
