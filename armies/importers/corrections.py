"""Combining catalogues: applying corrections to imported units, checking cross-catalogue references.

A JSON catalogue may patch units read from BattleScribe (a wrong cost, a model count the data does not
carry) and point its platoon charts at them by key; these helpers do that across catalogues.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

from armies.importers.types import (
    ARMOUR_LETTERS,
    ImportIssue,
    ImportReport,
    ParsedCatalogue,
    ParsedCorrection,
    ParsedUnit,
)

# Scalar unit fields a correction may set; weapons and skills are replaced by re-writing the unit.
CORRECTABLE_FIELDS = frozenset(
    {
        "name",
        "bloc",
        "faction",
        "cost",
        "unit_type",
        "armour",
        "category",
        "damage",
        "models",
        "move",
        "march",
        "hero",
        "unique",
        "mercenary",
        "capturable",
        "strongpoint",
        "support_weapon",
    }
)

SOURCE = "corrections"

__all__ = ["CORRECTABLE_FIELDS", "apply_corrections", "find_unresolved_references"]


def apply_corrections(
    catalogues: Iterable[ParsedCatalogue], corrections: Iterable[ParsedCorrection]
) -> tuple[tuple[ParsedCatalogue, ...], ImportReport]:
    """Patch units by key (or BattleScribe id); corrections that match nothing are reported."""
    result = list(catalogues)
    issues: list[ImportIssue] = []
    for correction in corrections:
        unknown = sorted(set(correction.fields) - CORRECTABLE_FIELDS)
        if unknown:
            issues.append(
                _issue(correction, "unknown-field", f"fields {', '.join(unknown)} cannot be corrected")
            )
            continue
        matched = False
        for index, catalogue in enumerate(result):
            if any(_matches(unit, correction) for unit in catalogue.units):
                matched = True
                units = tuple(_patched(unit, correction, issues) for unit in catalogue.units)
                result[index] = dataclasses.replace(catalogue, units=units)
        if not matched:
            issues.append(
                _issue(correction, "unmatched-correction", f"no unit with key or id {correction.unit!r}")
            )
    return tuple(result), ImportReport(tuple(issues))


def _matches(unit: ParsedUnit, correction: ParsedCorrection) -> bool:
    return correction.unit in (unit.key, unit.source_id)


def _patched(unit: ParsedUnit, correction: ParsedCorrection, issues: list[ImportIssue]) -> ParsedUnit:
    if not _matches(unit, correction):
        return unit
    changes: dict[str, Any] = dict(correction.fields)
    patched = dataclasses.replace(unit, **changes)
    if ARMOUR_LETTERS.get(patched.armour[:1]) != patched.unit_type:
        issues.append(
            _issue(
                correction,
                "inconsistent-correction",
                f"{unit.key}: armour {patched.armour} on a {patched.unit_type}",
            )
        )
    return patched


def find_unresolved_references(catalogues: Iterable[ParsedCatalogue]) -> ImportReport:
    """Platoon slots and captured-vehicle lines naming unit keys that no catalogue defines."""
    catalogues = list(catalogues)
    keys = {unit.key for catalogue in catalogues for unit in catalogue.units}
    issues: list[ImportIssue] = []
    for catalogue in catalogues:
        for chart in catalogue.platoon_charts:
            for slot in chart.slots:
                issues.extend(
                    ImportIssue(
                        catalogue.source, chart.key, chart.name, "unresolved-reference", f"unit {key!r}"
                    )
                    for key in slot.units
                    if key not in keys
                )
        issues.extend(
            ImportIssue(
                catalogue.source, line.unit, None, "unresolved-reference", f"captured vehicle {line.unit!r}"
            )
            for line in catalogue.captured_vehicles
            if line.unit not in keys
        )
    return ImportReport(tuple(issues))


def _issue(correction: ParsedCorrection, what: str, detail: str) -> ImportIssue:
    return ImportIssue(SOURCE, correction.unit, None, what, detail)
