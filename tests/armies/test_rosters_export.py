"""The .rosz export as BattleScribe writes a roster: the ids the catalogue import keeps from the real
Dust 1947 files, group picks inside their entry, forces per catalogue, the captured catalogue's own
entry, notes for what a roster has no place for, and the round trip through our import."""

from __future__ import annotations

import copy
from typing import Any
from xml.etree import ElementTree as ET

import pytest

from armies import selectors
from armies.importers.bsxml import local
from armies.list_intake import list_read
from armies.models import ArmyList, CapturedVehicle, Catalogue, Faction, PlatoonChart, Unit
from armies.rosters import notes, roster_to_xml
from armies.services import army_lists as lists
from tests.armies.roster_files import catalogue_root, force_entry_ids, game_system_root, new_recruit, pick
from tests.factories import ArmyListFactory, PlatoonChartFactory

pytestmark = pytest.mark.django_db


def _list(owner, catalogue, bloc: str, *keys: str, captured: tuple[str, ...] = ()) -> ArmyList:
    army_list = ArmyListFactory(owner=owner, catalogue=catalogue, bloc=bloc, name="Export run")
    for key in keys:
        lists.army_list_add_unit(army_list=army_list, unit_key=key)
    for key in captured:
        lists.army_list_add_unit(army_list=army_list, unit_key=key, captured=True)
    army_list.refresh_from_db()
    return army_list


def _xml(document: dict[str, Any], catalogue: Catalogue) -> bytes:
    return roster_to_xml(
        document,
        selectors.catalogue_for_validation(catalogue=catalogue),
        selectors.roster_ids(catalogue=catalogue),
    )


def _parsed(xml: bytes) -> ET.Element:
    """The roster's XML, its namespace taken off the tags."""
    root = ET.fromstring(xml)  # noqa: S314 - written by the export under test
    for element in root.iter():
        element.tag = local(element.tag)
    return root


def _forces(xml: bytes) -> dict[str, ET.Element]:
    """Forces by catalogue name."""
    return {force.get("catalogueName", ""): force for force in _parsed(xml).iterfind("forces/force")}


def _roots(force: ET.Element) -> list[ET.Element]:
    return force.findall("selections/selection")


def _cost(selection: ET.Element) -> float:
    return float(selection.find("costs/cost").get("value"))  # type: ignore[union-attr]


def _subtree_cost(selection: ET.Element) -> float:
    return sum(_cost(inner) for inner in selection.iter("selection"))


def _ap(catalogue: Catalogue, key: str) -> int:
    return Unit.objects.get(catalogue=catalogue, key=key).ap


# --------------------------------------------------------------------------- what the import keeps


def test_it_keeps_the_game_systems_and_each_catalogues_ids(real_catalogue):
    files = real_catalogue.roster_files
    game = game_system_root()

    assert files["game_system"] == {"id": game.get("id"), "name": game.get("name"),
                                    "revision": int(game.get("revision", "0"))}  # fmt: skip
    assert files["forces"] == force_entry_ids()
    assert set(files["forces"]) == {"Main Bloc", "Captured Vehicles"}
    for name in ("Allies", "Axis", "SSU", "Mercenaries", "Mythos", "Captured_Vehicles"):
        root = catalogue_root(name)
        assert files["catalogues"][root.get("id")] == {
            "id": root.get("id"), "name": root.get("name"), "revision": int(root.get("revision", "0")),
        }  # fmt: skip


def test_it_keeps_the_chain_of_entries_of_a_unit_picked_inside_a_group(real_catalogue):
    rattlesnake = Unit.objects.get(catalogue=real_catalogue, key="allies.rattlesnake")
    bushmaster, pick_entry = pick("Allies", "Rattlesnake").chain

    path = rattlesnake.roster_entry["path"]

    assert rattlesnake.roster_entry["catalogue"] == catalogue_root("Allies").get("id")
    assert [step["id"] for step in path] == [bushmaster.get("id"), pick_entry.get("id")]
    assert [step["name"] for step in path] == [bushmaster.get("name"), "Rattlesnake"]
    assert path[0]["group"] == ""
    assert path[1]["group"] != ""


def test_it_keeps_a_roster_entry_for_every_unit_and_chart_line_of_the_real_data(real_catalogue):
    files = real_catalogue.roster_files["catalogues"]
    captured_id = catalogue_root("Captured_Vehicles").get("id")
    units = list(Unit.objects.filter(catalogue=real_catalogue))
    lines = list(CapturedVehicle.objects.filter(catalogue=real_catalogue))

    for unit in units:
        assert unit.roster_entry["catalogue"] in files, unit.key
        assert unit.roster_entry["path"][-1]["id"].rsplit("::", 1)[-1] == unit.source_id, unit.key
    for line in lines:
        assert line.roster_entry["catalogue"] == captured_id, line.unit_key
    picks = [unit.key for unit in units if len(unit.roster_entry["path"]) == 2]
    assert "allies.rattlesnake" in picks
    assert len(picks) >= 30  # "about 40 units are picks inside a group" (issue 21)


def test_it_keeps_the_captured_catalogues_own_entry_for_a_captured_vehicle(real_catalogue):
    line = CapturedVehicle.objects.get(catalogue=real_catalogue, unit_key="axis.luther")
    chart_copy = pick("Captured_Vehicles", "Luther").chain

    assert line.roster_entry["catalogue"] == catalogue_root("Captured_Vehicles").get("id")
    assert [step["id"] for step in line.roster_entry["path"]] == [entry.get("id") for entry in chart_copy]


# --------------------------------------------------------------------------- the roster written


def test_it_writes_a_group_pick_inside_the_entry_it_sits_in(real_catalogue, player):
    army_list = _list(player, real_catalogue, "Allies", "allies.rattlesnake")
    bushmaster, rattlesnake = pick("Allies", "Rattlesnake").chain
    path = Unit.objects.get(catalogue=real_catalogue, key="allies.rattlesnake").roster_entry["path"]

    force = _forces(_xml(army_list.content, real_catalogue))["Allies"]
    (outer,) = _roots(force)
    (inner,) = outer.findall("selections/selection")

    assert force.get("name") == "Main Bloc"
    assert force.get("entryId") == force_entry_ids()["Main Bloc"]
    assert force.get("catalogueId") == catalogue_root("Allies").get("id")
    assert force.get("catalogueRevision") == catalogue_root("Allies").get("revision")
    assert outer.get("entryId") == bushmaster.get("id")
    assert inner.get("entryId") == f"{bushmaster.get('id')}::{rattlesnake.get('id')}"
    assert inner.get("entryGroupId") == f"{bushmaster.get('id')}::{path[1]['group']}"
    assert _cost(outer) == path[0]["cost"]
    assert _cost(outer) + _cost(inner) == _ap(real_catalogue, "allies.rattlesnake")


def test_it_writes_mercenaries_and_the_captured_vehicle_in_forces_of_their_catalogues(real_catalogue, player):
    army_list = _list(player, real_catalogue, "Allies", "allies.field-phaser", "mercenaries.emma",
                      captured=("axis.luther",))  # fmt: skip
    army_list.points_limit = 120
    xml = _xml({**army_list.content, "points_limit": 120}, real_catalogue)
    root = _parsed(xml)

    forces = _forces(xml)
    captured = forces["Captured Vehicles"]
    (vehicle,) = _roots(captured)

    assert set(forces) == {"Allies", "Mercenaries", "Captured Vehicles"}
    assert forces["Mercenaries"].get("catalogueId") == catalogue_root("Mercenaries").get("id")
    assert forces["Mercenaries"].get("name") == "Main Bloc"
    assert captured.get("name") == "Captured Vehicles"
    assert captured.get("entryId") == force_entry_ids()["Captured Vehicles"]
    assert captured.get("catalogueId") == catalogue_root("Captured_Vehicles").get("id")
    assert vehicle.get("entryId") == pick("Captured_Vehicles", "Luther").chain[-1].get("id")
    assert _cost(vehicle) == _ap(real_catalogue, "axis.luther") + 2
    expected = sum(
        _ap(real_catalogue, key) for key in ("allies.field-phaser", "mercenaries.emma", "axis.luther")
    )
    assert float(root.find("costs/cost").get("value")) == expected + 2  # type: ignore[union-attr]
    assert float(root.find("costLimits/costLimit").get("value")) == 120  # type: ignore[union-attr]
    assert (
        sum(_subtree_cost(selection) for force in forces.values() for selection in _roots(force))
        == expected + 2
    )


def test_it_writes_a_commissar_as_the_choice_its_squad_offers(real_catalogue, player):
    army_list = _list(player, real_catalogue, "SSU", "ssu.chinese-volunteer-assault-squad",
                      "ssu.nkvd-political-commissar-machine-gunner")  # fmt: skip
    lists.army_list_update_entry(army_list=army_list, entry_id="e2", joined_to="e1")
    army_list.refresh_from_db()
    squad = Unit.objects.get(catalogue=real_catalogue, key="ssu.chinese-volunteer-assault-squad")
    commissar = Unit.objects.get(catalogue=real_catalogue, key="ssu.nkvd-political-commissar-machine-gunner")
    offer = next(step for step in squad.roster_entry["offers"] if step["name"] == commissar.name)

    (outer,) = _roots(_forces(_xml(army_list.content, real_catalogue))["SSU"])
    (inner,) = outer.findall("selections/selection")

    assert inner.get("entryId") == f"{squad.source_id}::{offer['id']}"
    assert inner.get("entryId", "").endswith(f"::{commissar.source_id}")
    assert inner.get("entryGroupId") == f"{squad.source_id}::{offer['group']}"
    assert _cost(inner) == commissar.ap


def test_it_writes_a_strongpoint_units_bunker_as_its_own_choice(real_catalogue, player):
    army_list = _list(player, real_catalogue, "Allies", "allies.field-phaser")
    lists.army_list_add_fortification(army_list=army_list, kind="bunker", unit_entry="e1")
    army_list.refresh_from_db()
    phaser = Unit.objects.get(catalogue=real_catalogue, key="allies.field-phaser")
    bunker = next(step for step in phaser.roster_entry["offers"] if step["name"] == "Bunker")

    (unit,) = _roots(_forces(_xml(army_list.content, real_catalogue))["Allies"])
    (choice,) = unit.findall("selections/selection")

    assert choice.get("name") == "Bunker"
    assert choice.get("entryId") == f"{phaser.source_id}::{bunker['id']}"


def test_it_says_in_notes_what_a_roster_has_no_place_for(real_catalogue, player):
    army_list = _list(player, real_catalogue, "Allies", "allies.rattlesnake", "allies.tom",
                      "allies.bravo-company-ranger-command-squad", "allies.captain-ledger")  # fmt: skip
    lists.army_list_update_entry(army_list=army_list, entry_id="e2", pilot_of="e1")
    lists.army_list_update_entry(army_list=army_list, entry_id="e4", joined_to="e3")
    lists.army_list_update_entry(army_list=army_list, entry_id="e3", reserve=True)
    lists.army_list_add_fortification(army_list=army_list, kind="strongpoint")
    army_list.refresh_from_db()
    document = {**army_list.content, "role": "defender"}

    root = _parsed(_xml(document, real_catalogue))
    by_name = {selection.get("name"): selection for selection in root.iter("selection")}

    assert by_name["Tom"].findtext("customNotes") == "Zverograd: pilots unit 1 of this list, Rattlesnake."
    assert by_name["Captain Ledger"].findtext("customNotes") == (
        "Zverograd: joins unit 3 of this list, Bravo Company Ranger Command Squad."
    )
    assert by_name["Bravo Company Ranger Command Squad"].findtext("customNotes") == "Zverograd: in reserve."
    roster_notes = root.findtext("customNotes", "")
    assert roster_notes.startswith("Made on Zverograd.")
    assert "Zverograd: a strongpoint bought outright." in roster_notes
    assert "Zverograd: the force plays as the defender." in roster_notes


# --------------------------------------------------------------------------- the round trip


def test_it_round_trips_a_list_of_group_picks_mercenaries_a_captured_vehicle_a_commissar_and_heroes(
    real_catalogue, player
):
    army_list = _list(
        player, real_catalogue, "SSU",
        "ssu.chinese-volunteer-assault-squad", "ssu.nkvd-political-commissar-machine-gunner",
        "mercenaries.emma", captured=("axis.heinrich-tropical-ndak",),
    )  # fmt: skip
    lists.army_list_update_entry(army_list=army_list, entry_id="e2", joined_to="e1")
    allies = _list(player, real_catalogue, "Allies", "allies.rattlesnake", "allies.tom",
                   "allies.bravo-company-ranger-command-squad", "allies.captain-ledger", "allies.field-phaser",
                   "mercenaries.emma", captured=("axis.luther",))  # fmt: skip
    lists.army_list_update_entry(army_list=allies, entry_id="e2", pilot_of="e1")
    lists.army_list_update_entry(army_list=allies, entry_id="e4", joined_to="e3")
    lists.army_list_update_entry(army_list=allies, entry_id="e3", reserve=True)
    lists.army_list_add_fortification(army_list=allies, kind="bunker", unit_entry="e5")

    for each in (army_list, allies):
        each.refresh_from_db()
        rosz = selectors.army_list_rosz(army_list=each, filename="export.ros")
        intake = list_read(data=rosz, catalogue=real_catalogue)

        assert intake.warnings == ()
        assert intake.document == each.content


def test_it_reads_the_notes_back_from_the_same_roster_as_new_recruit_exports_it(real_catalogue, player):
    army_list = _list(player, real_catalogue, "Allies", "allies.rattlesnake", "allies.tom",
                      "allies.bravo-company-ranger-command-squad", "allies.captain-ledger")  # fmt: skip
    lists.army_list_update_entry(army_list=army_list, entry_id="e2", pilot_of="e1")
    lists.army_list_update_entry(army_list=army_list, entry_id="e4", joined_to="e3")
    army_list.refresh_from_db()

    intake = list_read(data=new_recruit(_xml(army_list.content, real_catalogue)), catalogue=real_catalogue)

    assert intake.source == "new-recruit"
    assert intake.document == army_list.content


def _with_a_platoon_chart(real_catalogue: Catalogue) -> Catalogue:
    """The real catalogue with a chart entered on the site (the data has none): a fresh row, so the
    module's catalogue keeps its own cached view once the test's transaction is rolled back."""
    PlatoonChartFactory(
        catalogue=real_catalogue, key="ranger-platoon", name="Ranger Platoon: Bravo", entered=True
    )
    Catalogue.objects.filter(pk=real_catalogue.pk).update(charts_revision=real_catalogue.charts_revision + 1)
    return Catalogue.objects.get(pk=real_catalogue.pk)


def test_it_round_trips_the_faction_side_platoons_and_fortifications_through_the_notes(
    real_catalogue, player
):
    catalogue = _with_a_platoon_chart(real_catalogue)
    faction = Faction.objects.filter(catalogue=catalogue, bloc="Allies").order_by("key").first()
    assert faction is not None
    army_list = _list(player, catalogue, "Allies", "allies.bravo-company-ranger-command-squad",
                      "allies.rattlesnake", "allies.field-phaser")  # fmt: skip
    lists.army_list_update_settings(army_list=army_list, name="Notes run", bloc="Allies", points_limit=150,
                                    faction=faction.key, role="defender")  # fmt: skip
    lists.army_list_add_platoon(army_list=army_list, chart_key="ranger-platoon")
    lists.army_list_update_entry(army_list=army_list, entry_id="e2", platoon="p1", slot="support-1")
    lists.army_list_update_entry(army_list=army_list, entry_id="e1", platoon="p1", slot="command")
    lists.army_list_add_fortification(army_list=army_list, kind="bunker", unit_entry="e3")
    lists.army_list_add_fortification(army_list=army_list, kind="strongpoint")
    army_list.refresh_from_db()
    assert army_list.content["platoons"][0]["members"] == ["e2", "e1"]

    rosz = selectors.army_list_rosz(army_list=army_list, filename="notes.ros")
    intake = list_read(data=rosz, catalogue=catalogue)

    assert intake.warnings == ()
    assert intake.document == army_list.content


def test_it_warns_of_a_platoon_whose_chart_the_catalogue_lacks(real_catalogue, player):
    catalogue = _with_a_platoon_chart(real_catalogue)
    army_list = _list(player, catalogue, "Allies", "allies.bravo-company-ranger-command-squad")
    lists.army_list_add_platoon(army_list=army_list, chart_key="ranger-platoon")
    lists.army_list_update_entry(army_list=army_list, entry_id="e1", platoon="p1", slot="command")
    army_list.refresh_from_db()
    xml = _xml(army_list.content, catalogue)
    # The roster is then read where the chart is not: a catalogue that has no such chart (any more).
    PlatoonChart.objects.filter(catalogue=catalogue, key="ranger-platoon").delete()
    Catalogue.objects.filter(pk=catalogue.pk).update(charts_revision=catalogue.charts_revision + 1)
    lacking = Catalogue.objects.get(pk=catalogue.pk)

    intake = list_read(data=xml, catalogue=lacking)

    assert [warning.code for warning in intake.warnings] == ["roster-note-unread"]
    assert "Ranger Platoon: Bravo" in intake.warnings[0].message
    assert intake.document["platoons"] == []
    assert intake.document["entries"][0]["platoon"] is None


def test_it_exports_a_catalogue_that_kept_no_ids_as_the_first_export_did(real_catalogue, player):
    Unit.objects.filter(catalogue=real_catalogue).update(roster_entry={})
    CapturedVehicle.objects.filter(catalogue=real_catalogue).update(roster_entry={})
    Catalogue.objects.filter(pk=real_catalogue.pk).update(roster_files={})
    before = copy.copy(real_catalogue)
    before.refresh_from_db()
    army_list = _list(player, real_catalogue, "Allies", "allies.rattlesnake", "mercenaries.emma",
                      captured=("axis.luther",))  # fmt: skip
    sources = dict(Unit.objects.filter(catalogue=before).values_list("key", "source_id"))

    xml = _xml(army_list.content, before)
    forces = _forces(xml)

    assert set(forces) == {"Allies", "Mercenaries", "Captured Vehicles"}
    assert {force.get("catalogueId") for force in forces.values()} == {""}
    assert [selection.get("entryId") for force in forces.values() for selection in _roots(force)] == [
        sources["allies.rattlesnake"], sources["mercenaries.emma"], sources["axis.luther"],
    ]  # fmt: skip
    assert not any(selection.get("entryGroupId") for selection in _parsed(xml).iter("selection"))
    assert list_read(data=xml, catalogue=before).document == army_list.content


def test_it_reads_a_units_platoon_and_slot_whatever_the_charts_name_holds():
    line = notes.platoon_member(2, "Red Guard, platoon of the zoo", "combat-1")

    said = notes.read_unit_notes(f"{notes.joins(3, 'Grenadier Battle Squad')}\n{line}")

    assert (said.joins, said.platoon, said.slot) == (3, 2, "combat-1")
    assert notes.read_unit_notes(notes.platoon_member(1, "Zoo", None)).slot is None
