"""Line charts of the standings over the rounds, as geometry for an inline SVG template.

Pure functions, like campaign/charts.py and rules/charts.py: a ``History``
(rounds and one series a player or bloc) in, polylines in the units of a fixed
view box out. A series starts where its values start (a late player's line
begins in the round they joined). Every chart carries a one-sentence summary
for its ``<desc>``, and the page has a table saying the same.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from standings.selectors import History

WIDTH = 480.0
HEIGHT = 220.0
LEFT = 40.0  # room for the value axis' labels
RIGHT = 12.0
TOP = 10.0
BOTTOM = 28.0  # room for the round numbers
TICKS = 4
# Distinct, colour-blind-safe-ish hues for players (blocs use the map's colours instead).
PALETTE = ("#1b6ca8", "#c0392b", "#2e8b57", "#8e44ad", "#d35400", "#16a085", "#7f8c8d", "#b8860b")


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    round_number: int
    value: int


@dataclass(frozen=True)
class Line:
    key: str
    name: str
    colour: str
    points: tuple[Point, ...]
    last: int | None  # the value at the last round it has one (for the legend)

    @property
    def path(self) -> str:
        return " ".join(f"{p.x},{p.y}" for p in self.points)


@dataclass(frozen=True)
class Tick:
    position: float
    label: str


@dataclass(frozen=True)
class LineChart:
    title: str
    unit: str
    rounds: tuple[int, ...]
    lines: tuple[Line, ...]
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    summary: str
    table: tuple[tuple[int, tuple[int | None, ...]], ...]  # a row a round: every line's value
    width: float = WIDTH
    height: float = HEIGHT
    left: float = LEFT
    right_edge: float = WIDTH - RIGHT
    top: float = TOP
    baseline: float = HEIGHT - BOTTOM

    @property
    def label_y(self) -> float:
        return self.height - 8

    @property
    def empty(self) -> bool:
        return not any(line.points for line in self.lines)


def _scale(low: int, high: int) -> tuple[int, int]:
    """An axis from ``low`` to ``high`` widened to whole steps (never a zero span)."""
    low, high = min(low, 0), max(high, 0)
    if high == low:
        high = low + TICKS
    step = max(1, -(-(high - low) // TICKS))
    bottom = (low // step) * step
    # Exactly TICKS steps, so every tick label sits inside the plot.
    while bottom + step * TICKS < high:
        step += 1
        bottom = (low // step) * step
    return bottom, bottom + step * TICKS


def line_chart(
    history: History | None, *, title: str, unit: str, colour: Callable[[int, str], str] | None = None
) -> LineChart:
    """One line a series of ``history`` (``colour(index, key)`` picks its colour; a palette otherwise)."""
    rounds = tuple(history.rounds) if history is not None else ()
    series = list(history.series) if history is not None else []
    values = [v for s in series for v in s.values if v is not None]
    low, high = _scale(min(values, default=0), max(values, default=0))
    plot_width = WIDTH - LEFT - RIGHT
    plot_height = HEIGHT - TOP - BOTTOM

    def x(index: int) -> float:
        if len(rounds) <= 1:
            return round(LEFT + plot_width / 2, 2)
        return round(LEFT + plot_width * index / (len(rounds) - 1), 2)

    def y(value: int) -> float:
        return round(TOP + plot_height * (high - value) / (high - low), 2)

    pick = colour or (lambda index, _key: PALETTE[index % len(PALETTE)])
    lines = tuple(
        Line(
            key=s.key,
            name=s.name,
            colour=pick(index, s.key),
            points=tuple(
                Point(x(i), y(v), rounds[i], v)
                for i, v in enumerate(s.values[: len(rounds)])
                if v is not None
            ),
            last=next((v for v in reversed(s.values) if v is not None), None),
        )
        for index, s in enumerate(series)
    )
    step = (high - low) // TICKS
    y_ticks = tuple(Tick(y(low + step * n), str(low + step * n)) for n in range(TICKS + 1))
    x_ticks = tuple(Tick(x(i), str(number)) for i, number in enumerate(rounds))
    return LineChart(
        title=title, unit=unit, rounds=rounds, lines=lines, x_ticks=x_ticks, y_ticks=y_ticks,
        summary=_summary(title, unit, rounds, lines),
        table=tuple(
            (number, tuple(s.values[i] if i < len(s.values) else None for s in series))
            for i, number in enumerate(rounds)
        ),
    )  # fmt: skip


def _summary(title: str, unit: str, rounds: Sequence[int], lines: Sequence[Line]) -> str:
    if not rounds or not any(line.points for line in lines):
        return f"{title}: nothing to draw yet."
    last = rounds[-1]
    told = ", ".join(f"{line.name} {line.last}" for line in lines if line.last is not None)
    return f"{title}, rounds {rounds[0]} to {last}: after round {last}, {told} {unit}."
