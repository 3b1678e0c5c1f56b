"""The Voronoi cells the map is drawn with: they tile the box, each around its own site."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.engine.geometry import (
    Point,
    clip_half_plane,
    contains_point,
    polygon_area,
    shared_border,
    voronoi_cells,
)


@st.composite
def boxes_with_sites(draw: st.DrawFn) -> tuple[int, int, list[Point]]:
    width = draw(st.integers(100, 2000))
    height = draw(st.integers(100, 2000))
    sites = draw(
        st.lists(
            st.tuples(st.integers(0, width), st.integers(0, height)), min_size=1, max_size=64, unique=True
        )
    )
    return width, height, [(float(x), float(y)) for x, y in sites]


def test_it_gives_a_lone_site_the_whole_box() -> None:
    (cell,) = voronoi_cells([(10.0, 10.0)], 200, 100)

    assert polygon_area(cell) == 200 * 100


def test_it_splits_two_sites_along_their_bisector() -> None:
    left, right = voronoi_cells([(50.0, 50.0), (150.0, 50.0)], 200, 100)

    assert polygon_area(left) == polygon_area(right) == 100 * 100
    assert shared_border(left, (50.0, 50.0), (150.0, 50.0)) == 100
    assert all(x <= 100 for x, _ in left)


def test_it_clips_a_square_to_a_half_plane() -> None:
    square = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)]

    assert polygon_area(clip_half_plane(square, 1, 0, 4)) == 40  # x <= 4
    assert clip_half_plane(square, 1, 0, -1) == []  # x <= -1: nothing left
    assert polygon_area(clip_half_plane(square, 1, 1, 10)) == 50  # below the diagonal


def test_it_tells_inside_from_outside() -> None:
    square = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)]

    assert contains_point(square, (5.0, 5.0))
    assert contains_point(square, (10.0, 5.0))
    assert not contains_point(square, (10.5, 5.0))


@settings(max_examples=150, deadline=None)
@given(case=boxes_with_sites())
def test_it_tiles_the_box_with_one_cell_around_each_site(case: tuple[int, int, list[Point]]) -> None:
    width, height, sites = case

    cells = voronoi_cells(sites, width, height)

    assert len(cells) == len(sites)
    for site, cell in zip(sites, cells, strict=True):
        assert len(cell) >= 3
        assert polygon_area(cell) > 0
        assert contains_point(cell, site)
    # Cells inside the box whose areas add up to the box's cannot overlap.
    assert all(0 <= x <= width and 0 <= y <= height for cell in cells for x, y in cell)
    assert math.isclose(sum(polygon_area(cell) for cell in cells), width * height, rel_tol=1e-9)


@settings(max_examples=80, deadline=None)
@given(case=boxes_with_sites(), probe=st.tuples(st.floats(0, 1), st.floats(0, 1)))
def test_it_puts_every_point_in_the_cell_of_its_nearest_site(
    case: tuple[int, int, list[Point]], probe: tuple[float, float]
) -> None:
    width, height, sites = case
    point = (probe[0] * width, probe[1] * height)
    cells = voronoi_cells(sites, width, height)

    distances = [math.dist(point, site) for site in sites]
    nearest = min(distances)
    holders = [
        index for index, cell in enumerate(cells) if contains_point(cell, point, tolerance=1e-6 * width)
    ]

    assert holders
    # A point on a border belongs to both cells, and is as near to both sites.
    assert all(math.isclose(distances[index], nearest, rel_tol=1e-6, abs_tol=1e-6) for index in holders)
