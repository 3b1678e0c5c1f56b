"""Rolling to hit: attack and sustained attack, hit faces, and each special weapon's dice (seeds 001, 004)."""

from __future__ import annotations

import pytest

from rules.engine import EngineInputError, Skill, WeaponKind, WeaponTrait
from rules.engine.dice import BLOC_ONLY, BLOC_OR_TARGET
from rules.engine.plan import build_plan

from .attack_builders import RTZ, RULEBOOK, B, S, T, attack, infantry, scripted, vehicle, weapon

# A target with no save at all, so the dice below are only hit dice.
OPEN_TANK = vehicle(armour=4, damage=9)
NO_CRIT = [S, S]  # the attacker's critical-hit check after damage that did not destroy the vehicle


def test_it_hits_on_bloc_only_in_a_plain_attack():
    """Seed 004, Attack step 4: each [BLOC] rolled is a hit."""
    result = scripted(attack(weapon("3/1"), target=OPEN_TANK), [B, T, S, *NO_CRIT])
    assert (result.hits, result.damage_removed) == (1, 1)


def test_it_rerolls_every_miss_once_in_a_sustained_attack():
    """Seed 004, Sustained Attack: after the roll, all misses are re-rolled once."""
    request = attack(weapon("3/1"), target=OPEN_TANK, sustained=True)
    result = scripted(request, [B, T, S, B, T, *NO_CRIT])
    assert result.hits == 2
    assert [r.purpose for r in result.log][3:5] == ["weapons[0] re-roll of a miss"] * 2


def test_it_hits_on_bloc_or_target_with_an_expert_weapon():
    """Seed 004, Expert (weapon): hits on [BLOC] as well as [TARGET] with the named weapon."""
    result = scripted(attack(weapon("3/1", expert=True), target=OPEN_TANK), [B, T, S, *NO_CRIT])
    assert result.hits == 2


def test_it_hits_on_bloc_or_target_with_savage_animal():
    """Seed 004, Savage Animal: hits on two faces with the specified weapon."""
    plan = build_plan(attack(weapon("2/1", savage_animal=True), target=OPEN_TANK), RTZ)
    assert plan.weapons[0].hit_faces == BLOC_OR_TARGET


def test_it_uses_a_power_scope_only_in_a_sustained_attack():
    """Seed 001, Power Scopes: two hit faces when making a sustained attack, one otherwise."""
    scoped = weapon("2/1", traits=[WeaponTrait.POWER_SCOPE])
    assert build_plan(attack(scoped, target=OPEN_TANK), RTZ).weapons[0].hit_faces == BLOC_ONLY
    sustained = build_plan(attack(scoped, target=OPEN_TANK, sustained=True), RTZ)
    assert sustained.weapons[0].hit_faces == BLOC_OR_TARGET


def test_it_lets_a_spotter_widen_sniper_hits_in_a_sustained_attack():
    """Seed 004, Spotters: a spotter holding fire makes sniper weapons hit on two faces when sustained."""
    sniper = weapon("1/1", kind=WeaponKind.SNIPER)
    spotted = build_plan(attack(sniper, target=infantry(), sustained=True, spotter=True), RTZ)
    assert spotted.weapons[0].hit_faces == BLOC_OR_TARGET
    plain = build_plan(attack(sniper, target=infantry(), spotter=True), RTZ)
    assert plain.weapons[0].hit_faces == BLOC_ONLY


def test_it_widens_every_weapon_with_fighting_spirit():
    """Seed 004, Fighting Spirit: the unit hits on [BLOC] or [TARGET] in an attack or sustained attack."""
    shooter = infantry(skills=frozenset({Skill.FIGHTING_SPIRIT}))
    request = attack(weapon("2/1"), weapon("1/1"), target=OPEN_TANK, attacker=shooter, fighting_spirit=True)
    assert {w.hit_faces for w in build_plan(request, RTZ).weapons} == {BLOC_OR_TARGET}


def test_it_rolls_laser_follow_ups_until_a_miss():
    """Seed 001, Laser Weapons: each hit rolls another die, a further hit on [BLOC], until a miss."""
    laser = weapon("1/1", kind=WeaponKind.LASER)
    result = scripted(attack(laser, target=OPEN_TANK), [B, B, B, T, *NO_CRIT])
    assert result.hits == 3
    assert [r.purpose for r in result.log][1:4] == ["weapons[0] follow-up"] * 3


def test_it_counts_target_only_on_the_first_laser_roll():
    """Seed 001, Laser Weapons: with a two-face rule [TARGET] hits on the first roll only."""
    laser = weapon("1/1", kind=WeaponKind.LASER, expert=True)
    result = scripted(attack(laser, target=OPEN_TANK), [T, T, *NO_CRIT])
    assert result.hits == 1


def test_it_counts_target_only_on_the_first_cutting_roll():
    """Seed 001, Cutting Weapons: follow-ups hit on [BLOC] only, even for an expert."""
    saw = weapon("2/1", kind=WeaponKind.CUTTING, expert=True, close_combat=True)
    result = scripted(attack(saw, target=OPEN_TANK), [T, S, B, B, S, *NO_CRIT], RULEBOOK)
    assert result.hits == 3


def test_it_never_rerolls_laser_follow_ups_in_a_sustained_attack():
    """Seed 004, Laser Weapons skill: misses of the initial roll are re-rolled, follow-ups are not."""
    laser = weapon("1/1", kind=WeaponKind.LASER)
    result = scripted(attack(laser, target=OPEN_TANK, sustained=True), [S, B, T, *NO_CRIT])
    assert result.hits == 1
    assert [r.purpose for r in result.log][:3] == [
        "weapons[0] hit",
        "weapons[0] re-roll of a miss",
        "weapons[0] follow-up",
    ]


def test_it_rolls_a_blast_die_per_model_touched():
    """Seed 004, Blast: one die per miniature in the target unit, per B symbol."""
    squad = infantry(models=4)
    assert build_plan(attack(weapon("B/1"), target=squad), RTZ).weapons[0].dice == 4
    assert build_plan(attack(weapon("BB/1"), target=squad), RTZ).weapons[0].dice == 8
    assert build_plan(attack(weapon("B/1", models_touched=3), target=squad), RTZ).weapons[0].dice == 3
    assert build_plan(attack(weapon("BB/1"), target=OPEN_TANK), RTZ).weapons[0].dice == 2


def test_it_rolls_the_weapon_of_every_model_carrying_it():
    """Seed 004, Declare target units: infantry fire the weapons of every surviving soldier."""
    assert build_plan(attack(weapon("2/1", count=3), target=OPEN_TANK), RTZ).weapons[0].dice == 6


def test_it_doubles_the_dice_of_a_salvo_and_spends_the_loaded_token():
    """Seed 001, Salvo Weapons: a salvo rolls twice the dice and removes the loaded token."""
    salvo = weapon("2/1", traits=[WeaponTrait.SALVO], fire_salvo=True)
    result = scripted(attack(salvo, target=OPEN_TANK), [S] * 4)
    assert result.weapons[0].dice == 4
    assert result.ammo[0].loaded is False


def test_it_keeps_the_salvo_token_on_a_normal_attack():
    """Seed 001, Salvo Weapons: a normal attack keeps the loaded token."""
    salvo = weapon("2/1", traits=[WeaponTrait.SALVO])
    result = scripted(attack(salvo, target=OPEN_TANK), [S, S])
    assert (result.weapons[0].dice, result.ammo[0].loaded) == (2, True)


def test_it_refuses_a_salvo_or_reload_weapon_without_its_loaded_token():
    """Seed 001, Reload and Salvo Weapons: the weapon must be reloaded before firing again."""
    for traits in ([WeaponTrait.SALVO], [WeaponTrait.RELOAD]):
        empty = weapon("2/1", traits=traits, loaded=False)
        with pytest.raises(EngineInputError) as error:
            scripted(attack(empty, target=OPEN_TANK), [])
        assert error.value.field == "weapons[0].loaded"


def test_it_spends_the_loaded_token_of_a_reload_weapon():
    """Seed 001, Reload Weapons: firing removes the loaded token."""
    gun = weapon("1/1", traits=[WeaponTrait.RELOAD])
    assert scripted(attack(gun, target=OPEN_TANK), [S]).ammo[0].loaded is False


def test_it_multiplies_volley_dice_by_the_rockets_fired_and_marks_that_many_boxes():
    """Seed 001, Volley Weapons: dice times rockets fired; as many ammo boxes marked."""
    rockets = weapon("2/1", traits=[WeaponTrait.VOLLEY], ammo=4, volley=3)
    result = scripted(attack(rockets, target=OPEN_TANK), [S] * 6)
    assert (result.weapons[0].dice, result.ammo[0].ammo) == (6, 1)


def test_it_marks_one_limited_ammo_box_per_attack_even_when_the_dice_miss():
    """Seed 001, Limited Ammo Weapons: a box is marked each attack with the weapon."""
    rocket = weapon("1/1", traits=[WeaponTrait.LIMITED_AMMO], ammo=2)
    assert scripted(attack(rocket, target=OPEN_TANK), [S]).ammo[0].ammo == 1


def test_it_refuses_a_limited_ammo_weapon_with_every_box_marked():
    """Seed 001, Limited Ammo Weapons: once every box is marked the weapon cannot fire."""
    rocket = weapon("1/1", traits=[WeaponTrait.LIMITED_AMMO], ammo=0)
    with pytest.raises(EngineInputError) as error:
        scripted(attack(rocket, target=OPEN_TANK), [])
    assert error.value.field == "weapons[0].ammo"


def test_it_rerolls_misses_of_a_lone_wire_guided_weapon():
    """Seed 001, Wire-guided Weapons: one wire-guided weapon alone re-rolls misses as if sustained."""
    missile = weapon("1/3", kind=WeaponKind.WIRE_GUIDED)
    assert build_plan(attack(missile, target=OPEN_TANK), RTZ).weapons[0].reroll_misses
    paired = build_plan(attack(missile, weapon("1/1"), target=OPEN_TANK), RTZ)
    assert not paired.weapons[0].reroll_misses


def test_it_denies_light_infantry_flamers_the_sustained_reroll():
    """Seed 001, Flame Weapons: flamers carried by class 1-2 infantry do not re-roll failed dice."""
    flamer = weapon("2/1", kind=WeaponKind.FLAME)
    light = build_plan(attack(flamer, target=OPEN_TANK, sustained=True, attacker=infantry(armour=2)), RTZ)
    heavy = build_plan(attack(flamer, target=OPEN_TANK, sustained=True, attacker=infantry(armour=3)), RTZ)
    assert (light.weapons[0].reroll_misses, heavy.weapons[0].reroll_misses) == (False, True)


def test_it_sustains_only_the_part_of_the_attack_the_player_chose():
    """Seed 004, Resolve close combat: a sustained attack sustains either ranged or close-combat weapons."""
    gun, claw = weapon("1/1"), weapon("1/1", close_combat=True)
    ranged = build_plan(attack(gun, claw, target=OPEN_TANK, sustained=True), RTZ)
    assert [(w.close_combat, w.reroll_misses) for w in ranged.weapons] == [(False, True), (True, False)]
    melee = build_plan(attack(gun, claw, target=OPEN_TANK, sustained=True, sustained_close_combat=True), RTZ)
    assert [(w.close_combat, w.reroll_misses) for w in melee.weapons] == [(False, False), (True, True)]


def test_it_suppresses_outright_on_a_flame_hit_even_when_saved():
    """Seed 001, Flame Weapons: units hit gain a suppression token."""
    flamer = weapon("1/1", kind=WeaponKind.FLAME)
    result = scripted(attack(flamer, target=vehicle(in_smoke=True)), [B, B], RTZ)  # hit, then evaded
    assert (result.unsaved, result.suppression.hit, result.suppression.automatic) == (0, True, True)


def test_it_stuns_a_unit_that_takes_tesla_damage():
    """Seed 001, Tesla Weapons: a unit that takes damage receives a stunned token."""
    tesla = weapon("1/1", kind=WeaponKind.TESLA)
    assert scripted(attack(tesla, target=OPEN_TANK), [B, *NO_CRIT]).stunned
    assert not scripted(attack(tesla, target=OPEN_TANK), [S]).stunned


def test_it_grapples_a_unit_hit_by_a_grapple_weapon():
    """Seed 001, Grapple Weapons: a hit places a grappled token on the target."""
    claw = weapon("1/1", kind=WeaponKind.GRAPPLE, close_combat=True)
    assert scripted(attack(claw, target=OPEN_TANK), [B, *NO_CRIT], RULEBOOK).grappled


def test_it_reports_a_ranged_hit_for_suppression_even_when_saved():
    """Seed 004, Attack step 7: a unit hit by an attack takes suppression, saved or not."""
    result = scripted(attack(weapon("1/1"), target=infantry(in_cover=True)), [B, S])
    assert (result.unsaved, result.suppression.hit, result.suppression.close_combat) == (0, True, False)


def test_it_reports_no_suppression_from_close_combat():
    """Seed 004, Attack step 7: units do not take suppression from close-combat attacks."""
    claw = weapon("1/1", close_combat=True)
    result = scripted(attack(claw, target=OPEN_TANK), [B, *NO_CRIT], RULEBOOK)
    assert (result.suppression.hit, result.suppression.close_combat) == (False, True)


def test_it_suppresses_outright_with_and_stay_down():
    """Seed 004, And Stay Down: a unit hit by this unit's ranged weapons gains a suppression token."""
    shooter = infantry(skills=frozenset({Skill.AND_STAY_DOWN}))
    result = scripted(attack(weapon("1/1"), target=infantry(), attacker=shooter), [B, B])
    assert result.suppression.automatic


def test_it_suppresses_outright_on_a_flame_burst_hit():
    """Seed 001, Flame Burst: units hit gain a suppression token."""
    burst = weapon("1/1", kind=WeaponKind.FLAME_BURST)
    result = scripted(attack(burst, target=vehicle(in_smoke=True)), [B, B], RTZ)  # hit, then evaded
    assert (result.suppression.hit, result.suppression.automatic) == (True, True)
