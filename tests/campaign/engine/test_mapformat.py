"""The JSON map format: what it accepts, every problem it names, and exact round trips."""

from __future__ import annotations

import json
import pickle
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings

from armies.blocs import Bloc
from campaign.engine import (
    MAX_FILE_BYTES,
    MAX_NEIGHBOURS,
    MAX_SECTORS,
    Fortification,
    MapFormatError,
    MapProblem,
    Terrain,
    map_from_json,
    map_from_json_text,
    map_problems,
    map_to_json,
)
from core.errors import DomainError
from tests.campaign.engine.builders import chain, crossroads, map_documents

ROOT = Path(__file__).resolve().parents[3]
Document = dict[str, Any]


def problems_of(document: Any) -> list[tuple[str, str]]:
    with pytest.raises(MapFormatError) as caught:
        map_from_json(document)
    return [(problem.field, problem.code) for problem in caught.value.errors]


def test_it_reads_a_valid_document_into_a_map() -> None:
    zmap = map_from_json(crossroads())

    assert zmap.name == "Crossroads"
    assert (zmap.width, zmap.height) == (600, 400)
    assert zmap.keys == ("mill", "bridge", "square", "church")
    mill = zmap.sector("mill")
    assert mill.terrain is Terrain.INDUSTRIAL
    assert mill.owner is Bloc.AXIS
    assert mill.headquarters_of is Bloc.AXIS
    assert mill.fortification is Fortification.STRONGPOINT
    assert zmap.neighbours("square") == ("mill", "bridge", "church")
    assert zmap.sector("square").owner is None
    assert zmap.headquarters(Bloc.ALLIES).key == "church"


def _set(path: str, value: Any) -> Callable[[Document], None]:
    def change(document: Document) -> None:
        *parents, last = re.findall(r"\w+", path)
        target: Any = document
        for part in parents:
            target = target[int(part)] if part.isdigit() else target[part]
        target[int(last) if last.isdigit() else last] = value

    return change


def _delete(index: int, name: str) -> Callable[[Document], None]:
    def change(document: Document) -> None:
        del document["sectors"][index][name]

    return change


def _append(index: int, neighbour: str) -> Callable[[Document], None]:
    def change(document: Document) -> None:
        document["sectors"][index]["neighbours"].append(neighbour)

    return change


def _rename_square(document: Document) -> None:
    for sector in document["sectors"]:
        sector["neighbours"] = ["Market_Square" if key == "square" else key for key in sector["neighbours"]]
    document["sectors"][2]["key"] = "Market_Square"


def _second_square(document: Document) -> None:
    twin = dict(document["sectors"][2], x=450, y=300, neighbours=["church"])
    document["sectors"].append(twin)


def _cut_off_church(document: Document) -> None:
    document["sectors"][2]["neighbours"].remove("church")
    document["sectors"][3]["neighbours"] = []


BAD_DOCUMENTS: list[tuple[str, Callable[[Document], None], list[tuple[str, str]]]] = [
    ("wrong format", _set("format", "zverograd-army-list"), [("format", "wrong-format")]),
    ("version 2", _set("version", 2), [("version", "unsupported-version")]),
    ("no terrain", _delete(2, "terrain"), [("sectors[2].terrain", "missing-field")]),
    ("unknown field", _set("sectors.2.colour", "red"), [("sectors[2].colour", "unknown-field")]),
    ("value as text", _set("sectors.2.value", "3"), [("sectors[2].value", "wrong-type")]),
    ("value too high", _set("sectors.2.value", 11), [("sectors[2].value", "out-of-bounds")]),
    ("negative x", _set("sectors.2.x", -1), [("sectors[2].x", "out-of-bounds")]),
    ("name too long", _set("sectors.2.name", "N" * 61), [("sectors[2].name", "out-of-bounds")]),
    ("empty map name", _set("name", ""), [("name", "out-of-bounds")]),
    ("tiny canvas", _set("height", 99), [("height", "out-of-bounds")]),
    (
        "bad key",
        _rename_square,
        [
            ("sectors[0].neighbours[0]", "bad-key"),
            ("sectors[1].neighbours[0]", "bad-key"),
            ("sectors[2].key", "bad-key"),
            ("sectors[3].neighbours[0]", "bad-key"),
        ],
    ),
    ("name with a blank end", _set("sectors.0.name", "The Mill "), [("sectors[0].name", "bad-name")]),
    (
        "name with a control character",
        _set("sectors.0.name", "The\x07Mill"),
        [("sectors[0].name", "bad-name")],
    ),
    ("unknown terrain", _set("sectors.2.terrain", "swamp"), [("sectors[2].terrain", "unknown-terrain")]),
    ("unknown bloc", _set("sectors.2.owner", "Soviets"), [("sectors[2].owner", "unknown-bloc")]),
    (
        "unknown fortification",
        _set("sectors.2.fortification", "minefield"),
        [("sectors[2].fortification", "unknown-fortification")],
    ),
    ("duplicate key", _second_square, [("sectors[4].key", "duplicate-key")]),
    ("self-adjacent", _append(2, "square"), [("sectors[2].neighbours[3]", "self-adjacent")]),
    ("neighbour twice", _append(2, "mill"), [("sectors[2].neighbours[3]", "duplicate-neighbour")]),
    ("dangling neighbour", _append(2, "nowhere"), [("sectors[2].neighbours[3]", "dangling-neighbour")]),
    (
        "one-way road",
        _set("sectors.3.neighbours", []),
        [("sectors[2].neighbours[2]", "asymmetric-adjacency")],
    ),
    ("island", _cut_off_church, [("sectors", "disconnected")]),
    (
        "no Allied headquarters",
        _set("sectors.3.headquarters_of", None),
        [("sectors", "headquarters-missing")],
    ),
    (
        "second Axis headquarters",
        lambda document: document["sectors"][2].update(owner="Axis", headquarters_of="Axis"),
        [("sectors[2].headquarters_of", "headquarters-duplicate")],
    ),
    (
        "headquarters held by the enemy",
        _set("sectors.0.owner", "SSU"),
        [("sectors[0].owner", "headquarters-not-owned")],
    ),
    ("outside the box", _set("sectors.0.x", 601), [("sectors[0].x", "position-out-of-bounds")]),
    (
        "two sectors in one place",
        lambda document: document["sectors"][3].update(x=300, y=180),
        [("sectors[3]", "duplicate-position")],
    ),
]


@pytest.mark.parametrize(
    ("change", "expected"), [case[1:] for case in BAD_DOCUMENTS], ids=[case[0] for case in BAD_DOCUMENTS]
)
def test_it_names_each_problem_by_field_and_code(
    change: Callable[[Document], None], expected: list[tuple[str, str]]
) -> None:
    document = crossroads()
    change(document)

    assert problems_of(document) == expected


def test_it_names_the_sectors_a_disconnected_map_cannot_reach() -> None:
    document = crossroads()
    _cut_off_church(document)

    (problem,) = map_problems(document)

    assert "church" in problem.message
    assert "square" not in problem.message.split("no way to")[1]


def test_it_names_the_bloc_without_a_headquarters() -> None:
    document = crossroads()
    document["sectors"][3]["headquarters_of"] = None

    (problem,) = map_problems(document)

    assert "Allies" in problem.message


def test_it_reports_every_problem_of_a_document_at_once() -> None:
    document = crossroads()
    document["version"] = 3
    document["sectors"][0]["terrain"] = "swamp"
    document["sectors"][1]["neighbours"].append("nowhere")
    document["sectors"][2]["value"] = 99
    document["sectors"][3]["headquarters_of"] = None
    document["sectors"][3]["x"] = 900
    del document["sectors"][1]["fortification"]

    assert problems_of(document) == [
        ("version", "unsupported-version"),
        ("sectors", "headquarters-missing"),
        ("sectors[0].terrain", "unknown-terrain"),
        ("sectors[1].neighbours[2]", "dangling-neighbour"),
        ("sectors[1].fortification", "missing-field"),
        ("sectors[2].value", "out-of-bounds"),
        ("sectors[3].x", "position-out-of-bounds"),
    ]


def test_it_raises_one_domain_error_that_says_where_and_how_many() -> None:
    document = crossroads()
    document["sectors"][0]["terrain"] = "swamp"
    document["sectors"][2]["value"] = 99

    with pytest.raises(DomainError) as caught:
        map_from_json(document)

    error = caught.value
    assert isinstance(error, MapFormatError)
    assert error.code == "map-invalid"
    assert error.field == "sectors[0].terrain"
    assert "swamp" in error.message
    assert "1 more problem" in error.message
    assert all(isinstance(problem, MapProblem) for problem in error.errors)


def test_it_keeps_every_problem_through_pickling_and_prefixing() -> None:
    document = crossroads()
    document["sectors"][0]["terrain"] = "swamp"
    document["sectors"][2]["value"] = 99
    with pytest.raises(MapFormatError) as caught:
        map_from_json(document)

    copied = pickle.loads(pickle.dumps(caught.value))  # noqa: S301 - our own object, made here
    prefixed = caught.value.with_field_prefix("document")

    assert copied.errors == caught.value.errors
    assert copied.code == "map-invalid"
    assert [problem.field for problem in prefixed.errors] == [
        "document.sectors[0].terrain",
        "document.sectors[2].value",
    ]


@pytest.mark.parametrize("document", [[], "map", None, 3])
def test_it_refuses_a_document_that_is_not_an_object(document: Any) -> None:
    assert problems_of(document) == [("", "wrong-type")]


def test_it_refuses_a_sector_that_is_not_an_object_and_still_checks_the_rest() -> None:
    document = crossroads()
    document["sectors"].append("a sector")
    document["sectors"][0]["terrain"] = "swamp"

    assert problems_of(document) == [("sectors[0].terrain", "unknown-terrain"), ("sectors[4]", "wrong-type")]


def test_it_accepts_the_largest_map_and_refuses_one_sector_more() -> None:
    assert len(map_from_json(chain(MAX_SECTORS)).sectors) == MAX_SECTORS

    assert problems_of(chain(MAX_SECTORS + 1)) == [("sectors", "out-of-bounds")]


def test_it_refuses_a_sector_with_too_many_neighbours() -> None:
    document = chain(14)
    hub = document["sectors"][13]
    for sector in document["sectors"][:12]:
        if sector["key"] not in hub["neighbours"]:
            hub["neighbours"].append(sector["key"])
            sector["neighbours"].append(hub["key"])

    assert problems_of(document) == [("sectors[13].neighbours", "out-of-bounds")]


def test_it_names_only_the_length_of_a_list_a_hundred_times_too_long() -> None:
    sectors = crossroads()
    sectors["sectors"] = [{"bad": "sector"}] * (MAX_SECTORS * 100)
    neighbours = crossroads()
    neighbours["sectors"][0]["neighbours"] = [17] * (MAX_NEIGHBOURS * 100)
    neighbours["sectors"][1]["terrain"] = "swamp"

    with pytest.raises(MapFormatError) as caught:
        map_from_json(sectors)

    assert caught.value.errors == (
        MapProblem("sectors", "out-of-bounds", f"must have at most {MAX_SECTORS} entries (got 6,400)"),
    )
    assert problems_of(neighbours) == [("sectors[0].neighbours", "out-of-bounds")]


def test_it_reads_uploaded_text_and_bytes() -> None:
    text = json.dumps(crossroads())

    assert map_from_json_text(text) == map_from_json(crossroads())
    assert map_from_json_text(text.encode("utf-8")) == map_from_json(crossroads())
    assert map_from_json_text(b"\xef\xbb\xbf" + text.encode("utf-8")) == map_from_json(crossroads())


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ("{", "not-json"),
        (b"\xff\xfe{}", "not-json"),
        ('{"width": NaN}', "not-json"),
        ("[" * 100_000 + "]" * 100_000, "not-json"),
        ('{"name": "a", "name": "b"}', "duplicate-field"),
    ],
    ids=["truncated", "not utf-8", "NaN", "nested too deeply", "repeated field"],
)
def test_it_refuses_a_file_that_is_not_clean_json(data: str | bytes, code: str) -> None:
    with pytest.raises(MapFormatError) as caught:
        map_from_json_text(data)

    assert [(problem.field, problem.code) for problem in caught.value.errors] == [("", code)]


def test_it_refuses_a_file_over_the_size_limit_before_reading_it() -> None:
    padded = json.dumps(crossroads(), indent=1)
    padded += " " * (MAX_FILE_BYTES - len(padded.encode("utf-8")))
    assert map_from_json_text(padded) == map_from_json(crossroads())

    with pytest.raises(MapFormatError) as caught:
        map_from_json_text(padded + " ")

    assert caught.value.errors[0].code == "too-large"


def test_it_writes_back_the_document_it_read() -> None:
    document = crossroads()

    assert map_to_json(map_from_json(document)) == document
    assert json.dumps(map_to_json(map_from_json(document))) == json.dumps(document)


def test_it_reads_back_the_map_it_wrote() -> None:
    zmap = map_from_json(crossroads())

    assert map_from_json(map_to_json(zmap)) == zmap


@settings(max_examples=60, deadline=None)
@given(document=map_documents())
def test_it_round_trips_every_valid_document(document: Document) -> None:
    zmap = map_from_json(document)

    assert map_to_json(zmap) == document
    assert map_from_json(map_to_json(zmap)) == zmap


def test_it_accepts_the_example_in_the_format_documentation() -> None:
    text = (ROOT / "docs" / "map-format.md").read_text(encoding="utf-8")
    example = re.search(r"```json\n(.*?)```", text, re.DOTALL)
    assert example is not None

    zmap = map_from_json_text(example.group(1))

    assert zmap.name == "Crossroads"
    assert {sector.headquarters_of for sector in zmap.sectors} == {*Bloc, None}
