"""The campaign API's OpenAPI schema: it generates without warnings and states the real shapes and bounds,
the map document's the same as the map format's own JSON Schema."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.management import call_command

from armies.validation import limits as list_limits
from campaign import limits
from campaign.engine.map import MAX_KEY_LENGTH
from campaign.engine.mapformat import map_schema
from rules.engine.ruleset import switch_names

pytestmark = pytest.mark.django_db

BOUNDS = ("minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems", "pattern")


@pytest.fixture(scope="module")
def schema(django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    path = tmp_path_factory.mktemp("schema") / "schema.json"
    with django_db_blocker.unblock():
        # --fail-on-warn: a warning (an unnamed enum, a guessed type) fails the generation.
        call_command(
            "spectacular", "--validate", "--fail-on-warn", "--format", "openapi-json", "--file", str(path)
        )
    return dict(json.loads(path.read_text()))


def component(schema: dict[str, Any], name: str) -> dict[str, Any]:
    return dict(schema["components"]["schemas"][name])


def enum_of(schema: dict[str, Any], prop: dict[str, Any]) -> list[Any]:
    """The values a property allows, through $refs and a nullable oneOf."""
    if "oneOf" in prop:
        return sorted(
            (value for option in prop["oneOf"] for value in enum_of(schema, option)),
            key=lambda v: (v is None, str(v)),
        )
    if "$ref" in prop:
        return enum_of(schema, component(schema, prop["$ref"].rsplit("/", 1)[1]))
    return sorted(prop["enum"], key=lambda v: (v is None, str(v)))


def json_schema_node(node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = {**defs[node["$ref"].rsplit("/", 1)[1]], **{k: v for k, v in node.items() if k != "$ref"}}
    return node


def test_the_map_document_has_the_fields_and_bounds_of_the_map_formats_json_schema(schema):
    source = map_schema()
    defs = source["$defs"]
    pairs = [
        (component(schema, "MapDocument"), source),
        (component(schema, "MapSectorDocument"), defs["sector"]),
    ]

    for documented, original in pairs:
        assert set(documented["properties"]) == set(original["properties"])
        assert set(documented["required"]) == set(original["required"])
        for name, prop in documented["properties"].items():
            expected = json_schema_node(original["properties"][name], defs)
            if "enum" in expected or "const" in expected:
                values = expected.get("enum", [expected.get("const")])
                assert enum_of(schema, prop) == sorted(values, key=lambda v: (v is None, str(v))), name
                continue
            if expected.get("type") == "array":
                assert prop.get("maxItems") == expected.get("maxItems"), name
                assert prop.get("minItems") == expected.get("minItems"), name
                item = json_schema_node(expected["items"], defs)
                if "$ref" not in prop["items"]:
                    assert {k: prop["items"].get(k) for k in BOUNDS} == {k: item.get(k) for k in BOUNDS}, name
                continue
            assert {k: prop.get(k) for k in BOUNDS} == {k: expected.get(k) for k in BOUNDS}, name


def test_the_settings_are_documented_with_the_services_bounds(schema):
    settings = component(schema, "PatchedCampaignUpdateInput")["properties"]

    assert (settings["points_limit"]["minimum"], settings["points_limit"]["maximum"]) == (
        list_limits.POINTS_LIMIT_MIN, list_limits.POINTS_LIMIT_MAX,
    )  # fmt: skip
    assert (settings["points_win"]["minimum"], settings["points_win"]["maximum"]) == (
        limits.SCORE_MIN,
        limits.SCORE_MAX,
    )
    assert settings["max_players_per_bloc"]["maximum"] == limits.MAX_PLAYERS_PER_BLOC
    assert settings["max_players_per_bloc"]["nullable"] is True
    assert settings["tiebreakers"]["maxItems"] == limits.MAX_TIEBREAKERS
    assert settings["name"]["maxLength"] == limits.NAME_MAX_LENGTH
    assert settings["reason"]["maxLength"] == limits.REASON_MAX_LENGTH
    ruleset = component(schema, "RulesetInput")["properties"]
    assert set(ruleset) == {"name", *switch_names()}
    assert all(ruleset[switch]["description"] for switch in switch_names())


def test_every_campaign_operation_documents_its_refusals_in_the_error_shape(schema):
    for path, operations in schema["paths"].items():
        if not path.startswith("/api/campaigns/"):
            continue
        for method, operation in operations.items():
            errors = {code: answer for code, answer in operation["responses"].items() if code.startswith("4")}
            assert errors, f"{method} {path} documents no refusal"
            for answer in errors.values():
                ref = answer["content"]["application/json"]["schema"]["$ref"]
                assert ref == "#/components/schemas/ErrorOutput", f"{method} {path}"


def test_the_map_picture_is_documented_as_svg(schema):
    answer = schema["paths"]["/api/campaigns/{id}/map.svg"]["get"]["responses"]["200"]

    assert answer["content"] == {"image/svg+xml": {"schema": {"type": "string"}}}


def test_lists_are_documented_as_pages(schema):
    listed = schema["paths"]["/api/campaigns/"]["get"]

    assert listed["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "PaginatedCampaignSummaryOutputList"
    )
    assert {p["name"] for p in listed["parameters"]} == {"page", "scope", "status"}


def test_the_round_and_economy_inputs_are_documented_with_the_services_bounds(schema):
    adjust = component(schema, "AdjustInput")["properties"]
    terms = component(schema, "PatchedBattleUpdateInput")["properties"]
    challenge = component(schema, "ChallengeIssueInput")["properties"]

    assert (adjust["amount"]["minimum"], adjust["amount"]["maximum"]) == (
        -limits.RESOURCE_COST_MAX, limits.RESOURCE_COST_MAX,
    )  # fmt: skip
    reopen = component(schema, "RoundReopenInput")["properties"]
    assert (adjust["reason"]["maxLength"], reopen["reason"]["maxLength"]) == (limits.REASON_MAX_LENGTH,) * 2
    assert (terms["points_limit"]["minimum"], terms["points_limit"]["maximum"]) == (
        list_limits.POINTS_LIMIT_MIN, list_limits.POINTS_LIMIT_MAX,
    )  # fmt: skip
    assert challenge["message"]["maxLength"] == limits.MESSAGE_MAX_LENGTH
    assert challenge["sector"]["maxLength"] == MAX_KEY_LENGTH


def test_the_mission_library_names_every_mission_and_a_suggestion_for_every_terrain(schema):
    from campaign.engine.map import Terrain
    from campaign.engine.missions import MISSIONS

    suggestions = component(schema, "SuggestionsOutput")

    assert set(suggestions["properties"]) == {terrain.value for terrain in Terrain}
    assert enum_of(schema, component(schema, "MissionOutput")["properties"]["key"]) == sorted(
        mission.key for mission in MISSIONS
    )


def test_the_list_check_answers_a_verdict(schema):
    answer = schema["paths"]["/api/campaigns/{id}/battles/{battle_id}/list-check/"]["post"]["responses"][
        "200"
    ]

    assert answer["content"]["application/json"]["schema"]["$ref"] == "#/components/schemas/Verdict"
