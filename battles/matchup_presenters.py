"""A matchup sheet in words for its page: one table per side firing, the viewer's own units first."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.charts import percent

SIDES = ("attacker", "defender")


@dataclass(frozen=True)
class SheetCell:
    weapon: str | None  # None: no weapon of the unit can fire at that one
    open: str
    cover: str | None  # None: the target cannot take cover (an aircraft)


@dataclass(frozen=True)
class SheetRow:
    unit: str
    cells: list[SheetCell]


@dataclass(frozen=True)
class SheetTable:
    side: str
    heading: str
    label: str  # the scrolling region's name
    targets: list[str]
    rows: list[SheetRow]


def figures_words(figures: Mapping[str, Any]) -> str:
    """ "31% to destroy, 2.4 damage": the chance to destroy in one attack and the damage expected."""
    return (
        f"{percent(float(figures['p_destroyed']))} to destroy, {float(figures['expected_damage']):.1f} damage"
    )


def _cell(data: Mapping[str, Any]) -> SheetCell:
    if data.get("weapon") is None or data.get("open") is None:
        return SheetCell(weapon=None, open="", cover=None)
    cover = data.get("cover")
    return SheetCell(
        weapon=str(data["weapon"]),
        open=figures_words(data["open"]),
        cover=None if cover is None else figures_words(cover),
    )


def _possessive(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def left_out_words(result: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    """A sentence per side whose units were left out because the referee cannot read their cards."""
    left_out: Mapping[str, list[str]] = result.get("left_out") or {}
    return [
        f"Left out of {_possessive(names[side])} units (the referee cannot read their cards): "
        f"{', '.join(left_out[side])}."
        for side in SIDES
        if left_out.get(side)
    ]


def matchup_tables(
    result: Mapping[str, Any], *, names: Mapping[str, str], viewer_side: str | None
) -> list[SheetTable]:
    """The sheet's tables; ``names`` are the two sides' players, ``viewer_side`` the side the viewer plays."""
    units: Mapping[str, list[str]] = result["units"]
    order = SIDES if viewer_side != "defender" else SIDES[::-1]
    tables = []
    for side in order:
        other = "defender" if side == "attacker" else "attacker"
        if viewer_side == side:
            heading = f"Your units against {_possessive(names[other])}"
        elif viewer_side == other:
            heading = f"{_possessive(names[side])} units against yours"
        else:
            heading = f"{_possessive(names[side])} units ({side}) against {_possessive(names[other])}"
        rows = [
            SheetRow(unit=units[side][row["unit"]], cells=[_cell(cell) for cell in row["cells"]])
            for row in result["firing"][side]
        ]
        tables.append(
            SheetTable(side=side, heading=heading, label=heading, targets=list(units[other]), rows=rows)
        )
    return tables
