"""The project's own catalogue format: ``{"format": "zverograd-catalogue", "version": 1, ...}``.

It carries what BattleScribe data lacks (platoon charts, the captured-vehicle chart, corrections to
imported units) and whole catalogues the project writes itself (the demo).  ``read_json_catalogue``
validates against ``schema/catalogue.v1.json`` and then checks what a schema cannot (unique keys,
armour matching the unit type); ``write_json_catalogue`` is its exact inverse.  Fields equal to their
default are left out when writing, so hand-written files stay short.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any, cast

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from armies.importers.types import (
    ARMOUR_LETTERS,
    LINE_KEYS,
    NO_LINE,
    CatalogueFormatError,
    CorrectionValue,
    ImportIssue,
    ImportReport,
    ParsedCapturedVehicle,
    ParsedCatalogue,
    ParsedCorrection,
    ParsedFaction,
    ParsedPlatoonChart,
    ParsedPlatoonSlot,
    ParsedSkill,
    ParsedUnit,
    ParsedWeapon,
    SlotRole,
    UnitType,
)
from core.numbers import bounded_int

FORMAT = "zverograd-catalogue"
VERSION = 1
SCHEMA_PATH = Path(__file__).resolve().parent / "schema" / "catalogue.v1.json"

JsonObject = dict[str, Any]

__all__ = ["FORMAT", "SCHEMA_PATH", "VERSION", "load_schema", "read_json_catalogue", "write_json_catalogue"]


@cache
def load_schema() -> JsonObject:
    return cast(JsonObject, json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))


@cache
def _validator() -> Draft202012Validator:
    return Draft202012Validator(load_schema())


# -- reading -------------------------------------------------------------------------------------


def read_json_catalogue(data: Mapping[str, Any] | Path | str, source: str | None = None) -> ParsedCatalogue:
    """Read a catalogue from already-decoded JSON, or from a file path (``str`` is a path).

    Raises ``CatalogueFormatError`` with the JSON path (``$.units[2].armour``) of the first problem;
    ``source`` names the document in those errors (the file name by default).  The catalogue's own
    ``source`` field (where its data came from) is read from the document.
    """
    if isinstance(data, (str, Path)):
        path = Path(data)
        source = source or path.name
        document = _load_file(path, source)
    else:
        source = source or "<data>"
        document = data
    _validate(document, source)
    catalogue = _catalogue(document)
    _check_consistency(catalogue, source)
    return catalogue


def _load_file(path: Path, source: str) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise CatalogueFormatError(source, f"cannot read the file ({error.strerror or error})") from error
    except UnicodeDecodeError as error:
        raise CatalogueFormatError(source, "the file is not UTF-8 text") from error
    try:
        return json.loads(text, parse_int=bounded_int)
    except json.JSONDecodeError as error:
        raise CatalogueFormatError(
            source, f"not valid JSON ({error.msg}, line {error.lineno})", "$"
        ) from error
    except (
        ValueError,
        RecursionError,
    ) as error:  # a number past Python's 4,300 digits; nesting past the stack
        raise CatalogueFormatError(
            source, "not valid JSON (a number too long, or nesting too deep)", "$"
        ) from error


def _validate(document: Any, source: str) -> None:
    if not isinstance(document, Mapping):
        raise CatalogueFormatError(source, "a catalogue must be a JSON object", "$")
    if document.get("format") != FORMAT:
        raise CatalogueFormatError(source, f"'format' must be {FORMAT!r}", "$.format")
    if document.get("version") != VERSION:
        raise CatalogueFormatError(
            source,
            f"format version {document.get('version')!r} is not supported (only {VERSION})",
            "$.version",
        )
    error = best_match(_validator().iter_errors(document))
    if error is not None:
        raise CatalogueFormatError(source, error.message, error.json_path)


def _catalogue(document: Mapping[str, Any]) -> ParsedCatalogue:
    return ParsedCatalogue(
        name=document["name"],
        revision=document.get("revision", 0),
        source=document.get("source", ""),
        bloc=document.get("bloc"),
        units=tuple(_unit(item) for item in document["units"]),
        report=ImportReport(tuple(_issue(item) for item in document.get("report", ()))),
        factions=tuple(ParsedFaction(item["name"], item["bloc"]) for item in document.get("factions", ())),
        platoon_charts=tuple(_platoon_chart(item) for item in document.get("platoon_charts", ())),
        captured_vehicles=tuple(_captured(item) for item in document.get("captured_vehicles", ())),
        corrections=tuple(_correction(item) for item in document.get("corrections", ())),
        source_id=document.get("source_id"),
    )


def _unit(item: Mapping[str, Any]) -> ParsedUnit:
    return ParsedUnit(
        key=item["key"],
        name=item["name"],
        bloc=item.get("bloc"),
        faction=item.get("faction"),
        cost=item["cost"],
        unit_type=cast(UnitType, item["unit_type"]),
        armour=item["armour"],
        category=item["category"],
        damage=item["damage"],
        models=item["models"],
        move=item.get("move"),
        march=item.get("march"),
        hero=item.get("hero", False),
        unique=item.get("unique", False),
        weapons=tuple(_weapon(weapon) for weapon in item.get("weapons", ())),
        skills=tuple(ParsedSkill(skill["name"], skill.get("parameter")) for skill in item.get("skills", ())),
        mercenary=item.get("mercenary", False),
        capturable=item.get("capturable", False),
        strongpoint=item.get("strongpoint", False),
        support_weapon=item.get("support_weapon", False),
        source_id=item.get("source_id"),
        variant_of=item.get("variant_of"),
    )


def _weapon(item: Mapping[str, Any]) -> ParsedWeapon:
    lines = item.get("lines", {})
    return ParsedWeapon(
        name=item["name"],
        range=item["range"],
        lines={key: lines.get(key, NO_LINE) for key in LINE_KEYS},
        specials=tuple(item.get("specials", ())),
        mount=item.get("mount"),
        count=item.get("count", 1),
    )


def _platoon_chart(item: Mapping[str, Any]) -> ParsedPlatoonChart:
    return ParsedPlatoonChart(
        key=item["key"],
        name=item["name"],
        bloc=item["bloc"],
        slots=tuple(
            ParsedPlatoonSlot(
                role=cast(SlotRole, slot["role"]),
                required=slot.get("required", False),
                units=tuple(slot.get("units", ())),
                categories=tuple(slot.get("categories", ())),
                count=slot.get("count", 1),
                name=slot.get("name"),
            )
            for slot in item["slots"]
        ),
        faction=item.get("faction"),
        advantage=item.get("advantage"),
    )


def _captured(item: Mapping[str, Any]) -> ParsedCapturedVehicle:
    return ParsedCapturedVehicle(
        unit=item["unit"],
        original_bloc=item["original_bloc"],
        cost=item["cost"],
        captured_by=tuple(item.get("captured_by", ())),
        roll=item.get("roll"),
    )


def _correction(item: Mapping[str, Any]) -> ParsedCorrection:
    fields: dict[str, CorrectionValue] = dict(item["fields"])
    return ParsedCorrection(unit=item["unit"], fields=fields, reason=item.get("reason"))


def _issue(item: Mapping[str, Any]) -> ImportIssue:
    return ImportIssue(
        item["source"], item.get("entry_id"), item.get("entry_name"), item["what"], item["detail"]
    )


def _check_consistency(catalogue: ParsedCatalogue, source: str) -> None:
    """What the schema cannot say: keys are unique, armour letters match unit types."""
    _check_unique([unit.key for unit in catalogue.units], "$.units[{}].key", source)
    _check_unique([chart.key for chart in catalogue.platoon_charts], "$.platoon_charts[{}].key", source)
    _check_unique([line.unit for line in catalogue.captured_vehicles], "$.captured_vehicles[{}].unit", source)
    for index, unit in enumerate(catalogue.units):
        if ARMOUR_LETTERS[unit.armour[0]] != unit.unit_type:
            raise CatalogueFormatError(
                source,
                f"armour {unit.armour} does not fit a unit of type {unit.unit_type}",
                f"$.units[{index}].armour",
            )


def _check_unique(keys: list[str], path: str, source: str) -> None:
    seen: set[str] = set()
    for index, key in enumerate(keys):
        if key in seen:
            raise CatalogueFormatError(source, f"{key!r} appears twice", path.format(index))
        seen.add(key)


# -- writing -------------------------------------------------------------------------------------


def write_json_catalogue(catalogue: ParsedCatalogue) -> JsonObject:
    """The JSON document for a catalogue; ``read_json_catalogue`` of it gives the catalogue back."""
    document: JsonObject = {"format": FORMAT, "version": VERSION, "name": catalogue.name}
    _put(document, "revision", catalogue.revision, 0)
    _put(document, "source", catalogue.source, "")
    _put(document, "source_id", catalogue.source_id)
    _put(document, "bloc", catalogue.bloc)
    _put_list(document, "factions", [{"name": item.name, "bloc": item.bloc} for item in catalogue.factions])
    document["units"] = [_unit_json(unit) for unit in catalogue.units]
    _put_list(document, "platoon_charts", [_platoon_chart_json(chart) for chart in catalogue.platoon_charts])
    _put_list(document, "captured_vehicles", [_captured_json(line) for line in catalogue.captured_vehicles])
    _put_list(document, "corrections", [_correction_json(item) for item in catalogue.corrections])
    _put_list(document, "report", [_issue_json(issue) for issue in catalogue.report])
    return document


def _put(document: JsonObject, key: str, value: Any, default: Any = None) -> None:
    if value != default:
        document[key] = value


def _put_list(document: JsonObject, key: str, values: list[Any]) -> None:
    if values:
        document[key] = values


def _unit_json(unit: ParsedUnit) -> JsonObject:
    item: JsonObject = {"key": unit.key, "name": unit.name}
    _put(item, "bloc", unit.bloc)
    _put(item, "faction", unit.faction)
    item.update(
        cost=unit.cost,
        unit_type=unit.unit_type,
        armour=unit.armour,
        category=unit.category,
        damage=unit.damage,
        models=unit.models,
    )
    _put(item, "move", unit.move)
    _put(item, "march", unit.march)
    for flag in ("hero", "unique", "mercenary", "capturable", "strongpoint", "support_weapon"):
        _put(item, flag, getattr(unit, flag), False)
    _put_list(item, "weapons", [_weapon_json(weapon) for weapon in unit.weapons])
    _put_list(item, "skills", [_skill_json(skill) for skill in unit.skills])
    _put(item, "source_id", unit.source_id)
    _put(item, "variant_of", unit.variant_of)
    return item


def _weapon_json(weapon: ParsedWeapon) -> JsonObject:
    item: JsonObject = {"name": weapon.name, "range": weapon.range}
    _put(item, "count", weapon.count, 1)
    _put(item, "mount", weapon.mount)
    _put_list(item, "specials", list(weapon.specials))
    _put(
        item,
        "lines",
        {key: weapon.lines[key] for key in LINE_KEYS if weapon.lines.get(key, NO_LINE) != NO_LINE},
        {},
    )
    return item


def _skill_json(skill: ParsedSkill) -> JsonObject:
    item: JsonObject = {"name": skill.name}
    _put(item, "parameter", skill.parameter)
    return item


def _platoon_chart_json(chart: ParsedPlatoonChart) -> JsonObject:
    item: JsonObject = {"key": chart.key, "name": chart.name, "bloc": chart.bloc}
    _put(item, "faction", chart.faction)
    _put(item, "advantage", chart.advantage)
    item["slots"] = [_slot_json(slot) for slot in chart.slots]
    return item


def _slot_json(slot: ParsedPlatoonSlot) -> JsonObject:
    item: JsonObject = {"role": slot.role}
    _put(item, "name", slot.name)
    _put(item, "required", slot.required, False)
    _put(item, "count", slot.count, 1)
    _put_list(item, "units", list(slot.units))
    _put_list(item, "categories", list(slot.categories))
    return item


def _captured_json(line: ParsedCapturedVehicle) -> JsonObject:
    item: JsonObject = {"unit": line.unit, "original_bloc": line.original_bloc, "cost": line.cost}
    _put_list(item, "captured_by", list(line.captured_by))
    _put(item, "roll", line.roll)
    return item


def _correction_json(correction: ParsedCorrection) -> JsonObject:
    item: JsonObject = {"unit": correction.unit, "fields": dict(correction.fields)}
    _put(item, "reason", correction.reason)
    return item


def _issue_json(issue: ImportIssue) -> JsonObject:
    item: JsonObject = {"source": issue.source}
    _put(item, "entry_id", issue.entry_id)
    _put(item, "entry_name", issue.entry_name)
    item.update(what=issue.what, detail=issue.detail)
    return item
