"""Catalogue readers: BattleScribe data and the project's own JSON format, into plain dataclasses.

Nothing in this package imports Django; the armies app turns the parsed results into rows.
"""

from armies.importers.battlescribe import read_battlescribe, read_battlescribe_file
from armies.importers.types import (
    CatalogueFormatError,
    EntryStep,
    ImportIssue,
    ImportReport,
    ParsedCapturedVehicle,
    ParsedCatalogue,
    ParsedCorrection,
    ParsedFaction,
    ParsedGameData,
    ParsedPlatoonChart,
    ParsedPlatoonSlot,
    ParsedSkill,
    ParsedUnit,
    ParsedWeapon,
)

__all__ = [
    "CatalogueFormatError",
    "EntryStep",
    "ImportIssue",
    "ImportReport",
    "ParsedCapturedVehicle",
    "ParsedCatalogue",
    "ParsedCorrection",
    "ParsedFaction",
    "ParsedGameData",
    "ParsedPlatoonChart",
    "ParsedPlatoonSlot",
    "ParsedSkill",
    "ParsedUnit",
    "ParsedWeapon",
    "read_battlescribe",
    "read_battlescribe_file",
]
