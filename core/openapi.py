"""Our JSON Schemas in the OpenAPI schema: documents the API takes are described by the file that checks them.

drf-spectacular writes OpenAPI 3.0, whose schema language is an older cousin
of JSON Schema 2020-12. ``openapi_schema`` rewrites what differs: local
``$ref``s to ``$defs`` are inlined, ``const`` becomes a one-value ``enum``,
and a ``null`` alternative becomes ``nullable``.
"""

from __future__ import annotations

from typing import Any

# The largest id a path or a body may name: a database bigint. Larger numbers
# would make PostgreSQL fail the query instead of finding nothing.
MAX_ID = 2**63 - 1

_DROPPED = {"$schema", "$id", "$defs", "$comment"}


def openapi_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """An OpenAPI 3.0 schema object equivalent to the JSON Schema ``schema`` (no recursive $refs)."""
    converted: dict[str, Any] = _convert(schema, schema.get("$defs", {}))
    return converted


def _convert(node: Any, defs: dict[str, Any]) -> Any:
    if isinstance(node, list):
        return [_convert(item, defs) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        name = str(node["$ref"]).removeprefix("#/$defs/")
        return _convert({**defs[name], **{k: v for k, v in node.items() if k != "$ref"}}, defs)
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in _DROPPED:
            continue
        if key == "const":
            out["enum"] = [value]
        elif key == "anyOf" and any(option == {"type": "null"} for option in value):
            rest = [option for option in value if option != {"type": "null"}]
            converted = _convert(rest[0], defs) if len(rest) == 1 else {"anyOf": _convert(rest, defs)}
            out.update(converted)
            out["nullable"] = True
        elif key == "enum":
            out["enum"] = value
            if None in value:
                out["nullable"] = True
            if "type" not in node and all(isinstance(item, str) for item in value if item is not None):
                out["type"] = "string"
        elif key == "type" and isinstance(value, list):
            kinds = [kind for kind in value if kind != "null"]
            out["type"] = kinds[0] if len(kinds) == 1 else kinds
            if "null" in value:
                out["nullable"] = True
        else:
            out[key] = _convert(value, defs)
    return out
