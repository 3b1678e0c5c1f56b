"""Exact odds on small attacks, worked out by hand (one die is 1/3 per face)."""

from __future__ import annotations

from fractions import Fraction as F  # noqa: N817 - keeps hand-worked fractions readable

from rules.engine import Skill, WeaponKind, attack_odds

from .attack_builders import RTZ, RULEBOOK, attack, hero, infantry, vehicle, weapon


def test_it_gives_the_odds_of_one_die_against_an_open_vehicle():
    """Seed 004, Attack: one die hits on [BLOC], 1 in 3; a hit that does damage may be critical (1 in 9)."""
    odds = attack_odds(request=attack(weapon("1/1"), target=vehicle(damage=3)), ruleset=RTZ)
    assert odds.hits.probabilities == (F(2, 3), F(1, 3))
    assert odds.saved.probabilities == (F(1),)
    assert odds.damage_removed.probabilities == (F(2, 3), F(1, 3), F(0), F(0))
    assert odds.models_removed.probabilities == (F(1), F(0))
    assert (odds.p_destroyed, odds.p_critical_hit) == (F(0), F(1, 27))


def test_it_gives_the_odds_of_a_sustained_attack():
    """Seed 004, Sustained Attack: a re-rolled miss makes each die hit 5 times in 9."""
    odds = attack_odds(request=attack(weapon("2/1"), target=vehicle(), sustained=True), ruleset=RTZ)
    assert odds.hits.probabilities == (F(16, 81), F(40, 81), F(25, 81))
    assert odds.hits.expected == F(10, 9)


def test_it_gives_the_odds_of_a_hit_on_infantry_in_cover():
    """Seed 000, Cover Save: a hit on infantry in cover is saved 2 times in 3."""
    odds = attack_odds(request=attack(weapon("1/1"), target=infantry(in_cover=True)), ruleset=RTZ)
    assert odds.saved.probabilities == (F(7, 9), F(2, 9))
    assert odds.unsaved.probabilities == (F(8, 9), F(1, 9))
    assert odds.models_removed.probabilities[:2] == (F(8, 9), F(1, 9))


def test_it_gives_the_odds_of_a_laser_chain():
    """Seed 001, Laser Weapons: each further [BLOC] adds a hit, so k hits has chance (1/3)^k (2/3)."""
    odds = attack_odds(
        request=attack(weapon("1/1", kind=WeaponKind.LASER), target=vehicle(damage=2)), ruleset=RTZ
    )
    assert odds.hits.probabilities[:4] == (F(2, 3), F(2, 9), F(2, 27), F(2, 81))
    assert odds.hits.tail
    assert sum(odds.hits.probabilities) == 1
    assert odds.hits.expected == F(1, 2)
    assert odds.p_destroyed == F(1, 9)


def test_it_gives_the_odds_of_damage_resilient():
    """Seed 004, Damage Resilient: each point of a 2-damage hit is negated 1 time in 3."""
    tank = vehicle(damage=5, skills=frozenset({Skill.DAMAGE_RESILIENT}))
    odds = attack_odds(request=attack(weapon("1/2"), target=tank), ruleset=RULEBOOK)
    assert odds.damage.probabilities == (F(19, 27), F(4, 27), F(4, 27))
    assert odds.damage.expected == F(4, 9)


def test_it_gives_the_odds_of_an_automatic_kill_against_rtz_damage_resilient():
    """Seed 002, Damage Resilient: 3 of the KV-47's 5 points are rolled for, all must fail to negate."""
    kv47 = vehicle(armour=5, damage=5, skills=frozenset({Skill.DAMAGE_RESILIENT}))
    odds = attack_odds(request=attack(weapon("1/AK"), target=kv47), ruleset=RTZ)
    assert odds.p_destroyed == F(1, 3) * F(2, 3) ** 3
    assert odds.damage.probabilities == (F(2, 3), F(0), F(1, 81), F(6, 81), F(12, 81), F(8, 81))


def test_it_gives_the_odds_of_cheating_death():
    """Seed 004, Cheat Death: an eliminated hero comes back 2 times in 3."""
    survivor = hero(damage=1, skills=frozenset({Skill.CHEAT_DEATH}))
    odds = attack_odds(request=attack(weapon("1/1"), target=survivor), ruleset=RTZ)
    assert odds.p_cheat_death == F(2, 9) * F(2, 3)
    assert odds.p_destroyed == F(2, 27)


def test_it_gives_the_odds_of_a_sniper_picking_one_miniature():
    """Seed 001, Sniper Weapons: every hit lands on one chosen miniature, so at most one falls."""
    sniper = weapon("2/1", kind=WeaponKind.SNIPER, snipe=True)
    odds = attack_odds(request=attack(sniper, target=infantry(models=3)), ruleset=RTZ)
    assert odds.models_removed.probabilities == (F(4, 9), F(5, 9), F(0), F(0))


def test_it_gives_the_odds_of_destroying_a_squad_of_two_point_models():
    """Seed 004, Attack step 6: a 3-damage hit kills one 2-point soldier; both must be hit and not saved."""
    squad = infantry(models=2, damage_per_model=2)
    odds = attack_odds(request=attack(weapon("2/3"), target=squad), ruleset=RTZ)
    assert odds.p_destroyed == (F(1, 3) * F(2, 3)) ** 2
    assert odds.damage_removed.expected == 2 * odds.models_removed.expected


def test_it_works_out_the_expected_values_exactly_even_with_a_tail():
    """The expected values of chain weapons come from a closed form, not from the cut distribution."""
    laser = weapon("20/2", kind=WeaponKind.LASER)
    tank = vehicle(damage=6, in_cover=True, skills=frozenset({Skill.DAMAGE_RESILIENT}))
    odds = attack_odds(request=attack(laser, target=tank, sustained=True), ruleset=RTZ)
    assert odds.hits.expected == 20 * F(5, 9) * F(3, 2)
    assert odds.unsaved.expected == odds.hits.expected * F(2, 3)
    assert odds.damage.expected == odds.unsaved.expected * F(4, 3)
