"""Which rules a resolution uses: the plain rulebook or the RtZ special rules.

A campaign picks a rule set once and stores it as a dict, so every switch is a
plain bool with a stable name, and every switch has a human description that
the campaign settings page can show next to it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields

from rules.engine.errors import EngineInputError

RULEBOOK = "rulebook"
RTZ = "rtz"
NAMES: tuple[str, ...] = (RULEBOOK, RTZ)

# name -> what turning the switch on does, in our own words (shown to organisers).
SWITCHES: Mapping[str, str] = {
    "unified_saves": "Saves follow the RtZ unified saves table (six save types in a fixed order).",
    "damage_resilient_rtz": (
        "Vehicles and class 3-4 infantry resist close-combat damage; against automatic-kill "
        "hits only half the damage (rounded up) is rolled for."
    ),
    "suppression_rtz": (
        "Suppression uses three states (none, suppressed, pinned) instead of under-fire and "
        "suppression tokens; a good rally roll also clears stunned."
    ),
    "initiative_rtz": (
        "The side with fewer units rolls one extra initiative die and the attacker wins ties; "
        "the turn 1 order is kept for turn 2 and initiative is rolled each turn from turn 3."
    ),
    "height_advantage_rtz": (
        "Firing from at least one range level higher makes the target re-roll infantry and cover "
        "saves; firing from lower gives the target cover."
    ),
    "structural_saves": (
        "Strongpoints and bunkers give structural and improved structural saves in place of the "
        "rulebook's save re-rolls."
    ),
    "scout_rtz": (
        "Up to three scout units may deploy up to their march move before turn 1, losing the "
        "scout bonus in turn 1."
    ),
    "pass_tokens_rtz": (
        "A player gains a pass token when a unit is activated by a reactive-attack attempt, or "
        "when one unit activates another (not a reactivation)."
    ),
    "close_combat_height_rtz": (
        "Units may close-combat across a height difference by moving into the target square; "
        "a higher defender gains first strike."
    ),
    "barbed_wire_rtz": "Barbed wire slows and may suppress light infantry and may stop wheeled vehicles.",
    "trenches_rtz": "Defenders may have trenches: cover and camouflage for infantry, limited sight.",
}


@dataclass(frozen=True)
class RuleSet:
    """The rule switches for one resolution; ``name`` says which preset it started from."""

    name: str  # "rulebook" or "rtz"
    unified_saves: bool = False
    damage_resilient_rtz: bool = False
    suppression_rtz: bool = False
    initiative_rtz: bool = False
    height_advantage_rtz: bool = False
    structural_saves: bool = False
    scout_rtz: bool = False
    pass_tokens_rtz: bool = False
    close_combat_height_rtz: bool = False
    barbed_wire_rtz: bool = False
    trenches_rtz: bool = False

    def __post_init__(self) -> None:
        if self.name not in NAMES:
            raise EngineInputError("name", f"must be one of {', '.join(NAMES)}, not {self.name!r}")
        for switch in switch_names():
            if not isinstance(getattr(self, switch), bool):
                raise EngineInputError(switch, "must be true or false")

    @classmethod
    def rulebook(cls) -> RuleSet:
        """The published Dust 1947 rules with no campaign changes."""
        return cls(name=RULEBOOK)

    @classmethod
    def rtz(cls, **overrides: bool) -> RuleSet:
        """Every RtZ special rule on, except those turned off (or on) by ``overrides``."""
        values: dict[str, bool] = dict.fromkeys(switch_names(), True)
        values.update(_checked_switches(overrides))
        return cls(name=RTZ, **values)

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> RuleSet:
        """Rebuild a stored rule set.

        Start from the preset ``name`` names, then apply the switches given, so a
        stored ``{"name": "rtz", "scout_rtz": False}`` means "RtZ without scout".
        """
        if not isinstance(data, Mapping):
            raise EngineInputError("ruleset", "must be a mapping of switch names to true/false")
        if "name" not in data:
            raise EngineInputError("name", "is required")
        name = data["name"]
        if name not in NAMES:
            raise EngineInputError("name", f"must be one of {', '.join(NAMES)}, not {name!r}")
        switches = _checked_switches({key: value for key, value in data.items() if key != "name"})
        if name == RTZ:
            return cls.rtz(**switches)
        return cls(name=RULEBOOK, **switches)

    def to_dict(self) -> dict[str, object]:
        return {"name": self.name, **{switch: getattr(self, switch) for switch in switch_names()}}

    def enabled(self) -> tuple[str, ...]:
        """The names of the switches that are on, in declaration order."""
        return tuple(switch for switch in switch_names() if getattr(self, switch))


def switch_names() -> tuple[str, ...]:
    """Every switch of RuleSet, in declaration order (all fields but ``name``)."""
    return tuple(f.name for f in fields(RuleSet) if f.name != "name")


def _checked_switches(data: Mapping[str, object]) -> dict[str, bool]:
    known = set(switch_names())
    checked: dict[str, bool] = {}
    for key, value in data.items():
        if key not in known:
            raise EngineInputError(str(key), "is not a known rule switch")
        # bool only: 0/1 or "yes" in stored settings are a data error, not a choice.
        if not isinstance(value, bool):
            raise EngineInputError(str(key), "must be true or false")
        checked[key] = value
    return checked
