"""A name with a control character: refused where a list's or a chart's name is entered, and never
written into a roster as XML that cannot be read (issue 21, review)."""

from __future__ import annotations

import json
from xml.etree import ElementTree as ET

import pytest
from django.urls import reverse

from armies import selectors
from armies.list_intake import list_read
from armies.models import ArmyList, Catalogue
from armies.rosters import roster_to_xml
from armies.services import army_lists as lists
from armies.services import platoon_charts as charts
from armies.services.army_lists import ArmyListError
from armies.services.platoon_charts import PlatoonChartError
from armies.validation.names import NAME_CONTROL_CODE, NAME_CONTROL_MESSAGE, name_cleaned, xml_text
from tests.factories import ArmyListFactory, PlatoonChartFactory

pytestmark = pytest.mark.django_db

BAD = "Zoo\x0brun"


@pytest.fixture
def army_list(demo_catalogue: Catalogue, player) -> ArmyList:
    army_list = ArmyListFactory(owner=player, catalogue=demo_catalogue, bloc="Allies", name="Zoo run")
    lists.army_list_add_unit(army_list=army_list, unit_key="allies.gulfport-marine-squad")
    army_list.refresh_from_db()
    return army_list


def _xml(document, catalogue: Catalogue) -> bytes:
    return roster_to_xml(
        document,
        selectors.catalogue_for_validation(catalogue=catalogue),
        selectors.roster_ids(catalogue=catalogue),
    )


@pytest.mark.parametrize("name", [BAD, "Zoo\trun", "Zoo\nrun", "Zoo\x85run", "Zoo\u202enur", "Zoo\u200brun"])
def test_it_refuses_a_control_character_in_the_list_settings_page(client, player, army_list, name):
    client.force_login(player)

    response = client.post(
        reverse("armies:builder_settings", args=[army_list.pk]), {"name": name, "points_limit": "150"}
    )

    army_list.refresh_from_db()
    assert army_list.name == "Zoo run"
    assert NAME_CONTROL_MESSAGE in response.content.decode()


def test_it_refuses_a_control_character_in_the_apis_settings_with_its_code(api_as, army_list):
    response = api_as(army_list.owner).put(
        f"/api/army-lists/{army_list.pk}/settings/",
        {"name": BAD, "bloc": "Allies", "points_limit": 150},
        format="json",
    )

    assert response.status_code == 400
    assert response.json()["errors"] == [{"field": "name", "code": NAME_CONTROL_CODE,
                                          "message": NAME_CONTROL_MESSAGE}]  # fmt: skip
    army_list.refresh_from_db()
    assert army_list.name == "Zoo run"


def test_it_refuses_a_control_character_in_the_service_and_on_the_import_page(client, player, army_list):
    with pytest.raises(ArmyListError) as refused:
        lists.army_list_update_settings(
            army_list=army_list, name=BAD, bloc="Allies", points_limit=150, faction=None, role=None
        )
    assert (refused.value.code, refused.value.field) == (NAME_CONTROL_CODE, "$.name")
    client.force_login(player)
    document = {**army_list.content, "name": BAD}

    response = client.post(reverse("armies:list_import"), {"text": json.dumps(document)})

    assert NAME_CONTROL_MESSAGE in response.content.decode()
    assert not ArmyList.objects.filter(owner=player).exclude(pk=army_list.pk).exists()


def test_it_keeps_a_name_stored_before_the_check_editable(army_list):
    ArmyList.objects.filter(pk=army_list.pk).update(name=BAD, content={**army_list.content, "name": BAD})
    army_list.refresh_from_db()

    lists.army_list_add_unit(army_list=army_list, unit_key="allies.gulfport-marine-squad")

    army_list.refresh_from_db()
    assert len(army_list.content["entries"]) == 2


def test_it_refuses_a_control_character_in_a_platoon_charts_name(demo_catalogue, organiser):
    chart = {
        "name": BAD,
        "bloc": "Allies",
        "slots": [{"role": "command", "units": ["allies.gulfport-marine-squad"]}],
    }

    with pytest.raises(PlatoonChartError) as refused:
        charts.platoon_chart_enter(catalogue=demo_catalogue, actor=organiser, chart=chart)

    assert refused.value.code == NAME_CONTROL_CODE


def test_it_writes_well_formed_xml_whatever_text_the_list_and_the_catalogue_hand_it(
    demo_catalogue, army_list
):
    PlatoonChartFactory(
        catalogue=demo_catalogue, key="zoo-platoon", name="Zoo\x1bPlatoon\ufffe", entered=True
    )
    Catalogue.objects.filter(pk=demo_catalogue.pk).update(charts_revision=demo_catalogue.charts_revision + 1)
    catalogue = Catalogue.objects.get(pk=demo_catalogue.pk)
    document = {**army_list.content, "name": f"{BAD}\x00\ud800",
                "platoons": [{"id": "p1", "chart": "zoo-platoon", "members": ["e1"]}]}  # fmt: skip
    document["entries"] = [{**document["entries"][0], "platoon": "p1", "slot": "command"}]

    xml = _xml(document, catalogue)

    root = ET.fromstring(xml)  # noqa: S314 - written by the export under test
    assert root.get("name") == "Zoorun"
    assert "ZooPlatoon" in xml.decode()
    assert list_read(data=xml, catalogue=catalogue).document["name"] == "Zoorun"


def test_it_reads_a_roster_name_with_control_characters_as_spaces():
    assert name_cleaned("Zoo\x0b\x0brun\n") == "Zoo run"
    assert name_cleaned("Zoo run") == "Zoo run"
    assert xml_text("a\tb\x0bc\U0001f43b\ufffe") == "a\tbc\U0001f43b"
