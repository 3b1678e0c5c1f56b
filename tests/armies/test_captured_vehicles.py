"""Captured vehicles from the real BattleScribe files: base price + 2, once, whichever way they are added.

The ruling (armies/validation/types.py, docs/catalogue-format.md): a captured vehicle is its own
bloc's unit, entered once and marked captured. The import, the picker, the validator and the exports
must all say so.
"""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from django.apps import apps
from django.urls import reverse

from accounts.models import User
from armies import selectors
from armies.models import ArmyList, CapturedVehicle, Catalogue, Unit
from armies.services import army_lists as lists
from armies.services.catalogue_import import catalogue_import_from_paths
from tests.factories import ArmyListFactory, CatalogueFactory, UnitFactory

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
LUTHER = "axis.luther"  # 11 AP in Axis.cat; the captured-vehicle catalogue prices its copy at 13 AP


@pytest.fixture
def dust(bsdata_files: list[Any]) -> Catalogue:
    summary = catalogue_import_from_paths(paths=bsdata_files)
    return Catalogue.objects.get(pk=summary.catalogue_id)


def _list(owner: User, catalogue: Catalogue, bloc: str = "Allies") -> ArmyList:
    return ArmyListFactory(owner=owner, catalogue=catalogue, bloc=bloc, points_limit=100)


def _totals(army_list: ArmyList) -> dict[str, Any]:
    army_list.refresh_from_db()
    verdict = selectors.army_list_verdict(army_list=army_list)
    return {
        "unit_ap": verdict.totals.unit_ap,
        "surcharge": verdict.totals.captured_surcharge,
        "gross": verdict.totals.gross_ap,
        "codes": sorted(verdict.codes - {"faction-share-too-low"}),
    }


ONCE = {"unit_ap": 11, "surcharge": 2, "gross": 13, "codes": []}


def test_it_stores_the_chart_as_lines_on_the_blocs_own_units(dust):
    rows = dict(CapturedVehicle.objects.filter(catalogue=dust).values_list("unit_key", "captured_by"))
    assert rows[LUTHER] == ["Allies", "SSU"]
    assert len(rows) == 21
    assert not Unit.objects.filter(catalogue=dust, key__startswith="captured-vehicles.").exists()
    assert set(Unit.objects.filter(catalogue=dust, key__in=rows).values_list("capturable", flat=True)) == {
        True
    }


def test_it_charges_the_surcharge_once_when_the_picker_adds_a_captured_vehicle(client, player, dust):
    army_list = _list(player, dust)
    client.force_login(player)

    response = client.post(
        reverse("armies:builder_add_unit", args=[army_list.pk]), {"captured_unit": LUTHER}, headers=HTMX
    )

    assert response.status_code == 200
    army_list.refresh_from_db()
    (entry,) = army_list.content["entries"]
    assert (entry["unit"], entry["captured"]) == (LUTHER, True)
    assert _totals(army_list) == ONCE


def test_it_charges_the_surcharge_once_when_a_bloc_unit_is_marked_captured(client, player, dust):
    army_list = _list(player, dust)
    client.force_login(player)
    client.post(reverse("armies:builder_add_unit", args=[army_list.pk]), {"unit": LUTHER}, headers=HTMX)
    # Entered plainly it is another bloc's unit, and the problem says what marking it would cost.
    verdict = selectors.army_list_verdict(army_list=ArmyList.objects.get(pk=army_list.pk))
    (wrong_bloc,) = [p for p in verdict.problems if p.code == "wrong-bloc"]
    assert "marked as captured, for 11 + 2 AP" in wrong_bloc.message

    client.post(
        reverse("armies:builder_update_entry", args=[army_list.pk, "e1"]), {"captured": "on"}, headers=HTMX
    )

    assert _totals(army_list) == ONCE


def test_it_offers_another_blocs_charted_vehicle_in_the_picker_at_its_captured_price(client, player, dust):
    allies = _list(player, dust, bloc="Allies")
    axis = _list(player, dust, bloc="Axis")
    client.force_login(player)

    foreign = client.get(reverse("armies:builder", args=[allies.pk]), {"bloc": "Axis", "search": "Luther"})
    own = client.get(reverse("armies:builder", args=[axis.pk]), {"bloc": "Axis", "search": "Luther"})

    picks = {pick.unit.key: pick for pick in foreign.context["picks"]}
    assert picks[LUTHER].captured_ap == 13
    assert f'name="captured_unit" value="{LUTHER}"' in foreign.content.decode()
    assert "13 AP captured" in foreign.content.decode()
    own_picks = {pick.unit.key: pick for pick in own.context["picks"]}
    assert own_picks[LUTHER].captured_ap is None
    assert f'name="unit" value="{LUTHER}"' in own.content.decode()


def test_it_refuses_a_captured_mark_on_the_lists_own_bloc_vehicle_as_such(player, dust):
    army_list = _list(player, dust, bloc="Axis")
    lists.army_list_add_unit(army_list=army_list, unit_key=LUTHER, captured=True)

    assert _totals(army_list)["codes"] == ["captured-own-bloc"]


def test_it_exports_a_captured_vehicle_at_its_price_plus_the_surcharge(client, player, dust):
    army_list = _list(player, dust)
    lists.army_list_add_unit(army_list=army_list, unit_key=LUTHER, captured=True)
    client.force_login(player)

    text = client.get(reverse("armies:list_export_text", args=[army_list.pk])).content.decode()
    document = client.get(reverse("armies:list_export_json", args=[army_list.pk])).json()
    printed = client.get(reverse("armies:list_print", args=[army_list.pk])).content.decode()

    assert "Luther [e1]: 11 + 2 AP captured" in text
    assert "units 11 AP, captured surcharge 2 AP, fortifications 0 AP: gross 13 AP" in text
    assert [(e["unit"], e["captured"]) for e in document["entries"]] == [(LUTHER, True)]
    assert "11 + 2" in printed


# --------------------------------------------------------------------------- migration 0002


def _migration() -> Any:
    return importlib.import_module("armies.migrations.0002_captured_vehicles_as_bloc_units")


def _entry(entry_id: str, unit: str, captured: bool) -> dict[str, Any]:
    return lists.entry_document(entry_id, unit, captured=captured)


def _old_style_catalogue(source: str = "battlescribe") -> Catalogue:
    """A catalogue as imported before the ruling: a surcharged copy on the chart beside the original."""
    catalogue = CatalogueFactory(source=source, blocs=["Allies", "Axis", "SSU"])
    common = {"catalogue": catalogue, "bloc": "Axis", "unit_type": "vehicle", "armour": 4, "name": "Luther"}
    UnitFactory(key=LUTHER, ap=11, **common)
    UnitFactory(key="captured-vehicles.luther", ap=13, capturable=True, **common)
    CapturedVehicle.objects.create(
        catalogue=catalogue, unit_key="captured-vehicles.luther", captured_by=["Allies", "SSU"]
    )
    return catalogue


def _old_style_list(owner: User, catalogue: Catalogue, bloc: str, captured: bool) -> ArmyList:
    army_list = _list(owner, catalogue, bloc=bloc)
    army_list.content["entries"] = [_entry("e1", "captured-vehicles.luther", captured)]
    army_list.save()
    return army_list


def test_the_migration_moves_old_copies_to_the_blocs_unit_marked_captured(player):
    catalogue = _old_style_catalogue()
    double = _old_style_list(player, catalogue, "Allies", captured=True)  # paid 13 + 2 before
    unmarked = _old_style_list(player, catalogue, "SSU", captured=False)  # was refused as wrong-bloc
    own = _old_style_list(player, catalogue, "Axis", captured=False)
    stamp = Catalogue.objects.get(pk=catalogue.pk).updated_at

    _migration().forwards(apps, None)

    for army_list in (double, unmarked):
        assert _totals(army_list) == ONCE
    own.refresh_from_db()
    assert own.content["entries"][0] == _entry("e1", LUTHER, False)
    assert _totals(own)["unit_ap"] == 11
    assert list(CapturedVehicle.objects.filter(catalogue=catalogue).values_list("unit_key", flat=True)) == [
        LUTHER
    ]
    assert list(Unit.objects.filter(catalogue=catalogue).values_list("key", "capturable")) == [(LUTHER, True)]
    assert Catalogue.objects.get(pk=catalogue.pk).updated_at > stamp


def test_the_migration_leaves_json_catalogues_and_a_second_run_alone(player):
    json_catalogue = _old_style_catalogue(source="json")
    converted = _old_style_catalogue()
    _migration().forwards(apps, None)
    after_first = list(Unit.objects.order_by("pk").values_list("catalogue_id", "key"))

    _migration().forwards(apps, None)

    assert list(Unit.objects.order_by("pk").values_list("catalogue_id", "key")) == after_first
    assert Unit.objects.filter(catalogue=json_catalogue).count() == 2
    assert Unit.objects.filter(catalogue=converted).count() == 1
