"""Rosters whose ids are not this catalogue's (another revision of the data, a roster made by hand,
ids stripped): matched by name and said so; a unit known neither way refuses the roster naming it;
the roster's own costs against the catalogue's; warnings bounded as errors are (issue 26)."""

from __future__ import annotations

import base64
import json
import time
from xml.etree import ElementTree as ET

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from armies import selectors
from armies.list_intake import list_read
from armies.models import ArmyList, Unit
from armies.rosters import RosterError, roster_to_xml
from armies.validation import limits
from armies.validation.listformat import FORMAT_NAME, FORMAT_VERSION
from tests.armies.roster_files import (
    GAME_SYSTEM_ID,
    NS,
    ids_stripped,
    new_recruit,
    pick,
    roster_xml,
    share_text,
    zipped,
)

pytestmark = pytest.mark.django_db

UNITS = ["allies.rattlesnake", "allies.field-phaser", "mercenaries.emma"]


def _roster(**options) -> bytes:
    return roster_xml(
        [
            ("Main Bloc", "Allies", [pick("Allies", "Rattlesnake"), pick("Allies", "Field Phaser")]),
            ("Main Bloc", "Mercenaries", [pick("Mercenaries", "Emma")]),
        ],
        name="Zoo run",
        **options,
    )


def _renamed(xml: bytes, old: str, new: str) -> bytes:
    return xml.replace(f'name="{old}"'.encode(), f'name="{new}"'.encode())


# --------------------------------------------------------------------------- matched by name


@pytest.mark.parametrize("other_revision", [False, True], ids=["ids stripped", "another revision"])
def test_a_roster_whose_ids_do_not_match_imports_its_units_by_name(real_catalogue, other_revision):
    intake = list_read(data=ids_stripped(_roster(), other_revision=other_revision))

    assert [entry["unit"] for entry in intake.document["entries"]] == UNITS  # not an empty list
    (warning,) = intake.warnings
    assert warning.code == "roster-matched-by-name"
    assert warning.message.endswith("matched by name: Rattlesnake, Field Phaser and Emma.")
    assert "0000" not in warning.message


def test_the_unit_picked_inside_a_group_is_matched_by_the_names_picked_down_to_it(real_catalogue):
    """With no ids, the Bushmaster entry holding the Rattlesnake is the Rattlesnake, not a Bushmaster
    (a unit of that name too): the names picked on the way down say which."""
    xml = roster_xml([("Main Bloc", "Allies", [pick("Allies", "Rattlesnake"), pick("Allies", "Bushmaster")])])

    intake = list_read(data=ids_stripped(xml))

    assert [entry["unit"] for entry in intake.document["entries"]] == [
        "allies.rattlesnake",
        "allies.bushmaster",
    ]


def test_a_name_in_other_case_and_spacing_matches_as_a_typed_list_does_and_is_shown(real_catalogue):
    xml = _renamed(ids_stripped(_roster()), "Field Phaser", "field  PHASER")

    intake = list_read(data=xml)

    assert [entry["unit"] for entry in intake.document["entries"]] == UNITS
    assert '"field  PHASER" as Field Phaser' in intake.warnings[0].message


def test_a_roster_matched_by_name_is_the_same_list_as_with_its_ids(real_catalogue):
    with_ids = list_read(data=_roster()).document
    by_name = list_read(data=new_recruit(ids_stripped(_roster()))).document

    assert by_name == with_ids


# --------------------------------------------------------------------------- unknown units


def test_a_unit_known_neither_by_id_nor_by_name_refuses_the_roster_naming_it(real_catalogue):
    xml = _renamed(ids_stripped(_roster()), "Field Phaser", "Field Phazer")

    with pytest.raises(RosterError) as refused:
        list_read(data=xml)

    assert refused.value.code == "roster-unit-unknown"
    assert refused.value.message == (
        'The catalogue has no unit "Field Phazer", neither by the roster\'s id nor by name: the list '
        "would be incomplete without it. Did you mean Field Phaser or Dual Field Phaser?"
    )


def test_a_model_inside_a_unit_that_is_none_of_ours_is_named_not_dropped(real_catalogue):
    """A unit's upgrades (its weapons and options) are read with it; a model of another revision
    inside it is not, and is named."""
    squad = pick("SSU", "Chinese Volunteer Assault Squad", extra=("NKVD Political Commissar Machine Gunner",))
    xml = roster_xml([("Main Bloc", "SSU", [squad])])
    xml = xml.replace(
        b'name="NKVD Political Commissar Machine Gunner"', b'name="Commissar of Another Revision"'
    )
    xml = xml.replace(b'number="1" type="upgrade"', b'number="1" type="model"')

    intake = list_read(data=ids_stripped(xml))

    assert [entry["unit"] for entry in intake.document["entries"]] == ["ssu.chinese-volunteer-assault-squad"]
    skipped = [warning.message for warning in intake.warnings if warning.code == "roster-selection-skipped"]
    assert skipped == [
        '"Chinese Volunteer Assault Squad" holds "Commissar of Another Revision", which is neither a unit '
        "of this catalogue nor one of the unit's own choices: it was not read."
    ]


# --------------------------------------------------------------------------- costs


def test_costs_that_differ_are_said_per_entry_and_in_total_and_the_catalogue_prices(real_catalogue):
    intake = list_read(data=_roster(stated={"Field Phaser": 23, "Emma": 7}))

    messages = [warning.message for warning in intake.warnings]
    assert messages[0].startswith(
        "In all, the roster says 38 AP for its units, this catalogue prices them at 32 AP: the list is "
        "priced by the catalogue"
    )
    assert "Field Phaser: the roster says 23 AP, the catalogue 20" in messages[1]
    assert "Emma: the roster says 7 AP, the catalogue 4" in messages[2]


# --------------------------------------------------------------------------- bounds


def test_warnings_are_bounded_as_errors_are_with_a_line_counting_the_rest(real_catalogue):
    many = [pick("Allies", "Rattlesnake")] * limits.MAX_ENTRIES
    intake = list_read(data=roster_xml([("Main Bloc", "Allies", many)], stated={"Rattlesnake": 16}))

    assert len(intake.warnings) == limits.MAX_LISTED_PROBLEMS
    assert intake.warnings[0].code == "roster-total-differs"
    more = limits.MAX_ENTRIES + 1 - (limits.MAX_LISTED_PROBLEMS - 1)
    assert intake.warnings[-1].message == f"And {more:,} more warnings like these."


def test_thousands_of_unknown_units_get_a_short_answer(api_client, real_catalogue):
    units = "".join(f'<selection name="Zzyzx {number}" type="unit"/>' for number in range(2_999))
    xml = (
        f'<roster xmlns="{NS}" name="Bomb" gameSystemId="{GAME_SYSTEM_ID}"><forces><force name="Main Bloc" '
        f'catalogueName="Allies"><selections>{units}</selections></force></forces></roster>'
    )
    body = {"list": base64.b64encode(zipped(("bomb.ros", xml.encode()))).decode()}
    api_client.post("/api/army-lists/validate/", body, format="json")  # the first request warms the process
    started = time.perf_counter()

    response = api_client.post("/api/army-lists/validate/", body, format="json")

    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "roster-unit-unknown"
    assert len(response.content) < 12_000
    assert len(body["errors"]) == limits.MAX_LISTED_PROBLEMS
    assert body["errors"][-1]["message"] == "And 2,980 more units the catalogue does not have."
    assert time.perf_counter() - started < 2  # close matches are looked for only for the units named


# --------------------------------------------------------------------------- pages, API and command


def test_the_import_page_imports_a_roster_by_name_and_says_which(client, player, real_catalogue):
    client.force_login(player)
    upload = SimpleUploadedFile("zoo.ros", ids_stripped(_roster()), "application/xml")

    response = client.post(reverse("armies:list_import"), {"file": upload}, follow=True)

    army_list = ArmyList.objects.get(owner=player)
    assert [entry["unit"] for entry in army_list.content["entries"]] == UNITS
    page = response.content.decode()
    assert "matched by name: Rattlesnake, Field Phaser and Emma." in page
    assert "roster-matched-by-name" not in page


def test_the_import_page_refuses_an_unknown_unit_and_imports_nothing(client, player, real_catalogue):
    client.force_login(player)
    xml = _renamed(_renamed(ids_stripped(_roster()), "Field Phaser", "Field Phazer"), "Emma", "Emmet Q")

    response = client.post(reverse("armies:list_import"), {"text": xml.decode()})

    assert not ArmyList.objects.filter(owner=player).exists()
    page = response.content.decode()
    assert "2 units of this roster are not in the catalogue" in page
    assert "no unit &quot;Field Phazer&quot;" in page
    assert "Did you mean Field Phaser or Dual Field Phaser?" in page
    assert "no unit &quot;Emmet Q&quot;" in page


def test_the_validator_page_shows_the_units_matched_by_name(client, real_catalogue):
    response = client.post(reverse("armies:validator"), {"text": ids_stripped(_roster()).decode()})

    assert [entry.unit for entry in response.context["plain"].entries] == UNITS
    assert "matched by name: Rattlesnake, Field Phaser and Emma." in response.content.decode()


def test_the_import_endpoint_gives_the_warning_its_code(api_as, player, real_catalogue):
    response = api_as(player).post(
        "/api/army-lists/import/", {"list": ids_stripped(_roster()).decode()}, format="json"
    )

    assert response.status_code == 201, response.json()
    body = response.json()
    assert [entry["unit"] for entry in body["content"]["entries"]] == UNITS
    assert [warning["code"] for warning in body["warnings"]] == ["roster-matched-by-name"]


def test_validate_list_names_the_units_matched_by_name_and_refuses_an_unknown_one(
    tmp_path, capsys, real_catalogue
):
    path = tmp_path / "zoo.ros"
    path.write_bytes(ids_stripped(_roster()))
    call_command("validate_list", str(path), "--json")
    captured = capsys.readouterr()
    assert json.loads(captured.out)["totals"]["unit_ap"] == 8 + 20 + 4
    assert "matched by name: Rattlesnake, Field Phaser and Emma." in captured.err

    path.write_bytes(_renamed(ids_stripped(_roster()), "Emma", "Emmet Q"))
    with pytest.raises(CommandError) as refused:
        call_command("validate_list", str(path))
    assert refused.value.returncode == 2
    assert "the roster holds units it does not have" in str(refused.value)
    assert 'The catalogue has no unit "Emmet Q"' in capsys.readouterr().err


def test_a_hand_made_roster_of_the_demo_catalogue_is_not_an_empty_list(demo_catalogue):
    """The club night's roster: "Gulfport Marine Squad" under an id of another revision."""
    xml = (
        f'<roster xmlns="{NS}" name="Marines" gameSystemId="{GAME_SYSTEM_ID}"><costLimits><costLimit '
        'typeId="points" value="50"/></costLimits><forces><force name="Main Bloc" catalogueName="Allies">'
        '<selections><selection name="Gulfport Marine Squad" entryId="1a2b-3c4d" type="unit"><costs>'
        '<cost typeId="points" value="28"/></costs></selection></selections></force></forces></roster>'
    )

    intake = list_read(data=xml, catalogue=demo_catalogue)

    assert [entry["unit"] for entry in intake.document["entries"]] == ["allies.gulfport-marine-squad"]
    assert [warning.code for warning in intake.warnings][:1] == ["roster-matched-by-name"]
    assert all("1a2b" not in warning.message for warning in intake.warnings)


def test_a_model_beside_the_unit_a_group_holds_is_named_not_dropped(real_catalogue):
    root = ET.fromstring(roster_xml([("Main Bloc", "Allies", [pick("Allies", "Rattlesnake")])]))  # noqa: S314
    group = next(element for element in root.iter() if element.get("name") == "Bushmaster")
    holder = next(child for child in group if child.tag.endswith("selections"))
    ET.SubElement(holder, f"{{{NS}}}selection", {"name": "Spectre", "entryId": "gone-1", "type": "model"})

    intake = list_read(data=ET.tostring(root))

    assert [entry["unit"] for entry in intake.document["entries"]] == ["allies.rattlesnake"]
    assert [warning.message for warning in intake.warnings if warning.code == "roster-selection-skipped"] == [
        '"Bushmaster" holds "Spectre", which is neither a unit of this catalogue nor one of the unit\'s own '
        "choices: it was not read."
    ]


def test_the_validator_page_lists_at_most_the_bound_of_warnings(client, real_catalogue):
    many = [pick("Allies", "Rattlesnake")] * limits.MAX_ENTRIES
    xml = roster_xml([("Main Bloc", "Allies", many)], stated={"Rattlesnake": 16})

    response = client.post(reverse("armies:validator"), {"text": xml.decode()})

    page = response.content.decode()
    assert page.count("Rattlesnake: the roster says 17 AP") == limits.MAX_LISTED_PROBLEMS - 2
    assert "And 282 more warnings like these." in page


def test_a_squad_and_the_commissar_it_offers_are_both_matched_by_name(real_catalogue):
    squad = pick("SSU", "Chinese Volunteer Assault Squad", extra=("NKVD Political Commissar Machine Gunner",))

    intake = list_read(data=ids_stripped(roster_xml([("Main Bloc", "SSU", [squad])])))

    assert [(e["id"], e["unit"], e["joined_to"]) for e in intake.document["entries"]] == [
        ("e1", "ssu.chinese-volunteer-assault-squad", None),
        ("e2", "ssu.nkvd-political-commissar-machine-gunner", "e1"),
    ]


@pytest.mark.parametrize("shape", ["ros", "battlescribe", "new-recruit"])
@pytest.mark.parametrize("bloc", ["Allies", "Axis", "SSU"])
def test_every_unit_of_the_catalogue_exported_then_stripped_of_ids_comes_back_by_name(
    real_catalogue, bloc, shape
):
    """The whole kind, not one case: every unit of a bloc (and every mercenary), as our export writes it
    from the paths the catalogue import keeps, read back with no ids at all."""
    units = list(
        Unit.objects.filter(catalogue=real_catalogue, bloc__in=[bloc, "Mercenaries"])
        .exclude(roster_entry={})
        .order_by("bloc", "name")
        .values_list("key", flat=True)
    )
    document = {
        "format": FORMAT_NAME, "version": FORMAT_VERSION, "name": "Everything", "bloc": bloc, "faction": None,
        "points_limit": 10_000, "catalogue_version": real_catalogue.version, "role": None, "platoons": [],
        "fortifications": [],
        "entries": [
            {"id": f"e{n}", "unit": key, "joined_to": None, "pilot_of": None, "captured": False,
             "reserve": False, "platoon": None, "slot": None}
            for n, key in enumerate(units, start=1)
        ],
    }  # fmt: skip
    xml = roster_to_xml(
        document,
        selectors.catalogue_for_validation(catalogue=real_catalogue),
        selectors.roster_ids(catalogue=real_catalogue),
    )

    stripped = ids_stripped(xml)
    given = stripped if shape == "ros" else share_text(stripped, shape)  # shared as text: no ids either

    intake = list_read(data=given, catalogue=real_catalogue)

    assert sorted(entry["unit"] for entry in intake.document["entries"]) == sorted(units)
