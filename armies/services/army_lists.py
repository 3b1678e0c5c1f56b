"""Writes for army lists. The list's content is the documented JSON list format.

Every change goes through ``_save``, which checks the document against the
format, stores its canonical form and refreshes the copied columns, so a list
can never hold a document that its own export would refuse.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from django.db import transaction
from django.db.models import Q

from accounts.models import User
from armies import validation as v
from armies.models import ArmyList, Catalogue, Unit
from armies.permissions import member_campaigns
from armies.validation.names import NAME_CONTROL_CODE, name_problem
from core.errors import DomainError

Document = dict[str, Any]


class ArmyListError(DomainError):
    """A change to a list that cannot be made; ``field`` is a JSON path into the list document."""


def _canonical(document: Any) -> Document:
    try:
        return v.army_list_to_json(v.army_list_from_json(document))
    except v.ListFormatError as exc:
        raise ArmyListError("list-format", exc.reason, exc.path, problems=exc.problems) from exc


def _copy_columns(army_list: ArmyList, content: Document) -> None:
    army_list.content = content
    army_list.name = content["name"]
    army_list.bloc = content["bloc"]
    army_list.faction = content["faction"] or ""
    army_list.points_limit = content["points_limit"]
    army_list.role = content["role"] or ""


def _save(army_list: ArmyList, content: Any) -> ArmyList:
    canonical = _canonical(content)
    # A name is checked where it is entered; one stored before the check stays editable.
    if canonical["name"] != army_list.name and (problem := name_problem(canonical["name"])) is not None:
        raise ArmyListError(NAME_CONTROL_CODE, problem, "$.name")
    _copy_columns(army_list, canonical)
    army_list.save()
    return army_list


def empty_document(
    *, catalogue: Catalogue, name: str, bloc: str, points_limit: int, faction: str | None = None,
    role: str | None = None,
) -> Document:  # fmt: skip
    return {
        "format": v.listformat.FORMAT_NAME,
        "version": v.listformat.FORMAT_VERSION,
        "name": name,
        "bloc": bloc,
        "faction": faction or None,
        "points_limit": points_limit,
        "catalogue_version": catalogue.version,
        "role": role or None,
        "entries": [],
        "platoons": [],
        "fortifications": [],
    }


@transaction.atomic
def army_list_create(
    *, owner: User, catalogue: Catalogue, name: str, bloc: str, points_limit: int, faction: str | None = None,
    role: str | None = None,
) -> ArmyList:  # fmt: skip
    document = empty_document(
        catalogue=catalogue, name=name, bloc=bloc, points_limit=points_limit, faction=faction, role=role
    )
    return _save(ArmyList(owner=owner, catalogue=catalogue), document)


@transaction.atomic
def army_list_import(*, owner: User, document: Any, catalogue: Catalogue) -> ArmyList:
    """Create a list from a document in the JSON list format (an export, or typed by hand)."""
    return _save(ArmyList(owner=owner, catalogue=catalogue), document)


@transaction.atomic
def army_list_replace(*, army_list: ArmyList, document: Any) -> ArmyList:
    return _save(army_list, document)


@transaction.atomic
def army_list_duplicate(*, army_list: ArmyList, owner: User) -> ArmyList:
    content = copy.deepcopy(army_list.content)
    content["name"] = f"{content['name']} (copy)"[:200]
    return _save(ArmyList(owner=owner, catalogue=army_list.catalogue), content)


def army_list_delete(*, army_list: ArmyList) -> None:
    army_list.delete()


def _edit(army_list: ArmyList, change: Callable[[Document], None]) -> ArmyList:
    with transaction.atomic():
        locked = ArmyList.objects.select_for_update().get(pk=army_list.pk)
        content = copy.deepcopy(locked.content)
        change(content)
        _save(locked, content)
    army_list.refresh_from_db()
    return army_list


def entry_document(entry_id: str, unit: str, **fields: Any) -> dict[str, Any]:
    """A list entry with every field present, as the list format stores it."""
    entry: dict[str, Any] = dict.fromkeys(("joined_to", "pilot_of", "platoon", "slot"))
    entry.update(id=entry_id, unit=unit, captured=False, reserve=False)
    entry.update(fields)
    return {key: entry[key] for key in ("id", "unit", *ENTRY_FIELDS)}


def _next_id(items: list[dict[str, Any]], prefix: str) -> str:
    numbers = [
        int(i["id"][len(prefix) :])
        for i in items
        if i["id"].startswith(prefix) and i["id"][len(prefix) :].isdigit()
    ]
    return f"{prefix}{max(numbers, default=0) + 1}"


def _entry(content: Document, entry_id: str) -> dict[str, Any]:
    for entry in content["entries"]:
        if entry["id"] == entry_id:
            return dict(entry)
    raise ArmyListError("list-entry-unknown", f"the list has no entry {entry_id!r}", field="entry")


def army_list_update_settings(
    *, army_list: ArmyList, name: str, bloc: str, points_limit: int, faction: str | None, role: str | None
) -> ArmyList:
    def change(content: Document) -> None:
        content.update(
            name=name, bloc=bloc, points_limit=points_limit, faction=faction or None, role=role or None
        )

    return _edit(army_list, change)


def army_list_add_unit(*, army_list: ArmyList, unit_key: str, captured: bool = False) -> ArmyList:
    """Add a unit; ``captured`` enters another bloc's vehicle as the force's captured vehicle.

    A captured vehicle is its own bloc's unit marked captured (the validator's ruling), so this
    records the mark and leaves whether the chart allows it to the validator.
    """
    if not Unit.objects.filter(catalogue_id=army_list.catalogue_id, key=unit_key).exists():
        raise ArmyListError("list-unit-unknown", f"{unit_key!r} is not in the list's catalogue", field="unit")

    def change(content: Document) -> None:
        entry_id = _next_id(content["entries"], "e")
        content["entries"].append(entry_document(entry_id, unit_key, captured=captured))

    return _edit(army_list, change)


def army_list_remove_entry(*, army_list: ArmyList, entry_id: str) -> ArmyList:
    """Remove an entry and every reference to it, so nothing is left dangling."""

    def change(content: Document) -> None:
        _entry(content, entry_id)
        content["entries"] = [e for e in content["entries"] if e["id"] != entry_id]
        for entry in content["entries"]:
            for ref in ("joined_to", "pilot_of"):
                if entry[ref] == entry_id:
                    entry[ref] = None
        for claim in content["platoons"]:
            claim["members"] = [m for m in claim["members"] if m != entry_id]
        content["fortifications"] = [f for f in content["fortifications"] if f["unit"] != entry_id]

    return _edit(army_list, change)


ENTRY_FIELDS = ("joined_to", "pilot_of", "captured", "reserve", "platoon", "slot")


def army_list_update_entry(*, army_list: ArmyList, entry_id: str, **changes: Any) -> ArmyList:
    """Set an entry's hero join, pilot seat, captured and reserve flags, platoon and slot."""
    unknown = set(changes) - set(ENTRY_FIELDS)
    if unknown:
        raise ArmyListError("list-entry-field", f"unknown entry field(s): {', '.join(sorted(unknown))}")

    def change(content: Document) -> None:
        entry = _entry(content, entry_id)
        entry.update({k: (val if val != "" else None) for k, val in changes.items()})
        for ref in ("joined_to", "pilot_of"):
            if entry[ref] is not None and entry[ref] == entry_id:
                raise ArmyListError("list-entry-self", "an entry cannot refer to itself", field=ref)
        content["entries"] = [entry if e["id"] == entry_id else e for e in content["entries"]]
        for claim in content["platoons"]:
            claim["members"] = [m for m in claim["members"] if m != entry_id]
            if claim["id"] == entry["platoon"]:
                claim["members"].append(entry_id)

    return _edit(army_list, change)


def army_list_add_platoon(*, army_list: ArmyList, chart_key: str) -> ArmyList:
    # The whole catalogue's charts, and those of the campaigns the owner takes part in (never another's).
    theirs = Q(campaign__isnull=True) | Q(
        campaign_id__in=member_campaigns(army_list.owner_id, army_list.catalogue_id)
    )
    if not army_list.catalogue.platoon_charts.filter(theirs, key=chart_key).exists():
        raise ArmyListError(
            "list-platoon-chart-unknown", f"{chart_key!r} is not a platoon chart", field="chart"
        )

    def change(content: Document) -> None:
        content["platoons"].append(
            {"id": _next_id(content["platoons"], "p"), "chart": chart_key, "members": []}
        )

    return _edit(army_list, change)


def army_list_remove_platoon(*, army_list: ArmyList, platoon_id: str) -> ArmyList:
    def change(content: Document) -> None:
        content["platoons"] = [p for p in content["platoons"] if p["id"] != platoon_id]
        for entry in content["entries"]:
            if entry["platoon"] == platoon_id:
                entry["platoon"] = entry["slot"] = None

    return _edit(army_list, change)


def army_list_add_fortification(*, army_list: ArmyList, kind: str, unit_entry: str | None = None) -> ArmyList:
    def change(content: Document) -> None:
        if unit_entry is not None:
            _entry(content, unit_entry)
        content["fortifications"].append(
            {"id": _next_id(content["fortifications"], "f"), "kind": kind, "unit": unit_entry}
        )

    return _edit(army_list, change)


def army_list_remove_fortification(*, army_list: ArmyList, fortification_id: str) -> ArmyList:
    def change(content: Document) -> None:
        content["fortifications"] = [f for f in content["fortifications"] if f["id"] != fortification_id]

    return _edit(army_list, change)
