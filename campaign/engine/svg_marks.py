"""The map's marks and legend: headquarters stars, fortification markers, the legend under the picture.

Part of the map picture ``campaign.engine.svg`` draws (split from it to keep each file readable); the
drawing primitives (``_num``, ``_attr`` and the colours) are that module's.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from functools import partial

from armies.blocs import Bloc
from campaign.engine.geometry import Point
from campaign.engine.map import Fortification, MapState, ZverogradMap
from campaign.engine.svg_text import INK, PAPER, holder_label, num, points_attr, xml_attr, xml_text


def star(x: float, y: float, scale: float, css: str = "hq-marker") -> str:
    """A five-pointed star: a headquarters."""
    points: list[Point] = []
    for index in range(10):
        radius = (10 if index % 2 == 0 else 4.2) * scale
        angle = -math.pi / 2 + index * math.pi / 5
        points.append((x + radius * math.cos(angle), y + radius * math.sin(angle)))
    return (
        f'<polygon class="{css}" points="{points_attr(tuple(points))}" fill="{INK}" stroke="{PAPER}"'
        f' stroke-width="{num(1.5 * scale)}"/>'
    )


def fortification_marker(
    kind: Fortification, x: float, y: float, scale: float, css: str = "fortification-marker"
) -> str:
    size = 8 * scale
    common = f'class="{css}" data-kind="{kind.value}" stroke="{INK}" stroke-width="{num(2 * scale)}"'
    if kind is Fortification.STRONGPOINT:
        # A hollow square: light works.
        return (
            f'<rect {common} x="{num(x - size)}" y="{num(y - size)}" width="{num(2 * size)}"'
            f' height="{num(2 * size)}" fill="{PAPER}"/>'
        )
    # A filled dome on a base line: a bunker.
    return (
        f'<path {common} fill="{INK}" d="M {num(x - size)} {num(y + size / 2)}'
        f' A {num(size)} {num(size)} 0 0 1 {num(x + size)} {num(y + size / 2)} Z"/>'
    )


_LEGEND_ITEM = 135  # width of one legend entry, in thousandths of the map's larger side
_LEGEND_ROW = 30


def _legend_columns(zmap: ZverogradMap, scale: float) -> int:
    return max(1, int((zmap.width - 14 * scale) // (_LEGEND_ITEM * scale)))


def legend_height(zmap: ZverogradMap, scale: float, entries: int) -> float:
    rows = -(-entries // _legend_columns(zmap, scale))
    return (rows * _LEGEND_ROW + 20) * scale


def _swatch(x: float, y: float, *, scale: float, owner: Bloc | None, colour: str) -> str:
    size = 20 * scale
    return (
        f'<rect class="legend-swatch" data-owner="{xml_attr(holder_label(owner))}" x="{num(x - size / 2)}"'
        f' y="{num(y - size / 2)}" width="{num(size)}" height="{num(size)}" fill="{xml_attr(colour)}"'
        f' stroke="{INK}"/>'
    )


def legend(
    zmap: ZverogradMap,
    state: MapState,
    palette: Mapping[str | None, str],
    scale: float,
    *,
    with_battles: bool = False,
) -> str:
    entries: list[tuple[Callable[[float, float], str], str]] = []
    for owner in (*Bloc, None):
        held = sum(1 for key in zmap.keys if state[key].owner == owner)
        colour = palette[None if owner is None else owner.value]
        label = f"{'Neutral' if owner is None else owner.value} ({held})"
        entries.append((partial(_swatch, scale=scale, owner=owner, colour=colour), label))
    entries.append((partial(star, scale=scale, css="legend-hq"), "Headquarters"))
    for kind in (Fortification.STRONGPOINT, Fortification.BUNKER):
        marker = partial(fortification_marker, kind, scale=scale, css="legend-fortification")
        entries.append((marker, kind.value.capitalize()))
    if with_battles:
        entries.append((partial(_stake_swatch, scale=scale), "At stake"))
    columns = _legend_columns(zmap, scale)
    parts = [f'<g class="legend" transform="translate(0 {num(zmap.height + 10 * scale)})">']
    for index, (draw, label) in enumerate(entries):
        left = (14 + (index % columns) * _LEGEND_ITEM) * scale
        middle = (index // columns * _LEGEND_ROW + 16) * scale
        parts.append(
            f"{draw(left + 10 * scale, middle)}"
            f'<text x="{num(left + 26 * scale)}" y="{num(middle)}" dominant-baseline="middle"'
            f' fill="{INK}">{xml_text(label)}</text>'
        )
    parts.append("</g>")
    return "\n".join(parts)


def _stake_swatch(x: float, y: float, *, scale: float) -> str:
    size = 20 * scale
    return (
        f'<rect class="legend-at-stake" x="{num(x - size / 2)}" y="{num(y - size / 2)}" width="{num(size)}"'
        f' height="{num(size)}" fill="{PAPER}" stroke="{INK}" stroke-width="{num(3 * scale)}"'
        f' stroke-dasharray="{num(5 * scale)} {num(3 * scale)}"/>'
    )
