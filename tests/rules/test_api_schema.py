"""The referee's OpenAPI schema: real shapes and bounds, and the engine accepts nothing it forbids."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.api import EXAMPLE
from rules.engine import EngineInputError, RuleSet, parse_attack_request
from rules.engine import requests as bounds
from rules.engine.schema import answer_components, enum_components, request_components
from rules.referee import referee_odds, referee_resolve
from tests.rules.limit_cases import BOUNDS, Bound, absurd_in_a_body
from tests.rules.schema_tools import errors
from tests.rules.test_api import LASER_ON_TANK

CASES = [pytest.param(bound, id=bound.name) for bound in BOUNDS]
ASSAULT = {
    "ruleset": {"name": "rtz"},
    "attack": {
        "weapons": [
            {"name": "Carbine", "line": {"infantry": "2/1"}, "count": 5},
            {"name": "Spade", "line": {"infantry": "2/1"}, "count": 5, "close_combat": True},
        ],
        "target": {"unit_class": "infantry", "armour": 2, "models": 5, "skills": ["first_strike"]},
        "attacker": {"unit_class": "infantry", "armour": 2, "models": 5},
    },
}


@pytest.fixture(scope="module")
def openapi() -> dict[str, Any]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return json.loads(json.dumps(schema))


def _operation(openapi: dict[str, Any], path: str) -> dict[str, Any]:
    return openapi["paths"][path]["post"]


def _schema_of(content: dict[str, Any]) -> str:
    return str(content["content"]["application/json"]["schema"]["$ref"]).rsplit("/", 1)[1]


@pytest.mark.django_db
def test_the_referee_operations_take_and_give_the_engines_components(openapi):
    odds = _operation(openapi, "/api/rules/attacks/odds/")
    resolve = _operation(openapi, "/api/rules/attacks/resolve/")

    assert _schema_of(odds["requestBody"]) == _schema_of(resolve["requestBody"]) == "RefereeRequest"
    assert _schema_of(odds["responses"]["200"]) == "AttackOdds"
    assert _schema_of(resolve["responses"]["200"]) == "AttackResolution"
    for operation in (odds, resolve):
        assert {"400", "413", "429"} <= set(operation["responses"])
    published = openapi["components"]["schemas"]
    ours = {**enum_components(), **request_components(), **answer_components()}
    for name, schema in ours.items():
        assert published[name] == json.loads(json.dumps(schema)), name


@pytest.mark.django_db
def test_the_published_bounds_are_the_engines(openapi):
    schemas = openapi["components"]["schemas"]
    weapon, unit = schemas["AttackWeapon"]["properties"], schemas["AttackUnit"]["properties"]

    assert weapon["count"]["maximum"] == bounds.MAX_COUNT
    assert weapon["ammo"]["maximum"] == weapon["volley"]["maximum"] == bounds.MAX_AMMO
    assert weapon["name"]["maxLength"] == bounds.MAX_NAME_LENGTH
    assert unit["models"]["maximum"] == bounds.MAX_MODELS
    assert unit["damage_per_model"]["maximum"] == bounds.MAX_DAMAGE_PER_MODEL
    assert unit["cc_weapons"]["maxItems"] == schemas["AttackRequest"]["properties"]["weapons"]["maxItems"]
    assert schemas["AttackRequest"]["properties"]["weapons"]["maxItems"] == bounds.MAX_WEAPONS
    assert schemas["AttackCell"]["maxLength"] == bounds.MAX_CELL_LENGTH
    assert schemas["AttackConditions"]["properties"]["distance"]["maximum"] == bounds.MAX_DISTANCE
    assert schemas["RefereeRequest"]["properties"]["seed"]["maximum"] == bounds.MAX_SEED
    assert schemas["WeaponKind"]["enum"] == [kind.value for kind in bounds.WeaponKind]


def test_real_answers_have_the_published_shapes():
    odds = json.loads(json.dumps(referee_odds(LASER_ON_TANK)))
    assault = json.loads(json.dumps(referee_odds(ASSAULT)))
    roll = json.loads(json.dumps(referee_resolve({**ASSAULT, "seed": 3})))

    assert errors("AttackOdds", odds) == []
    assert assault["strike_back"] is not None
    assert errors("AttackOdds", assault) == []
    assert roll["retaliation"] is not None
    assert errors("AttackResolution", roll) == []


def test_the_documented_examples_fit_the_schema():
    for example in (EXAMPLE, LASER_ON_TANK, ASSAULT):
        assert errors("RefereeRequest", example) == []


@pytest.mark.parametrize("bound", CASES)
def test_the_schema_takes_every_bound_at_its_edge_and_forbids_it_over(bound: Bound):
    assert errors("RefereeRequest", bound.build(bound.edge)) == []
    if bound.in_the_schema:
        assert errors("RefereeRequest", bound.build(bound.over)) != []
        assert errors("RefereeRequest", bound.build(absurd_in_a_body(bound))) != []


# -- the engine never accepts what the schema forbids, and only ever refuses with a 400 ---------

JSON_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 30),
    st.sampled_from([0, 1, 41, 10**6, 2**63, -(10**9)]),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.text(max_size=6),
    st.sampled_from(["3/1", "BBBBB/1", "41/2", "1/17", "-", "laser", "volley", "infantry", "x" * 90]),
)
JSON_VALUES = st.recursive(
    JSON_LEAVES,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=4), inner, max_size=2)
    ),
    max_leaves=6,
)
BASE = ASSAULT["attack"] | {"conditions": {"distance": 1}}


def _paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _paths(value, (*path, index))
    return found


KEYS = sorted(
    {key for schema in request_components().values() for key in schema.get("properties", {})} | {"bogus"}
)


@st.composite
def mutated(draw: st.DrawFn) -> dict[str, Any]:
    """The assault request with a few fields set to any JSON value, or new keys added."""
    attack = copy.deepcopy(BASE)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_paths(attack)[1:]))
        parent = attack
        for step in path[:-1]:
            parent = parent[step]
        value = draw(JSON_VALUES)
        if isinstance(parent, dict) and draw(st.booleans()):
            parent[draw(st.sampled_from(KEYS))] = value
        else:
            parent[path[-1]] = value
    return attack


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_the_engine_accepts_no_request_the_schema_forbids(attack: dict[str, Any]):
    try:
        parse_attack_request(attack, ruleset=RuleSet.rtz())
    except EngineInputError as exc:
        refused = exc
    else:
        assert errors("AttackRequest", attack) == []
        return
    assert refused.field
    assert refused.message
    assert re.fullmatch(r"[a-z-]+", refused.code)
