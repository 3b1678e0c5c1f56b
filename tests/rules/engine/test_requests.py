"""Parsing the plain-dict attack request, and every kind of input it refuses."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest

from rules.engine import (
    EngineInputError,
    Fortification,
    RuleSet,
    WeaponKind,
    WeaponTrait,
    attack_odds,
    parse_attack_request,
    parse_cell,
    resolve_attack,
)
from rules.engine import requests as requests_module

from .attack_builders import RTZ, RULEBOOK

TANK_LINE = {"infantry": "3/1", "vehicle": ["6/1", "6/2", "5/2", "4/2", "3/3", "2/3", "1/4"], "aircraft": "-"}

BASE: dict[str, Any] = {
    "action": "sustained_attack",
    "weapons": [
        {"name": "Laser cannon", "kind": "laser", "traits": ["limited_ammo"], "ammo": 3, "line": TANK_LINE}
    ],
    "target": {"unit_class": "vehicle", "armour": 4, "damage_per_model": 5, "in_cover": True},
    "attacker": {"unit_class": "vehicle", "armour": 3, "damage_per_model": 4},
    "conditions": {"height": "level", "weather": "severe", "distance": 5},
}


def changed(path: str, value: object) -> dict[str, Any]:
    """BASE with one field replaced; ``path`` is dotted with list indexes as numbers."""
    data = copy.deepcopy(BASE)
    *parents, last = path.split(".")
    node: Any = data
    for part in parents:
        node = node[int(part)] if part.isdigit() else node[part]
    node[int(last) if last.isdigit() else last] = value
    return data


def refused(data: object, ruleset: RuleSet = RTZ) -> EngineInputError:
    with pytest.raises(EngineInputError) as error:
        parse_attack_request(data, ruleset=ruleset)
    return error.value


def test_it_parses_the_documented_request():
    """The request shape of ``rules.engine.requests`` becomes an AttackRequest."""
    request = parse_attack_request(BASE, ruleset=RTZ)
    laser = request.weapons[0]
    assert (laser.kind, laser.traits, laser.ammo) == (
        WeaponKind.LASER,
        frozenset({WeaponTrait.LIMITED_AMMO}),
        3,
    )
    assert laser.line.cell(request.target.unit_class, 4) == parse_cell("4/2", "cell")
    assert request.sustained
    assert request.conditions.weather_cover
    assert request.conditions.weather_reroll_failed_cover
    json.dumps(attack_odds(request=request, ruleset=RTZ).to_dict())
    json.dumps(resolve_attack(request=request, ruleset=RTZ, seed=3).to_dict())


def test_it_accepts_the_example_in_the_module_docstring():
    """The documented request shape stays true: its example parses and resolves."""
    doc = requests_module.__doc__ or ""
    example = doc[doc.index("    {\n") : doc.index("\nThe ``attacker`` block")]
    data = json.loads(re.sub(r"#.*", "", example))
    request = parse_attack_request(data, ruleset=RTZ)
    assert request.weapons[0].kind is WeaponKind.LASER
    assert resolve_attack(request=request, ruleset=RTZ, seed=1).ammo[0].ammo == 2


@pytest.mark.parametrize(
    ("text", "dice", "damage", "blast", "automatic"),
    [
        ("3/1", 3, 1, False, False),
        ("B/2", 1, 2, True, False),
        ("BB/1", 2, 1, True, False),
        ("2/AK", 2, 0, False, True),
        ("2/[DEATH]", 2, 0, False, True),
    ],
)
def test_it_reads_every_cell_notation(text, dice, damage, blast, automatic):
    """Product facts, weapon lines: dice/damage, blasts (B, BB) and automatic kills (AK, [DEATH])."""
    cell = parse_cell(text, "cell")
    assert cell is not None
    assert (cell.dice, cell.damage, cell.blast, cell.automatic_kill) == (dice, damage, blast, automatic)
    assert parse_cell("-", "cell") is None


def test_it_refuses_an_unknown_weapon_kind():
    """Bad input: a weapon kind the engine does not know."""
    error = refused(changed("weapons.0.kind", "death_ray"))
    assert error.field == "weapons[0].kind"
    assert "unknown weapon kind 'death_ray'" in error.reason


def test_it_points_a_trait_given_as_a_kind_to_traits():
    """Bad input: salvo, volley... are traits of a weapon, not kinds."""
    error = refused(changed("weapons.0.kind", "salvo"))
    assert (error.field, error.reason) == ("weapons[0].kind", "'salvo' is a trait, list it under traits")


def test_it_refuses_negative_dice():
    """Bad input: dice counts and model counts cannot go below zero (one for models)."""
    error = refused(changed("weapons.0.line.vehicle", ["6/1", "6/2", "5/2", "-2/2", "3/3", "2/3", "1/4"]))
    assert (error.field, error.reason) == (
        "weapons[0].line.vehicle[3]",
        "the number of dice cannot be negative",
    )
    assert refused(changed("weapons.0.count", 0)).field == "weapons[0].count"


def test_it_refuses_a_weapon_that_cannot_target_the_class():
    """Product facts, weapon lines: a - cell means the weapon cannot target that class."""
    error = refused(changed("target", {"unit_class": "aircraft", "armour": 2, "damage_per_model": 3}))
    assert error.field == "weapons[0].line"
    assert error.reason == "cannot target aircraft armour 2 (its cell is -)"


def test_it_refuses_armour_out_of_range():
    """Product facts, unit classes: infantry armour 1-4, vehicles 1-7, aircraft 1-3."""
    error = refused(changed("target.armour", 8))
    assert (error.field, error.reason) == ("target.armour", "vehicle armour must be from 1 to 7")
    assert refused(changed("target", {"unit_class": "infantry", "armour": 5})).field == "target.armour"


def test_it_refuses_smoke_fired_into_a_bunker():
    """Seed 001/004, Smoke Screen: a smoke screen cannot be fired into a bunker."""
    target = {"unit_class": "infantry", "armour": 2, "fortification": "bunker", "in_smoke": True}
    error = refused(changed("target", target))
    assert (error.field, error.reason) == ("target.in_smoke", "a smoke screen cannot be fired into a bunker")


def test_it_refuses_a_structural_save_without_a_fortification():
    """Seed 002, Strongpoints and Bunkers: structural saves come from fortifications only."""
    target = {"unit_class": "infantry", "armour": 2, "structural_save": "structural"}
    error = refused(changed("target", target))
    assert (error.field, error.reason) == (
        "target.structural_save",
        "a structural save needs a strongpoint or a bunker",
    )


def test_it_refuses_a_structural_save_under_a_rule_set_without_them():
    """Seed 000, Saves: structural saves are campaign-specific; strongpoint and bunker differ."""
    target = {
        "unit_class": "infantry",
        "armour": 2,
        "fortification": "bunker",
        "structural_save": "improved_structural",
    }
    assert (
        parse_attack_request(changed("target", target), ruleset=RTZ).target.fortification
        is Fortification.BUNKER
    )
    error = refused(changed("target", target), RULEBOOK)
    assert (error.field, error.reason) == ("target.structural_save", "this rule set has no structural saves")
    mismatch = refused(changed("target", {**target, "fortification": "strongpoint"}))
    assert mismatch.reason == "a strongpoint gives a structural save"


def test_it_refuses_positions_a_unit_cannot_be_in():
    """Seeds 002/004: only infantry enter trenches and fortifications; aircraft evade, never take cover."""
    aircraft = {"unit_class": "aircraft", "armour": 1, "in_cover": True}
    assert refused(changed("target", aircraft)).field == "target.in_cover"
    tank_in_trench = {"unit_class": "vehicle", "armour": 3, "in_trench": True}
    assert refused(changed("target", tank_in_trench)).field == "target.in_trench"
    both = {"unit_class": "infantry", "armour": 2, "in_trench": True, "fortification": "strongpoint"}
    assert refused(changed("target", both)).field == "target.in_trench"
    walking = {"unit_class": "vehicle", "armour": 3, "aircraft_move": "march"}
    assert refused(changed("target", walking)).field == "target.aircraft_move"


def test_it_refuses_height_advantage_with_aircraft():
    """Seed 004, Height Advantage: aircraft never give or receive height advantage."""
    error = refused(
        changed("attacker", {"unit_class": "aircraft", "armour": 1, "damage_per_model": 3})
        | {"conditions": {"height": "attacker_higher"}}
    )
    assert error.field == "conditions.height"


def test_it_needs_the_distance_to_work_out_weather_cover():
    """Seed 004, Weather: weather cover depends on the range to the target."""
    error = refused(changed("conditions", {"weather": "moderate"}))
    assert error.field == "conditions.distance"


def test_it_refuses_contradicting_unit_facts():
    """Bad input: damage beyond the track, two-model heroes, hero skills on squads, unknown skills."""
    assert refused(changed("target.damage_taken", 5)).field == "target.damage_taken"
    hero_pair = {"unit_class": "infantry", "armour": 2, "models": 2, "hero": True}
    assert refused(changed("target", hero_pair)).field == "target.models"
    lucky_grunts = {"unit_class": "infantry", "armour": 2, "skills": ["cheat_death"]}
    assert refused(changed("target", lucky_grunts)).field == "target.skills"
    assert refused(changed("target.skills", ["telepathy"])).field == "target.skills[0]"


def test_it_refuses_ammunition_choices_the_weapon_cannot_make():
    """Seed 001, Volley, Salvo and Limited Ammo Weapons: choices need the matching trait and boxes."""
    volley = changed("weapons.0.traits", ["volley"])
    volley["weapons"][0]["volley"] = 4
    error = refused(volley)
    assert (error.field, error.reason) == ("weapons[0].volley", "only 3 ammo boxes are left")
    assert refused(changed("weapons.0.fire_salvo", True)).field == "weapons[0].fire_salvo"
    no_boxes = changed("weapons.0.traits", [])
    assert refused(no_boxes).field == "weapons[0].ammo"


def test_it_refuses_skills_and_helpers_the_attack_does_not_have():
    """Seed 004, Fighting Spirit and Spotters: the unit needs the skill, and a sniper to spot for."""
    assert refused(changed("fighting_spirit", True)).field == "fighting_spirit"
    assert refused(changed("spotter", True)).field == "spotter"


def test_it_refuses_close_combat_at_range():
    """Seed 004, Check range: close-combat weapons only attack adjacent targets."""
    claws = changed("weapons.0", {"name": "Claws", "close_combat": True, "line": {"vehicle": "2/2"}})
    claws["conditions"] = {"distance": 3}
    error = refused(claws)
    assert (error.field, error.reason) == (
        "conditions.distance",
        "close combat needs an adjacent target (distance 1)",
    )


def test_it_gives_ground_units_cover_against_aircraft_in_moderate_weather():
    """Seed 004, Moderate Weather: ground units attacked by aircraft receive cover, at any range."""
    plane = {"unit_class": "aircraft", "armour": 1, "damage_per_model": 3}
    data = changed("attacker", plane) | {"conditions": {"weather": "moderate", "distance": 2}}
    data["action"] = "attack"
    assert parse_attack_request(data, ruleset=RTZ).conditions.weather_cover
    near = changed("conditions", {"weather": "moderate", "distance": 4})
    assert not parse_attack_request(near, ruleset=RTZ).conditions.weather_cover


def test_it_refuses_unknown_fields_and_actions():
    """Bad input: typos in field names are errors, not silently ignored."""
    assert refused(changed("range", 3)).field == "range"
    assert refused(changed("weapons.0.colour", "red")).field == "weapons[0].colour"
    assert refused(changed("target.camo", True)).field == "target.camo"
    assert refused(changed("action", "charge")).field == "action"
    assert refused([]).field == "request"
    assert refused(changed("weapons", [])).field == "weapons"
