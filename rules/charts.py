"""Bar charts of probability distributions, as geometry for an inline SVG template.

``bar_chart`` is a pure function: probabilities in, bars and axes out, in the
units of a fixed SVG view box that the browser scales to the page. The template
(``rules/partials/chart.html``) only draws what it is given, so the chart is
readable without JavaScript, and each bar carries its own text for screen
readers and tooltips. Long tails of tiny probabilities are folded into one
last "k or more" bar so that a phone shows a dozen wide bars, not sixty slivers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

WIDTH = 320.0
HEIGHT = 190.0
LEFT = 42.0  # room for the percentage ticks
RIGHT = 6.0
TOP = 18.0  # room for the label above the tallest bar
BOTTOM = 42.0  # room for the value labels and the axis title
MAX_BARS = 14
NEGLIGIBLE = 0.0005  # a trailing bar below this (0.05%) is folded into the tail


@dataclass(frozen=True)
class Bar:
    label: str  # the value on the x axis: "3", or "12+" for a folded tail
    probability: float
    percent: str
    x: float
    y: float
    width: float
    height: float
    tooltip: str
    show_percent: bool
    show_label: bool

    @property
    def centre(self) -> float:
        return self.x + self.width / 2

    @property
    def percent_y(self) -> float:
        return self.y - 4


@dataclass(frozen=True)
class Tick:
    label: str
    y: float


@dataclass(frozen=True)
class BarChart:
    title: str
    x_label: str
    y_label: str
    bars: tuple[Bar, ...]
    ticks: tuple[Tick, ...]
    summary: str  # one sentence for screen readers: where the mass is
    width: float = WIDTH
    height: float = HEIGHT
    left: float = LEFT
    top: float = TOP
    baseline: float = HEIGHT - BOTTOM
    right: float = WIDTH - RIGHT

    @property
    def tick_x(self) -> float:
        return self.left - 4

    @property
    def y_title_transform(self) -> str:
        return f"translate(11 {(self.top + self.baseline) / 2:.1f}) rotate(-90)"

    @property
    def label_y(self) -> float:
        return self.baseline + 14

    @property
    def axis_title_y(self) -> float:
        return self.height - 6

    @property
    def centre_x(self) -> float:
        return (self.left + self.right) / 2

    @property
    def total(self) -> float:
        return sum(bar.probability for bar in self.bars)


def percent(p: float) -> str:
    """A probability as people read it at the table: 31%, 4.2%, <0.1%, 0%, 100%."""
    value = p * 100
    if value <= 0:
        return "0%"
    if value >= 100:
        return "100%"
    if value < 0.1:
        return "<0.1%"
    if value > 99.9:
        return ">99.9%"
    if value < 10 or value > 90:
        return f"{value:.1f}%"
    return f"{value:.0f}%"


def folded(probabilities: Sequence[float], *, tail_from: int | None = None) -> list[tuple[str, float]]:
    """(label, probability) per bar: negligible trailing values and long tails go into a "k+" bar."""
    values = [max(0.0, float(p)) for p in probabilities] or [1.0]
    last = max((i for i, p in enumerate(values) if p >= NEGLIGIBLE), default=0)
    cut = min(last + 1, MAX_BARS)
    bars = [(str(i), p) for i, p in enumerate(values[:cut])]
    rest = sum(values[cut:])
    tail = cut < len(values) and rest > 0
    if tail:
        bars[-1] = (f"{cut - 1}+", bars[-1][1] + rest)
    elif tail_from is not None and cut == len(values):
        bars[-1] = (f"{len(values) - 1}+", bars[-1][1])
    return bars


def _labelled(count: int, *, step: int) -> set[int]:
    """Which bars get an x label: every ``step``-th, and always the last (which may read "12+")."""
    shown = set(range(0, count, step))
    last = count - 1
    if last - max(shown) < step:
        shown.discard(max(shown))
    shown.add(last)
    return shown


def _noun(noun: str, label: str) -> str:
    """ "1 hit", "2 hits": the axis nouns are plurals."""
    return noun.removesuffix("s") if label == "1" else noun


def _scale_top(highest: float) -> tuple[float, float]:
    """The top of the y axis and its tick step, in probability."""
    for top, step in ((0.1, 0.05), (0.2, 0.1), (0.3, 0.1), (0.4, 0.1), (0.5, 0.25), (0.6, 0.2), (0.8, 0.2)):
        if highest <= top + 1e-12:
            return top, step
    return 1.0, 0.25


def bar_chart(
    probabilities: Sequence[float],
    *,
    title: str,
    x_label: str,
    y_label: str = "Chance",
    tail_from: int | None = None,
) -> BarChart:
    """Bars for P(value = k), k = 0, 1, ...; ``tail_from`` marks a last entry that is P(value >= k)."""
    entries = folded(probabilities, tail_from=tail_from)
    top, step = _scale_top(max(p for _, p in entries))
    baseline = HEIGHT - BOTTOM
    plot_height = baseline - TOP
    slot = (WIDTH - RIGHT - LEFT) / len(entries)
    width = slot * 0.72
    crowded = len(entries) > 9
    labelled = _labelled(len(entries), step=2 if crowded else 1)
    bars = []
    for i, (label, p) in enumerate(entries):
        height = plot_height * min(p, top) / top
        x = LEFT + i * slot + (slot - width) / 2
        bars.append(
            Bar(
                label=label,
                probability=p,
                percent=percent(p),
                x=round(x, 2),
                y=round(baseline - height, 2),
                width=round(width, 2),
                height=round(height, 2),
                tooltip=f"{label} {_noun(x_label, label)}: {percent(p)}",
                # Crowded charts label the bars that matter; every bar keeps its tooltip.
                show_percent=not crowded or p >= 0.1,
                show_label=i in labelled,
            )
        )
    ticks = tuple(
        Tick(label=f"{round(v * 100)}%", y=round(baseline - plot_height * v / top, 2))
        for v in (k * step for k in range(math.floor(top / step + 1e-9) + 1))
    )
    likeliest = max(bars, key=lambda bar: bar.probability)
    summary = (
        f"{title}: most likely {likeliest.label} {_noun(x_label, likeliest.label)} ({likeliest.percent}); "
        + ", ".join(f"{bar.label}: {bar.percent}" for bar in bars)
        + "."
    )
    return BarChart(
        title=title, x_label=x_label, y_label=y_label, bars=tuple(bars), ticks=ticks, summary=summary
    )
