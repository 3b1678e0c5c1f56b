"""The JSON army-list format, version 1 (docs/army-list-format.md).

``army_list_from_json`` checks a document against the JSON Schema first, so
the conversion below can trust the shape; rule problems (unknown units, bad
references) are the validator's business, not the format's.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any, cast

import jsonschema
from jsonschema.exceptions import ValidationError, best_match

from armies.validation.text import army_list_to_text
from armies.validation.types import (
    ArmyList,
    Fortification,
    FortificationKind,
    ListEntry,
    PlatoonClaim,
    Role,
)

FORMAT_NAME = "zverograd-army-list"
FORMAT_VERSION = 1
SCHEMA_PATH = Path(__file__).parent / "schema" / "army-list.v1.json"

__all__ = [
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "SCHEMA_PATH",
    "ListFormatError",
    "army_list_from_json",
    "army_list_schema",
    "army_list_to_json",
    "army_list_to_text",
]


class ListFormatError(ValueError):
    """A document that is not a version-1 army list.

    ``path`` is a JSON path such as ``$.entries[2].unit``; ``errors`` holds every
    (path, reason) found, the most relevant first.
    """

    def __init__(self, path: str, reason: str, errors: tuple[tuple[str, str], ...] = ()) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason
        self.errors = errors or ((path, reason),)


@cache
def _load_schema() -> dict[str, Any]:
    with SCHEMA_PATH.open(encoding="utf-8") as handle:
        return cast(dict[str, Any], json.load(handle))


def army_list_schema() -> dict[str, Any]:
    """A copy of the JSON Schema, safe for the caller to change."""
    return copy.deepcopy(_load_schema())


@cache
def _schema_validator() -> Any:
    schema = _load_schema()
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    return validator_class(schema)


def json_path(parts: Any) -> str:
    path = "$"
    for part in parts:
        path += f"[{part}]" if isinstance(part, int) else f".{part}"
    return path


def _describe(error: ValidationError) -> tuple[str, str]:
    return json_path(error.absolute_path), error.message


def army_list_from_json(data: Any) -> ArmyList:
    """Read a parsed JSON document; raise ListFormatError if the schema refuses it."""
    errors = list(_schema_validator().iter_errors(data))
    if errors:
        first = best_match(errors)
        # A wrong "format" or "version" makes every other complaint noise: say that first.
        for error in errors:
            if list(error.absolute_path) in (["format"], ["version"]):
                first = error
                break
        ordered = sorted(errors, key=lambda error: [str(part) for part in error.absolute_path])
        path, reason = _describe(first)
        rest = tuple(item for item in map(_describe, ordered) if item != (path, reason))
        raise ListFormatError(path, reason, ((path, reason), *rest))
    return ArmyList(
        name=data["name"],
        bloc=data["bloc"],
        faction=data["faction"],
        points_limit=int(data["points_limit"]),
        catalogue_version=data["catalogue_version"],
        role=cast(Role | None, data["role"]),
        entries=tuple(_entry(item) for item in data["entries"]),
        platoons=tuple(_platoon(item) for item in data["platoons"]),
        fortifications=tuple(_fortification(item) for item in data["fortifications"]),
    )


def army_list_from_json_text(text: str) -> ArmyList:
    """Parse JSON text as pasted by a player; bad JSON is a ListFormatError at ``$``."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ListFormatError("$", f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from exc
    return army_list_from_json(data)


def _entry(item: Mapping[str, Any]) -> ListEntry:
    return ListEntry(
        id=item["id"],
        unit=item["unit"],
        joined_to=item["joined_to"],
        pilot_of=item["pilot_of"],
        captured=item["captured"],
        reserve=item["reserve"],
        platoon=item["platoon"],
        slot=item["slot"],
    )


def _platoon(item: Mapping[str, Any]) -> PlatoonClaim:
    return PlatoonClaim(id=item["id"], chart=item["chart"], members=tuple(item["members"]))


def _fortification(item: Mapping[str, Any]) -> Fortification:
    return Fortification(id=item["id"], kind=cast(FortificationKind, item["kind"]), unit=item["unit"])


def army_list_to_json(army: ArmyList) -> dict[str, Any]:
    """The canonical document for a list: every key present, lists in list order."""
    return {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "name": army.name,
        "bloc": army.bloc,
        "faction": army.faction,
        "points_limit": army.points_limit,
        "catalogue_version": army.catalogue_version,
        "role": army.role,
        "entries": [
            {
                "id": entry.id,
                "unit": entry.unit,
                "joined_to": entry.joined_to,
                "pilot_of": entry.pilot_of,
                "captured": entry.captured,
                "reserve": entry.reserve,
                "platoon": entry.platoon,
                "slot": entry.slot,
            }
            for entry in army.entries
        ],
        "platoons": [
            {"id": claim.id, "chart": claim.chart, "members": list(claim.members)} for claim in army.platoons
        ],
        "fortifications": [
            {"id": fort.id, "kind": fort.kind, "unit": fort.unit} for fort in army.fortifications
        ],
    }
