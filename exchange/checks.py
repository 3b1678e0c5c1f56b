"""Checking an export document before anything is written: every problem named by its path, bounded.

The checks are read from ``exchange.spec`` and the models' own fields (choices,
lengths, integer ranges), and the campaign's settings are checked by the settings
service (``settings_problems``), so a column's rule is never written twice. Lists are
measured before their rows are read (the work is budgeted first), and checking
stops once ``MAX_PROBLEMS`` are found: a refusal names enough to fix the file,
and a hostile file cannot make it long. Datetimes are parsed in place, so the
import reads the rows as checked.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.db import models

from campaign.engine.mapformat import map_problems
from campaign.models import Campaign
from campaign.services.campaigns import settings_problems
from core.errors import DomainError, FieldProblem
from core.names import name_problem
from exchange import limits
from exchange.spec import CAMPAIGN_PLAIN, FORMAT, SECTIONS, VERSION, Kind, Section, column, ref_target

_INT_RANGES: dict[str, tuple[int, int]] = {
    "PositiveSmallIntegerField": (0, 32_767),
    "SmallIntegerField": (-32_768, 32_767),
    "PositiveIntegerField": (0, 2_147_483_647),
    "IntegerField": (-2_147_483_648, 2_147_483_647),
    "PositiveBigIntegerField": (0, 9_223_372_036_854_775_807),
    "BigAutoField": (1, 9_223_372_036_854_775_807),
}
_USERNAME_MAX = 150


class ImportRefusedError(DomainError):
    """A file that cannot become a campaign: ``problems`` names every fault found (at most MAX_PROBLEMS)."""

    default_code = "import-invalid"

    def __init__(self, problems: list[FieldProblem], more: int = 0) -> None:
        first = problems[0]
        extra = len(problems) - 1 + more
        message = (
            first.message if not extra else f"{first.message} (and {extra} more problem{'s' * (extra > 1)})"
        )
        super().__init__("import-invalid", message, first.field, problems=problems)
        self.more = more


class _StopError(Exception):
    """Enough problems found: stop reading the file."""


class Problems:
    def __init__(self) -> None:
        self.found: list[FieldProblem] = []

    def add(self, path: str, code: str, message: str) -> None:
        self.found.append(FieldProblem(path, code, message[:200]))
        if len(self.found) >= limits.MAX_PROBLEMS:
            raise _StopError

    def refuse(self) -> None:
        if self.found:
            raise ImportRefusedError(self.found)


def _type_problem(value: Any, kind: Kind) -> str | None:
    """What is wrong with ``value`` as a ``kind``, or None."""
    base = kind.rstrip("?")
    if value is None:
        return None if kind.endswith("?") else "must not be null"
    if base == "str" and not isinstance(value, str):
        return "must be a string"
    if base == "int" and (isinstance(value, bool) or not isinstance(value, int)):
        return "must be a whole number"
    if base == "bool" and not isinstance(value, bool):
        return "must be true or false"
    if base == "datetime" and not isinstance(value, str):
        return "must be a date and time (ISO 8601)"
    return None


def _column_problem(field: models.Field[Any, Any], value: Any) -> str | None:
    """What the model's column says of ``value``: its choices, its length, its range."""
    if value is None:
        return None
    if field.choices and isinstance(value, str | int) and not isinstance(value, bool):
        allowed = {str(choice[0]) for choice in field.flatchoices}
        if str(value) not in allowed and not (field.blank and value == ""):
            shown = ", ".join(sorted(allowed))[:120]
            return f"is not one of: {shown}"
    if isinstance(value, str):
        bound = field.max_length or limits.MAX_TEXT
        if len(value) > bound:
            return f"is longer than {bound} characters"
        if "\x00" in value:
            return "holds a NUL character"
        if (field.name == "name" or field.name.endswith("_name")) and name_problem(value) is not None:
            return "holds a control character or an invisible one (a direction mark, a zero-width space)"
    if isinstance(value, int) and not isinstance(value, bool):
        low, high = _INT_RANGES.get(field.get_internal_type(), (None, None))
        if low is not None and high is not None and not low <= value <= high:
            return f"must be between {low} and {high}"
    return None


def _datetime(value: str) -> datetime | None:
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    return parsed if parsed.tzinfo is not None else None


def _check_value(problems: Problems, path: str, value: Any, kind: Kind, field: models.Field[Any, Any]) -> Any:
    wrong = _type_problem(value, kind)
    if wrong is not None:
        problems.add(path, "wrong-type", f"{path} {wrong}")
        return value
    if kind.startswith("datetime") and value is not None:
        parsed = _datetime(value)
        if parsed is None:
            problems.add(path, "wrong-type", f"{path} must be an ISO 8601 date and time with its time zone")
        return parsed
    wrong = _column_problem(field, value)
    if wrong is not None:
        problems.add(path, "out-of-bounds", f"{path} {wrong}")
    return value


def _check_campaign(problems: Problems, head: Any) -> None:
    if not isinstance(head, dict):
        problems.add("campaign", "wrong-type", "campaign must be an object")
        return
    for name, kind in CAMPAIGN_PLAIN.items():
        path = f"campaign.{name}"
        if name not in head:
            problems.add(path, "missing", f"{path} is missing")
            continue
        head[name] = _check_value(problems, path, head[name], kind, column(Campaign, name))
    organiser = head.get("organiser")
    if not isinstance(organiser, str) or not 0 < len(organiser) <= _USERNAME_MAX:
        problems.add("campaign.organiser", "wrong-type", "campaign.organiser must be a username")
    catalogue = head.get("catalogue")
    if catalogue is not None and not (
        isinstance(catalogue, dict)
        and isinstance(catalogue.get("name"), str)
        and isinstance(catalogue.get("version"), str)
    ):
        problems.add("campaign.catalogue", "wrong-type", "campaign.catalogue must be null or {name, version}")
    # The settings as the settings page would take them: bounds, and the rules between them.
    faulty = {problem.field for problem in problems.found}
    sound = {name: head[name] for name in CAMPAIGN_PLAIN if name in head and f"campaign.{name}" not in faulty}
    for error in settings_problems(sound):
        path = f"campaign.{error.field}"
        problems.add(path, error.code, f"{path}: {error.message}")
    document = head.get("map_document")
    if document is not None:
        for problem in map_problems(document)[:5]:
            path = f"campaign.map_document.{problem.field}".rstrip(".")
            problems.add(path, problem.code, f"{path}: {problem.message}")


def _check_rows(problems: Problems, section: Section, rows: list[Any]) -> set[int]:
    """Check each row's own values; returns the ids seen."""
    ids: set[int] = set()
    for index, row in enumerate(rows):
        at = f"{section.key}[{index}]"
        if not isinstance(row, dict):
            problems.add(at, "wrong-type", f"{at} must be an object")
            continue
        row_id = row.get("id")
        if isinstance(row_id, bool) or not isinstance(row_id, int) or row_id < 1:
            problems.add(f"{at}.id", "wrong-type", f"{at}.id must be a whole number above 0")
        elif row_id in ids:
            problems.add(f"{at}.id", "duplicate", f"{at}.id {row_id} is used by another row of {section.key}")
        else:
            ids.add(row_id)
        for name, kind in section.plain.items():
            if name not in row:
                if name not in section.optional:
                    problems.add(f"{at}.{name}", "missing", f"{at}.{name} is missing")
                continue
            row[name] = _check_value(problems, f"{at}.{name}", row[name], kind, column(section.model, name))
        for name in section.users:
            value = row.get(name)
            if value is not None and (not isinstance(value, str) or not 0 < len(value) <= _USERNAME_MAX):
                problems.add(f"{at}.{name}", "wrong-type", f"{at}.{name} must be a username or null")
    return ids


def _check_refs(problems: Problems, section: Section, rows: list[Any], ids: Mapping[str, set[int]]) -> None:
    for index, row in enumerate(rows):
        if not isinstance(row, dict):
            continue
        for name in section.refs:
            target, nullable = ref_target(section, name)
            path = f"{section.key}[{index}].{name}"
            value = row.get(name, ...)
            if value is ...:
                problems.add(path, "missing", f"{path} is missing")
            elif value is None:
                if not nullable:
                    problems.add(path, "missing", f"{path} must name a row of {target}")
            elif isinstance(value, bool) or not isinstance(value, int):
                problems.add(path, "wrong-type", f"{path} must be the id of a row of {target}")
            elif value not in ids[target]:
                problems.add(
                    path, "dangling", f"{path} names {target} id {value}, which the file does not hold"
                )


def _check_sections(problems: Problems, document: Mapping[str, Any]) -> None:
    lists: dict[str, list[Any]] = {}
    total = 0
    for section in SECTIONS:
        rows = document.get(section.key)
        if not isinstance(rows, list):
            problems.add(
                section.key, "missing" if rows is None else "wrong-type", f"{section.key} must be a list"
            )
            continue
        if len(rows) > section.max_items:
            problems.add(
                section.key, "too-many", f"{section.key} holds {len(rows)} rows: at most {section.max_items}"
            )
            continue
        total += len(rows)
        lists[section.key] = rows
    if total > limits.MAX_TOTAL_ITEMS:
        problems.add("", "too-many", f"the file holds {total} rows in all: at most {limits.MAX_TOTAL_ITEMS}")
    if problems.found:
        return  # the shape is wrong: reading the rows would name the same fault many times over
    ids = {section.key: _check_rows(problems, section, lists[section.key]) for section in SECTIONS}
    for section in SECTIONS:
        _check_refs(problems, section, lists[section.key], ids)
    if not problems.found:
        _check_players_once(problems, lists["enrolments"])
        _check_map_agrees(problems, document["campaign"], lists["sectors"], lists["log"])


def _check_players_once(problems: Problems, enrolments: list[Any]) -> None:
    """A person has one place in a campaign (every place becomes a placeholder here, which would not say)."""
    seen: set[str] = set()
    for index, row in enumerate(enrolments):
        player = row.get("player")
        if player is None:
            continue
        if player in seen:
            path = f"enrolments[{index}].player"
            problems.add(path, "duplicate", f"{path} has another place in the campaign already")
        seen.add(player)


def _check_map_agrees(
    problems: Problems, head: Mapping[str, Any], sectors: list[Any], log: list[Any]
) -> None:
    """The sectors are the map document's, and the log's sector entries name them: the replay reads both."""
    document = head.get("map_document")
    mapped = {s.get("key") for s in document.get("sectors", [])} if isinstance(document, dict) else set()
    keys = {row["key"] for row in sectors}
    if keys != mapped:
        problems.add("sectors", "map-mismatch", "sectors must be exactly the map document's sectors, by key")
    for index, row in enumerate(log):
        if row["kind"] == "sector-changed" and row["subject"].removeprefix("sector:") not in keys:
            problems.add(
                f"log[{index}].subject", "dangling", f"log[{index}].subject names no sector of the file"
            )


def document_check(document: Any) -> None:
    """Raise ``ImportRefusedError`` naming what is wrong with ``document``; datetimes come out parsed."""
    problems = Problems()
    try:
        if not isinstance(document, dict):
            problems.add("", "wrong-type", "the file must hold a JSON object")
        elif document.get("format") != FORMAT:
            problems.add(
                "format", "wrong-format", f'format must be "{FORMAT}": this is not a campaign export'
            )
        elif document.get("version") != VERSION:
            problems.add("version", "wrong-version", f"version {document.get('version')!r} is not supported: "
                         f"this site reads version {VERSION}")  # fmt: skip
        else:
            _check_campaign(problems, document.get("campaign"))
            _check_sections(problems, document)
    except _StopError:
        raise ImportRefusedError(problems.found, more=1) from None
    problems.refuse()
