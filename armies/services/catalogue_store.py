"""Storing a parsed catalogue: idempotent and atomic.

The readers in ``armies.importers`` turn files into plain dataclasses; this
module writes them as one Catalogue. Rows are matched by key, only changed
fields are written, and everything happens in one transaction, so importing
the same data twice changes nothing and a failed import leaves the catalogue as
it was.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.text import slugify

from armies.importers import EntryStep, ParsedCatalogue, ParsedCorrection, ParsedGameData, ParsedUnit
from armies.models import CapturedVehicle, Catalogue, CatalogueBloc, Faction, PlatoonChart, Unit

Progress = Callable[[int, str], None]

UNIT_FIELDS = (
    "name", "bloc", "faction_id", "unit_type", "armour", "ap", "damage", "model_count", "move", "march",
    "hero", "unique", "mercenary", "capturable", "strongpoint_unit", "named_pilot", "category",
    "skills", "weapons", "source_id", "roster_entry",
)  # fmt: skip

CORRECTABLE = {
    "name": "name", "bloc": "bloc", "cost": "ap", "ap": "ap", "damage": "damage", "models": "model_count",
    "move": "move", "march": "march", "hero": "hero", "unique": "unique", "mercenary": "mercenary",
    "capturable": "capturable", "strongpoint": "strongpoint_unit", "named_pilot": "named_pilot",
    "category": "category",
}  # fmt: skip


@dataclass
class StoreSummary:
    catalogue_id: int = 0
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    deleted: int = 0
    issues: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "catalogue_id": self.catalogue_id,
            "created": self.created,
            "updated": self.updated,
            "unchanged": self.unchanged,
            "deleted": self.deleted,
            "issues": len(self.issues),
        }


def roster_files(game: ParsedGameData) -> dict[str, Any]:
    """What a .rosz export names from the files: the game system, its force entries, each catalogue."""
    if not game.source_id:
        return {}
    return {
        "game_system": {"id": game.source_id, "name": game.name, "revision": game.revision},
        "forces": {name: force_id for name, force_id in game.force_entries if name and force_id},
        "catalogues": {
            part.source_id: {"id": part.source_id, "name": part.name, "revision": part.revision}
            for part in game.catalogues
            if part.source_id
        },
    }


def faction_key(name: str) -> str:
    return slugify(name)[:80]


def roster_entry(
    path: Iterable[EntryStep], catalogue_id: str | None, offers: Iterable[EntryStep] = ()
) -> dict[str, Any]:
    """A unit (or captured line) as a roster selects it; {} when the reader knew no entry for it."""
    steps = [step.to_dict() for step in path]
    if not steps or not catalogue_id:
        return {}
    return {"catalogue": catalogue_id, "path": steps, "offers": [step.to_dict() for step in offers]}


def _unit_values(unit: ParsedUnit, part: ParsedCatalogue, faction_ids: dict[str, int]) -> dict[str, Any]:
    bloc = part.bloc or ""
    return {
        "name": unit.name,
        "bloc": unit.bloc or bloc,
        "faction_id": faction_ids.get(faction_key(unit.faction)) if unit.faction else None,
        "unit_type": unit.unit_type,
        "armour": unit.armour_class,
        "ap": unit.cost,
        "damage": unit.damage,
        "model_count": unit.models,
        "move": unit.move,
        "march": unit.march,
        "hero": unit.hero,
        "unique": unit.unique,
        "mercenary": unit.mercenary,
        "capturable": unit.capturable,
        "strongpoint_unit": unit.strongpoint,
        "named_pilot": unit.named_pilot or "",
        "category": unit.category,
        "skills": [{"name": s.name, "parameter": s.parameter} for s in unit.skills],
        "weapons": [
            {
                "name": w.name,
                "range": w.range,
                "lines": dict(w.lines),
                "specials": list(w.specials),
                "mount": w.mount,
                "count": w.count,
            }
            for w in unit.weapons
        ],
        "source_id": unit.source_id or "",
        "roster_entry": roster_entry(unit.entry_path, part.source_id, unit.offers),
    }


def _apply_corrections(
    values: dict[str, dict[str, Any]], corrections: Iterable[ParsedCorrection]
) -> list[str]:
    """Patch unit values in place; return what could not be applied."""
    by_source = {v["source_id"]: key for key, v in values.items() if v["source_id"]}
    problems = []
    for correction in corrections:
        key = correction.unit if correction.unit in values else by_source.get(correction.unit)
        if key is None:
            problems.append(f"correction for unknown unit {correction.unit!r}")
            continue
        for name, value in correction.fields.items():
            if name not in CORRECTABLE:
                problems.append(f"correction of {correction.unit!r}: field {name!r} cannot be corrected")
                continue
            values[key][CORRECTABLE[name]] = value
    return problems


def chart_slots(slots: Iterable[Any], keys_by_category: dict[str, list[str]]) -> list[dict[str, Any]]:
    """Give every slot a stable name and expand counts into single slots.

    A slot that admits categories ("Vehicle 4", "Heroes") lists the keys of the
    catalogue's units in those categories, so the validator needs no categories.
    """
    out: list[dict[str, Any]] = []
    numbers = {"command": 0, "combat": 0, "support": 0}
    for slot in slots:
        count = max(1, slot.count)
        for index in range(count):
            numbers[slot.role] += 1
            default = slot.role if slot.role == "command" else f"{slot.role}-{numbers[slot.role]}"
            name = slot.name or default
            if slot.name and count > 1:
                name = f"{slot.name} {index + 1}"
            from_categories = [
                key for category in slot.categories for key in keys_by_category.get(category, [])
            ]
            out.append(
                {
                    "name": name,
                    "role": slot.role,
                    "required": slot.required,
                    "units": sorted(set(slot.units) | set(from_categories)),
                    "unit_types": [],
                    "categories": list(slot.categories),
                }
            )
    return out


def _sync(
    model: Any,
    catalogue: Catalogue,
    key_field: str,
    wanted: dict[str, dict[str, Any]],
    *,
    delete: bool = True,
    rows: Any = None,
) -> list[int]:
    """Create, update (and delete) rows so the catalogue holds exactly ``wanted`` (of ``rows``, by default
    all of the catalogue's).

    Returns the counts [created, updated, unchanged, deleted].
    """
    rows = model.objects.filter(catalogue=catalogue) if rows is None else rows
    existing = {getattr(row, key_field): row for row in rows}
    created = updated = unchanged = 0
    for key, values in wanted.items():
        row = existing.pop(key, None)
        if row is None:
            model.objects.create(catalogue=catalogue, **{key_field: key}, **values)
            created += 1
            continue
        changed = [name for name, value in values.items() if getattr(row, name) != value]
        if changed:
            for name in changed:
                setattr(row, name, values[name])
            row.save(update_fields=changed)
            updated += 1
        else:
            unchanged += 1
    deleted = len(existing) if delete else 0
    if existing and delete:
        model.objects.filter(pk__in=[row.pk for row in existing.values()]).delete()
    return [created, updated, unchanged, deleted]


@transaction.atomic
def catalogue_store(
    *,
    name: str,
    version: str,
    source: str,
    parts: list[ParsedCatalogue],
    issues: list[dict[str, Any]],
    progress: Progress | None = None,
    roster_files: dict[str, Any] | None = None,
) -> StoreSummary:
    """Write ``parts`` (catalogues read together) as the catalogue ``name`` at ``version``."""
    report = progress or (lambda _percent, _stage: None)
    catalogue, _ = Catalogue.objects.get_or_create(name=name, version=version, defaults={"source": source})
    blocs = sorted({part.bloc for part in parts if part.bloc} | {f.bloc for p in parts for f in p.factions})
    factions = {
        faction_key(f.name): {"name": f.name, "bloc": f.bloc} for part in parts for f in part.factions
    }
    for part in parts:
        for unit in part.units:
            if unit.faction and faction_key(unit.faction) not in factions:
                factions[faction_key(unit.faction)] = {
                    "name": unit.faction,
                    "bloc": unit.bloc or part.bloc or "",
                }
    report(10, f"{len(factions)} factions")
    # Stale factions go only after the units that pointed at them have moved.
    _sync(Faction, catalogue, "key", factions, delete=False)
    faction_ids = dict(Faction.objects.filter(catalogue=catalogue).values_list("key", "id"))

    values: dict[str, dict[str, Any]] = {}
    for part in parts:
        for unit in part.units:
            values[unit.key] = _unit_values(unit, part, faction_ids)
    problems = _apply_corrections(values, (c for part in parts for c in part.corrections))
    issues = issues + [{"what": "correction", "detail": problem} for problem in problems]
    report(30, f"{len(values)} units")
    created, updated, unchanged, deleted = _sync(Unit, catalogue, "key", values)

    keys_by_category: dict[str, list[str]] = {}
    for key, unit_values in values.items():
        keys_by_category.setdefault(unit_values["category"], []).append(key)
    charts = {
        chart.key: {
            "name": chart.name,
            "bloc": chart.bloc,
            "faction": chart.faction or "",
            "slots": chart_slots(chart.slots, keys_by_category),
            "advantage": chart.advantage or "",
        }
        for part in parts
        for chart in part.platoon_charts
    }
    Faction.objects.filter(catalogue=catalogue).exclude(key__in=list(factions)).delete()
    report(80, f"{len(charts)} platoon charts")
    # Charts entered on the site are the organisers': an import neither changes nor removes them. A campaign's
    # own chart is no bar to an imported key: that campaign's lists keep seeing their own.
    entered = set(
        PlatoonChart.objects.filter(catalogue=catalogue, entered=True, campaign__isnull=True).values_list(
            "key", flat=True
        )
    )
    for key in sorted(entered & set(charts)):
        del charts[key]
        issues = [*issues, {"what": "chart-key-taken", "detail": f"platoon chart {key!r} was entered on the site; "
                            "the imported chart of that key is left out"}]  # fmt: skip
    chart_counts = _sync(
        PlatoonChart,
        catalogue,
        "key",
        charts,
        rows=PlatoonChart.objects.filter(catalogue=catalogue, entered=False),
    )
    captured = {
        row.unit: {
            "captured_by": sorted(row.captured_by),
            "roster_entry": roster_entry(row.entry_path, row.source_catalogue),
        }
        for part in parts
        for row in part.captured_vehicles
    }
    captured_counts = _sync(CapturedVehicle, catalogue, "unit_key", captured)

    rows_changed = any(
        counts[0] or counts[1] or counts[3]
        for counts in ([created, updated, 0, deleted], chart_counts, captured_counts)
    )
    bloc_counts = _sync(CatalogueBloc, catalogue, "name", {name: {} for name in blocs})
    rows_changed = rows_changed or bool(bloc_counts[0] or bloc_counts[3])
    roster_files = roster_files or {}
    meta_changed = (
        catalogue.import_report != issues
        or catalogue.source != source
        or catalogue.roster_files != roster_files
    )
    # Touching updated_at also retires the validator's cached copy of the catalogue.
    if meta_changed or rows_changed:
        catalogue.import_report, catalogue.source, catalogue.roster_files = issues, source, roster_files
        catalogue.save(update_fields=["import_report", "source", "roster_files", "updated_at"])
    report(100, "stored")
    return StoreSummary(
        catalogue_id=catalogue.pk,
        created=created + chart_counts[0] + captured_counts[0],
        updated=updated + chart_counts[1] + captured_counts[1],
        unchanged=unchanged + chart_counts[2] + captured_counts[2],
        deleted=deleted + chart_counts[3] + captured_counts[3],
        issues=issues,
    )
