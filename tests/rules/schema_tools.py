"""The referee's OpenAPI components as a JSON Schema validator, to hold answers and requests to them."""

from __future__ import annotations

from typing import Any

from jsonschema import Draft7Validator

from rules.engine.schema import answer_components, enum_components, request_components


def _as_json_schema(node: Any) -> Any:
    """OpenAPI 3.0's ``nullable`` written the JSON Schema way (the rest is the same)."""
    if isinstance(node, list):
        return [_as_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    converted = {key: _as_json_schema(value) for key, value in node.items() if key != "nullable"}
    if not node.get("nullable"):
        return converted
    if "type" in converted:
        return {**converted, "type": [converted["type"], "null"]}
    return {"anyOf": [converted, {"type": "null"}]}


def validator(component: str) -> Draft7Validator:
    components = {**enum_components(), **request_components(), **answer_components()}
    schema = {
        "allOf": [{"$ref": f"#/components/schemas/{component}"}],
        "components": {"schemas": _as_json_schema(components)},
    }
    return Draft7Validator(schema)


def errors(component: str, instance: Any) -> list[str]:
    return [
        f"{list(error.absolute_path)}: {error.message}"
        for error in validator(component).iter_errors(instance)
    ]
