"""Army-list validation for Dust 1947 / Return to Zverograd, as pure functions over plain data."""

from armies.validation.listformat import (
    ListFormatError,
    army_list_from_json,
    army_list_to_json,
    army_list_to_text,
)
from armies.validation.pricing import PricedEntry, PricedFortificationEntry, Pricing, priced_entries
from armies.validation.problems import PROBLEM_CODES
from armies.validation.terms import TermsError, describe, terms_from_mapping
from armies.validation.types import (
    ArmyList,
    BonusUse,
    CapturedVehicleEntry,
    Catalogue,
    Faction,
    Fortification,
    ListEntry,
    Override,
    PlatoonChart,
    PlatoonClaim,
    PlatoonSlot,
    Problem,
    Terms,
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
    "Override",
    "PlatoonChart",
    "PlatoonClaim",
    "PlatoonSlot",
    "PricedEntry",
    "PricedFortificationEntry",
    "Pricing",
    "Problem",
    "Terms",
    "TermsError",
    "Totals",
    "UnitProfile",
    "Verdict",
    "army_list_from_json",
    "army_list_to_json",
    "army_list_to_text",
    "describe",
    "priced_entries",
    "terms_from_mapping",
    "validate",
]
