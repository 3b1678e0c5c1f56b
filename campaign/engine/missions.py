"""The campaign's mission library, in our own words, and the mission a sector's ground suggests.

Plain Python, no Django. A mission says what a battle is fought for: its
objective, the turn limit, how many reserve placements each side may make, the
fortification the defender may field, and the risk of weather (none, low,
medium, high: the rules summary rolls for weather only when a scenario names a
risk). The organiser may change the mission of any battle.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from campaign.engine.map import Fortification, Terrain


class WeatherRisk(StrEnum):
    NONE = "none"
    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"


@dataclass(frozen=True)
class Mission:
    key: str
    name: str
    objective: str
    turn_limit: int
    attacker_reserves: int
    defender_reserves: int
    # The best fortification the defender may field: none, a strongpoint, or a bunker (which allows a strongpoint).
    defender_fortification: Fortification
    weather_risk: WeatherRisk
    suits: tuple[Terrain, ...]

    def allows(self, fortification: Fortification) -> bool:
        """Whether a defender may field ``fortification`` in this mission."""
        order = (Fortification.NONE, Fortification.STRONGPOINT, Fortification.BUNKER)
        return order.index(fortification) <= order.index(self.defender_fortification)

    def to_dict(self) -> dict[str, object]:
        return {
            "key": self.key, "name": self.name, "objective": self.objective, "turn_limit": self.turn_limit,
            "attacker_reserves": self.attacker_reserves, "defender_reserves": self.defender_reserves,
            "defender_fortification": self.defender_fortification.value, "weather_risk": self.weather_risk.value,
            "suits": [terrain.value for terrain in self.suits],
        }  # fmt: skip


MISSIONS: tuple[Mission, ...] = (
    Mission(
        "breakthrough",
        "Breakthrough",
        "The attacker wins by moving two units off the defender's table edge; otherwise victory points decide.",
        6,
        2,
        1,
        Fortification.STRONGPOINT,
        WeatherRisk.LOW,
        (Terrain.OPEN, Terrain.PARKLAND),
    ),
    Mission(
        "hold-the-line",
        "Hold the line",
        "Three objectives across the middle of the table: whoever holds more of them at the end wins.",
        6,
        1,
        1,
        Fortification.BUNKER,
        WeatherRisk.NONE,
        (Terrain.URBAN, Terrain.RUINS),
    ),
    Mission(
        "sabotage",
        "Sabotage",
        "The attacker must reach the defender's depot in the defender's half and hold it for a whole turn.",
        5,
        1,
        2,
        Fortification.BUNKER,
        WeatherRisk.NONE,
        (Terrain.INDUSTRIAL,),
    ),
    Mission(
        "king-of-the-hill",
        "King of the hill",
        "One objective at the centre, on the high ground: whoever holds it at the end of a turn scores a point.",
        6,
        1,
        1,
        Fortification.STRONGPOINT,
        WeatherRisk.MEDIUM,
        (Terrain.HEIGHTS,),
    ),
    Mission(
        "landing",
        "Landing",
        "The attacker comes in from the water's edge and must hold two objectives on the quay at the end.",
        6,
        3,
        1,
        Fortification.STRONGPOINT,
        WeatherRisk.HIGH,
        (Terrain.WATERFRONT,),
    ),
    Mission(
        "meeting-engagement",
        "Meeting engagement",
        "Both sides arrive at once; victory points decide, with 5 more for each objective held at the end.",
        6,
        2,
        2,
        Fortification.NONE,
        WeatherRisk.MEDIUM,
        (),
    ),
)

MISSIONS_BY_KEY: dict[str, Mission] = {mission.key: mission for mission in MISSIONS}
DEFAULT_MISSION = MISSIONS_BY_KEY["meeting-engagement"]


def suggested_mission(terrain: Terrain | str | None) -> Mission:
    """The mission a sector's ground suggests (a meeting engagement where none fits better)."""
    for mission in MISSIONS:
        if terrain in mission.suits:
            return mission
    return DEFAULT_MISSION


def mission(key: str) -> Mission:
    """The mission named ``key``; KeyError if the library has none."""
    return MISSIONS_BY_KEY[key]
