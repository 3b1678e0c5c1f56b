"""The JSON Schema of the export format, generated from ``exchange.spec`` and the models' columns.

docs/schema/campaign-export.v1.json is this, written as ``json.dumps(export_schema(), indent=2)``
(tests/exchange/test_schema.py keeps the two equal).
It states the shape; what a schema cannot say (references naming a row the file
holds, the map document being a valid map) is checked by ``exchange.checks``.
"""

from __future__ import annotations

from typing import Any

from django.db import models

from campaign.models import Campaign
from exchange.spec import CAMPAIGN_PLAIN, FORMAT, SECTIONS, VERSION, Kind, Section, column, ref_target

_TYPES = {"str": "string", "int": "integer", "bool": "boolean"}
_USER = {"type": ["string", "null"], "minLength": 1, "maxLength": 150}


def _value(kind: Kind, field: models.Field[Any, Any]) -> dict[str, Any]:
    base = kind.rstrip("?")
    nullable = kind.endswith("?")
    if base == "json":
        return {"description": "any JSON value" + (" or null" if nullable else "")}
    if base == "datetime":
        schema: dict[str, Any] = {"type": "string", "format": "date-time"}
    else:
        schema = {"type": _TYPES[base]}
        if field.choices:
            schema["enum"] = [str(choice[0]) for choice in field.flatchoices] + ([""] if field.blank else [])
        elif base == "str" and field.max_length:
            schema["maxLength"] = field.max_length
    if nullable:
        schema["type"] = [schema["type"], "null"]
        if "enum" in schema:
            schema["enum"].append(None)
    return schema


def _section(section: Section) -> dict[str, Any]:
    properties: dict[str, Any] = {"id": {"type": "integer", "minimum": 1, "description": "local to the file"}}
    for name, kind in section.plain.items():
        properties[name] = _value(kind, column(section.model, name))
    for name in section.refs:
        target, nullable = ref_target(section, name)
        properties[name] = {"type": ["integer", "null"] if nullable else "integer",
                            "description": f"the id of a row of {target}"}  # fmt: skip
    for name in section.users:
        properties[name] = dict(_USER, description="a username")
    return {
        "type": "array",
        "maxItems": section.max_items,
        "items": {
            "type": "object",
            "required": sorted(set(properties) - set(section.optional)),
            "properties": properties,
        },
    }


def export_schema() -> dict[str, Any]:
    head: dict[str, Any] = {
        name: _value(kind, column(Campaign, name)) for name, kind in CAMPAIGN_PLAIN.items()
    }
    head["organiser"] = {"type": "string", "minLength": 1, "maxLength": 150}
    head["catalogue"] = {
        "type": ["object", "null"],
        "required": ["name", "version"],
        "properties": {"name": {"type": "string"}, "version": {"type": "string"}},
    }
    properties: dict[str, Any] = {
        "format": {"const": FORMAT},
        "version": {"const": VERSION},
        "exported_at": {"type": "string", "format": "date-time"},
        "campaign": {"type": "object", "required": sorted(head), "properties": head},
    }
    for section in SECTIONS:
        properties[section.key] = _section(section)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://zverograd.example/schemas/campaign-export-1.json",
        "title": "Zverograd campaign export, version 1",
        "type": "object",
        "required": ["format", "version", "campaign", *[s.key for s in SECTIONS]],
        "properties": properties,
    }
