"""The Zverograd map the project ships: valid, complete, and drawn as it is connected."""

from __future__ import annotations

import json
from collections import deque

from armies.blocs import Bloc
from campaign.engine import (
    DEFAULT_MAP_PATH,
    Fortification,
    ZverogradMap,
    default_map,
    income,
    map_problems,
    map_to_json,
    sectors_held,
)
from campaign.engine.geometry import shared_border, voronoi_cells
from campaign.engine.svg import MIN_BORDER

NAMED = [
    "The Airfield",
    "Central Station",
    "Memorial Park",
    "The Zoo",
    "The Monastery Hill",
    "The Port",
    "The Metro depot",
    "The Tractor Works",
]


def hops(zmap: ZverogradMap, start: str, goal: str) -> int:
    seen = {start: 0}
    queue = deque([start])
    while queue:
        key = queue.popleft()
        for neighbour in zmap.neighbours(key):
            if neighbour not in seen:
                seen[neighbour] = seen[key] + 1
                queue.append(neighbour)
    return seen[goal]


def test_it_satisfies_every_rule_of_the_format() -> None:
    document = json.loads(DEFAULT_MAP_PATH.read_text(encoding="utf-8"))

    assert map_problems(document) == ()
    assert map_to_json(default_map()) == document


def test_it_has_fourteen_sectors_with_the_named_places() -> None:
    zmap = default_map()

    assert len(zmap.sectors) == 14
    assert set(NAMED) <= {sector.name for sector in zmap.sectors}


def test_it_varies_terrain_and_keeps_values_from_one_to_three() -> None:
    zmap = default_map()

    assert len({sector.terrain for sector in zmap.sectors}) >= 5
    assert {sector.value for sector in zmap.sectors} == {1, 2, 3}


def test_it_puts_each_headquarters_far_from_the_others() -> None:
    zmap = default_map()
    headquarters = [zmap.headquarters(bloc).key for bloc in Bloc]

    for index, first in enumerate(headquarters):
        for second in headquarters[index + 1 :]:
            assert hops(zmap, first, second) >= 3, (first, second)


def test_it_starts_with_neutral_sectors_and_an_even_income() -> None:
    zmap = default_map()
    state = zmap.initial_state()

    assert len(sectors_held(zmap, state, None)) >= 6
    assert {income(zmap, state, bloc) for bloc in Bloc} == {4}
    assert all(zmap.headquarters(bloc).fortification is Fortification.STRONGPOINT for bloc in Bloc)


def test_it_makes_neighbours_exactly_the_sectors_whose_cells_touch() -> None:
    zmap = default_map()
    sites = [(float(sector.x), float(sector.y)) for sector in zmap.sectors]
    cells = voronoi_cells(sites, zmap.width, zmap.height)

    for first, sector in enumerate(zmap.sectors):
        for second, other in enumerate(zmap.sectors):
            if first == second:
                continue
            border = shared_border(cells[first], sites[first], sites[second])
            touching = border >= MIN_BORDER * max(zmap.width, zmap.height) / 1000
            assert touching == (other.key in sector.neighbours), (sector.key, other.key, border)
            # No corner that nearly touches: the picture leaves no doubt either way.
            assert border == 0 or border >= 20, (sector.key, other.key, border)


def test_it_is_loaded_once() -> None:
    assert default_map() is default_map()
