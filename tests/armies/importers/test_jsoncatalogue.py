"""The project's JSON catalogue format: reading, writing, schema errors with paths, and the demo."""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from armies.importers import CatalogueFormatError, ParsedCatalogue, ParsedSkill, ParsedUnit, ParsedWeapon
from armies.importers.corrections import find_unresolved_references
from armies.importers.jsoncatalogue import load_schema, read_json_catalogue, write_json_catalogue
from armies.importers.types import LINE_KEYS, NO_LINE
from tests.conftest import DEMO_CATALOGUE


def _minimal() -> dict[str, Any]:
    return {
        "format": "zverograd-catalogue",
        "version": 1,
        "name": "Tiny",
        "units": [
            {
                "key": "tiny.scout-walker",
                "name": "Scout Walker",
                "bloc": "Axis",
                "cost": 7,
                "unit_type": "vehicle",
                "armour": "V2",
                "category": "Vehicle 2",
                "damage": 4,
                "models": 1,
                "weapons": [{"name": "Peashooter", "range": "6", "lines": {"infantry-1": "3/1"}}],
            }
        ],
    }


def _rejected(document: Any) -> CatalogueFormatError:
    with pytest.raises(CatalogueFormatError) as caught:
        read_json_catalogue(document, source="tiny.json")
    assert caught.value.source == "tiny.json"
    return caught.value


@pytest.fixture(scope="module")
def demo_document() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(DEMO_CATALOGUE.read_text(encoding="utf-8"))
    return document


@pytest.fixture(scope="module")
def demo(demo_document: dict[str, Any]) -> ParsedCatalogue:
    return read_json_catalogue(demo_document)


# -- reading and writing -------------------------------------------------------------------------


def test_it_reads_a_minimal_catalogue_filling_defaults() -> None:
    catalogue = read_json_catalogue(_minimal())
    (walker,) = catalogue.units
    assert (catalogue.name, catalogue.revision, catalogue.bloc, catalogue.source) == ("Tiny", 0, None, "")
    assert (walker.move, walker.march, walker.hero, walker.faction) == (None, None, False, None)
    (gun,) = walker.weapons
    assert gun.count == 1
    assert gun.specials == ()
    assert gun.mount is None
    assert tuple(gun.lines) == LINE_KEYS
    assert gun.lines["infantry-1"] == "3/1"
    assert gun.lines["aircraft-3"] == NO_LINE


def test_it_writes_exactly_what_it_read() -> None:
    document = _minimal()
    assert write_json_catalogue(read_json_catalogue(document)) == document


def test_it_reads_a_file_path(tmp_path: Path) -> None:
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(_minimal()), encoding="utf-8")
    assert read_json_catalogue(path) == read_json_catalogue(str(path)) == read_json_catalogue(_minimal())


_text = st.text(alphabet="abcdefgh XYZ-'", min_size=1, max_size=12).map(str.strip).filter(bool)
_line = st.one_of(
    st.just(NO_LINE),
    st.builds(lambda d, h: f"{d}/{h}", st.sampled_from(["1", "4", "*"]), st.sampled_from(["1", "3", "#"])),
)
_weapon = st.builds(
    ParsedWeapon,
    name=_text,
    range=st.sampled_from(["C", "4", "12", "4-12", NO_LINE]),
    lines=st.fixed_dictionaries(dict.fromkeys(LINE_KEYS, _line)),
    specials=st.lists(_text, unique=True, max_size=2).map(tuple),
    mount=st.one_of(st.none(), st.sampled_from(["Front", "Turret"])),
    count=st.integers(1, 5),
)
_unit = st.builds(
    ParsedUnit,
    key=st.from_regex(r"[a-z]{1,8}\.[a-z]{1,8}", fullmatch=True),
    name=_text,
    bloc=st.one_of(st.none(), st.sampled_from(["Axis", "Allies"])),
    faction=st.one_of(st.none(), _text),
    cost=st.integers(0, 40),
    unit_type=st.just("vehicle"),
    armour=st.sampled_from(["V1", "V4", "V7"]),
    category=_text,
    damage=st.integers(1, 10),
    models=st.integers(1, 5),
    move=st.one_of(st.none(), st.integers(0, 12)),
    march=st.one_of(st.none(), st.integers(0, 24)),
    hero=st.booleans(),
    unique=st.booleans(),
    weapons=st.lists(_weapon, max_size=3).map(tuple),
    skills=st.lists(st.builds(ParsedSkill, _text, st.one_of(st.none(), _text)), max_size=3).map(tuple),
    capturable=st.booleans(),
    source_id=st.one_of(st.none(), _text),
)


@settings(max_examples=60, deadline=None)
@given(units=st.lists(_unit, max_size=4, unique_by=lambda unit: unit.key), revision=st.integers(0, 99))
def test_it_round_trips_any_catalogue(units: list[ParsedUnit], revision: int) -> None:
    catalogue = ParsedCatalogue(
        name="Generated", revision=revision, source="test", bloc=None, units=tuple(units)
    )
    document = write_json_catalogue(catalogue)
    assert read_json_catalogue(json.loads(json.dumps(document))) == catalogue


# -- rejection with paths ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "path", "message"),
    [
        (lambda d: d.update(format="battlescribe"), "$.format", "format"),
        (lambda d: d.update(version=2), "$.version", "version 2 is not supported"),
        (lambda d: d["units"][0].update(armour="V9"), "$.units[0].armour", "does not match"),
        (lambda d: d["units"][0].update(cost=-1), "$.units[0].cost", "minimum"),
        (lambda d: d["units"][0].pop("damage"), "$.units[0]", "'damage' is a required property"),
        (lambda d: d["units"][0].update(colour="grey"), "$.units[0]", "Additional properties"),
        (
            lambda d: d["units"][0]["weapons"][0]["lines"].update({"infantry-1": "3"}),
            "$.units[0].weapons[0].lines['infantry-1']",
            "does not match",
        ),
        (
            lambda d: d["units"][0]["weapons"][0]["lines"].update({"vehicle-8": "1/1"}),
            "$.units[0].weapons[0].lines",
            "vehicle-8",
        ),
        (lambda d: d["units"].append(copy.deepcopy(d["units"][0])), "$.units[1].key", "appears twice"),
        (
            lambda d: d["units"][0].update(armour="S2"),
            "$.units[0].armour",
            "does not fit a unit of type vehicle",
        ),
    ],
)
def test_it_rejects_invalid_documents_with_the_json_path(change: Any, path: str, message: str) -> None:
    document = _minimal()
    change(document)
    error = _rejected(document)
    assert error.path == path
    assert message in error.reason
    assert path in str(error)


def test_it_rejects_a_platoon_slot_with_nothing_to_fill_it() -> None:
    document = _minimal()
    document["platoon_charts"] = [{"key": "p", "name": "P", "bloc": "Axis", "slots": [{"role": "command"}]}]
    assert _rejected(document).path == "$.platoon_charts[0].slots[0]"


def test_it_rejects_a_document_that_is_not_an_object() -> None:
    assert _rejected([1, 2]).path == "$"


def test_it_rejects_a_file_that_is_not_json(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"format": ', encoding="utf-8")
    with pytest.raises(CatalogueFormatError, match="not valid JSON") as caught:
        read_json_catalogue(path)
    assert caught.value.source == "broken.json"


def test_it_rejects_a_number_past_pythons_digits_as_not_json(tmp_path: Path) -> None:
    path = tmp_path / "long.json"
    path.write_text('{"format": ' + "9" * 5000 + "}", encoding="utf-8")
    with pytest.raises(CatalogueFormatError, match="a number too long"):
        read_json_catalogue(path)


# -- the demo catalogue --------------------------------------------------------------------------


def test_it_validates_the_demo_catalogue_against_the_schema(demo_document: dict[str, Any]) -> None:
    Draft202012Validator.check_schema(load_schema())
    errors = [error.json_path for error in Draft202012Validator(load_schema()).iter_errors(demo_document)]
    assert errors == []


def test_it_keeps_the_demo_file_in_canonical_form(
    demo_document: dict[str, Any], demo: ParsedCatalogue
) -> None:
    assert write_json_catalogue(demo) == demo_document


def test_it_gives_the_demo_three_blocs_and_mercenaries(demo: ParsedCatalogue) -> None:
    per_bloc = Counter(unit.bloc for unit in demo.units)
    assert set(per_bloc) == {"Axis", "Allies", "SSU", "Mercenaries"}
    assert all(8 <= per_bloc[bloc] <= 12 for bloc in ("Axis", "Allies", "SSU"))
    factions = Counter(faction.bloc for faction in demo.factions)
    assert factions == {"Axis": 2, "Allies": 2, "SSU": 2}
    declared = {faction.name for faction in demo.factions}
    assert {unit.faction for unit in demo.units if unit.faction} == declared


def test_it_gives_the_demo_the_heroes_and_unit_kinds_a_campaign_needs(demo: ParsedCatalogue) -> None:
    heroes = [unit for unit in demo.units if unit.hero]
    assert any(hero.skill("Pilot") for hero in heroes)
    assert sum(1 for hero in heroes if hero.skill("Siblings")) == 2
    assert any(hero.skill("Commissar") for hero in heroes)
    pilots = {hero.name for hero in heroes if hero.skill("Pilot")}
    assert {unit.named_pilot for unit in demo.units if unit.named_pilot} <= pilots
    vehicles = [unit for unit in demo.units if unit.unit_type == "vehicle"]
    assert len({unit.armour for unit in vehicles}) >= 4
    assert any(unit.unit_type == "aircraft" for unit in demo.units)
    assert any(unit.mercenary for unit in demo.units)
    assert any(unit.strongpoint for unit in demo.units)
    assert any(unit.support_weapon and not unit.strongpoint for unit in demo.units)
    assert all(hero.unique for hero in heroes)  # named heroes are one per army


def test_it_gives_the_demo_platoon_charts_and_a_captured_vehicle_chart(demo: ParsedCatalogue) -> None:
    charts = Counter(chart.bloc for chart in demo.platoon_charts)
    assert all(1 <= charts[bloc] <= 2 for bloc in ("Axis", "Allies", "SSU"))
    for chart in demo.platoon_charts:
        assert any(slot.role == "command" and slot.required for slot in chart.slots), chart.key
        assert any(slot.role == "combat" and slot.required for slot in chart.slots), chart.key
        assert chart.advantage
    capturable = {unit.key for unit in demo.units if unit.capturable}
    assert {line.unit for line in demo.captured_vehicles} == capturable
    for bloc in ("Axis", "Allies", "SSU"):
        faces: list[int] = []
        for line in demo.captured_vehicles:
            if line.original_bloc == bloc:
                assert line.roll is not None
                low, _, high = line.roll.partition("-")
                faces += range(int(low), int(high or low) + 1)
        assert sorted(faces) == [1, 2, 3, 4, 5, 6], bloc  # one d6 roll picks the vehicle
    assert not find_unresolved_references([demo])
