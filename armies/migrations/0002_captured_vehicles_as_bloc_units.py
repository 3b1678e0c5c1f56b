"""Captured vehicles in one representation (docs/catalogue-format.md, "Captured vehicles").

Catalogues imported from BattleScribe before this ruling held a second, surcharged copy of every
captured vehicle (``captured-vehicles.luther`` at 13 AP beside ``axis.luther`` at 11 AP), and the
captured-vehicle chart named the copies, so a list paid the surcharge twice. This points each chart
line at the bloc's own unit, moves list entries from a copy to that unit (marked captured when the
list is of another bloc, so the surcharge is paid once) and deletes the copies: the state importing
the same files gives now. Only BattleScribe catalogues had copies; JSON catalogues are left alone.
There is no way back: the copies carried nothing the bloc's units lack.
"""

from __future__ import annotations

from typing import Any

from django.apps.registry import Apps
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.utils import timezone


def _originals(units: dict[str, Any], charted: set[str]) -> dict[str, Any]:
    """Copy key -> the bloc's own unit: same bloc and name, not itself on the chart."""
    found = {}
    for key in charted:
        copy = units.get(key)
        if copy is None:
            continue
        matches = [
            unit
            for unit in units.values()
            if unit.bloc == copy.bloc and unit.name == copy.name and unit.key not in charted
        ]
        if len(matches) == 1:
            found[key] = matches[0]
    return found


def _move_list_entries(army_list_model: Any, catalogue: Any, originals: dict[str, Any]) -> None:
    for army_list in army_list_model.objects.filter(catalogue=catalogue):
        content = army_list.content
        changed = False
        for entry in content.get("entries", []):
            original = originals.get(entry.get("unit"))
            if original is None:
                continue
            entry["unit"] = original.key
            entry["captured"] = content.get("bloc") != original.bloc
            changed = True
        if changed:
            # update() keeps updated_at: the list did not change in substance.
            army_list_model.objects.filter(pk=army_list.pk).update(content=content)


def forwards(apps: Apps, schema_editor: BaseDatabaseSchemaEditor | None) -> None:
    catalogue_model = apps.get_model("armies", "Catalogue")
    unit_model = apps.get_model("armies", "Unit")
    captured_model = apps.get_model("armies", "CapturedVehicle")
    army_list_model = apps.get_model("armies", "ArmyList")
    for catalogue in catalogue_model.objects.filter(source="battlescribe"):
        rows = {row.unit_key: row for row in captured_model.objects.filter(catalogue=catalogue)}
        units = {unit.key: unit for unit in unit_model.objects.filter(catalogue=catalogue)}
        originals = _originals(units, set(rows))
        if not originals:
            continue
        _move_list_entries(army_list_model, catalogue, originals)
        for copy_key, original in originals.items():
            row = rows[copy_key]
            if original.key in rows:
                row.delete()
            else:
                row.unit_key = original.key
                row.save(update_fields=["unit_key"])
            unit_model.objects.filter(pk=original.pk).update(capturable=True)
            unit_model.objects.filter(pk=units[copy_key].pk).delete()
        # A new stamp retires the validator's cached copy of the catalogue.
        catalogue_model.objects.filter(pk=catalogue.pk).update(updated_at=timezone.now())


class Migration(migrations.Migration):
    dependencies = [("armies", "0001_initial")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
