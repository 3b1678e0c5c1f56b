"""Voronoi cells of the sector positions: the shapes the map is drawn with.

Each sector's cell is the part of the map's box nearer to its position than to
any other, found by clipping the box with the half-plane on its side of the
perpendicular bisector to every other position. That is O(n²) clips for n
sites; a map has at most a few dozen sectors, so plain floats and no library.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Point = tuple[float, float]
Polygon = tuple[Point, ...]

# Positions are whole numbers in a box of at most a couple of thousand units, so
# anything below this is rounding noise from the clipping, not geometry.
EPSILON = 1e-7


def clip_half_plane(polygon: Sequence[Point], a: float, b: float, c: float) -> list[Point]:
    """The part of a convex polygon where ``a*x + b*y <= c`` (Sutherland-Hodgman, one edge)."""
    out: list[Point] = []
    count = len(polygon)
    for index in range(count):
        p = polygon[index]
        q = polygon[(index + 1) % count]
        fp = a * p[0] + b * p[1] - c
        fq = a * q[0] + b * q[1] - c
        if fp <= EPSILON:
            out.append(p)
        if (fp < -EPSILON and fq > EPSILON) or (fp > EPSILON and fq < -EPSILON):
            t = fp / (fp - fq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return _without_repeats(out)


def _without_repeats(points: list[Point]) -> list[Point]:
    kept: list[Point] = []
    for point in points:
        if not kept or _distance2(point, kept[-1]) > EPSILON:
            kept.append(point)
    if len(kept) > 1 and _distance2(kept[0], kept[-1]) <= EPSILON:
        kept.pop()
    return kept


def _distance2(p: Point, q: Point) -> float:
    return (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2


def voronoi_cells(sites: Sequence[Point], width: float, height: float) -> tuple[Polygon, ...]:
    """One convex polygon per site, in the order given, tiling the box (0, 0)-(width, height).

    Sites must be distinct; the map format refuses two sectors at one position.
    """
    box: list[Point] = [(0.0, 0.0), (float(width), 0.0), (float(width), float(height)), (0.0, float(height))]
    cells: list[Polygon] = []
    for index, (sx, sy) in enumerate(sites):
        cell = box
        for other, (ox, oy) in enumerate(sites):
            if other == index:
                continue
            # Nearer to s than to o: 2(o - s)·p <= |o|² - |s|².
            cell = clip_half_plane(cell, 2 * (ox - sx), 2 * (oy - sy), ox * ox + oy * oy - sx * sx - sy * sy)
            if not cell:
                break
        cells.append(tuple(cell))
    return tuple(cells)


def polygon_area(polygon: Sequence[Point]) -> float:
    """The unsigned area (shoelace formula)."""
    total = 0.0
    count = len(polygon)
    for index in range(count):
        x1, y1 = polygon[index]
        x2, y2 = polygon[(index + 1) % count]
        total += x1 * y2 - x2 * y1
    return abs(total) / 2


def contains_point(polygon: Sequence[Point], point: Point, tolerance: float = 1e-6) -> bool:
    """Whether a convex polygon holds a point (its border counts as inside)."""
    sign = 0.0
    count = len(polygon)
    for index in range(count):
        x1, y1 = polygon[index]
        x2, y2 = polygon[(index + 1) % count]
        cross = (x2 - x1) * (point[1] - y1) - (y2 - y1) * (point[0] - x1)
        if abs(cross) <= tolerance:
            continue
        if sign == 0.0:
            sign = cross
        elif (cross > 0) != (sign > 0):
            return False
    return True


def shared_edges(
    cell: Sequence[Point], site: Point, other: Point, tolerance: float = 1e-6
) -> list[tuple[Point, Point]]:
    """The edges of ``cell`` (the cell of ``site``) that it shares with the cell of ``other``.

    Such an edge lies on the bisector of the two sites: both its ends are as
    far from one site as from the other.
    """
    edges: list[tuple[Point, Point]] = []
    count = len(cell)
    for index in range(count):
        p = cell[index]
        q = cell[(index + 1) % count]
        if _on_bisector(p, site, other, tolerance) and _on_bisector(q, site, other, tolerance):
            edges.append((p, q))
    return edges


def shared_border(cell: Sequence[Point], site: Point, other: Point, tolerance: float = 1e-6) -> float:
    """How long the border is between the cell of ``site`` and the cell of ``other``."""
    return sum(math.dist(p, q) for p, q in shared_edges(cell, site, other, tolerance))


def _on_bisector(point: Point, site: Point, other: Point, tolerance: float) -> bool:
    gap = abs(math.dist(point, site) - math.dist(point, other))
    return gap <= tolerance * max(1.0, math.dist(site, other))
