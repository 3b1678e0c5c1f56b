"""The JSON map format, version 1 (docs/map-format.md, schema docs/schema/map.v1.json).

``map_from_json`` reports every problem of a document at once: what the JSON
Schema refuses and what it cannot say (the graph rules), each with the path of
the field at fault, a stable code and a message. It builds a map only when
there is none, so nothing is ever half-loaded.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple, cast

import jsonschema
from jsonschema.exceptions import ValidationError

from armies.blocs import Bloc
from campaign.engine.map import (
    MAX_CANVAS,
    MAX_FILE_BYTES,
    MAX_NEIGHBOURS,
    MAX_SECTORS,
    MIN_CANVAS,
    Fortification,
    SectorSpec,
    Terrain,
    ZverogradMap,
)
from core.errors import DomainError, FieldProblem
from core.numbers import bounded_int

FORMAT_NAME = "zverograd-map"
FORMAT_VERSION = 1
SCHEMA_PATH = Path(__file__).resolve().parents[2] / "docs" / "schema" / "map.v1.json"
DEFAULT_MAP_PATH = Path(__file__).resolve().parents[1] / "data" / "zverograd.map.json"

# Problems are listed in document order; these give the order of the keys.
_TOP_FIELDS = ("format", "version", "name", "width", "height", "sectors")
_SECTOR_FIELDS = (
    "key",
    "name",
    "terrain",
    "value",
    "x",
    "y",
    "neighbours",
    "owner",
    "headquarters_of",
    "fortification",
)
_ENUM_CODES = {
    "terrain": ("unknown-terrain", "terrain"),
    "fortification": ("unknown-fortification", "fortification"),
    "owner": ("unknown-bloc", "bloc"),
    "headquarters_of": ("unknown-bloc", "bloc"),
}
_BOUNDS = frozenset({"minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems"})
_TYPE_NAMES = {"integer": "a whole number", "string": "text", "array": "a list", "object": "an object"}


class MapProblem(NamedTuple):
    """One thing wrong with a map document: where, a stable code, and a sentence for people."""

    field: str
    code: str
    message: str


class MapFormatError(DomainError):
    """A document that is not a valid version-1 map; ``errors`` names every problem found.

    ``field`` and ``message`` are those of the first problem (the message says
    how many more there are), so a caller that shows one error still says where.
    """

    default_code = "map-invalid"

    def __init__(self, problems: Sequence[MapProblem]) -> None:
        self.errors: tuple[MapProblem, ...] = tuple(problems)
        first = self.errors[0]
        more = len(self.errors) - 1
        message = (
            first.message if not more else f"{first.message} (and {more} more problem{'s' * (more > 1)})"
        )
        field_problems = [FieldProblem(p.field, p.code, p.message) for p in self.errors]
        super().__init__("map-invalid", message, first.field, problems=field_problems)

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.errors,))

    def with_field_prefix(self, prefix: str) -> MapFormatError:
        return type(self)([problem._replace(field=_joined(prefix, problem.field)) for problem in self.errors])


def _joined(prefix: str, field: str) -> str:
    if not field:
        return prefix
    return f"{prefix}{field}" if field.startswith("[") else f"{prefix}.{field}"


# --- Schema ---------------------------------------------------------------------------------------


@cache
def _load_schema() -> dict[str, Any]:
    with SCHEMA_PATH.open(encoding="utf-8") as handle:
        return cast(dict[str, Any], json.load(handle))


def map_schema() -> dict[str, Any]:
    """A copy of the JSON Schema, safe for the caller to change."""
    return json.loads(json.dumps(_load_schema()))  # type: ignore[no-any-return]


@cache
def _schema_validator() -> Any:
    schema = _load_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def _path(parts: Sequence[str | int]) -> str:
    path = ""
    for part in parts:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    return path


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:37]}..."


def _schema_problems(document: Any) -> list[MapProblem]:
    problems: list[MapProblem] = []
    for error in _schema_validator().iter_errors(document):
        problems.extend(_describe(error))
    return problems


def _describe(error: ValidationError) -> list[MapProblem]:
    parts = list(error.absolute_path)
    field = _path(parts)
    keyword = error.validator
    limit: Any = error.validator_value
    value: Any = error.instance
    if keyword == "required":
        return [
            MapProblem(_joined(field, name), "missing-field", "is required")
            for name in limit
            if isinstance(value, dict) and name not in value
        ]
    if keyword == "additionalProperties":
        known = error.schema.get("properties", {}) if isinstance(error.schema, dict) else {}
        return [
            MapProblem(_joined(field, str(name)), "unknown-field", "is not a field of the map format")
            for name in value
            if name not in known
        ]
    if keyword == "const":
        if field == "format":
            return [MapProblem(field, "wrong-format", f"must be {FORMAT_NAME!r}: this is not a map document")]
        return [MapProblem(field, "unsupported-version", f"version {_show(value)} is not supported, only 1")]
    if keyword == "type":
        return [MapProblem(field, "wrong-type", f"must be {_TYPE_NAMES.get(str(limit), limit)}")]
    if keyword == "enum":
        last = parts[-1] if parts else ""
        code, noun = _ENUM_CODES.get(str(last), ("not-allowed", "value"))
        allowed = ", ".join(str(item) for item in limit if item is not None)
        return [MapProblem(field, code, f"{_show(value)} is not a known {noun}: one of {allowed}")]
    if keyword in _BOUNDS:
        return [MapProblem(field, "out-of-bounds", _bound_message(str(keyword), limit))]
    if keyword == "pattern":
        if parts and parts[-1] == "name":
            return [
                MapProblem(field, "bad-name", "must not start or end with a space or hold control characters")
            ]
        return [
            MapProblem(
                field,
                "bad-key",
                "must be lower-case letters and digits in words joined by hyphens (tractor-works)",
            )
        ]
    return [MapProblem(field, "schema", error.message)]


def _bound_message(keyword: str, limit: Any) -> str:
    return {
        "minimum": f"must be at least {limit}",
        "maximum": f"must be at most {limit}",
        "minLength": "must not be empty",
        "maxLength": f"must be at most {limit} characters long",
        "minItems": f"must have at least {limit} entries",
        "maxItems": f"must have at most {limit} entries",
    }[keyword]


# --- Graph rules ----------------------------------------------------------------------------------


def _graph_problems(document: Any) -> list[MapProblem]:
    """What the schema cannot say; tolerant of a broken shape, whose problems the schema reports."""
    if not isinstance(document, dict) or not isinstance(document.get("sectors"), list):
        return []
    sectors: list[Any] = document["sectors"]
    problems: list[MapProblem] = []
    index_of: dict[str, int] = {}
    for index, sector in enumerate(sectors):
        key = sector.get("key") if isinstance(sector, dict) else None
        if not isinstance(key, str):
            continue
        if key in index_of:
            message = f"{_show(key)} is already the key of sectors[{index_of[key]}]"
            problems.append(MapProblem(f"sectors[{index}].key", "duplicate-key", message))
        else:
            index_of[key] = index
    problems += _adjacency_problems(sectors, index_of)
    problems += _headquarters_problems(sectors)
    problems += _position_problems(document, sectors)
    return problems


def _neighbour_list(sector: Any) -> list[Any] | None:
    neighbours = sector.get("neighbours") if isinstance(sector, dict) else None
    return neighbours if isinstance(neighbours, list) else None


def _adjacency_problems(sectors: list[Any], index_of: Mapping[str, int]) -> list[MapProblem]:
    problems: list[MapProblem] = []
    edges: dict[str, set[str]] = {key: set() for key in index_of}
    for index, sector in enumerate(sectors):
        neighbours = _neighbour_list(sector)
        key = sector.get("key") if isinstance(sector, dict) else None
        if neighbours is None or not isinstance(key, str):
            continue
        seen: set[str] = set()
        for position, neighbour in enumerate(neighbours):
            if not isinstance(neighbour, str):
                continue
            field = f"sectors[{index}].neighbours[{position}]"
            if neighbour == key:
                problems.append(
                    MapProblem(field, "self-adjacent", f"{_show(key)} lists itself as a neighbour")
                )
            elif neighbour in seen:
                problems.append(
                    MapProblem(field, "duplicate-neighbour", f"{_show(neighbour)} is listed twice")
                )
            elif neighbour not in index_of:
                problems.append(
                    MapProblem(
                        field, "dangling-neighbour", f"there is no sector with the key {_show(neighbour)}"
                    )
                )
            else:
                edges[key].add(neighbour)
                edges[neighbour].add(key)
                other = _neighbour_list(sectors[index_of[neighbour]])
                if index_of[key] == index and other is not None and key not in other:
                    message = (
                        f"{_show(key)} lists {_show(neighbour)} as a neighbour, "
                        f"but sectors[{index_of[neighbour]}] does not list {_show(key)}"
                    )
                    problems.append(MapProblem(field, "asymmetric-adjacency", message))
            seen.add(neighbour)
    # Connectivity is only judged when every sector's adjacency could be read.
    if index_of and all(
        isinstance(sector, dict)
        and isinstance(sector.get("key"), str)
        and _neighbour_list(sector) is not None
        for sector in sectors
    ):
        start = next(iter(index_of))
        reached = {start}
        frontier = [start]
        while frontier:
            for neighbour in sorted(edges[frontier.pop()] - reached):
                reached.add(neighbour)
                frontier.append(neighbour)
        unreachable = [key for key in index_of if key not in reached]
        if unreachable:
            message = f"the map is in pieces: from {_show(start)} there is no way to {', '.join(unreachable)}"
            problems.append(MapProblem("sectors", "disconnected", message))
    return problems


def _headquarters_problems(sectors: list[Any]) -> list[MapProblem]:
    problems: list[MapProblem] = []
    first_of: dict[str, int] = {}
    for index, sector in enumerate(sectors):
        bloc = sector.get("headquarters_of") if isinstance(sector, dict) else None
        if not isinstance(bloc, str) or bloc not in Bloc._value2member_map_:
            continue
        if bloc in first_of:
            message = (
                f"{bloc} already has its headquarters at sectors[{first_of[bloc]}]; a bloc has exactly one"
            )
            problems.append(
                MapProblem(f"sectors[{index}].headquarters_of", "headquarters-duplicate", message)
            )
        else:
            first_of[bloc] = index
        if "owner" in sector and sector["owner"] != bloc:
            holder = "left neutral" if sector["owner"] is None else f"held by {_show(sector['owner'])}"
            message = f"the {bloc} headquarters must be held by {bloc}, not {holder}"
            problems.append(MapProblem(f"sectors[{index}].owner", "headquarters-not-owned", message))
    for bloc in Bloc:
        if bloc.value not in first_of:
            message = f"{bloc} has no headquarters: exactly one sector needs headquarters_of {bloc.value!r}"
            problems.append(MapProblem("sectors", "headquarters-missing", message))
    return problems


def _whole(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _canvas(value: Any) -> int | None:
    """A side of the box, if the schema accepts it (judging positions against a refused box is noise)."""
    size = _whole(value)
    return size if size is not None and MIN_CANVAS <= size <= MAX_CANVAS else None


def _position_problems(document: Mapping[str, Any], sectors: list[Any]) -> list[MapProblem]:
    problems: list[MapProblem] = []
    box = {"x": _canvas(document.get("width")), "y": _canvas(document.get("height"))}
    first_at: dict[tuple[int, int], int] = {}
    for index, sector in enumerate(sectors):
        if not isinstance(sector, dict):
            continue
        for axis, size in box.items():
            coordinate = _whole(sector.get(axis))
            # Past MAX_CANVAS the schema has already said so.
            if size is not None and coordinate is not None and size < coordinate <= MAX_CANVAS:
                side = "width" if axis == "x" else "height"
                message = f"{coordinate} lies outside the map: {axis} is at most its {side}, {size}"
                problems.append(MapProblem(f"sectors[{index}].{axis}", "position-out-of-bounds", message))
        x, y = _whole(sector.get("x")), _whole(sector.get("y"))
        if x is None or y is None:
            continue
        if (x, y) in first_at:
            message = (
                f"sectors[{first_at[x, y]}] is already drawn at ({x}, {y}); two sectors cannot share a place"
            )
            problems.append(MapProblem(f"sectors[{index}]", "duplicate-position", message))
        else:
            first_at[x, y] = index
    return problems


# --- Reading and writing --------------------------------------------------------------------------

_PART = re.compile(r"\[(\d+)\]|\.?([^.\[]+)")


def _order(problem: MapProblem) -> tuple[tuple[int, int, str], ...]:
    key: list[tuple[int, int, str]] = []
    for number, name in _PART.findall(problem.field):
        if number:
            key.append((0, int(number), ""))
        else:
            fields = _TOP_FIELDS if not key else _SECTOR_FIELDS
            rank = fields.index(name) if name in fields else len(fields)
            key.append((1, rank, name))
    return tuple(key)


def _size_problems(document: Any) -> list[MapProblem]:
    """Lists longer than their bound, counted before the schema looks at any of their items."""
    sectors = document.get("sectors") if isinstance(document, dict) else None
    if not isinstance(sectors, list):
        return []
    lists = [("sectors", sectors, MAX_SECTORS)] if len(sectors) > MAX_SECTORS else [
        (f"sectors[{index}].neighbours", neighbours, MAX_NEIGHBOURS)
        for index, sector in enumerate(sectors)
        if (neighbours := _neighbour_list(sector)) is not None
    ]  # fmt: skip
    return [
        MapProblem(field, "out-of-bounds", f"{_bound_message('maxItems', bound)} (got {len(items):,})")
        for field, items, bound in lists
        if len(items) > bound
    ]


def map_problems(document: Any) -> tuple[MapProblem, ...]:
    """Every problem of a parsed JSON document, in document order; empty when it is a valid map.

    An over-long list is the one problem named: the items of a list of any length are never walked.
    """
    too_many = _size_problems(document)
    if too_many:
        return tuple(too_many)
    problems = _schema_problems(document) + _graph_problems(document)
    return tuple(sorted(problems, key=_order))


def map_from_json(document: Any) -> ZverogradMap:
    """Build a map from a parsed JSON document; MapFormatError names every problem otherwise."""
    problems = map_problems(document)
    if problems:
        raise MapFormatError(problems)
    return ZverogradMap(
        name=document["name"],
        width=int(document["width"]),
        height=int(document["height"]),
        sectors=tuple(_sector(item) for item in document["sectors"]),
    )


def _sector(item: Mapping[str, Any]) -> SectorSpec:
    return SectorSpec(
        key=item["key"],
        name=item["name"],
        terrain=Terrain(item["terrain"]),
        value=int(item["value"]),
        neighbours=tuple(item["neighbours"]),
        x=int(item["x"]),
        y=int(item["y"]),
        owner=None if item["owner"] is None else Bloc(item["owner"]),
        headquarters_of=None if item["headquarters_of"] is None else Bloc(item["headquarters_of"]),
        fortification=Fortification(item["fortification"]),
    )


class _DuplicateFieldError(ValueError):
    pass


def _object_without_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for name, value in pairs:
        if name in result:
            raise _DuplicateFieldError(name)
        result[name] = value
    return result


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def map_from_json_text(data: str | bytes) -> ZverogradMap:
    """Read an uploaded file: at most MAX_FILE_BYTES of UTF-8 JSON, then ``map_from_json``."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    if len(raw) > MAX_FILE_BYTES:
        message = f"the file is {len(raw)} bytes; a map file is at most {MAX_FILE_BYTES} bytes"
        raise MapFormatError([MapProblem("", "too-large", message)])
    try:
        text = raw.decode("utf-8-sig")
        document = json.loads(
            text,
            object_pairs_hook=_object_without_repeats,
            parse_constant=_refuse_constant,
            parse_int=bounded_int,
        )
    except _DuplicateFieldError as repeated:
        message = f"the field {_show(str(repeated))} appears twice in one object"
        raise MapFormatError([MapProblem("", "duplicate-field", message)]) from None
    except UnicodeDecodeError:
        raise MapFormatError([MapProblem("", "not-json", "the file is not UTF-8 text")]) from None
    except json.JSONDecodeError as error:
        message = f"not JSON: {error.msg} at line {error.lineno} column {error.colno}"
        raise MapFormatError([MapProblem("", "not-json", message)]) from None
    except (ValueError, RecursionError) as error:
        message = f"not JSON: {error}" if isinstance(error, ValueError) else "not JSON: nested too deeply"
        raise MapFormatError([MapProblem("", "not-json", message)]) from None
    return map_from_json(document)


def map_to_json(zmap: ZverogradMap) -> dict[str, Any]:
    """The canonical document for a map: ``map_from_json(map_to_json(m)) == m``, and back."""
    return {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "name": zmap.name,
        "width": zmap.width,
        "height": zmap.height,
        "sectors": [
            {
                "key": sector.key,
                "name": sector.name,
                "terrain": sector.terrain.value,
                "value": sector.value,
                "x": sector.x,
                "y": sector.y,
                "neighbours": list(sector.neighbours),
                "owner": None if sector.owner is None else sector.owner.value,
                "headquarters_of": None if sector.headquarters_of is None else sector.headquarters_of.value,
                "fortification": sector.fortification.value,
            }
            for sector in zmap.sectors
        ],
    }


@cache
def default_map() -> ZverogradMap:
    """The Zverograd map the project ships (campaign/data/zverograd.map.json)."""
    return map_from_json_text(DEFAULT_MAP_PATH.read_bytes())
