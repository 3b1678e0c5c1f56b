"""The JSON Schema in docs/ and the bounds in the engine say the same thing."""

from __future__ import annotations

import jsonschema

from armies.blocs import Bloc
from campaign.engine import (
    FORMAT_NAME,
    FORMAT_VERSION,
    MAX_CANVAS,
    MAX_KEY_LENGTH,
    MAX_MAP_NAME_LENGTH,
    MAX_NAME_LENGTH,
    MAX_NEIGHBOURS,
    MAX_SECTORS,
    MAX_VALUE,
    MIN_CANVAS,
    MIN_SECTORS,
    MIN_VALUE,
    SCHEMA_PATH,
    Fortification,
    Terrain,
    map_schema,
)
from campaign.engine.map import KEY_PATTERN, NAME_PATTERN
from campaign.engine.mapformat import _SECTOR_FIELDS, _TOP_FIELDS


def test_it_is_a_valid_draft_2020_12_schema_kept_in_docs() -> None:
    schema = map_schema()

    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert SCHEMA_PATH.parent.name == "schema"
    assert SCHEMA_PATH.parent.parent.name == "docs"


def test_its_bounds_are_the_engines_bounds() -> None:
    schema = map_schema()
    top = schema["properties"]
    sector = schema["$defs"]["sector"]["properties"]
    key = schema["$defs"]["key"]

    assert top["format"] == {"const": FORMAT_NAME}
    assert top["version"] == {"const": FORMAT_VERSION}
    assert (top["name"]["minLength"], top["name"]["maxLength"]) == (1, MAX_MAP_NAME_LENGTH)
    for side in ("width", "height"):
        assert (top[side]["minimum"], top[side]["maximum"]) == (MIN_CANVAS, MAX_CANVAS)
    assert (top["sectors"]["minItems"], top["sectors"]["maxItems"]) == (MIN_SECTORS, MAX_SECTORS)
    assert (key["minLength"], key["maxLength"], key["pattern"]) == (1, MAX_KEY_LENGTH, KEY_PATTERN)
    assert (sector["name"]["minLength"], sector["name"]["maxLength"]) == (1, MAX_NAME_LENGTH)
    assert sector["name"]["pattern"] == NAME_PATTERN == top["name"]["pattern"]
    assert (sector["value"]["minimum"], sector["value"]["maximum"]) == (MIN_VALUE, MAX_VALUE)
    for axis in ("x", "y"):
        assert (sector[axis]["minimum"], sector[axis]["maximum"]) == (0, MAX_CANVAS)
    assert sector["neighbours"]["maxItems"] == MAX_NEIGHBOURS


def test_its_vocabularies_are_the_engines_enums() -> None:
    schema = map_schema()
    sector = schema["$defs"]["sector"]["properties"]

    assert sector["terrain"]["enum"] == [terrain.value for terrain in Terrain]
    assert sector["fortification"]["enum"] == [kind.value for kind in Fortification]
    assert schema["$defs"]["bloc"]["enum"] == [*(bloc.value for bloc in Bloc), None]


def test_it_requires_every_field_the_parser_orders_problems_by() -> None:
    schema = map_schema()

    assert tuple(schema["required"]) == _TOP_FIELDS
    assert set(schema["$defs"]["sector"]["required"]) == set(_SECTOR_FIELDS)
    assert set(schema["$defs"]["sector"]["properties"]) == set(_SECTOR_FIELDS)


def test_it_hands_out_a_copy_the_caller_may_change() -> None:
    map_schema()["properties"].clear()

    assert "sectors" in map_schema()["properties"]
