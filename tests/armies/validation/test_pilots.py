"""Pilot heroes and named-pilot vehicles."""

from __future__ import annotations

from armies.validation.types import ArmyList

from .builders import army, catalogue, codes, entry, hero, vehicle


def piloted(hero_key: str, vehicle_key: str) -> ArmyList:
    return army(entry("v", vehicle_key), entry("h", hero_key, pilot_of="v"), limit=300)


def test_it_lets_pilot_and_ace_pilot_heroes_drive_vehicles() -> None:
    assert codes(piloted("nikolai", "rg-walker")) == set()
    assert codes(piloted("koshka", "ssu-walker")) == set()


def test_it_lets_air_pilots_fly_aircraft_only() -> None:
    assert codes(piloted("red-ace", "ssu-plane")) == set()
    assert codes(piloted("red-ace", "ssu-walker")) == {"pilot-lacks-skill"}
    assert codes(piloted("koshka", "ssu-plane")) == {"pilot-lacks-skill"}


def test_it_rejects_a_hero_without_a_pilot_skill() -> None:
    assert codes(piloted("commissar", "ssu-walker")) == {"pilot-lacks-skill", "commissar-not-joined"}


def test_it_rejects_piloting_infantry_and_non_heroes_piloting() -> None:
    assert codes(piloted("koshka", "ssu-squad")) == {"pilot-target-not-vehicle"}
    assert codes(piloted("ssu-squad", "ssu-walker")) == {"pilot-not-hero"}


def test_it_allows_one_pilot_per_vehicle() -> None:
    army_list = army(
        entry("v", "rg-walker"), entry("a", "koshka", pilot_of="v"), entry("b", "nikolai", pilot_of="v")
    )
    assert codes(army_list) == {"pilot-too-many"}


def test_it_keeps_a_named_pilot_vehicle_for_its_hero() -> None:
    assert codes(piloted("koshka", "koshka-walker")) == set()
    assert codes(piloted("nikolai", "koshka-walker")) == {"named-pilot-mismatch"}


def test_it_lets_the_named_hero_drive_without_a_pilot_skill() -> None:
    cat = catalogue(hero("lara"), vehicle("laras-car", skills={"Pilot: Lara": None}))
    assert codes(piloted("lara", "laras-car"), cat) == set()
    assert codes(piloted("koshka", "laras-car"), cat) == {"named-pilot-mismatch"}


def test_it_fields_a_named_pilot_vehicle_without_its_pilot() -> None:
    assert codes(army(entry("v", "koshka-walker"))) == set()


def test_it_rejects_a_hero_that_joins_and_pilots() -> None:
    army_list = army(
        entry("v", "rg-walker"), entry("u", "ssu-squad"), entry("h", "koshka", pilot_of="v", joined_to="u")
    )
    assert codes(army_list) == {"hero-joined-and-piloting"}


def test_it_lets_any_pilot_drive_an_airborne_vehicle() -> None:
    cat = catalogue(vehicle("glider-tank", skills={"Airborne": None}))
    assert codes(piloted("koshka", "glider-tank"), cat) == set()


def test_it_reads_the_named_pilot_from_any_spelling_of_the_attribute() -> None:
    for skills in ({"Pilot: Lara": None}, {"Pilot": "Lara"}, {"pilot:  Lara ": None}):
        cat = catalogue(hero("lara"), vehicle("laras-car", skills=skills))
        assert cat.unit_by_key["laras-car"].pilot_name == "Lara"
        assert codes(piloted("koshka", "laras-car"), cat) == {"named-pilot-mismatch"}
