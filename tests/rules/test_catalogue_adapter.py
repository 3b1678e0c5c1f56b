"""The catalogue adapter: real catalogue rows become engine weapons and targets, odd data a named error."""

from __future__ import annotations

from typing import Any

import pytest

from armies.models import Catalogue, Unit
from rules.catalogue import (
    catalogue_weapon,
    engine_cell,
    engine_line,
    folded_weapon,
    strike_back_weapons,
    unit_skills,
    unit_target,
    unit_weapons,
)
from rules.engine import EngineInputError
from rules.forms import SKILL_CHOICES
from rules.referee import referee_odds

pytestmark = pytest.mark.django_db

# One target per class and armour a weapon might face, the usual victims at the table.
TARGETS = {
    "infantry": {"unit_class": "infantry", "models": 5, "damage_per_model": 1},
    "vehicle": {"unit_class": "vehicle", "models": 1, "damage_per_model": 6},
    "aircraft": {"unit_class": "aircraft", "models": 1, "damage_per_model": 5},
}


def _fired(unit: Unit) -> list[tuple[str, dict[str, Any]]]:
    """Every weapon of the unit, fired at the first armour of each class it can hit, as referee requests."""
    attacker = unit_target(unit)
    requests = []
    for weapon in unit_weapons(unit):
        for unit_class, cells in weapon.weapon["line"].items():
            armour = next((i + 1 for i, cell in enumerate(cells) if cell != "-"), None)
            if armour is None or (weapon.close_combat and "aircraft" in (unit_class, attacker["unit_class"])):
                continue
            fired = dict(weapon.weapon, count=weapon.default_count)
            if weapon.default_ammo is not None:
                fired["ammo"] = weapon.default_ammo
            if "volley" in fired["traits"]:
                fired["volley"] = 1
            attack = {
                "weapons": [folded_weapon(fired, attacker["models"])],
                "target": {**TARGETS[unit_class], "armour": armour},
                "attacker": attacker,
            }
            requests.append((f"{unit.name} / {weapon.name} vs {unit_class} {armour}", attack))
    return requests


def _unit(catalogue: Catalogue, name: str) -> Unit:
    return catalogue.units.get(name=name)


# -- cells and lines -----------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "cell"),
    [
        ("3/1", "3/1"),
        ("*/2", "B/2"),
        ("**/1", "BB/1"),
        ("1/#", "1/AK"),
        ("2/☠", "2/AK"),
        ("*/¤", "B/AK"),
        ("**/#", "BB/AK"),
        (" 4 / 2 ", "4/2"),
        ("-", "-"),
        ("", "-"),
        (None, "-"),
    ],
)
def test_it_translates_the_card_symbols_to_referee_cells(card, cell):
    assert engine_cell(card, "cell") == cell


@pytest.mark.parametrize("card", ["x/2", "3", "3/0", "-1/1", "*/x", 3])
def test_it_names_the_cell_it_cannot_read(card):
    with pytest.raises(EngineInputError) as error:
        engine_cell(card, "weapon.lines.vehicle-3")

    assert error.value.field == "weapon.lines.vehicle-3"


def test_a_class_the_card_leaves_out_cannot_be_targeted():
    line = engine_line({"infantry-1": "3/1", "vehicle-2": "*/2"}, "lines")

    assert line["infantry"] == ["3/1", "-", "-", "-"]
    assert line["vehicle"] == ["-", "B/2", "-", "-", "-", "-", "-"]
    assert line["aircraft"] == ["-", "-", "-"]


@pytest.mark.parametrize(("key", "field"), [("tank-1", "lines.tank-1"), ("vehicle-8", "lines.vehicle-8")])
def test_it_refuses_a_line_key_that_is_not_a_class_and_armour(key, field):
    with pytest.raises(EngineInputError) as error:
        engine_line({key: "1/1"}, "lines")

    assert error.value.field == field


# -- specials ------------------------------------------------------------------


def test_it_maps_specials_to_weapon_kinds_traits_and_flags():
    napalm = catalogue_weapon(
        {
            "name": "Napalm Bomb",
            "range": "2",
            "lines": {"infantry-1": "*/1"},
            "specials": ["Volley", "Flame Burst"],
        }
        | {"count": 2}
    )
    dog = catalogue_weapon(
        {"name": "Dog Bite", "range": "C", "lines": {}, "specials": ["Grapple", "Savage Animal"]}
    )
    crossbow = catalogue_weapon(
        {"name": "Crossbow", "lines": {}, "specials": ["Sniper", "Expert", "Stealth"]}
    )

    assert (napalm.weapon["kind"], napalm.weapon["traits"]) == ("flame_burst", ["volley"])
    assert (napalm.default_count, napalm.default_ammo) == (1, 2), "a volley card counts its bombs"
    assert (dog.weapon["kind"], dog.weapon["savage_animal"], dog.close_combat) == ("grapple", True, True)
    assert (crossbow.weapon["kind"], crossbow.weapon["expert"]) == ("sniper", True)
    assert crossbow.unmapped == ("Stealth",)


@pytest.mark.parametrize(
    ("special", "kind"),
    [
        ("Laser", "laser"),
        ("Sniper", "sniper"),
        ("Flamethrower", "flame"),
        ("Flame", "flame"),
        ("Artillery", "artillery"),
        ("Phaser", "phaser"),
        ("Railgun", "railgun"),
        ("Tesla", "tesla"),
        ("Cutting", "cutting"),
        ("Grapple", "grapple"),
        ("Grenade", "grenade"),
        ("Radiation", "radiation"),
        ("Wire-guided", "wire_guided"),
        ("Wire Guided", "wire_guided"),
    ],
)
def test_each_weapon_kind_special_has_its_kind(special, kind):
    assert catalogue_weapon({"name": "W", "lines": {}, "specials": [special]}).weapon["kind"] == kind


@pytest.mark.parametrize(
    ("special", "trait"),
    [
        ("Limited Ammo", "limited_ammo"),
        ("Reload", "reload"),
        ("Salvo", "salvo"),
        ("Volley", "volley"),
        ("Power Scope", "power_scope"),
    ],
)
def test_each_ammunition_special_has_its_trait(special, trait):
    assert catalogue_weapon({"name": "W", "lines": {}, "specials": [special]}).weapon["traits"] == [trait]


@pytest.mark.parametrize(
    ("data", "field"),
    [
        (None, "weapon"),
        ({}, "weapon.name"),
        ({"name": "  "}, "weapon.name"),
        ({"name": "X", "lines": "3/1"}, "weapon.lines"),
        ({"name": "X", "lines": {"infantry-9": "1/1"}}, "weapon.lines.infantry-9"),
        ({"name": "X", "lines": {"vehicle-1": 5}}, "weapon.lines.vehicle-1"),
        ({"name": "X", "lines": {}, "count": 0}, "weapon.count"),
        ({"name": "X", "lines": {}, "count": "2"}, "weapon.count"),
        ({"name": "X", "lines": {}, "specials": "Laser"}, "weapon.specials"),
    ],
)
def test_it_never_crashes_on_odd_weapon_data(data, field):
    with pytest.raises(EngineInputError) as error:
        catalogue_weapon(data)

    assert error.value.field == field


# -- units ---------------------------------------------------------------------


def test_a_squad_is_models_of_one_point_and_a_vehicle_one_model_with_a_track(demo):
    squad = unit_target(_unit(demo, "Eisenhund Heavy Squad"))
    tank = unit_target(_unit(demo, "Donnerkeil"))
    hero = unit_target(_unit(demo, "Oberst Kalt"))

    assert squad == {
        "unit_class": "infantry",
        "armour": 3,
        "models": 3,
        "damage_per_model": 1,
        "hero": False,
        "skills": ["damage_resilient"],
    }
    assert (tank["unit_class"], tank["armour"], tank["models"], tank["damage_per_model"]) == (
        "vehicle",
        6,
        1,
        8,
    )
    assert (hero["hero"], hero["models"], hero["damage_per_model"]) == (True, 1, 4)


def test_it_reports_the_skills_the_odds_do_not_model(demo):
    mapped, unmapped = unit_skills(_unit(demo, "Sturmfalke Jump Squad"))
    _, pilot = unit_skills(_unit(demo, "Greta Lindqvist"))

    assert mapped == ["flying"]
    assert unmapped == []
    assert pilot == ["Pilot", "Move and Fire"]


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"unit_type": "tank"}, "unit.unit_type"),
        ({"armour": 9}, "unit.armour"),
        ({"armour": 0}, "unit.armour"),
        ({"model_count": 0}, "unit.model_count"),
        ({"damage": 7, "model_count": 5}, "unit.damage"),
        ({"skills": "Damage Resilient"}, "unit.skills"),
        ({"skills": [{"parameter": "x"}]}, "unit.skills[0]"),
    ],
)
def test_it_never_crashes_on_odd_unit_rows(changes, field):
    unit = Unit(name="Odd", unit_type="infantry", armour=2, model_count=5, damage=5, skills=[], weapons=[])
    for name, value in changes.items():
        setattr(unit, name, value)

    with pytest.raises(EngineInputError) as error:
        unit_target(unit)

    assert error.value.field == field


def test_it_names_the_weapon_entry_of_a_unit_it_cannot_read():
    unit = Unit(
        name="Odd", unit_type="infantry", armour=1, weapons=[{"name": "Ok", "lines": {}}, {"lines": {}}]
    )

    with pytest.raises(EngineInputError) as error:
        unit_weapons(unit)

    assert error.value.field == "unit.weapons[1].name"


def test_hero_only_and_infantry_only_skills_are_dropped_where_they_cannot_apply():
    walker = Unit(
        name="Odd walker",
        unit_type="vehicle",
        armour=3,
        damage=5,
        skills=[{"name": "Steel Guard"}, {"name": "Cheat Death"}, {"name": "Damage Resilient"}],
    )

    assert unit_target(walker)["skills"] == ["damage_resilient"]


def test_extra_weapons_on_a_single_model_are_folded_into_its_dice():
    weapon = {"name": "Pistols", "line": {"infantry": ["3/1", "2/1", "-", "-"], "vehicle": "B/2"}, "count": 2}

    assert folded_weapon(weapon, 1) == {
        "name": "Pistols",
        "line": {"infantry": ["6/1", "4/1", "-", "-"], "vehicle": "BB/2"},
        "count": 1,
    }
    assert folded_weapon(weapon, 5) == weapon, "a squad fires one line per model"


SPADE = {"name": "Spade", "range": "C", "count": 2, "lines": {"infantry-1": "2/1", "vehicle-1": "1/1"}}
RIFLE = {"name": "Rifle", "range": "6", "count": 5, "lines": {"infantry-1": "1/1"}}
SOLDIER = {"unit_class": "infantry", "armour": 1}


def _squad(*weapons: dict[str, Any], models: int = 5) -> Unit:
    return Unit(name="Pioneers", unit_type="infantry", armour=1, damage=models, weapons=list(weapons))


def test_a_squad_strikes_back_with_the_close_combat_weapons_it_carries_and_improvises_the_rest():
    lines = strike_back_weapons(_squad(RIFLE, SPADE), 5, SOLDIER)

    assert lines is not None
    assert [(line["name"], line["count"]) for line in lines] == [
        ("Spade", 2),
        ("Improvised close-combat weapon", 3),
    ]
    # The spades are listed first, so the models that fall first are the improvising ones.
    assert lines[0]["line"]["infantry"][0] == "2/1"


def test_a_weakened_squad_strikes_back_with_no_more_weapons_than_models():
    lines = strike_back_weapons(_squad(SPADE), 1, SOLDIER)

    assert lines is not None
    assert [(line["name"], line["count"]) for line in lines] == [("Spade", 1)]


def test_a_card_without_close_combat_weapons_leaves_the_improvised_default_to_the_engine():
    assert strike_back_weapons(_squad(RIFLE), 5, SOLDIER) is None


def test_a_weapon_that_cannot_reach_the_attacker_is_not_used_to_strike_back():
    assert strike_back_weapons(_squad(SPADE), 5, {"unit_class": "vehicle", "armour": 3}) is None


def test_a_single_model_strikes_back_with_all_its_close_combat_weapons_folded():
    hero = Unit(name="Brawler", unit_type="infantry", armour=1, damage=3, hero=True, weapons=[SPADE])

    lines = strike_back_weapons(hero, 1, SOLDIER)

    assert lines is not None
    assert [(line["count"], line["line"]["infantry"][0]) for line in lines] == [(1, "4/1")]


def test_every_weapon_of_the_demo_catalogue_converts_and_its_odds_compute(demo):
    requests = [request for unit in demo.units.all() for request in _fired(unit)]

    assert len(requests) > 100
    for label, attack in requests:
        odds = referee_odds({"attack": attack, "ruleset": {"name": "rtz"}})
        assert 0 <= odds["p_destroyed"] <= 1, label


# -- the real BattleScribe data --------------------------------------------------


def test_real_cards_keep_blasts_automatic_kills_and_volleys(bsdata):
    hexe = next(w for w in unit_weapons(_unit(bsdata, "Hexe")) if w.name.startswith("Gliding Bomb"))
    falke = next(w for w in unit_weapons(_unit(bsdata, "Falke")) if w.name.startswith("Light Bomb"))

    assert hexe.weapon["line"]["vehicle"][:4] == ["BB/AK", "BB/AK", "BB/AK", "BB/6"]
    assert hexe.unmapped == ("Large Ordnance",)
    assert falke.weapon["line"]["vehicle"][0] == "B/AK"
    assert (falke.weapon["traits"], falke.default_count, falke.default_ammo) == (["volley"], 1, 6)


def test_unit_skills_that_name_a_weapon_apply_to_that_weapon(bsdata):
    stefan = unit_weapons(_unit(bsdata, "Stefan"))
    bulls_eye = {w.name: w for w in unit_weapons(_unit(bsdata, "Bull's Eye"))}

    assert [w.weapon["expert"] for w in stefan] == [True], "Expert: Flamethrower"
    assert bulls_eye["Sniper Rifle"].weapon["traits"] == ["power_scope"]
    assert bulls_eye["Demo Charge"].weapon["expert"], "the card's own Expert special"


def test_real_heroes_keep_the_skills_that_change_the_dice(bsdata):
    victory = unit_target(_unit(bsdata, "Sergeant Victory"))
    child = unit_target(_unit(bsdata, "Winter Child"))

    assert victory["hero"]
    assert set(victory["skills"]) == {"cheat_death", "first_strike", "flying", "superhuman"}
    assert set(child["skills"]) == {"damage_resilient", "flying", "superhuman"}
    assert unit_weapons(_unit(bsdata, "Winter Child"))[0].weapon["kind"] == "radiation"


def test_every_battlescribe_weapon_converts_and_its_odds_compute(bsdata):
    requests = [request for unit in bsdata.units.all() for request in _fired(unit)]

    assert len(requests) > 1000
    for label, attack in requests:
        odds = referee_odds({"attack": attack, "ruleset": {"name": "rtz"}})
        assert 0 <= odds["p_destroyed"] <= 1, label


def test_it_keeps_the_command_skills_for_the_battles_special_actions():
    """Seed 004, Command actions and Skills: Officer, Mechanic, Makeshift Repair, Command Squad reach the engine's
    unit (``matchup_cards.matchup_unit`` and a battle's setup read ``unit_target``), Combat Medic as a medic."""
    squad = Unit(
        name="Grenadier Command Squad",
        unit_type="infantry",
        armour=1,
        model_count=5,
        damage=5,
        skills=["Command Squad", {"name": "Combat Medic"}],
    )
    tank = Unit(
        name="Panzer", unit_type="vehicle", armour=5, model_count=1, damage=6, skills=["Makeshift Repair"]
    )
    officer = Unit(
        name="Sigrid",
        unit_type="infantry",
        armour=2,
        model_count=1,
        damage=3,
        hero=True,
        skills=["Officer", "Mechanic"],
    )

    assert unit_target(squad)["skills"] == ["command_squad", "medic"]
    assert unit_target(tank)["skills"] == ["makeshift_repair"]
    assert unit_target(officer)["skills"] == ["officer", "mechanic"]
    assert unit_skills(officer)[1] == []


def test_it_keeps_the_third_action_skills_for_the_battles_activations():
    """Seed 004, Skills: Ace Pilot, Ace Air Pilot, Infantry Ace and Scout reach a battle's setup, and the
    calculator does not offer them."""
    ace = Unit(
        name="Hermann",
        unit_type="infantry",
        armour=2,
        model_count=1,
        damage=3,
        hero=True,
        skills=["Ace Pilot", {"name": "Ace Air Pilot"}, "Infantry Ace"],
    )
    scouts = Unit(name="Rangers", unit_type="infantry", armour=2, model_count=5, damage=5, skills=["Scout"])

    assert unit_target(ace)["skills"] == ["ace_pilot", "ace_air_pilot", "infantry_ace"]
    assert unit_target(scouts)["skills"] == ["scout"]
    offered = {value for value, _ in SKILL_CHOICES}
    assert not offered & {"ace_pilot", "ace_air_pilot", "infantry_ace", "scout"}
    assert "damage_resilient" in offered
