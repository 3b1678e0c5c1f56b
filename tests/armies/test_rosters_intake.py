"""Rosters everywhere a list is taken: the validator and import pages, their API endpoints and
``validate_list``, with the same verdict as the same list in our format; the .rosz export and who
may download it."""

from __future__ import annotations

import base64
import io
import json
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from armies import selectors
from armies.models import ArmyList
from armies.services import army_lists as lists
from tests.armies.roster_files import new_recruit, pick, roster_xml, zipped
from tests.factories import ArmyListFactory

pytestmark = pytest.mark.django_db

UNITS = ("allies.rattlesnake", "allies.field-phaser")


def _roster(points_limit: int = 150, **options) -> bytes:
    return roster_xml(
        [("Main Bloc", "Allies", [pick("Allies", "Rattlesnake"), pick("Allies", "Field Phaser")])],
        name="Zoo run",
        points_limit=points_limit,
        **options,
    )


def _same_list_in_our_format(owner, catalogue, points_limit: int = 150) -> ArmyList:
    army_list = ArmyListFactory(
        owner=owner, catalogue=catalogue, bloc="Allies", name="Zoo run", points_limit=points_limit
    )
    for key in UNITS:
        lists.army_list_add_unit(army_list=army_list, unit_key=key)
    army_list.refresh_from_db()
    return army_list


def _verdict_of(document) -> dict:
    return selectors.army_list_document_verdict(document=document).verdict.to_dict()


# --------------------------------------------------------------------------- the validator page


def test_the_validator_page_checks_an_uploaded_rosz_as_the_same_list(client, real_catalogue, player):
    ours = _same_list_in_our_format(player, real_catalogue)
    upload = SimpleUploadedFile("zoo.rosz", zipped(("zoo.ros", _roster())), "application/zip")

    response = client.post(reverse("armies:validator"), {"file": upload})

    assert response.status_code == 200
    assert response.context["verdict"].to_dict() == _verdict_of(ours.content)
    assert response.context["catalogue"] == real_catalogue
    page = response.content.decode()
    assert "Rattlesnake" in page
    assert "Field Phaser" in page


def test_the_validator_page_says_in_words_what_the_import_changed(client, real_catalogue):
    text = _roster(stated={"Rattlesnake": 16}).decode()

    response = client.post(reverse("armies:validator"), {"text": text})

    page = response.content.decode()
    assert 'data-testid="import-warnings"' in page
    assert "Rattlesnake: the roster says 17 AP, the catalogue 8" in page
    assert "roster-cost-differs" not in page


def test_the_validator_page_refuses_a_bad_file_with_a_sentence(client, real_catalogue):
    upload = SimpleUploadedFile("two.rosz", zipped(("a.ros", b"<a/>"), ("b.ros", b"<b/>")))

    response = client.post(reverse("armies:validator"), {"file": upload})

    assert response.context.get("verdict") is None
    assert "This zipped roster holds 2 files; a .rosz file holds exactly one roster." in (
        response.content.decode()
    )


def test_the_validator_page_asks_the_bloc_of_mercenaries_alone(client, real_catalogue):
    text = roster_xml([("Main Bloc", "Mercenaries", [pick("Mercenaries", "Emma")])]).decode()

    asked = client.post(reverse("armies:validator"), {"text": text})
    chosen = client.post(reverse("armies:validator"), {"text": text, "bloc": "SSU"})

    assert [e.code for e in asked.context["form"].errors.as_data()["bloc"]] == ["roster-bloc-missing"]
    assert "does not say which bloc they fight for" in asked.content.decode()
    assert chosen.context["plain"].bloc == "SSU"


# --------------------------------------------------------------------------- the import page


def test_the_import_page_makes_a_list_of_a_roster_and_shows_its_warnings(client, player, real_catalogue):
    client.force_login(player)
    upload = SimpleUploadedFile("zoo.ros", _roster(stated={"Rattlesnake": 16}), "application/xml")

    response = client.post(reverse("armies:list_import"), {"file": upload}, follow=True)

    army_list = ArmyList.objects.get(owner=player)
    assert army_list.catalogue == real_catalogue
    assert [e["unit"] for e in army_list.content["entries"]] == list(UNITS)
    page = response.content.decode()
    assert "Imported Zoo run" in page
    assert "Rattlesnake: the roster says 17 AP, the catalogue 8" in page


# --------------------------------------------------------------------------- the API


def test_the_import_endpoint_takes_a_new_recruit_export_and_gives_the_warnings_codes(
    api_as, player, real_catalogue
):
    export = json.loads(new_recruit(_roster(stated={"Rattlesnake": 16})))

    response = api_as(player).post("/api/army-lists/import/", {"list": export}, format="json")

    assert response.status_code == 201, response.json()
    body = response.json()
    assert [e["unit"] for e in body["content"]["entries"]] == list(UNITS)
    assert [w["code"] for w in body["warnings"]] == ["roster-total-differs", "roster-cost-differs"]
    assert body["catalogue"] == real_catalogue.pk


def test_the_validate_endpoint_gives_a_rosz_the_verdict_of_the_same_list(api_client, player, real_catalogue):
    ours = _same_list_in_our_format(player, real_catalogue, points_limit=20)
    encoded = base64.b64encode(zipped(("zoo.ros", _roster(points_limit=20)))).decode()

    as_roster = api_client.post("/api/army-lists/validate/", {"list": encoded}, format="json").json()
    as_ours = api_client.post("/api/army-lists/validate/", {"list": ours.content}, format="json").json()

    assert as_roster.pop("import_warnings") == as_ours.pop("import_warnings") == []
    assert as_roster == as_ours
    assert as_roster["ok"] is False  # 28 AP over a limit of 20


def test_the_validate_endpoint_takes_roster_xml_as_text(api_client, real_catalogue):
    response = api_client.post("/api/army-lists/validate/", {"list": _roster().decode()}, format="json")

    assert response.status_code == 200
    assert response.json()["totals"]["unit_ap"] == 28


def test_the_validate_endpoint_refuses_another_game_system_with_a_code(api_client, real_catalogue):
    xml = _roster(game_system="0000-0000").decode()

    response = api_client.post("/api/army-lists/validate/", {"list": xml}, format="json")

    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "roster-game-system"
    assert body["errors"][0]["field"] == "list"
    assert "not Dust 1947" in body["detail"]


def test_the_import_endpoint_asks_the_bloc_of_mercenaries_alone(api_as, player, real_catalogue):
    xml = roster_xml([("Main Bloc", "Mercenaries", [pick("Mercenaries", "Emma")])]).decode()
    client = api_as(player)

    asked = client.post("/api/army-lists/import/", {"list": xml}, format="json")
    chosen = client.post("/api/army-lists/import/", {"list": xml, "bloc": "Axis"}, format="json")

    assert asked.status_code == 400
    assert (asked.json()["code"], asked.json()["errors"][0]["field"]) == ("roster-bloc-missing", "bloc")
    assert chosen.status_code == 201
    assert chosen.json()["bloc"] == "Axis"


def test_the_validator_page_refuses_a_file_that_is_no_text_with_a_sentence(client, real_catalogue):
    upload = SimpleUploadedFile("picture.ros", b"\x89PNG\r\n\x1a\n\xff\xfe\x00", "image/png")

    response = client.post(reverse("armies:validator"), {"file": upload})

    assert response.context["form"].format_errors == []
    assert "This file is neither a list, a roster (.ros, .rosz or a New Recruit .json) nor text." in (
        response.content.decode()
    )


# --------------------------------------------------------------------------- validate_list


def test_validate_list_gives_a_roster_the_verdict_of_the_same_list(tmp_path, capsys, player, real_catalogue):
    ours = _same_list_in_our_format(player, real_catalogue, points_limit=20)
    (tmp_path / "ours.json").write_text(json.dumps(ours.content))
    (tmp_path / "zoo.rosz").write_bytes(zipped(("zoo.ros", _roster(points_limit=20))))
    outputs = []
    for name in ("ours.json", "zoo.rosz"):
        with pytest.raises(SystemExit) as exit_info:
            call_command("validate_list", str(tmp_path / name), "--json")
        assert exit_info.value.code == 1
        outputs.append(json.loads(capsys.readouterr().out))

    assert outputs[0] == outputs[1]


def test_validate_list_lists_a_rosters_entries_as_text(tmp_path, capsys, real_catalogue):
    path = tmp_path / "zoo.ros"
    path.write_bytes(_roster())

    call_command("validate_list", str(path))

    out = capsys.readouterr().out
    assert "Zoo run" in out
    assert "Rattlesnake" in out
    assert "Field Phaser" in out


def test_validate_list_exits_2_on_an_unreadable_roster(tmp_path, capsys, real_catalogue):
    path = tmp_path / "cut.ros"
    xml = _roster()
    path.write_bytes(xml[: len(xml) // 2])

    with pytest.raises(CommandError) as error:
        call_command("validate_list", str(path))

    assert error.value.returncode == 2
    assert "stops before its end" in capsys.readouterr().err


# --------------------------------------------------------------------------- the .rosz export


def _ros_inside(content: bytes) -> bytes:
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        (member,) = archive.infolist()
        return archive.read(member)


def test_the_owner_downloads_a_rosz_that_imports_as_the_same_list(client, player, real_catalogue):
    army_list = _same_list_in_our_format(player, real_catalogue)
    client.force_login(player)

    response = client.get(reverse("armies:list_export_rosz", args=[army_list.pk]))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    assert response["Content-Disposition"] == f'attachment; filename="zoo-run-{army_list.pk}.rosz"'
    assert b"<roster" in _ros_inside(response.content)
    upload = SimpleUploadedFile("zoo-run.rosz", response.content, "application/zip")
    client.post(reverse("armies:list_import"), {"file": upload})
    copy = ArmyList.objects.exclude(pk=army_list.pk).get(owner=player)
    assert copy.content == army_list.content


def test_the_export_endpoint_gives_the_owner_a_rosz(api_as, player, real_catalogue):
    army_list = _same_list_in_our_format(player, real_catalogue)

    response = api_as(player).get(f"/api/army-lists/{army_list.pk}/export/?as=rosz")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    assert response.content.startswith(b"PK\x03\x04")


def test_the_export_endpoint_hides_a_rosz_from_another_player(api_as, player, stranger, real_catalogue):
    army_list = _same_list_in_our_format(player, real_catalogue)

    response = api_as(stranger).get(f"/api/army-lists/{army_list.pk}/export/?as=rosz")

    assert response.status_code == 404


def test_the_export_endpoint_refuses_an_anonymous_caller(api_client, player, real_catalogue):
    army_list = _same_list_in_our_format(player, real_catalogue)

    response = api_client.get(f"/api/army-lists/{army_list.pk}/export/?as=rosz")

    assert response.status_code in (401, 403)
    assert not response.content.startswith(b"PK")


@pytest.mark.parametrize("bloc", [{}, [], 7, "Atlantis"])
def test_the_validate_endpoint_refuses_a_bloc_that_is_not_one_with_a_400(api_client, real_catalogue, bloc):
    xml = roster_xml([("Main Bloc", "Mercenaries", [pick("Mercenaries", "Emma")])]).decode()

    response = api_client.post("/api/army-lists/validate/", {"list": xml, "bloc": bloc}, format="json")

    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "bloc"
