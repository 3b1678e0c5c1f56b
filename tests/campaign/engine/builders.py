"""Small map documents for the map engine's tests: a valid one, and strategies for random ones."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

from armies.blocs import Bloc
from campaign.engine import Terrain

# Four sectors: three headquarters around a neutral square.
#   mill (Axis HQ) -- bridge (SSU HQ)
#        \            /
#         market square -- church (Allies HQ)
CROSSROADS: dict[str, Any] = {
    "format": "zverograd-map",
    "version": 1,
    "name": "Crossroads",
    "width": 600,
    "height": 400,
    "sectors": [
        {
            "key": "mill",
            "name": "The Mill",
            "terrain": "industrial",
            "value": 2,
            "x": 100,
            "y": 100,
            "neighbours": ["square", "bridge"],
            "owner": "Axis",
            "headquarters_of": "Axis",
            "fortification": "strongpoint",
        },
        {
            "key": "bridge",
            "name": "The Bridge",
            "terrain": "waterfront",
            "value": 1,
            "x": 500,
            "y": 100,
            "neighbours": ["square", "mill"],
            "owner": "SSU",
            "headquarters_of": "SSU",
            "fortification": "none",
        },
        {
            "key": "square",
            "name": "Market Square",
            "terrain": "urban",
            "value": 3,
            "x": 300,
            "y": 180,
            "neighbours": ["mill", "bridge", "church"],
            "owner": None,
            "headquarters_of": None,
            "fortification": "none",
        },
        {
            "key": "church",
            "name": "Church Hill",
            "terrain": "heights",
            "value": 1,
            "x": 300,
            "y": 340,
            "neighbours": ["square"],
            "owner": "Allies",
            "headquarters_of": "Allies",
            "fortification": "bunker",
        },
    ],
}


def crossroads() -> dict[str, Any]:
    """A fresh copy of the valid four-sector document, for a test to spoil."""
    return copy.deepcopy(CROSSROADS)


def chain(count: int) -> dict[str, Any]:
    """A valid map of ``count`` sectors in a row, the three headquarters at its start."""
    blocs = [Bloc.AXIS.value, Bloc.SSU.value, Bloc.ALLIES.value]
    sectors = []
    for index in range(count):
        neighbours = [f"s{other}" for other in (index - 1, index + 1) if 0 <= other < count]
        hq = blocs[index] if index < 3 else None
        sectors.append(
            {
                "key": f"s{index}",
                "name": f"Sector {index}",
                "terrain": "open",
                "value": 1,
                "x": 10 + (index % 8) * 100,
                "y": 10 + (index // 8) * 100,
                "neighbours": neighbours,
                "owner": hq,
                "headquarters_of": hq,
                "fortification": "none",
            }
        )
    return {
        "format": "zverograd-map",
        "version": 1,
        "name": "Chain",
        "width": 800,
        "height": 1000,
        "sectors": sectors,
    }


@st.composite
def map_documents(draw: st.DrawFn, max_sectors: int = 24) -> dict[str, Any]:
    """Random valid documents: distinct positions, a random spanning tree plus extra roads."""
    width = draw(st.integers(100, 2000))
    height = draw(st.integers(100, 2000))
    count = draw(st.integers(3, max_sectors))
    positions = draw(
        st.lists(
            st.tuples(st.integers(0, width), st.integers(0, height)),
            min_size=count,
            max_size=count,
            unique=True,
        )
    )
    edges: set[tuple[int, int]] = set()
    degree = [0] * count
    for index in range(1, count):
        parent = draw(st.sampled_from([other for other in range(index) if degree[other] < 12]))
        edges.add((parent, index))
        degree[parent] += 1
        degree[index] += 1
    extra = draw(st.lists(st.tuples(st.integers(0, count - 1), st.integers(0, count - 1)), max_size=count))
    for first, second in extra:
        pair = (min(first, second), max(first, second))
        if first != second and pair not in edges and degree[first] < 12 and degree[second] < 12:
            edges.add(pair)
            degree[first] += 1
            degree[second] += 1
    headquarters = draw(st.permutations(range(count)))[:3]
    owners = draw(
        st.lists(st.sampled_from([None, *(bloc.value for bloc in Bloc)]), min_size=count, max_size=count)
    )
    sectors = []
    for index, (x, y) in enumerate(positions):
        hq = None
        for bloc, hq_index in zip(Bloc, headquarters, strict=True):
            if hq_index == index:
                hq = bloc.value
        neighbours = sorted(
            {f"k{b}" for a, b in edges if a == index} | {f"k{a}" for a, b in edges if b == index},
            key=lambda key: int(key[1:]),
        )
        sectors.append(
            {
                "key": f"k{index}",
                "name": f"Sector <{index}> & co",
                "terrain": draw(st.sampled_from([terrain.value for terrain in Terrain])),
                "value": draw(st.integers(0, 10)),
                "x": x,
                "y": y,
                "neighbours": neighbours,
                "owner": hq if hq is not None else owners[index],
                "headquarters_of": hq,
                "fortification": draw(st.sampled_from(["none", "strongpoint", "bunker"])),
            }
        )
    return {
        "format": "zverograd-map",
        "version": 1,
        "name": "Random",
        "width": width,
        "height": height,
        "sectors": sectors,
    }
