"""Line charts of the standings over the rounds, as geometry for an inline SVG template.

Pure functions, like campaign/charts.py and rules/charts.py: a ``History``
(rounds and one series a player or bloc) in, polylines in the units of a fixed
view box out. A series starts where its values start (a late player's line
begins in the round they joined). Every chart carries a one-sentence summary
for its ``<desc>``, and the page has a table saying the same.

Every series stays findable when several share values (tied players would
otherwise be drawn exactly on top of each other): each has its own marker
shape as well as its colour, points that coincide are nudged a little apart
(never past half a value step), and each line is named at its end, in a column
right of the plot, the labels pushed apart so no two overlap. Both axes have
titles.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from standings.selectors import History

# The view box is narrow enough that a chart fitted to a phone (about 340 px) still draws its 13-unit labels at
# 10 px: it fits its box at every width rather than scrolling sideways, which hid its last round.
WIDTH = 440.0
HEIGHT = 260.0
LEFT = 60.0  # room for the value axis' title and labels
RIGHT = 118.0  # room for the lines' names at their ends (cut to 12 characters, and the value)
TOP = 10.0
BOTTOM = 44.0  # room for the round numbers and the axis' title
TICKS = 4
LABEL_GAP = 15.0  # the least distance between two end labels (font size 13)
TIE_NUDGE = 3.0  # how far apart coinciding points are drawn
MARKER = 4.0  # a marker's half size
MARKERS = ("circle", "square", "triangle", "diamond", "triangle-down", "cross")
# Distinct, colour-blind-safe-ish hues for players (blocs use the map's colours instead).
PALETTE = ("#1b6ca8", "#c0392b", "#2e8b57", "#8e44ad", "#d35400", "#16a085", "#7f8c8d", "#b8860b")


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    round_number: int
    value: int
    marker: str = ""  # the SVG path of the point's marker


@dataclass(frozen=True)
class Line:
    key: str
    name: str
    colour: str
    points: tuple[Point, ...]
    last: int | None  # the value at the last round it has one (for the legend)
    shape: str = "circle"
    label_y: float = 0.0  # where its name is written, right of the plot

    @property
    def legend_marker(self) -> str:
        return marker_path(self.shape, 0, 0)

    @property
    def end(self) -> Point | None:
        return self.points[-1] if self.points else None

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
    x_title: str = "Round"
    y_title: str = ""
    width: float = WIDTH
    height: float = HEIGHT
    left: float = LEFT
    right_edge: float = WIDTH - RIGHT
    top: float = TOP
    baseline: float = HEIGHT - BOTTOM

    @property
    def label_y(self) -> float:
        return self.baseline + 14

    @property
    def x_title_y(self) -> float:
        return self.height - 6

    @property
    def x_title_x(self) -> float:
        return (self.left + self.right_edge) / 2

    @property
    def y_title_y(self) -> float:
        return (self.top + self.baseline) / 2

    @property
    def end_label_x(self) -> float:
        return self.right_edge + 10

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


def marker_path(shape: str, x: float, y: float) -> str:
    """The SVG path of a marker of ``shape`` centred on (x, y)."""
    m = MARKER
    corners: dict[str, tuple[tuple[float, float], ...]] = {
        "square": ((-m, -m), (m, -m), (m, m), (-m, m)),
        "triangle": ((0, -m - 1), (m + 1, m), (-m - 1, m)),
        "triangle-down": ((0, m + 1), (m + 1, -m), (-m - 1, -m)),
        "diamond": ((0, -m - 1), (m + 1, 0), (0, m + 1), (-m - 1, 0)),
        "cross": ((-m, -1.5), (-1.5, -1.5), (-1.5, -m), (1.5, -m), (1.5, -1.5), (m, -1.5),
                  (m, 1.5), (1.5, 1.5), (1.5, m), (-1.5, m), (-1.5, 1.5), (-m, 1.5)),
    }  # fmt: skip
    if shape not in corners:  # a circle, as two arcs
        return f"M {x - m:g} {y:g} a {m:g} {m:g} 0 1 0 {2 * m:g} 0 a {m:g} {m:g} 0 1 0 {-2 * m:g} 0 Z"
    return "M " + " L ".join(f"{round(x + dx, 2):g} {round(y + dy, 2):g}" for dx, dy in corners[shape]) + " Z"


def spread_labels(wanted: Sequence[float], *, top: float, bottom: float, gap: float) -> list[float]:
    """Label heights as near as may be to ``wanted`` and at least ``gap`` apart, kept within [top, bottom]
    while they fit (the caller makes the chart tall enough for them)."""
    order = sorted(range(len(wanted)), key=lambda i: (wanted[i], i))
    placed = [0.0] * len(wanted)
    previous = top - gap
    for i in order:
        previous = max(wanted[i], previous + gap)
        placed[i] = previous
    # Pushed past the bottom: slide the run back up, never above the top.
    limit = bottom
    for i in reversed(order):
        if placed[i] <= limit:
            break
        placed[i] = max(limit, top)
        limit = placed[i] - gap
    return [round(value, 2) for value in placed]


def line_chart(
    history: History | None,
    *,
    title: str,
    unit: str,
    colour: Callable[[int, str], str] | None = None,
    y_title: str = "",
) -> LineChart:
    """One line a series of ``history`` (``colour(index, key)`` picks its colour; a palette otherwise);
    ``y_title`` names the value axis (the unit, capitalised, by default)."""
    rounds = tuple(history.rounds) if history is not None else ()
    series = list(history.series) if history is not None else []
    values = [v for s in series for v in s.values if v is not None]
    low, high = _scale(min(values, default=0), max(values, default=0))
    # Tall enough that every line's name has its own row at the end.
    height = max(HEIGHT, TOP + BOTTOM + LABEL_GAP * len(series))
    plot_width = WIDTH - LEFT - RIGHT
    plot_height = height - TOP - BOTTOM
    nudge = min(TIE_NUDGE, plot_height / (high - low) / 2 / max(1, len(series)))

    def x(index: int) -> float:
        if len(rounds) <= 1:
            return round(LEFT + plot_width / 2, 2)
        return round(LEFT + plot_width * index / (len(rounds) - 1), 2)

    def y(value: int) -> float:
        return round(TOP + plot_height * (high - value) / (high - low), 2)

    # The series sharing each (round, value), in order: each is drawn a little off the shared point.
    sharing: dict[tuple[int, int], list[int]] = {}
    for index, s in enumerate(series):
        for i, v in enumerate(s.values[: len(rounds)]):
            if v is not None:
                sharing.setdefault((i, v), []).append(index)

    def nudged(index: int, i: int, value: int) -> float:
        group = sharing[(i, value)]
        offset = (group.index(index) - (len(group) - 1) / 2) * nudge
        return round(min(max(y(value) + offset, TOP), height - BOTTOM), 2)

    pick = colour or (lambda index, _key: PALETTE[index % len(PALETTE)])
    drawn = []
    for index, s in enumerate(series):
        shape = MARKERS[index % len(MARKERS)]
        points = []
        for i, v in enumerate(s.values[: len(rounds)]):
            if v is None:
                continue
            px, py = x(i), nudged(index, i, v)
            points.append(Point(px, py, rounds[i], v, marker_path(shape, px, py)))
        drawn.append((s, shape, tuple(points)))
    ends = [points[-1].y if points else height - BOTTOM for _s, _shape, points in drawn]
    label_ys = spread_labels(ends, top=TOP + 4, bottom=height - BOTTOM, gap=LABEL_GAP)
    lines = tuple(
        Line(
            key=s.key,
            name=s.name,
            colour=pick(index, s.key),
            points=points,
            last=next((v for v in reversed(s.values) if v is not None), None),
            shape=shape,
            label_y=label_ys[index],
        )
        for index, (s, shape, points) in enumerate(drawn)
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
        y_title=y_title or unit.capitalize(), height=height, baseline=height - BOTTOM,
    )  # fmt: skip


def _summary(title: str, unit: str, rounds: Sequence[int], lines: Sequence[Line]) -> str:
    if not rounds or not any(line.points for line in lines):
        return f"{title}: nothing to draw yet."
    last = rounds[-1]
    told = ", ".join(f"{line.name} {line.last}" for line in lines if line.last is not None)
    return f"{title}, rounds {rounds[0]} to {last}: after round {last}, {told} {unit}."
