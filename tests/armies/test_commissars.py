"""NKVD commissars from the real BattleScribe files: a unit of their own that joins a squad of its armour."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from armies import selectors
from armies.models import ArmyList, Catalogue
from armies.services import army_lists as lists
from armies.services.catalogue_import import catalogue_import_from_paths
from tests.factories import ArmyListFactory

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
SQUAD = "ssu.red-army-battle-squad"  # S2, offers a commissar in the data
GUNNER = "ssu.nkvd-political-commissar-machine-gunner"  # S2, 3 AP
TANK_HUNTER = "ssu.nkvd-political-commissar-tank-hunter"


@pytest.fixture
def army_list(bsdata_files: list[Any], player: Any) -> ArmyList:
    catalogue = Catalogue.objects.get(pk=catalogue_import_from_paths(paths=bsdata_files).catalogue_id)
    army_list = ArmyListFactory(owner=player, catalogue=catalogue, bloc="SSU", points_limit=100)
    for key in (SQUAD, GUNNER, TANK_HUNTER):
        lists.army_list_add_unit(army_list=army_list, unit_key=key)
    return army_list


def _codes(army_list: ArmyList) -> set[str]:
    army_list.refresh_from_db()
    return set(selectors.army_list_verdict(army_list=army_list).codes)


def test_it_offers_a_commissar_the_squads_to_join_in_the_builder(client, player, army_list):
    client.force_login(player)

    response = client.get(reverse("armies:builder", args=[army_list.pk]))

    rows = {row.entry.id: row for row in response.context["entries"]}
    assert [option.value for option in rows["e2"].join_options] == ["", "e1"]
    assert not rows["e1"].join_options  # a squad joins nobody
    assert "Commissar" in response.content.decode()


def test_it_accepts_one_commissar_per_squad_and_refuses_a_second(client, player, army_list):
    client.force_login(player)
    update = reverse("armies:builder_update_entry", args=[army_list.pk, "e2"])
    assert _codes(army_list) == {"commissar-not-joined"}

    client.post(update, {"joined_to": "e1"}, headers=HTMX)
    lists.army_list_remove_entry(army_list=army_list, entry_id="e3")
    assert _codes(army_list) == set()

    lists.army_list_add_unit(army_list=army_list, unit_key=TANK_HUNTER)
    lists.army_list_update_entry(army_list=army_list, entry_id="e3", joined_to="e1")
    assert _codes(army_list) == {"join-too-many-commissars"}


def test_it_prints_the_commissar_under_the_squad_it_joins(client, player, army_list):
    lists.army_list_remove_entry(army_list=army_list, entry_id="e3")
    lists.army_list_update_entry(army_list=army_list, entry_id="e2", joined_to="e1")
    client.force_login(player)

    text = client.get(reverse("armies:list_export_text", args=[army_list.pk])).content.decode()

    squad = "  Red Army Battle Squad [e1]: 6 AP\n"
    assert squad + "    joined by NKVD Political Commissar Machine Gunner [e2]: 3 AP" in text
    assert "gross 9 AP" in text
