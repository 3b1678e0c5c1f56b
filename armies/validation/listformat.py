"""The JSON army-list format, version 1 (docs/army-list-format.md).

``army_list_from_json`` checks a document against the JSON Schema first, so
the conversion below can trust the shape; rule problems (unknown units, bad
references) are the validator's business, not the format's.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Mapping
from functools import cache
from itertools import islice
from pathlib import Path
from typing import Any, cast

import jsonschema
from jsonschema.exceptions import ValidationError, best_match

from armies.validation import limits
from armies.validation.text import army_list_to_text
from armies.validation.types import (
    ArmyList,
    Fortification,
    FortificationKind,
    ListEntry,
    PlatoonClaim,
    Role,
)
from core.errors import DomainError, FieldProblem

FORMAT_NAME = "zverograd-army-list"
FORMAT_VERSION = 1
SCHEMA_PATH = Path(__file__).parent / "schema" / "army-list.v1.json"

__all__ = [
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "SCHEMA_PATH",
    "JsonNumberTooLongError",
    "ListFormatError",
    "army_list_from_json",
    "army_list_schema",
    "army_list_to_json",
    "army_list_to_text",
    "json_loads",
]


class ListFormatError(DomainError, ValueError):
    """A document that is not a version-1 army list.

    ``path`` is a JSON path such as ``$.entries[2].unit``; ``errors`` holds every
    (path, reason) found, the most relevant first, at most ``MAX_REPORTED_ERRORS``.
    Reasons name the rule and quote at most a short excerpt of the input.
    """

    default_code = "list-format"

    def __init__(self, path: str, reason: str, errors: tuple[tuple[str, str], ...] = ()) -> None:
        errors = errors or ((path, reason),)
        problems = [FieldProblem(where, self.default_code, why) for where, why in errors]
        super().__init__(self.default_code, reason, path, problems=problems)

    @property
    def path(self) -> str:
        return self.field

    @property
    def reason(self) -> str:
        return self.message

    @property
    def errors(self) -> tuple[tuple[str, str], ...]:
        return tuple((problem.field, problem.message) for problem in self.problems)


# A document with hundreds of problems is reported by its first ones.
MAX_REPORTED_ERRORS = limits.MAX_LISTED_PROBLEMS

# Arrays the schema bounds, checked by length before the schema looks inside them,
# so an absurd document is refused at once instead of item by item.
_ARRAY_BOUNDS = {
    "entries": limits.MAX_ENTRIES,
    "platoons": limits.MAX_PLATOONS,
    "fortifications": limits.MAX_FORTIFICATIONS,
}


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
    return json_path(error.absolute_path), _reason(error)


def _reason(error: ValidationError) -> str:
    """The schema rule an input breaks, in words, quoting at most an excerpt of the input.

    jsonschema's own messages repeat the whole offending value, which for a
    huge array or string makes an error as large as the request.
    """
    rule, bound, value = error.validator, cast(Any, error.validator_value), error.instance
    schema = cast(dict[str, Any], error.schema)
    got = limits.excerpt(value)
    size = len(value) if isinstance(value, str | list | dict) else 0
    simple: dict[str, Callable[[], str]] = {
        "maxLength": lambda: f"too long: at most {bound:,} characters (got {size:,})",
        "minLength": lambda: f"too short: at least {bound:,} character{'s' if bound != 1 else ''}",
        "maxItems": lambda: f"too many items: at most {bound:,} (got {size:,})",
        "minItems": lambda: f"too few items: at least {bound:,}",
        "maximum": lambda: f"above the maximum of {bound:,} (got {got})",
        "minimum": lambda: f"below the minimum of {bound:,} (got {got})",
        "pattern": lambda: (
            "must be letters, digits, '_', '.' or '-', starting with a letter or digit, "
            f"at most {limits.ID_MAX_LENGTH} characters (got {got})"
        ),
        "uniqueItems": lambda: "items must be unique: one is repeated",
        "const": lambda: f"must be {_json_word(bound)} (got {got})",
        "enum": lambda: f"must be one of {', '.join(map(_json_word, bound))} (got {got})",
        "type": lambda: f"must be {_type_words(bound)} (got {_json_type(value)})",
    }
    if rule in simple:
        return simple[rule]()
    if rule == "required":
        missing = [name for name in bound if isinstance(value, dict) and name not in value]
        return f"missing required field{'s' if len(missing) > 1 else ''}: {', '.join(missing)}"
    if rule == "additionalProperties" and isinstance(value, dict):
        allowed = set(schema.get("properties", {}))
        extra = [key for key in value if key not in allowed]
        shown = ", ".join(limits.excerpt(key) for key in extra[:3])
        more = f" and {len(extra) - 3:,} more" if len(extra) > 3 else ""
        return f"unknown field{'s' if len(extra) > 1 else ''} {shown}{more}"
    if rule == "anyOf" and error.context:
        return _reason(best_match(error.context))
    return f"does not satisfy the schema's {rule!r} rule (got {limits.excerpt(value)})"


def _json_word(value: Any) -> str:
    return json.dumps(value)


def _json_type(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "true or false", type(None): "null"}
    return names.get(type(value), "a number")


def _type_words(bound: Any) -> str:
    words = {"object": "an object", "array": "a list", "string": "a string",
             "integer": "an integer (a whole number)", "boolean": "a boolean (true or false)",
             "null": "null", "number": "a number"}  # fmt: skip
    kinds = bound if isinstance(bound, list) else [bound]
    return " or ".join(words.get(kind, str(kind)) for kind in kinds)


def _check_sizes(data: Any) -> None:
    """Refuse an oversized document before the schema walks it (a platoon's members too)."""
    if not isinstance(data, dict):
        return
    for key, bound in _ARRAY_BOUNDS.items():
        _check_size(data.get(key), f"$.{key}", bound)
    platoons = data.get("platoons")
    if isinstance(platoons, list):
        for index, platoon in enumerate(platoons):
            if isinstance(platoon, dict):
                _check_size(
                    platoon.get("members"), f"$.platoons[{index}].members", limits.MAX_PLATOON_MEMBERS
                )


def _check_size(value: Any, path: str, bound: int) -> None:
    if isinstance(value, list) and len(value) > bound:
        raise ListFormatError(path, f"too many items: at most {bound:,} (got {len(value):,})")


def army_list_from_json(data: Any) -> ArmyList:
    """Read a parsed JSON document; raise ListFormatError if the schema refuses it."""
    _check_sizes(data)
    errors = list(islice(_schema_validator().iter_errors(data), MAX_REPORTED_ERRORS * 5))
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
        raise ListFormatError(path, reason, ((path, reason), *rest)[:MAX_REPORTED_ERRORS])
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


# Python's words for the commonest JSON mistakes, as a player would say them.
_JSON_MISTAKES = {
    "Extra data": "more text follows the end of the list",
    "Expecting value": "a value is missing where the text stops being JSON",
    "Unterminated string starting at": "a text in quotes is never closed",
    "Expecting ',' delimiter": "a comma is missing between two items",
    "Expecting property name enclosed in double quotes": "a name is not in double quotes (or a comma is left over)",
}


def _not_json(text: str, exc: json.JSONDecodeError) -> str:
    if text.strip()[:1] not in ("{", "["):
        return (
            "This is plain text, not a list in the JSON format: paste a list exported as JSON "
            "(Export as JSON in the list builder)"
        )
    why = _JSON_MISTAKES.get(exc.msg, "the text stops being JSON")  # the parser's other words are no sentence
    return f"This is not a list in the JSON format: {why}, at line {exc.lineno}"


class JsonNumberTooLongError(ValueError):
    """A number in JSON text longer than ``MAX_JSON_NUMBER_DIGITS`` digits."""

    sentence = f"a number in it is longer than {limits.MAX_JSON_NUMBER_DIGITS:,} digits"


def _bounded_int(digits: str) -> int:
    if len(digits.lstrip("-")) > limits.MAX_JSON_NUMBER_DIGITS:
        raise JsonNumberTooLongError(digits[:20])
    return int(digits)


def json_loads(text: str) -> Any:
    """``json.loads`` for text a user gives: a number past ``MAX_JSON_NUMBER_DIGITS`` digits raises
    ``JsonNumberTooLongError`` (a ValueError) before Python is asked to turn it into an int."""
    return json.loads(text, parse_int=_bounded_int)


def json_document_from_text(text: str) -> Any:
    """Parse JSON text as pasted by a player; too large or bad JSON is a ListFormatError at ``$``."""
    if len(text) > limits.MAX_DOCUMENT_BYTES:
        raise ListFormatError(
            "$", f"too large: a list document is at most {limits.MAX_DOCUMENT_BYTES // 1024} kB of JSON"
        )
    try:
        return json_loads(text)
    except json.JSONDecodeError as exc:
        raise ListFormatError("$", _not_json(text, exc)) from exc
    except JsonNumberTooLongError as exc:
        raise ListFormatError("$", f"This is not a list in the JSON format: {exc.sentence}") from exc
    except RecursionError as exc:
        raise ListFormatError("$", "not a list document: nested too deeply") from exc


def army_list_from_json_text(text: str) -> ArmyList:
    """Parse JSON text as pasted by a player and read it as a list."""
    return army_list_from_json(json_document_from_text(text))


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
