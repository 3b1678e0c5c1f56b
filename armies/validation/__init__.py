"""Army-list validation for Dust 1947 / Return to Zverograd, as pure functions over plain data."""

from armies.validation.listformat import (
    ListFormatError,
    army_list_from_json,
    army_list_to_json,
    army_list_to_text,
)
from armies.validation.problems import PROBLEM_CODES
from armies.validation.types import (
    ArmyList,
    BonusUse,
    CapturedVehicleEntry,
    Catalogue,
    Faction,
    Fortification,
    ListEntry,
    PlatoonChart,
    PlatoonClaim,
    PlatoonSlot,
    Problem,
    Totals,
    UnitProfile,
    Verdict,
)
from armies.validation.validator import validate

__all__ = [
    "PROBLEM_CODES",
    "ArmyList",
    "BonusUse",
    "CapturedVehicleEntry",
    "Catalogue",
    "Faction",
    "Fortification",
    "ListEntry",
    "ListFormatError",
    "PlatoonChart",
    "PlatoonClaim",
    "PlatoonSlot",
    "Problem",
    "Totals",
    "UnitProfile",
    "Verdict",
    "army_list_from_json",
    "army_list_to_json",
    "army_list_to_text",
    "validate",
]
