"""Rosters from BattleScribe (.ros, .rosz) and New Recruit (.json), made at test time from the real
Dust 1947 data, read by the one list reader (armies/list_intake.py) into our list format."""

from __future__ import annotations

from typing import Any

import pytest

from armies import selectors
from armies import validation as v
from armies.list_intake import list_read
from armies.models import Unit
from armies.rosters import RosterError, roster_to_xml
from armies.services import army_lists as lists
from armies.validation import limits
from tests.armies.roster_files import new_recruit, pick, roster_xml, zipped
from tests.factories import ArmyListFactory

pytestmark = pytest.mark.django_db

SHAPES = ["ros", "rosz", "new-recruit"]


def _shaped(xml: bytes, shape: str) -> bytes | str:
    if shape == "rosz":
        return zipped(("list.ros", xml))
    if shape == "new-recruit":
        return new_recruit(xml)
    return xml


def _allies_roster(**options: Any) -> bytes:
    return roster_xml(
        [
            (
                "Main Bloc",
                "Allies",
                [pick("Allies", "Rattlesnake"), pick("Allies", "Field Phaser", extra=("Bunker",))],
            ),
            ("Main Bloc", "Mercenaries", [pick("Mercenaries", "Emma")]),
            ("Captured Vehicles", "Captured_Vehicles", [pick("Captured_Vehicles", "Luther")]),
        ],
        **options,
    )


def _ap(catalogue: Any, key: str) -> int:
    return int(Unit.objects.get(catalogue=catalogue, key=key).ap)


@pytest.mark.parametrize("shape", SHAPES)
def test_it_imports_a_roster_with_the_right_entries_and_ap(real_catalogue, shape):
    intake = list_read(data=_shaped(_allies_roster(name="Zoo run"), shape))

    document = intake.document
    assert intake.source == shape
    assert intake.warnings == ()
    assert (document["name"], document["bloc"], document["points_limit"]) == ("Zoo run", "Allies", 150)
    assert [(e["id"], e["unit"], e["captured"]) for e in document["entries"]] == [
        ("e1", "allies.rattlesnake", False),  # the pick inside the Bushmaster entry is the unit
        ("e2", "allies.field-phaser", False),
        ("e3", "mercenaries.emma", False),
        ("e4", "axis.luther", True),  # the captured catalogue's copy is the chart's own unit
    ]
    assert document["fortifications"] == [{"id": "f1", "kind": "bunker", "unit": "e2"}]
    verdict = v.validate(intake.plain, selectors.catalogue_for_validation(catalogue=real_catalogue))
    units = ("allies.rattlesnake", "allies.field-phaser", "mercenaries.emma", "axis.luther")
    assert verdict.totals.unit_ap == sum(_ap(real_catalogue, key) for key in units) == 8 + 20 + 4 + 11
    assert verdict.totals.captured_surcharge == 2  # charged once, not again on the captured copy's 13


def test_it_reads_the_same_list_from_every_shape(real_catalogue):
    xml = _allies_roster()

    documents = [list_read(data=_shaped(xml, shape)).document for shape in SHAPES]

    assert documents[0] == documents[1] == documents[2]


def test_it_warns_per_entry_when_the_roster_states_another_cost(real_catalogue):
    xml = roster_xml([("Main Bloc", "Allies", [pick("Allies", "Rattlesnake")])], stated={"Rattlesnake": 16})

    intake = list_read(data=xml)

    assert [w.code for w in intake.warnings] == ["roster-cost-differs"]
    assert "Rattlesnake: the roster says 17 AP, the catalogue 8" in intake.warnings[0].message
    assert intake.document["entries"][0]["unit"] == "allies.rattlesnake"


def test_it_names_an_unknown_entry_and_imports_the_rest(real_catalogue):
    emma = pick("Mercenaries", "Emma")
    xml = roster_xml(
        [("Main Bloc", "Allies", [pick("Allies", "Rattlesnake")]), ("Main Bloc", "Mercenaries", [emma])]
    )
    xml = xml.replace(emma.chain[-1].get("id", "").encode(), b"0000-not-in-the-catalogue")

    intake = list_read(data=xml)

    assert [e["unit"] for e in intake.document["entries"]] == ["allies.rattlesnake"]
    (warning,) = intake.warnings
    assert warning.code == "roster-entry-unknown"
    assert "'Emma'" in warning.message
    assert (
        "0000-not-in-the-catalogue" not in warning.message
    )  # the roster's entry id means nothing to a player


def test_it_joins_a_commissar_to_the_squad_that_offers_it(real_catalogue):
    squad = pick("SSU", "Chinese Volunteer Assault Squad", extra=("NKVD Political Commissar Machine Gunner",))

    intake = list_read(data=roster_xml([("Main Bloc", "SSU", [squad])]))

    assert [(e["id"], e["unit"], e["joined_to"]) for e in intake.document["entries"]] == [
        ("e1", "ssu.chinese-volunteer-assault-squad", None),
        ("e2", "ssu.nkvd-political-commissar-machine-gunner", "e1"),
    ]
    assert intake.warnings == ()  # each priced as the catalogue prices it: the commissar's AP are its own


def test_it_asks_which_bloc_a_roster_of_mercenaries_alone_fights_for(real_catalogue):
    xml = roster_xml([("Main Bloc", "Mercenaries", [pick("Mercenaries", "Emma")])])

    with pytest.raises(RosterError) as caught:
        list_read(data=xml)

    assert caught.value.code == "roster-bloc-missing"
    assert caught.value.field == "bloc"
    assert "choose the bloc (Allies, Axis, SSU)" in caught.value.message
    assert list_read(data=xml, bloc="Axis").document["bloc"] == "Axis"


def test_it_sets_a_points_limit_and_says_so_when_the_roster_has_none(real_catalogue):
    intake = list_read(
        data=roster_xml([("Main Bloc", "Allies", [pick("Allies", "Rattlesnake")])], points_limit=None)
    )

    assert intake.document["points_limit"] == 150
    assert [w.code for w in intake.warnings] == ["roster-no-points-limit"]


# --------------------------------------------------------------------------- refusals, in sentences


def _refusal(data: bytes | str) -> RosterError:
    with pytest.raises(RosterError) as caught:
        list_read(data=data)
    return caught.value


def test_it_refuses_a_roster_of_another_game_system(real_catalogue):
    error = _refusal(roster_xml([("Main Bloc", "Allies", [])], game_system="0000-0000"))

    assert error.code == "roster-game-system"
    assert error.message == (
        "This roster is for 'Another Game', not Dust 1947: only Dust 1947 rosters can be read here."
    )


@pytest.mark.parametrize("shape", ["ros", "rosz"])
def test_it_refuses_a_truncated_roster(real_catalogue, shape):
    xml = _allies_roster()
    data = xml[: len(xml) // 2] if shape == "ros" else zipped(("list.ros", xml))[:200]

    error = _refusal(data)

    assert error.code == "roster-truncated"
    assert "save it again from BattleScribe" in error.message


@pytest.mark.parametrize(
    ("files", "said"),
    [([], "holds no file"), ([("a.ros", b"<roster/>"), ("b.ros", b"<roster/>")], "holds 2 files")],
)
def test_it_refuses_a_zip_without_exactly_one_file(real_catalogue, files, said):
    error = _refusal(zipped(*files))

    assert error.code == "roster-zip-files"
    assert said in error.message


def test_it_refuses_a_roster_declaring_entities(real_catalogue):
    error = _refusal(b'<?xml version="1.0"?><!DOCTYPE roster [<!ENTITY a "aaaa">]><roster>&a;</roster>')

    assert error.code == "roster-unreadable"
    assert "DTD and entity declarations are not allowed" in error.message


def test_it_refuses_xml_that_is_not_a_roster(real_catalogue):
    error = _refusal(b'<?xml version="1.0"?><catalogue id="x"/>')

    assert error.code == "roster-not-roster"


def test_it_refuses_a_roster_with_more_selections_than_the_bound(real_catalogue, monkeypatch):
    rattlesnake = pick("Allies", "Rattlesnake")
    monkeypatch.setattr(limits, "MAX_ROSTER_SELECTIONS", 7)  # each pick is two selections

    error = _refusal(roster_xml([("Main Bloc", "Allies", [rattlesnake] * 4)]))

    assert error.code == "roster-too-many-selections"
    assert "more than 7 selections" in error.message


def test_it_refuses_selections_nested_deeper_than_the_bound(real_catalogue):
    nested = "".join(
        '<selections><selection id="s" name="n" entryId="x">' for _ in range(limits.MAX_ROSTER_DEPTH + 2)
    )
    closing = "</selection></selections>" * (limits.MAX_ROSTER_DEPTH + 2)
    xml = (
        f'<roster gameSystemId="bacf-9ebb-dbda-57d0"><forces><force name="Main Bloc">{nested}{closing}'
        "</force></forces></roster>"
    )

    error = _refusal(xml)

    assert error.code == "roster-too-deep"


def test_it_refuses_a_roster_file_over_the_size_bound(real_catalogue):
    error = _refusal(b"<roster>" + b" " * limits.MAX_ROSTER_BYTES + b"</roster>")

    assert error.code == "roster-too-large"
    assert f"{limits.MAX_ROSTER_BYTES // 1024:,} kB" in error.message


def test_text_naming_units_is_read_as_a_list_typed_by_hand(real_catalogue):
    intake = list_read(data="Rattlesnake (8)", catalogue=real_catalogue)

    assert intake.source == "text"
    assert [entry.unit for entry in intake.plain.entries] == [
        unit.key for unit in real_catalogue.units.filter(name="Rattlesnake")
    ][:1]


def test_text_naming_no_unit_gets_a_sentence_not_a_json_error(real_catalogue):
    with pytest.raises(v.ListFormatError) as caught:
        list_read(data="hello there, general", catalogue=real_catalogue)

    assert caught.value.code == "text-list-unreadable"
    assert "No line of this text names a unit of the catalogue" in caught.value.message
    assert "JSON" not in caught.value.message


# --------------------------------------------------------------------------- the .rosz round trip


def test_it_round_trips_a_commissar_inside_the_squad_it_joins(real_catalogue, player):
    army_list = ArmyListFactory(owner=player, catalogue=real_catalogue, bloc="SSU", name="Volunteers")
    for key in ("ssu.chinese-volunteer-assault-squad", "ssu.nkvd-political-commissar-machine-gunner"):
        lists.army_list_add_unit(army_list=army_list, unit_key=key)
    lists.army_list_update_entry(army_list=army_list, entry_id="e2", joined_to="e1")
    army_list.refresh_from_db()

    xml = roster_to_xml(
        army_list.content,
        selectors.catalogue_for_validation(catalogue=real_catalogue),
        selectors.roster_ids(catalogue=real_catalogue),
    )

    assert list_read(data=xml, catalogue=real_catalogue).document == army_list.content


def test_it_round_trips_a_list_through_a_rosz_export(real_catalogue, player):
    army_list = ArmyListFactory(owner=player, catalogue=real_catalogue, bloc="Allies", name="Round trip",
                                points_limit=120)  # fmt: skip
    for key in ("allies.rattlesnake", "allies.field-phaser", "mercenaries.emma"):
        lists.army_list_add_unit(army_list=army_list, unit_key=key)
    lists.army_list_add_unit(army_list=army_list, unit_key="axis.luther", captured=True)
    lists.army_list_add_fortification(army_list=army_list, kind="bunker", unit_entry="e2")
    army_list.refresh_from_db()
    assert [e["unit"] for e in army_list.content["entries"]][-1] == "axis.luther"

    rosz = selectors.army_list_rosz(army_list=army_list, filename="round-trip.ros")
    intake = list_read(data=rosz, catalogue=real_catalogue)

    assert rosz.startswith(b"PK\x03\x04")
    assert intake.source == "rosz"
    assert intake.warnings == ()
    assert intake.document == army_list.content
