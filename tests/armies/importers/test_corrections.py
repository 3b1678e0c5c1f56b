"""Corrections patch imported units by key or BattleScribe id; references are checked across catalogues."""

from __future__ import annotations

import dataclasses

from armies.importers import (
    ParsedCapturedVehicle,
    ParsedCatalogue,
    ParsedCorrection,
    ParsedPlatoonChart,
    ParsedPlatoonSlot,
    ParsedUnit,
)
from armies.importers.corrections import apply_corrections, find_unresolved_references

WALKER = ParsedUnit(
    key="axis.test-walker",
    name="Test Walker",
    bloc="Axis",
    faction=None,
    cost=10,
    unit_type="vehicle",
    armour="V3",
    category="Vehicle 3",
    damage=5,
    models=1,
    move=2,
    march=4,
    source_id="bs-123",
)
SQUAD = dataclasses.replace(
    WALKER, key="axis.test-squad", name="Test Squad", unit_type="infantry", armour="S1", category="Infantry 1"
)


def _catalogue(*units: ParsedUnit, **extra: object) -> ParsedCatalogue:
    return ParsedCatalogue(name="Axis", revision=1, source="Axis.cat", bloc="Axis", units=units, **extra)  # type: ignore[arg-type]


def test_it_patches_a_unit_found_by_key() -> None:
    correction = ParsedCorrection(
        "axis.test-squad", {"models": 5, "damage": 5, "faction": "Test Legion"}, "count"
    )
    (catalogue,), report = apply_corrections([_catalogue(WALKER, SQUAD)], [correction])
    squad = catalogue.unit("axis.test-squad")
    assert squad is not None
    assert (squad.models, squad.damage, squad.faction) == (5, 5, "Test Legion")
    assert catalogue.unit("axis.test-walker") == WALKER
    assert not report


def test_it_patches_a_unit_found_by_its_battlescribe_id() -> None:
    (catalogue,), report = apply_corrections([_catalogue(WALKER)], [ParsedCorrection("bs-123", {"cost": 12})])
    assert catalogue.units[0].cost == 12
    assert not report


def test_it_reports_corrections_that_match_nothing_or_cannot_apply() -> None:
    corrections = [
        ParsedCorrection("axis.nobody", {"cost": 1}),
        ParsedCorrection("axis.test-walker", {"weapons": "none"}),
        ParsedCorrection("axis.test-walker", {"armour": "S2"}),
    ]
    (catalogue,), report = apply_corrections([_catalogue(WALKER)], corrections)
    assert [issue.what for issue in report] == [
        "unmatched-correction",
        "unknown-field",
        "inconsistent-correction",
    ]
    assert catalogue.units[0].armour == "S2"  # applied as asked, and reported


def test_it_finds_platoon_and_captured_chart_references_to_missing_units() -> None:
    chart = ParsedPlatoonChart(
        key="axis.test-platoon",
        name="Test Platoon",
        bloc="Axis",
        slots=(ParsedPlatoonSlot(role="command", required=True, units=("axis.test-walker", "axis.ghost")),),
    )
    captured = (ParsedCapturedVehicle(unit="allies.phantom", original_bloc="Allies", cost=9),)
    catalogue = _catalogue(WALKER, platoon_charts=(chart,), captured_vehicles=captured)
    report = find_unresolved_references([catalogue])
    assert sorted(issue.detail for issue in report) == [
        "captured vehicle 'allies.phantom'",
        "unit 'axis.ghost'",
    ]
