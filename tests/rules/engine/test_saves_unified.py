"""RtZ unified saves: the six save types, their order, exclusions and weapon effects (seed 000)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from rules.engine import AircraftMove, Conditions, Fortification, SaveType, Target, WeaponKind, save_stages
from rules.engine.dice import BLOC_ONLY, BLOC_OR_SHIELD
from rules.engine.saves import unsaved_probability

from .attack_builders import RTZ, aircraft, infantry, vehicle

EVADE, IMPROVED_EVADE = SaveType.EVADE, SaveType.IMPROVED_EVADE
COVER, INFANTRY = SaveType.COVER, SaveType.INFANTRY
STRUCTURAL, IMPROVED_STRUCTURAL = SaveType.STRUCTURAL, SaveType.IMPROVED_STRUCTURAL


def stages(
    target: Target,
    kind: WeaponKind = WeaponKind.STANDARD,
    *,
    close_combat: bool = False,
    conditions: Conditions | None = None,
) -> list[tuple[SaveType, frozenset[object]]]:
    found = save_stages(
        kind=kind,
        close_combat=close_combat,
        target=target,
        conditions=conditions or Conditions(),
        ruleset=RTZ,
    )
    return [(stage.save, stage.faces) for stage in found]


def test_it_gives_infantry_in_the_open_an_infantry_save_on_bloc():
    """Seed 000, Infantry Save: infantry not in cover saves each hit on [BLOC]."""
    assert stages(infantry()) == [(INFANTRY, BLOC_ONLY)]


def test_it_gives_infantry_in_cover_a_cover_save_on_bloc_or_shield_and_no_infantry_save():
    """Seed 000, Cover Save: infantry in cover saves on [BLOC] or [SHIELD], instead of its infantry save."""
    assert stages(infantry(in_cover=True)) == [(COVER, BLOC_OR_SHIELD)]


def test_it_gives_a_vehicle_in_cover_a_cover_save_on_bloc_only():
    """Seed 000, Cover Save: a vehicle in cover saves on [BLOC] only."""
    assert stages(vehicle(in_cover=True)) == [(COVER, BLOC_ONLY)]


def test_it_gives_a_vehicle_in_the_open_no_save():
    """Seed 000, Infantry Save: only infantry get the save for diving to the ground."""
    assert stages(vehicle()) == []


def test_it_turns_smoke_into_an_evade_save_rolled_before_the_infantry_save():
    """Seed 000, Smoke Screen and Evade Save: smoke gives evade ([BLOC]), rolled before the infantry save."""
    assert stages(infantry(in_smoke=True)) == [(EVADE, BLOC_ONLY), (INFANTRY, BLOC_ONLY)]


def test_it_gives_a_vehicle_in_smoke_an_evade_save():
    """Seed 000, Smoke Screen: every unit inside a smoke screen gains an evade save."""
    assert stages(vehicle(in_smoke=True)) == [(EVADE, BLOC_ONLY)]


def test_it_lets_cover_shut_out_evade_and_infantry_saves():
    """Seed 000, Cover Save: a squad behind cover inside smoke keeps cover only (the Sturmgrenadiers)."""
    assert stages(infantry(in_cover=True, in_smoke=True)) == [(COVER, BLOC_OR_SHIELD)]


def test_it_gives_back_evade_when_a_weapon_negates_cover():
    """Seed 000, Cover Save example: once cover is negated the smoke's evade save applies again."""
    target = infantry(in_cover=True, in_smoke=True)
    # Flame negates cover and the infantry save but not evade.
    assert stages(target, WeaponKind.FLAME) == [(EVADE, BLOC_ONLY)]


def test_it_gives_back_the_infantry_save_when_a_weapon_negates_cover():
    """Seed 000, Cover Save example: once cover is negated the infantry save applies again."""
    # Phasers negate cover and evade but leave the infantry save.
    assert stages(infantry(in_cover=True, in_smoke=True), WeaponKind.PHASER) == [(INFANTRY, BLOC_ONLY)]


def test_it_gives_a_moving_aircraft_an_evade_save_on_bloc():
    """Seed 000, Evade Save (and seed 004, Aircraft): an aircraft that moved evades on one face."""
    assert stages(aircraft(aircraft_move=AircraftMove.MOVE)) == [(EVADE, BLOC_ONLY)]


def test_it_gives_a_march_moved_aircraft_an_improved_evade_on_bloc_or_shield():
    """Seed 000, Improved Evade Save: saves on [BLOC] or [SHIELD]."""
    assert stages(aircraft(aircraft_move=AircraftMove.MARCH)) == [(IMPROVED_EVADE, BLOC_OR_SHIELD)]


def test_it_gives_a_stationary_aircraft_no_save():
    """Seed 004, Aircraft: an aircraft that has not moved does not evade."""
    assert stages(aircraft()) == []


def test_it_rolls_the_structural_save_of_a_strongpoint_after_the_cover_save():
    """Seed 000, Structural Save: after cover/infantry, saves on [BLOC] (seed 002: strongpoints)."""
    target = infantry(fortification=Fortification.STRONGPOINT)
    assert stages(target) == [(COVER, BLOC_OR_SHIELD), (STRUCTURAL, BLOC_ONLY)]


def test_it_rolls_the_improved_structural_save_of_a_bunker_after_the_cover_save():
    """Seed 000, Improved Structural Save: after cover/infantry, on [BLOC] or [SHIELD] (seed 002: bunkers)."""
    target = infantry(fortification=Fortification.BUNKER)
    assert stages(target) == [(COVER, BLOC_OR_SHIELD), (IMPROVED_STRUCTURAL, BLOC_OR_SHIELD)]


@pytest.mark.parametrize("kind", [WeaponKind.RAILGUN, WeaponKind.SNIPER])
def test_it_lets_railguns_and_snipers_negate_every_save_but_evade(kind):
    """Seed 000, Railguns and Sniper weapons: only evade and improved evade remain."""
    target = infantry(in_cover=True, in_smoke=True, fortification=Fortification.STRONGPOINT)
    assert stages(target, kind) == [(EVADE, BLOC_ONLY)]
    assert stages(aircraft(aircraft_move=AircraftMove.MARCH), kind) == [(IMPROVED_EVADE, BLOC_OR_SHIELD)]
    assert stages(vehicle(in_cover=True), kind) == []


def test_it_lets_phasers_negate_evade_cover_and_structural():
    """Seed 000, Phaser Weapons: evade, cover and structural saves are negated."""
    assert stages(vehicle(in_cover=True, in_smoke=True), WeaponKind.PHASER) == []
    assert stages(infantry(fortification=Fortification.STRONGPOINT), WeaponKind.PHASER) == [
        (INFANTRY, BLOC_ONLY)
    ]


def test_it_lets_phasers_reduce_improved_evade_and_improved_structural_to_bloc():
    """Seed 000, Phaser Weapons: improved evade and improved structural save on [BLOC] only."""
    march = stages(aircraft(aircraft_move=AircraftMove.MARCH), WeaponKind.PHASER)
    assert march == [(IMPROVED_EVADE, BLOC_ONLY)]
    bunker = stages(infantry(fortification=Fortification.BUNKER), WeaponKind.PHASER)
    assert bunker == [(INFANTRY, BLOC_ONLY), (IMPROVED_STRUCTURAL, BLOC_ONLY)]


@pytest.mark.parametrize("kind", [WeaponKind.FLAME, WeaponKind.FLAME_BURST])
def test_it_lets_flame_negate_cover_infantry_and_both_structural_saves(kind):
    """Seed 000, Flame Weapons (including Flame Burst): only evade survives."""
    assert stages(infantry(fortification=Fortification.BUNKER), kind) == []
    assert stages(infantry(fortification=Fortification.STRONGPOINT, in_smoke=False), kind) == []
    assert stages(infantry(in_smoke=True, in_cover=True), kind) == [(EVADE, BLOC_ONLY)]


def test_it_lets_artillery_negate_infantry_and_evade_saves_but_not_cover():
    """Seed 000, Artillery: infantry, evade and improved evade are negated; cover stays."""
    assert stages(infantry(in_smoke=True), WeaponKind.ARTILLERY) == []
    assert stages(infantry(in_cover=True), WeaponKind.ARTILLERY) == [(COVER, BLOC_OR_SHIELD)]
    assert stages(aircraft(aircraft_move=AircraftMove.MARCH), WeaponKind.ARTILLERY) == []


def test_it_lets_close_combat_negate_everything_but_a_reduced_improved_evade():
    """Seed 000, Close Combat: evade, cover, infantry, structural saves go; improved evade saves on [BLOC]."""
    target = infantry(in_cover=True, in_smoke=True, fortification=Fortification.BUNKER)
    assert stages(target, close_combat=True) == []
    march = aircraft(aircraft_move=AircraftMove.MARCH)
    assert stages(march, close_combat=True) == [(IMPROVED_EVADE, BLOC_ONLY)]


def test_it_never_stacks_two_saves_of_the_same_type():
    """Seed 000, Saves: saves of the same type do not stack, whatever protects the unit."""
    flags = [
        dict(zip(("in_cover", "in_smoke"), combo, strict=True))
        for combo in itertools.product((0, 1), repeat=2)
    ]
    for options, fort, kind in itertools.product(flags, Fortification, WeaponKind):
        found = stages(infantry(fortification=fort, **{k: bool(v) for k, v in options.items()}), kind)
        kinds = [save for save, _ in found]
        assert len(kinds) == len(set(kinds))
        assert not ({EVADE, IMPROVED_EVADE} <= set(kinds))


def test_it_works_out_the_chance_a_hit_gets_through_evade_then_the_infantry_save():
    """Seed 000, Evade Save before Infantry Save: in smoke a hit survives 2/3 * 2/3."""
    found = save_stages(
        kind=WeaponKind.STANDARD,
        close_combat=False,
        target=infantry(in_smoke=True),
        conditions=Conditions(),
        ruleset=RTZ,
    )
    assert unsaved_probability(found) == Fraction(4, 9)
