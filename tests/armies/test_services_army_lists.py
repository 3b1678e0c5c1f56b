"""Army-list writes: each builder action, and that nothing is ever left dangling."""

from __future__ import annotations

import pytest

from armies.services import army_lists as lists
from armies.services.army_lists import ArmyListError
from tests.factories import ArmyListFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def army_list(demo_catalogue, player):
    return ArmyListFactory(owner=player, catalogue=demo_catalogue, bloc="Allies")


def test_it_adds_units_with_fresh_entry_ids(army_list):
    lists.army_list_add_unit(army_list=army_list, unit_key="allies.gulfport-marine-squad")
    lists.army_list_add_unit(army_list=army_list, unit_key="allies.sergeant-hollis-crane")

    assert [(e["id"], e["unit"]) for e in army_list.content["entries"]] == [
        ("e1", "allies.gulfport-marine-squad"),
        ("e2", "allies.sergeant-hollis-crane"),
    ]


def test_it_refuses_a_unit_from_another_catalogue(army_list):
    with pytest.raises(ArmyListError) as error:
        lists.army_list_add_unit(army_list=army_list, unit_key="no-such-unit")

    assert (error.value.code, error.value.field) == ("list-unit-unknown", "unit")
    assert army_list.content["entries"] == []


def test_it_joins_a_hero_and_removes_the_join_with_the_unit(army_list):
    lists.army_list_add_unit(army_list=army_list, unit_key="allies.gulfport-marine-squad")
    lists.army_list_add_unit(army_list=army_list, unit_key="allies.sergeant-hollis-crane")
    lists.army_list_update_entry(army_list=army_list, entry_id="e2", joined_to="e1")
    assert army_list.content["entries"][1]["joined_to"] == "e1"

    lists.army_list_remove_entry(army_list=army_list, entry_id="e1")

    assert army_list.content["entries"] == [
        {"id": "e2", "unit": "allies.sergeant-hollis-crane", "joined_to": None, "pilot_of": None,
         "captured": False, "reserve": False, "platoon": None, "slot": None},
    ]  # fmt: skip


def test_it_refuses_an_entry_that_refers_to_itself(army_list):
    lists.army_list_add_unit(army_list=army_list, unit_key="allies.sergeant-hollis-crane")

    with pytest.raises(ArmyListError) as error:
        lists.army_list_update_entry(army_list=army_list, entry_id="e1", joined_to="e1")

    assert error.value.code == "list-entry-self"


def test_it_keeps_platoon_members_in_step_with_entries(army_list):
    lists.army_list_add_unit(army_list=army_list, unit_key="allies.ridgeback-command-squad")
    lists.army_list_add_platoon(army_list=army_list, chart_key="allies.gulfport-raider-platoon")

    lists.army_list_update_entry(army_list=army_list, entry_id="e1", platoon="p1", slot="Command")
    assert army_list.content["platoons"] == [
        {"id": "p1", "chart": "allies.gulfport-raider-platoon", "members": ["e1"]}
    ]

    lists.army_list_remove_platoon(army_list=army_list, platoon_id="p1")
    assert army_list.content["platoons"] == []
    assert army_list.content["entries"][0]["platoon"] is None


def test_it_buys_and_removes_fortifications(army_list):
    lists.army_list_add_fortification(army_list=army_list, kind="bunker")

    assert army_list.content["fortifications"] == [{"id": "f1", "kind": "bunker", "unit": None}]
    lists.army_list_remove_fortification(army_list=army_list, fortification_id="f1")
    assert army_list.content["fortifications"] == []


def test_it_updates_the_settings_and_the_copied_columns(army_list):
    lists.army_list_update_settings(
        army_list=army_list, name="Dawn raid", bloc="Allies", points_limit=90, faction="coastal-raiders",
        role="defender",
    )  # fmt: skip

    army_list.refresh_from_db()
    assert (army_list.name, army_list.points_limit, army_list.faction, army_list.role) == (
        "Dawn raid", 90, "coastal-raiders", "defender",
    )  # fmt: skip
    assert army_list.content["faction"] == "coastal-raiders"


def test_it_duplicates_a_list_into_an_independent_copy(army_list, stranger):
    lists.army_list_add_unit(army_list=army_list, unit_key="allies.gulfport-marine-squad")

    copy = lists.army_list_duplicate(army_list=army_list, owner=army_list.owner)
    lists.army_list_add_unit(army_list=copy, unit_key="allies.prairie-dog")

    army_list.refresh_from_db()
    assert len(army_list.content["entries"]) == 1
    assert len(copy.content["entries"]) == 2
