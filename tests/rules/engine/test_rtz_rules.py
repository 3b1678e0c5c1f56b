"""Return to Zverograd special rules that change attacks (seed 002)."""

from __future__ import annotations

from fractions import Fraction

from rules.engine import Conditions, Fortification, Height, RuleSet, SaveType, Skill, WeaponKind, save_stages
from rules.engine.dice import BLOC_OR_SHIELD
from rules.engine.plan import build_plan
from rules.engine.weapons import improvised_weapon

from .attack_builders import RTZ, RULEBOOK, attack, infantry, vehicle, weapon


def resilient(request, ruleset=RTZ):
    return build_plan(request, ruleset).weapons[0].resilient


def test_it_makes_every_vehicle_damage_resilient_in_close_combat():
    """Seed 002, Damage Resilient: all vehicles, every class, resist close-combat damage."""
    for armour in (1, 7):
        claws = attack(weapon("1/2", close_combat=True), target=vehicle(armour=armour))
        assert resilient(claws) == 2


def test_it_makes_class_three_and_four_infantry_damage_resilient_in_close_combat():
    """Seed 002, Damage Resilient: class 3 and 4 infantry resist close-combat damage, lighter ones do not."""
    assert resilient(attack(improvised_weapon(1), target=infantry(armour=3))) == 1
    assert resilient(attack(improvised_weapon(1), target=infantry(armour=4))) == 1
    assert resilient(attack(improvised_weapon(1), target=infantry(armour=2))) == 0


def test_it_keeps_the_close_combat_resilience_out_of_ranged_attacks_and_the_rulebook():
    """Seed 002, Damage Resilient: the grant is against close combat only, and only under RtZ."""
    assert resilient(attack(weapon("1/2"), target=vehicle())) == 0
    assert resilient(attack(weapon("1/2", close_combat=True), target=vehicle()), RULEBOOK) == 0


def test_it_resists_only_half_of_an_automatic_kill_rounded_up():
    """Seed 002, Damage Resilient: the KV-47 example, 5 damage from [DEATH] rolls 3 dice."""
    kv47 = vehicle(armour=5, damage=5, skills=frozenset({Skill.DAMAGE_RESILIENT}))
    assert resilient(attack(weapon("1/AK"), target=kv47)) == 3
    assert resilient(attack(weapon("1/AK"), target=vehicle(damage=4, skills=kv47.skills))) == 2


def test_it_gives_infantry_in_a_trench_an_improved_structural_save_against_artillery():
    """Seed 002, Trenches: trenches give an improved structural save against artillery, after cover."""
    found = save_stages(
        kind=WeaponKind.ARTILLERY,
        close_combat=False,
        target=infantry(in_trench=True),
        conditions=Conditions(),
        ruleset=RTZ,
    )
    assert [(stage.save, stage.faces) for stage in found] == [
        (SaveType.COVER, BLOC_OR_SHIELD),
        (SaveType.IMPROVED_STRUCTURAL, BLOC_OR_SHIELD),
    ]
    plain = save_stages(
        kind=WeaponKind.STANDARD,
        close_combat=False,
        target=infantry(in_trench=True),
        conditions=Conditions(),
        ruleset=RTZ,
    )
    assert [stage.save for stage in plain] == [SaveType.COVER]
    without = save_stages(
        kind=WeaponKind.ARTILLERY,
        close_combat=False,
        target=infantry(in_trench=True),
        conditions=Conditions(),
        ruleset=RuleSet.rtz(trenches_rtz=False),
    )
    assert [stage.save for stage in without] == [SaveType.COVER]


def test_it_makes_the_target_reroll_infantry_and_cover_saves_but_not_structural_from_above():
    """Seed 002, Height Advantage: firing from higher up forces re-rolls of infantry and cover saves only."""
    found = save_stages(
        kind=WeaponKind.STANDARD,
        close_combat=False,
        target=infantry(fortification=Fortification.STRONGPOINT),
        conditions=Conditions(height=Height.ATTACKER_HIGHER),
        ruleset=RTZ,
    )
    assert [(stage.save, stage.reroll_success) for stage in found] == [
        (SaveType.COVER, True),
        (SaveType.STRUCTURAL, False),
    ]


def test_it_gives_cover_to_a_target_higher_than_the_attacker():
    """Seed 002, Height Advantage: if the attacker is lower by range 1 or more, the target gains cover."""
    found = save_stages(
        kind=WeaponKind.STANDARD,
        close_combat=False,
        target=vehicle(),
        conditions=Conditions(height=Height.TARGET_HIGHER),
        ruleset=RTZ,
    )
    assert [(stage.save, stage.reroll_failure) for stage in found] == [(SaveType.COVER, None)]
    assert found[0].probability == Fraction(1, 3)
