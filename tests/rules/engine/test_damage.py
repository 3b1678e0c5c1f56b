"""Damage: casualties, damage tracks, automatic kills, Damage Resilient, critical hits, Cheat Death."""

from __future__ import annotations

from rules.engine import CriticalHit, Skill, WeaponKind
from rules.engine.plan import build_plan

from .attack_builders import RULEBOOK, B, S, T, attack, hero, infantry, scripted, vehicle, weapon

NO_CRIT = [S, S]
RESILIENT = frozenset({Skill.DAMAGE_RESILIENT})


def test_it_removes_one_soldier_per_unsaved_hit():
    """Seed 004, Attack step 6: each unsaved hit on an infantry unit eliminates one miniature."""
    result = scripted(attack(weapon("3/2"), target=infantry(models=5)), [B, B, S, S, S])
    assert (result.unsaved, result.models_removed, result.models_left) == (2, 2, 3)


def test_it_does_the_line_s_damage_to_a_vehicle_for_each_hit():
    """Seed 004, Attack step 6: each hit on a vehicle does the damage after the slash."""
    result = scripted(attack(weapon("2/3"), target=vehicle(damage=9)), [B, B, *NO_CRIT])
    assert (result.damage_removed, result.damage_taken, result.destroyed) == (6, 6, False)


def test_it_does_the_whole_damage_track_with_an_automatic_kill():
    """Seed 004, Automatic kill: each hit does the unit's full damage capacity."""
    result = scripted(attack(weapon("1/AK"), target=vehicle(damage=5, damage_taken=2)), [B])
    assert (result.damage, result.damage_removed, result.destroyed) == (5, 3, True)


def test_it_loses_damage_beyond_the_model_being_hit():
    """Seed 004, Attack step 6: hits are assigned to miniatures one at a time; a model cannot take more."""
    squad = infantry(models=3, damage_per_model=2)
    result = scripted(attack(weapon("1/3"), target=squad), [B, S])
    assert (result.models_removed, result.damage_removed) == (1, 2)


def test_it_rolls_damage_resilient_dice_per_point_after_saves():
    """Seed 004, Damage Resilient: one die per point of damage, each success negates a point."""
    tank = vehicle(damage=6, skills=RESILIENT)
    result = scripted(attack(weapon("1/2"), target=tank), [B, S, T, *NO_CRIT], RULEBOOK)
    assert (result.damage, result.resisted, result.damage_removed) == (1, 1, 1)


def test_it_gives_steel_guard_damage_resilient():
    """Seed 004, Steel Guard: a unit with this skill also gains Damage Resilient."""
    guards = infantry(armour=3, skills=frozenset({Skill.STEEL_GUARD}))
    assert build_plan(attack(weapon("1/1"), target=guards), RULEBOOK).weapons[0].resilient == 1


def test_it_rolls_every_point_of_an_automatic_kill_in_the_rulebook():
    """Seed 004, Damage Resilient: a damage-resilient unit rolls for every point, automatic kill included."""
    tank = vehicle(damage=5, skills=RESILIENT)
    assert build_plan(attack(weapon("1/AK"), target=tank), RULEBOOK).weapons[0].resilient == 5


def test_it_rolls_critical_hits_on_a_damaged_vehicle_that_survives():
    """Seed 004, Critical Hits: at least 1 damage through, 2 dice; a double gives a result from the table."""
    result = scripted(attack(weapon("1/1"), target=vehicle(damage=5)), [B, B, B, T, T])
    assert result.critical_hit is CriticalHit.ON_FIRE


def test_it_rerolls_a_critical_result_the_vehicle_already_has():
    """Seed 004, Critical Hits: re-roll any result that would duplicate an existing critical hit."""
    burning = vehicle(damage=5, critical_hits=frozenset({CriticalHit.ON_FIRE}))
    result = scripted(attack(weapon("1/1"), target=burning), [B, B, B, T, T, B, S])
    assert result.critical_hit is CriticalHit.TARGETING_SYSTEM_DAMAGED


def test_it_rolls_no_critical_for_a_destroyed_vehicle_or_for_infantry():
    """Seed 004, Critical Hits: only vehicles take them (ruling: a destroyed vehicle is not rolled for)."""
    assert scripted(attack(weapon("1/5"), target=vehicle(damage=5)), [B]).critical_hit is None
    assert scripted(attack(weapon("1/1"), target=infantry()), [B, S]).critical_hit is None


def test_it_rolls_no_critical_against_a_mythos_creature():
    """Seed 004, Mythos Creature: immune to critical hits (and to suppression)."""
    beast = vehicle(damage=5, skills=frozenset({Skill.MYTHOS_CREATURE}))
    result = scripted(attack(weapon("1/1"), target=beast), [B])
    assert result.critical_hit is None
    assert result.suppression.immune


def test_it_lets_a_hero_cheat_death_once():
    """Seed 004, Cheat Death: an eliminated hero rolls a die; on success it keeps 1 point and is stunned."""
    survivor = hero(damage=2, skills=frozenset({Skill.CHEAT_DEATH}))
    result = scripted(attack(weapon("1/AK"), target=survivor), [B, S, B])
    assert (result.cheat_death, result.destroyed, result.damage_taken, result.stunned) == (
        True,
        False,
        1,
        True,
    )
    failed = scripted(attack(weapon("1/AK"), target=survivor), [B, S, T])
    assert (failed.cheat_death, failed.destroyed) == (False, True)


def test_it_lets_no_hero_cheat_death_twice():
    """Seed 004, Cheat Death: a hero can only cheat death once per game."""
    spent = hero(damage=2, skills=frozenset({Skill.CHEAT_DEATH}), cheat_death_used=True)
    result = scripted(attack(weapon("1/AK"), target=spent), [B, S])
    assert (result.cheat_death, result.destroyed) == (None, True)


def test_it_puts_every_sniper_hit_on_the_chosen_miniature():
    """Seed 001, Sniper Weapons: all unsaved hits are assigned to the specified miniature."""
    sniper = weapon("3/1", kind=WeaponKind.SNIPER, snipe=True)
    result = scripted(attack(sniper, target=infantry(models=3)), [B, B, B])
    assert (result.unsaved, result.models_removed) == (3, 1)
    spread = scripted(attack(weapon("3/1", kind=WeaponKind.SNIPER), target=infantry(models=3)), [B, B, B])
    assert spread.models_removed == 3
