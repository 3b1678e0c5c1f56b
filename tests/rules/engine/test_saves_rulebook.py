"""Rulebook saves and the save modifiers shared by both rule sets (seeds 001, 002, 004)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.engine import Conditions, Fortification, Height, RuleSet, SaveType, Skill, Target, WeaponKind
from rules.engine.dice import BLOC_ONLY, BLOC_OR_SHIELD
from rules.engine.saves import SaveStage, save_stages, unsaved_probability

from .attack_builders import RTZ, RULEBOOK, infantry, vehicle

COVER, INFANTRY = SaveType.COVER, SaveType.INFANTRY


def found(
    target: Target,
    kind: WeaponKind = WeaponKind.STANDARD,
    *,
    ruleset: RuleSet = RULEBOOK,
    close_combat: bool = False,
    conditions: Conditions | None = None,
) -> tuple[SaveStage, ...]:
    return save_stages(
        kind=kind,
        close_combat=close_combat,
        target=target,
        conditions=conditions or Conditions(),
        ruleset=ruleset,
    )


def faces(stages: tuple[SaveStage, ...]) -> list[tuple[SaveType, frozenset[object]]]:
    return [(stage.save, stage.faces) for stage in stages]


def test_it_gives_infantry_in_cover_a_save_on_bloc_or_shield():
    """Seed 004, Attack step 5: infantry in cover negate a hit on [BLOC] or [SHIELD]."""
    assert faces(found(infantry(in_cover=True))) == [(COVER, BLOC_OR_SHIELD)]


def test_it_gives_a_vehicle_in_cover_a_save_on_bloc():
    """Seed 004, Attack step 5: a vehicle in cover negates a hit on [BLOC]."""
    assert faces(found(vehicle(in_cover=True))) == [(COVER, BLOC_ONLY)]


def test_it_gives_infantry_out_of_cover_the_infantry_save():
    """Seed 004, Attack step 5: infantry not in cover get an infantry save on [BLOC]."""
    assert faces(found(infantry())) == [(INFANTRY, BLOC_ONLY)]


def test_it_treats_rulebook_smoke_as_cover():
    """Seed 004, Line of sight: units in smoke can be targeted but are in cover."""
    assert faces(found(infantry(in_smoke=True))) == [(COVER, BLOC_OR_SHIELD)]


def test_it_gives_infantry_in_a_trench_cover():
    """Seed 004, Trenches (and seed 002): infantry in trenches are in cover."""
    assert faces(found(infantry(in_trench=True))) == [(COVER, BLOC_OR_SHIELD)]


def test_it_lets_snipers_negate_cover_and_infantry_saves():
    """Seed 001/004, Sniper Weapons: cover and infantry saves are negated."""
    assert found(infantry(in_cover=True), WeaponKind.SNIPER) == ()
    assert found(infantry(), WeaponKind.SNIPER) == ()


def test_it_lets_phasers_negate_cover_but_keeps_the_infantry_save():
    """Seed 001/004, Phaser Weapons: no cover save, infantry keep their infantry save."""
    assert faces(found(infantry(in_cover=True), WeaponKind.PHASER)) == [(INFANTRY, BLOC_ONLY)]
    assert found(vehicle(in_cover=True), WeaponKind.PHASER) == ()


@pytest.mark.parametrize("kind", [WeaponKind.FLAME, WeaponKind.FLAME_BURST])
def test_it_lets_flame_weapons_negate_infantry_and_cover_saves(kind):
    """Seed 004, Flame Weapons and Flame Burst: no infantry or cover save."""
    assert found(infantry(in_cover=True), kind) == ()
    assert found(infantry(), kind) == ()


def test_it_lets_artillery_skip_the_infantry_save_but_not_cover():
    """Seed 004, Artillery Weapons: infantry in cover save, infantry in the open do not."""
    assert found(infantry(), WeaponKind.ARTILLERY) == ()
    assert faces(found(infantry(in_cover=True), WeaponKind.ARTILLERY)) == [(COVER, BLOC_OR_SHIELD)]


def test_it_lets_grenades_negate_infantry_cover_but_not_vehicle_cover():
    """Seed 004, Grenade Weapons: infantry lose cover but keep the infantry save; vehicles keep cover."""
    assert faces(found(infantry(in_cover=True), WeaponKind.GRENADE)) == [(INFANTRY, BLOC_ONLY)]
    assert faces(found(vehicle(in_cover=True), WeaponKind.GRENADE)) == [(COVER, BLOC_ONLY)]
    assert faces(found(infantry(in_cover=True), WeaponKind.GRENADE, ruleset=RTZ)) == [(INFANTRY, BLOC_ONLY)]


def test_it_gives_no_cover_or_infantry_save_against_close_combat():
    """Seed 004, Resolve close combat: close-combat hits ignore cover and infantry saves."""
    assert found(infantry(in_cover=True), close_combat=True) == ()
    assert found(vehicle(in_cover=True), close_combat=True) == ()


def test_it_rerolls_failed_saves_in_a_bunker_on_bloc_or_shield():
    """Seed 004, Fortifications: in a bunker failed infantry or cover saves re-roll on [BLOC] or [SHIELD]."""
    (stage,) = found(infantry(fortification=Fortification.BUNKER))
    assert stage.reroll_failure == BLOC_OR_SHIELD
    assert stage.probability == Fraction(2, 3) + Fraction(1, 3) * Fraction(2, 3)


def test_it_rerolls_failed_saves_in_a_strongpoint_on_bloc():
    """Seed 004, Fortifications: units in strongpoints re-roll failed saves, cancelling on [BLOC]."""
    (stage,) = found(infantry(fortification=Fortification.STRONGPOINT))
    assert stage.reroll_failure == BLOC_ONLY
    assert stage.probability == Fraction(2, 3) + Fraction(1, 3) * Fraction(1, 3)


def test_it_gives_a_fortified_unit_its_own_save_against_close_combat():
    """Seed 004, Fortifications: units inside save against close combat, bunkers on [BLOC]/[SHIELD]."""
    assert faces(found(infantry(fortification=Fortification.BUNKER), close_combat=True)) == [
        (SaveType.FORTIFICATION, BLOC_OR_SHIELD)
    ]
    assert faces(found(infantry(fortification=Fortification.STRONGPOINT), close_combat=True)) == [
        (SaveType.FORTIFICATION, BLOC_ONLY)
    ]


def test_it_replaces_the_fortification_rerolls_with_structural_saves_under_rtz():
    """Seed 002, Strongpoints and Bunkers: structural saves replace the re-rolls, after cover."""
    stages = found(infantry(fortification=Fortification.BUNKER), ruleset=RTZ)
    assert [stage.save for stage in stages] == [COVER, SaveType.IMPROVED_STRUCTURAL]
    assert stages[0].reroll_failure is None


def test_it_makes_the_target_reroll_successful_saves_when_the_attacker_is_higher():
    """Seed 004, Height Advantage: successful infantry or cover saves are re-rolled once."""
    higher = Conditions(height=Height.ATTACKER_HIGHER)
    (stage,) = found(infantry(in_cover=True), conditions=higher)
    assert stage.reroll_success
    assert stage.probability == Fraction(4, 9)


def test_it_lets_a_higher_target_reroll_failed_saves_in_the_rulebook():
    """Seed 004, Height Advantage: a target higher up re-rolls failed infantry or cover saves once."""
    (stage,) = found(infantry(), conditions=Conditions(height=Height.TARGET_HIGHER))
    assert stage.reroll_failure == BLOC_ONLY
    assert stage.probability == Fraction(1, 3) + Fraction(2, 3) * Fraction(1, 3)


def test_it_gives_steel_guard_no_cover_save_but_an_infantry_save_on_bloc_or_shield():
    """Seed 004, Steel Guard: never a cover save, infantry save passes on two faces."""
    target = infantry(armour=3, in_cover=True, skills=frozenset({Skill.STEEL_GUARD}))
    assert faces(found(target)) == [(INFANTRY, BLOC_OR_SHIELD)]


def test_it_keeps_the_steel_guard_infantry_save_against_artillery():
    """Seed 004, Steel Guard: unlike other units their infantry save is not negated by artillery."""
    target = infantry(armour=3, skills=frozenset({Skill.STEEL_GUARD}))
    assert faces(found(target, WeaponKind.ARTILLERY)) == [(INFANTRY, BLOC_OR_SHIELD)]
    zombie = infantry(skills=frozenset({Skill.ZOMBIE}))
    assert found(zombie, WeaponKind.ARTILLERY) == ()


def test_it_gives_zombies_no_cover_save_and_a_sturdy_infantry_save():
    """Seed 004, Zombie: never a cover save, infantry saves pass on two faces."""
    target = infantry(in_cover=True, skills=frozenset({Skill.ZOMBIE}))
    assert faces(found(target)) == [(INFANTRY, BLOC_OR_SHIELD)]


def test_it_gives_superhumans_both_saves_on_bloc_or_shield():
    """Seed 004, Superhumans: normal cover and infantry saves pass on two faces."""
    superhuman = frozenset({Skill.SUPERHUMAN})
    assert faces(found(infantry(models=1, hero=True, skills=superhuman))) == [(INFANTRY, BLOC_OR_SHIELD)]
    covered = infantry(models=1, hero=True, skills=superhuman, in_cover=True)
    assert faces(found(covered)) == [(COVER, BLOC_OR_SHIELD)]


def test_it_lets_steel_guard_use_smoke_under_rtz():
    """Seed 002, Unified Saves: Steel Guards benefit from smoke, which now gives evade instead of cover."""
    target = infantry(armour=3, in_smoke=True, skills=frozenset({Skill.STEEL_GUARD}))
    assert [stage.save for stage in found(target, ruleset=RTZ)] == [SaveType.EVADE, INFANTRY]
    assert [stage.save for stage in found(target)] == [INFANTRY]


def test_it_makes_targets_reroll_successful_saves_against_radiation():
    """Seed 004, Radiation: targets must re-roll successful saves against this weapon."""
    stages = found(infantry(in_smoke=True), WeaponKind.RADIATION, ruleset=RTZ)
    assert all(stage.reroll_success for stage in stages)
    assert unsaved_probability(stages) == (1 - Fraction(1, 9)) ** 2


def test_it_gives_cover_from_severe_weather_that_no_weapon_removes():
    """Seed 004, Severe Weather: cover at range 3+ that special weapon rules do not negate."""
    weather = Conditions(weather_cover=True, distance=4)
    assert faces(found(infantry(), WeaponKind.SNIPER, conditions=weather)) == [(COVER, BLOC_OR_SHIELD)]
    assert faces(found(vehicle(), WeaponKind.FLAME, conditions=weather, ruleset=RTZ)) == [(COVER, BLOC_ONLY)]


def test_it_rerolls_failed_cover_saves_at_range_five_or_six_in_severe_weather():
    """Seed 004, Severe Weather: units targeted at range 5 or 6 re-roll failed cover saves."""
    weather = Conditions(weather_cover=True, weather_reroll_failed_cover=True, distance=5)
    (stage,) = found(vehicle(), conditions=weather)
    assert stage.reroll_failure == BLOC_ONLY


def test_it_reduces_improved_structural_saves_against_artillery_and_flame_in_the_rulebook():
    """Seed 001, Artillery and Flame Weapons: improved structural saves succeed on [BLOC] only."""
    rulebook_forts = RuleSet(name="rulebook", structural_saves=True)
    bunker = infantry(fortification=Fortification.BUNKER, in_cover=True)
    for kind in (WeaponKind.ARTILLERY, WeaponKind.FLAME):
        last = found(bunker, kind, ruleset=rulebook_forts)[-1]
        assert (last.save, last.faces, last.reduced) == (SaveType.IMPROVED_STRUCTURAL, BLOC_ONLY, True)
    assert found(bunker, WeaponKind.ARTILLERY, ruleset=RTZ)[-1].faces == BLOC_OR_SHIELD


def test_it_leaves_flame_burst_targets_only_a_reduced_improved_structural_save():
    """Seed 001, Flame Burst: no structural, infantry or cover save; improved structural is reduced."""
    rulebook_forts = RuleSet(name="rulebook", structural_saves=True)
    in_the_open = infantry()
    in_cover = infantry(in_cover=True)
    in_a_strongpoint = infantry(fortification=Fortification.STRONGPOINT, in_cover=True)
    in_a_bunker = infantry(fortification=Fortification.BUNKER, in_cover=True)

    assert found(in_the_open, WeaponKind.FLAME_BURST, ruleset=rulebook_forts) == ()
    assert found(in_cover, WeaponKind.FLAME_BURST, ruleset=rulebook_forts) == ()
    assert found(in_a_strongpoint, WeaponKind.FLAME_BURST, ruleset=rulebook_forts) == ()
    (only,) = found(in_a_bunker, WeaponKind.FLAME_BURST, ruleset=rulebook_forts)
    assert (only.save, only.faces, only.reduced) == (SaveType.IMPROVED_STRUCTURAL, BLOC_ONLY, True)
