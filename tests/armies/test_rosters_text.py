"""BattleScribe's and New Recruit's rosters shared as text (issue 26): read as rosters, matched by
name, where before they were refused line by line with "Did you mean" the very unit they named."""

from __future__ import annotations

import time

import pytest
from django.core.management import call_command
from django.urls import reverse

from armies.list_intake import list_read
from armies.models import ArmyList
from armies.rosters import RosterError
from armies.rosters.text import roster_from_text
from tests.armies.roster_files import pick, roster_xml, share_text

pytestmark = pytest.mark.django_db

SHAPES = ["battlescribe", "new-recruit", "indented"]
UNITS = ["allies.rattlesnake", "allies.field-phaser", "mercenaries.emma"]


def _roster(**options) -> bytes:
    return roster_xml(
        [
            (
                "Main Bloc",
                "Allies",
                [pick("Allies", "Rattlesnake"), pick("Allies", "Field Phaser", extra=("Bunker",))],
            ),
            ("Main Bloc", "Mercenaries", [pick("Mercenaries", "Emma")]),
        ],
        name="Zoo run",
        **options,
    )


@pytest.mark.parametrize("shape", SHAPES)
def test_a_roster_shared_as_text_is_the_same_list_as_the_roster(real_catalogue, shape):
    from_file = list_read(data=_roster()).document

    intake = list_read(data=share_text(_roster(), shape))

    assert intake.source == "roster-text"
    assert intake.document["entries"] == from_file["entries"]
    assert [entry["unit"] for entry in intake.document["entries"]] == UNITS
    assert intake.document["fortifications"] == from_file["fortifications"]  # the Field Phaser's Bunker
    assert intake.document["bloc"] == "Allies"


def test_the_new_recruit_title_names_the_list_and_a_battlescribe_text_its_catalogue(real_catalogue):
    assert list_read(data=share_text(_roster(), "new-recruit")).document["name"] == "Zoo run"
    assert list_read(data=share_text(_roster(), "battlescribe")).document["name"] == "Allies roster"


@pytest.mark.parametrize("shape", SHAPES)
def test_the_costs_a_shared_text_states_are_checked_against_the_catalogue(real_catalogue, shape):
    intake = list_read(data=share_text(_roster(stated={"Emma": 7}), shape))

    messages = [warning.message for warning in intake.warnings]
    assert any("Emma: the roster says 7 AP, the catalogue 4" in message for message in messages)
    assert any(message.startswith("In all, the roster says") for message in messages)


def test_the_club_nights_export_is_read_not_refused(demo_catalogue):
    text = "+ Gulfport Marine Squad [6pts]\n    + Machinegun\n    + 4x Marine\n"

    intake = list_read(data=text, catalogue=demo_catalogue)

    assert [entry["unit"] for entry in intake.document["entries"]] == ["allies.gulfport-marine-squad"]
    said = " ".join(warning.message for warning in intake.warnings)
    assert "they were matched by name, Gulfport Marine Squad." in said
    assert "Did you mean" not in said


def test_a_unit_the_catalogue_lacks_in_a_shared_text_is_an_error_naming_it(real_catalogue):
    text = share_text(_roster(), "battlescribe").replace("Emma [", "Emmet Q [")

    with pytest.raises(RosterError) as refused:
        list_read(data=text)

    assert refused.value.code == "roster-unit-unknown"
    assert refused.value.message.startswith('The catalogue has no unit "Emmet Q", by that name: the list')


def test_a_new_recruit_title_names_the_list_by_its_last_part_and_a_category_may_state_a_cost():
    text = (
        "Dust 1947 - Allies - Zoo run - [17pts, 1CP]\n## Main Bloc [17pts]\n+ Vehicles [17pts] +\n"
        "Bushmaster [17pts]\n"
    )

    roster = roster_from_text(text)

    assert roster is not None
    assert roster.name == "Zoo run"
    assert [selection.name for selection in roster.forces[0].selections] == ["Bushmaster"]


def test_the_shapes_are_read_as_the_docs_say():
    text = (
        "++ Main Bloc (Allies) [1,990pts] ++\n\n+ Infantry +\n\n"
        "Bushmaster [17pts]: Rattlesnake, 2x Machinegun (Front)\n"
        "Squad [40pts]\n. 3x Ranger [30pts]: BAR Automatic Rifle\n. . Sergeant: Pistol\n\n"
        "++ Total: [57pts] ++\n\nCreated with BattleScribe (https://battlescribe.net)\n"
    )

    roster = roster_from_text(text)

    assert roster is not None
    (force,) = roster.forces
    assert (force.name, force.catalogue_name) == ("Main Bloc", "Allies")
    bushmaster, squad = force.selections
    assert [(c.name, c.number, c.type) for c in bushmaster.selections] == [
        ("Rattlesnake", 1, "upgrade"),
        ("Machinegun (Front)", 2, "upgrade"),
    ]
    assert bushmaster.subtree_cost() == 17
    (rangers,) = squad.selections
    assert (rangers.name, rangers.number, squad.subtree_cost(), rangers.subtree_cost()) == (
        "Ranger",
        3,
        40,
        30,
    )
    assert [c.name for c in rangers.selections] == ["BAR Automatic Rifle", "Sergeant"]


@pytest.mark.parametrize(
    "text", ["Rifle Squad (6 AP)\n2x Ranger Squad", "Ranger Squad [e1]: 8 AP", "<3 my list"]
)
def test_a_list_typed_one_unit_a_line_is_not_taken_for_a_shared_roster(text):
    assert roster_from_text(text) is None


# --------------------------------------------------------------------------- pages, API and command


def test_the_validator_page_reads_a_battlescribe_text(client, real_catalogue):
    response = client.post(reverse("armies:validator"), {"text": share_text(_roster(), "battlescribe")})

    assert response.status_code == 200
    assert [entry.unit for entry in response.context["plain"].entries] == UNITS
    assert "Did you mean" not in response.content.decode()


def test_the_import_page_imports_a_new_recruit_text(client, player, real_catalogue):
    client.force_login(player)

    client.post(reverse("armies:list_import"), {"text": share_text(_roster(), "new-recruit")})

    army_list = ArmyList.objects.get(owner=player)
    assert [entry["unit"] for entry in army_list.content["entries"]] == UNITS


def test_the_validate_endpoint_reads_a_shared_text(api_client, real_catalogue):
    response = api_client.post(
        "/api/army-lists/validate/", {"list": share_text(_roster(), "battlescribe")}, format="json"
    )

    assert response.status_code == 200, response.json()
    assert response.json()["totals"]["unit_ap"] == 8 + 20 + 4


def test_validate_list_reads_a_shared_text(tmp_path, capsys, real_catalogue):
    path = tmp_path / "zoo.txt"
    path.write_text(share_text(_roster(), "indented"))

    call_command("validate_list", str(path))

    out = capsys.readouterr().out
    assert "Rattlesnake" in out
    assert "Emma" in out


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("+ X [1pts]\n" * 20_000, "roster-too-many-selections"),
        ("+ X [1pts]\n" + "".join(". " * depth + "Y\n" for depth in range(1, 400)), "roster-too-deep"),
        ("++ F ++\n" + "++ F ++\n" * 11 + "+ X [1pts]\n", "read"),
        ("+ X [1" + ",000" * 60_000 + "pts]\n", "not a roster"),
        ("++ F ++\n+ X [1pts]\n" * 11, "roster-too-many-forces"),
        ("++ F ++\nUnit [1pts]: " + "a, " * 80_000 + "\n", "read"),
    ],
    ids=["many", "deep", "empty forces", "long cost", "forces", "many choices"],
)
def test_a_hostile_shared_text_is_bounded_and_quick(text, code):
    started = time.perf_counter()
    if code in ("read", "not a roster"):  # no cost of a billion AP: the line is a typed one
        assert (roster_from_text(text) is not None) == (code == "read")
    else:
        with pytest.raises(RosterError) as refused:
            roster_from_text(text)
        assert refused.value.code == code
    assert time.perf_counter() - started < 1


def test_a_typed_line_with_a_battlescribe_cost_is_read_not_answered_with_its_own_name(demo_catalogue):
    intake = list_read(
        data="Gulfport Marine Squad [6pts]\n2x Gulfport Marine Squad [12 pts]\n", catalogue=demo_catalogue
    )

    assert intake.source == "text"
    assert [entry["unit"] for entry in intake.document["entries"]] == ["allies.gulfport-marine-squad"] * 3
