"""The BattleScribe reader over the real community data for Dust 1947 (read from shared/, never copied)."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from jsonschema import Draft202012Validator

from armies.importers import (
    ParsedCatalogue,
    ParsedGameData,
    ParsedSkill,
    ParsedUnit,
    read_battlescribe,
    read_battlescribe_file,
)
from armies.importers.jsoncatalogue import load_schema, read_json_catalogue, write_json_catalogue
from tests.armies.importers.conftest import CATALOGUE_FILES, GAME_SYSTEM

# Units the reader finds per catalogue.  Checked independently by `_xpath_unit_count` below: one unit
# per root <selectionEntry> of the catalogue, plus, for every root entry whose <selectionEntryGroup>
# offers options carrying their own <profile> (a named-pilot or faction variant), one more unit per
# extra option, plus each shared entry that a "Commissar" group offers (the NKVD commissars join a
# unit, so they are units of their own).  E.g. Axis: 121 root entries + 5 extra variants = 126;
# SSU: 85 + 3 variants + 3 commissars.  The captured-vehicle catalogue's cards are the bloc units
# again with the surcharge in their price: they become chart lines (21), not units.
EXPECTED_UNITS = {
    "Allies": 111,
    "Axis": 126,
    "SSU": 91,
    "Mercenaries": 12,
    "Mythos": 7,
    "Captured Vehicles": 0,
}
CAPTURED_LINES = 21
NS = {"c": "http://www.battlescribe.net/schema/catalogueSchema"}


def _catalogue(game_data: ParsedGameData, name: str) -> ParsedCatalogue:
    catalogue = game_data.catalogue(name)
    assert catalogue is not None, name
    return catalogue


def _unit(game_data: ParsedGameData, catalogue: str, name: str) -> ParsedUnit:
    unit = _catalogue(game_data, catalogue).unit(name)
    assert unit is not None, name
    return unit


def _xpath_unit_count(path: Path) -> int:
    root = ET.parse(path).getroot()  # noqa: S314 - trusted test data
    entries = root.findall("./c:selectionEntries/c:selectionEntry", NS)
    variants = 0
    for entry in entries:
        for group in entry.findall("./c:selectionEntryGroups/c:selectionEntryGroup", NS):
            with_profile = [
                option
                for option in group.findall("./c:selectionEntries/c:selectionEntry", NS)
                if option.findall("./c:profiles/c:profile", NS)
            ]
            variants += max(len(with_profile) - 1, 0)
    offered = {
        link.get("targetId")
        for group in root.iter(f"{{{NS['c']}}}selectionEntryGroup")
        if group.get("name") == "Commissar"
        for link in group.findall("./c:entryLinks/c:entryLink", NS)
    }
    return len(entries) + variants + len(offered)


def test_it_finds_the_expected_number_of_units_per_catalogue(game_data: ParsedGameData) -> None:
    found = {catalogue.name: len(catalogue.units) for catalogue in game_data.catalogues}
    assert found == EXPECTED_UNITS


def test_it_agrees_with_an_independent_xpath_count(game_data: ParsedGameData, bsdata: Path) -> None:
    for file_name in CATALOGUE_FILES:
        catalogue = next(c for c in game_data.catalogues if c.source == file_name)
        found = len(catalogue.units) + len(catalogue.captured_vehicles)
        assert found == _xpath_unit_count(bsdata / file_name), file_name


def test_it_reads_the_game_system_and_catalogue_headers(game_data: ParsedGameData) -> None:
    assert (game_data.name, game_data.revision, game_data.source) == ("Dust 1947", 14, GAME_SYSTEM)
    assert not game_data.report
    blocs = {catalogue.name: catalogue.bloc for catalogue in game_data.catalogues}
    assert blocs == {
        "Allies": "Allies",
        "Axis": "Axis",
        "SSU": "SSU",
        "Mercenaries": "Mercenaries",
        "Mythos": "Mercenaries",
        "Captured Vehicles": None,
    }
    assert all(catalogue.revision > 0 for catalogue in game_data.catalogues)


def test_it_gives_every_unit_a_unique_key_and_consistent_armour(game_data: ParsedGameData) -> None:
    keys = [unit.key for unit in game_data.units]
    assert len(keys) == len(set(keys))
    for unit in game_data.units:
        assert unit.armour[0] == {"infantry": "S", "vehicle": "V", "aircraft": "A"}[unit.unit_type], unit.key
        assert min(unit.cost, unit.damage - 1, unit.models - 1) >= 0, unit.key


def test_it_maps_an_infantry_squad_field_by_field(game_data: ParsedGameData) -> None:
    squad = _unit(game_data, "Axis", "Grenadier Battle Squad")
    assert (squad.key, squad.bloc, squad.faction, squad.cost) == (
        "axis.grenadier-battle-squad",
        "Axis",
        "NDAK",
        6,
    )
    assert (squad.unit_type, squad.armour, squad.armour_class, squad.category) == (
        "infantry",
        "S1",
        1,
        "Infantry 1",
    )
    assert (squad.models, squad.damage, squad.move, squad.march) == (5, 5, 2, 5)
    assert not any((squad.hero, squad.mercenary, squad.capturable, squad.strongpoint, squad.support_weapon))
    machinegun = squad.weapon("Machinegun")
    assert machinegun is not None
    assert (machinegun.count, machinegun.range) == (2, "6")
    assert machinegun.lines["infantry-1"] == "9/1"
    assert machinegun.lines["vehicle-3"] == "-"


def test_it_maps_a_vehicle_field_by_field(game_data: ParsedGameData) -> None:
    luther = _unit(game_data, "Axis", "Luther")
    assert (luther.cost, luther.unit_type, luther.armour, luther.category) == (
        11,
        "vehicle",
        "V4",
        "Vehicle 4",
    )
    assert (luther.damage, luther.models, luther.move, luther.march) == (6, 1, 2, 4)
    assert luther.capturable  # the captured-vehicle catalogue lists it
    gun = luther.weapon("Light Gun (Front)")
    assert gun is not None
    assert (gun.range, gun.mount, gun.lines["vehicle-1"], gun.lines["vehicle-7"]) == (
        "12",
        "Front",
        "2/#",
        "-",
    )
    claw = luther.weapon("Combat Claw (Front)")
    assert claw is not None
    assert claw.specials == ("Grapple",)
    assert [str(skill) for skill in luther.skills] == ["Engineer Vehicle", "Smoke Launchers"]


def test_it_expands_a_named_pilot_variant_into_its_own_unit(game_data: ParsedGameData) -> None:
    cossack = _unit(game_data, "SSU", "Red Cossack")
    plain = _unit(game_data, "SSU", "KV 152")
    assert cossack.named_pilot == "Nikolai"
    assert plain.named_pilot is None
    assert (cossack.cost, cossack.armour, cossack.damage, cossack.faction) == (12, "V5", 7, "Guards")
    assert cossack.unique
    assert cossack.variant_of == plain.variant_of is not None


def test_it_reads_hero_skills_with_parameters(game_data: ParsedGameData) -> None:
    stefan = _unit(game_data, "Axis", "Stefan")
    dragon = _unit(game_data, "SSU", "The Dragon")
    assert stefan.hero
    assert stefan.unique
    assert (stefan.cost, stefan.damage, stefan.armour) == (10, 4, "S2")
    assert stefan.skill("Expert") == ParsedSkill("Expert", "Flamethrower")
    flamethrower = stefan.weapon("Flamethrower")  # an entryLink into the game system's shared entries
    assert flamethrower is not None
    assert flamethrower.specials == ("Flame",)
    siblings = dragon.skill("Siblings")
    assert siblings == ParsedSkill("Siblings", "The Phoenix")


def test_it_flags_strongpoints_support_weapons_aircraft_and_mercenaries(game_data: ParsedGameData) -> None:
    axis = _catalogue(game_data, "Axis")
    field_gun = _unit(game_data, "Axis", "Field Laser Gun")
    mortar = _unit(game_data, "Axis", "Grenadier Mortar Squad")
    blitz = _unit(game_data, "Axis", "Blitz")
    assert field_gun.strongpoint
    assert field_gun.support_weapon
    assert (field_gun.category, field_gun.move, field_gun.cost) == ("Fortification", 0, 20)
    assert mortar.support_weapon
    assert not mortar.strongpoint
    assert (blitz.unit_type, blitz.armour, blitz.move, blitz.march) == ("aircraft", "A2", 12, 24)
    assert all(unit.mercenary for unit in _catalogue(game_data, "Mercenaries").units)
    assert not any(unit.mercenary for unit in axis.units)


def test_it_reads_the_captured_vehicle_catalogue_as_a_chart_of_the_blocs_own_units(
    game_data: ParsedGameData,
) -> None:
    captured = _catalogue(game_data, "Captured Vehicles")
    luther = _unit(game_data, "Axis", "Luther")
    line = next(line for line in captured.captured_vehicles if line.unit == luther.key)
    # The data prices its copy of Luther at 13 AP: Luther's own 11 AP plus the 2 AP surcharge, once.
    assert (luther.key, luther.cost, luther.bloc) == ("axis.luther", 11, "Axis")
    assert (line.original_bloc, line.cost, line.captured_by) == ("Axis", 13, ("Allies", "SSU"))
    assert not captured.units
    assert len(captured.captured_vehicles) == CAPTURED_LINES
    by_key = {unit.key: unit for unit in game_data.units}
    for line in captured.captured_vehicles:
        original = by_key[line.unit]
        assert (original.bloc, original.capturable) == (line.original_bloc, True), line
        assert line.cost == original.cost + 2, line
    originals = [unit for name in ("Allies", "Axis", "SSU") for unit in _catalogue(game_data, name).units]
    assert sum(unit.capturable for unit in originals) == CAPTURED_LINES


def test_it_reads_the_upgrade_typed_captured_cards_as_the_vehicles_they_are(
    game_data: ParsedGameData,
) -> None:
    # Heinrich and Luther are filed as "upgrade" entries in the captured-vehicle catalogue.
    lines = {line.unit for line in _catalogue(game_data, "Captured Vehicles").captured_vehicles}
    assert {"axis.heinrich", "axis.luther"} <= lines
    assert not game_data.full_report().of_kind("unexpected-entry-type")


def test_it_imports_the_nkvd_commissar_add_ons_as_units_that_join(game_data: ParsedGameData) -> None:
    ssu = _catalogue(game_data, "SSU")
    commissars = {
        unit.name: unit
        for unit in ssu.units
        if unit.name.startswith("NKVD Political Commissar") and unit.skill("Commissar")
    }
    costs = {name: unit.cost for name, unit in commissars.items()}
    assert costs == {
        "NKVD Political Commissar Machine Gunner": 3,
        "NKVD Political Commissar Submachine Gunner": 2,
        "NKVD Political Commissar Tank Hunter": 3,
    }
    for unit in commissars.values():
        assert (unit.bloc, unit.armour, unit.models, unit.damage, unit.hero) == ("SSU", "S2", 1, 1, False)
    # The squads that offer one are of the commissars' armour, as the Commissar rule wants.
    assert _unit(game_data, "SSU", "Red Army Battle Squad").armour == "S2"


def test_it_reads_the_strongpoint_choice_of_strongpoint_guns(game_data: ParsedGameData) -> None:
    guns = ("Field Laser Gun", "Dual Field Laser Gun")
    assert all(_unit(game_data, "Axis", name).strongpoint for name in guns)
    assert all(_unit(game_data, "SSU", name).strongpoint for name in ("Motherland Tesla Gun",))
    assert not game_data.full_report().of_kind("fortification-choice-differs")


def test_it_imports_every_hero_as_unique(game_data: ParsedGameData) -> None:
    heroes = [unit for unit in game_data.units if unit.hero]
    assert heroes
    assert all(unit.unique for unit in heroes)
    # Wolfgang's limit is one per parent, and his parent is the force; Roza's card has no limit.
    assert _unit(game_data, "Axis", "Wolfgang").unique
    assert _unit(game_data, "SSU", "Roza").unique


def test_it_fields_the_mythos_creatures_as_mercenaries(game_data: ParsedGameData) -> None:
    mythos = _catalogue(game_data, "Mythos")
    assert {(unit.bloc, unit.mercenary, unit.faction) for unit in mythos.units} == {
        ("Mercenaries", True, None)
    }
    assert not game_data.full_report().of_kind("unknown-bloc")


def test_it_lists_what_it_could_not_map_in_the_report(game_data: ParsedGameData) -> None:
    report = game_data.full_report()
    # What the data lacks or contradicts, and nothing the import understands.
    assert report.counts() == {
        "models-estimated": 49,
        "weapon-without-profile": 3,
        "repaired-value": 2,
        "suspicious-value": 1,
        "category-mismatch": 1,
        "captured-card-differs": 5,
    }
    no_profile = {issue.entry_name for issue in report.of_kind("weapon-without-profile")}
    assert "Wilfried" in no_profile
    repaired = [issue for issue in report.of_kind("repaired-value") if "armour" in issue.detail]
    assert repaired, "an armour letter contradicting its category is repaired and reported"
    differs = {issue.entry_name: issue.detail for issue in report.of_kind("captured-card-differs")}
    assert "Machinegun (Turret) / Machinegun (Front)" in differs["Jagdluther"]
    assert not report.of_kind("unresolved-link")  # with the game system given, every link resolves


def test_it_says_which_squad_model_counts_are_estimated(game_data: ParsedGameData) -> None:
    details = " ".join(issue.detail for issue in game_data.full_report().of_kind("models-estimated"))
    named = {issue.entry_name for issue in game_data.full_report().of_kind("models-estimated")}
    squads = [
        unit
        for unit in game_data.units
        if unit.unit_type == "infantry"
        and unit.damage == unit.models
        and not unit.hero
        and not unit.skill("Commissar")
    ]
    assert len(squads) == 96
    for squad in squads:
        # A squad is named by its own issue (variants: at the start of the detail) or in the summary.
        said = (
            squad.name in named,
            f"{squad.name}: " in details,
            f"{squad.name} ({squad.models})" in details,
        )
        assert any(said), squad.name


def test_it_reports_links_it_cannot_resolve_when_a_catalogue_is_read_alone(bsdata: Path) -> None:
    alone = read_battlescribe_file(bsdata / "Mythos.cat")
    assert len(alone.units) == EXPECTED_UNITS["Mythos"]
    assert alone.report.of_kind("unresolved-link")


def _zip_one(source: Path, target: Path) -> Path:
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.write(source, arcname=source.name)
    return target


def test_it_reads_zipped_gstz_and_catz_files(bsdata: Path, tmp_path: Path) -> None:
    gstz = _zip_one(bsdata / GAME_SYSTEM, tmp_path / "Dust_1947.gstz")
    catz = _zip_one(bsdata / "Axis.cat", tmp_path / "Axis.catz")
    zipped = read_battlescribe([gstz, catz])
    plain = read_battlescribe([bsdata / GAME_SYSTEM, bsdata / "Axis.cat"])
    assert zipped.name == "Dust 1947"
    assert zipped.catalogue("Axis").units == plain.catalogue("Axis").units
    assert len(zipped.catalogue("Axis").units) == EXPECTED_UNITS["Axis"]


def test_it_round_trips_imported_catalogues_through_the_json_format(game_data: ParsedGameData) -> None:
    validator = Draft202012Validator(load_schema())
    for catalogue in game_data.catalogues:
        document = write_json_catalogue(catalogue)
        assert not list(validator.iter_errors(document)), catalogue.name
        assert read_json_catalogue(json.loads(json.dumps(document))) == catalogue


@pytest.mark.parametrize("name", ["Allies", "Axis", "SSU"])
def test_it_collects_the_factions_seen_in_a_bloc(game_data: ParsedGameData, name: str) -> None:
    catalogue = _catalogue(game_data, name)
    factions = {faction.name for faction in catalogue.factions}
    assert factions == {unit.faction for unit in catalogue.units if unit.faction}
    assert all(faction.bloc == name for faction in catalogue.factions)
