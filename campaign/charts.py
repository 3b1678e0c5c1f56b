"""The economy page's bar chart of balances, as geometry for an inline SVG template.

A pure function, like rules/charts.py: balances in, horizontal bars out, in
the units of a fixed view box that the browser scales to the page. One row a
holder (a bloc, or a player where resources are kept per player), so long
names stay readable on a phone; past ``MAX_BARS`` rows the chart shows the
richest and says how many more the table beside it lists.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WIDTH = 480.0
LABEL_WIDTH = 150.0  # room for the holder's name, right-aligned against the bars
VALUE_ROOM = 56.0  # room for the number after the longest bar
ROW = 26.0
BAR = 18.0
TOP = 8.0
BOTTOM = 8.0
MAX_BARS = 30
MAX_LABEL = 22  # characters of a name shown in the chart (the table has it whole)


@dataclass(frozen=True)
class BalanceBar:
    label: str
    full_label: str
    value: int
    colour: str
    x: float
    y: float
    width: float
    height: float

    @property
    def label_x(self) -> float:
        return self.x - 6

    @property
    def text_y(self) -> float:
        return round(self.y + self.height / 2 + 4, 2)

    @property
    def value_x(self) -> float:
        return round(self.x + self.width + 6, 2)

    @property
    def tooltip(self) -> str:
        return f"{self.full_label}: {self.value} resource points"


@dataclass(frozen=True)
class BalanceChart:
    title: str
    bars: tuple[BalanceBar, ...]
    hidden: int  # holders left out of the chart (the table lists them)
    summary: str
    width: float
    height: float
    baseline_x: float = LABEL_WIDTH

    @property
    def axis_bottom(self) -> float:
        return self.height - BOTTOM / 2


def _short(label: str) -> str:
    return label if len(label) <= MAX_LABEL else label[: MAX_LABEL - 1] + "…"


def balance_chart(lines: Sequence[tuple[str, int, str]], *, title: str) -> BalanceChart:
    """Bars for (holder, balance, colour) lines: the richest first, at most ``MAX_BARS`` of them."""
    ordered = sorted(lines, key=lambda line: (-line[1], line[0]))
    shown = ordered[:MAX_BARS]
    highest = max((value for _label, value, _colour in shown), default=0)
    room = WIDTH - LABEL_WIDTH - VALUE_ROOM
    bars = tuple(
        BalanceBar(
            label=_short(label),
            full_label=label,
            value=value,
            colour=colour,
            x=LABEL_WIDTH,
            y=round(TOP + index * ROW + (ROW - BAR) / 2, 2),
            # A balance never goes below zero; an empty one is drawn as a hairline so its row reads as 0.
            width=round(max(room * max(value, 0) / highest, 1.0) if highest else 1.0, 2),
            height=BAR,
        )
        for index, (label, value, colour) in enumerate(shown)
    )
    hidden = len(ordered) - len(shown)
    if bars:
        summary = f"{title}: " + ", ".join(f"{bar.full_label} {bar.value}" for bar in bars)
        summary += f", and {hidden} more in the table." if hidden else "."
    else:
        summary = f"{title}: nobody holds any resource points yet."
    height = TOP + max(len(bars), 1) * ROW + BOTTOM
    return BalanceChart(title=title, bars=bars, hidden=hidden, summary=summary, width=WIDTH, height=height)
