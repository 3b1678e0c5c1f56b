"""Lists typed as text everywhere a list is taken: the validator and import pages, their API endpoints and
``validate_list`` read the site's chat export and "Unit name (AP)" lines, and answer a typo or arbitrary text
with sentences, never a JSON parser's words."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from armies import selectors
from armies import validation as v
from armies.models import ArmyList
from armies.services import army_lists as lists
from tests.factories import ArmyListFactory

pytestmark = pytest.mark.django_db

UNITS = ("allies.rattlesnake", "allies.field-phaser")
TYPED = "Allies | 20 AP\n- Rattlesnake (8 AP)\n- Field Phaser\n"


def _ours(owner, catalogue) -> ArmyList:
    army_list = ArmyListFactory(
        owner=owner, catalogue=catalogue, bloc="Allies", name="Zoo run", points_limit=20
    )
    for key in UNITS:
        lists.army_list_add_unit(army_list=army_list, unit_key=key)
    army_list.refresh_from_db()
    return army_list


def _chat_export(army_list: ArmyList) -> str:
    checked = selectors.army_list_document_verdict(document=army_list.content)
    return v.army_list_to_text(checked.plain, checked.plain_catalogue, checked.verdict)


def test_the_validator_page_gives_the_sites_chat_export_the_verdict_of_the_list(
    client, player, real_catalogue
):
    ours = _ours(player, real_catalogue)

    response = client.post(reverse("armies:validator"), {"text": _chat_export(ours)})

    assert response.status_code == 200
    expected = selectors.army_list_document_verdict(document=ours.content).verdict.to_dict()
    assert response.context["verdict"].to_dict() == expected
    assert response.context["verdict"].ok is False  # 28 AP over a limit of 20


def test_the_validator_page_suggests_the_name_meant_for_a_typo(client, real_catalogue):
    response = client.post(reverse("armies:validator"), {"text": "Allies\nRatlesnake (8 AP)\n"})

    page = response.content.decode()
    assert 'data-testid="format-errors"' in page
    assert "Did you mean Rattlesnake?" in page
    assert "JSON" not in page.split('data-testid="format-errors"', 1)[1].split("</div>", 1)[0]


def test_the_validator_page_answers_arbitrary_text_with_a_sentence(client, real_catalogue):
    response = client.post(reverse("armies:validator"), {"text": "Good game yesterday, see you Friday!"})

    page = response.content.decode()
    assert "No line of this text names a unit of the catalogue" in page
    assert "Extra data" not in page
    assert "text-list-unreadable" not in page


def test_the_import_page_makes_a_list_of_typed_lines(client, player, real_catalogue):
    client.force_login(player)

    response = client.post(reverse("armies:list_import"), {"text": TYPED}, follow=True)

    assert response.status_code == 200
    army_list = ArmyList.objects.get(owner=player)
    assert [entry["unit"] for entry in army_list.content["entries"]] == list(UNITS)
    assert (army_list.bloc, army_list.points_limit, army_list.catalogue) == ("Allies", 20, real_catalogue)


def test_the_validate_endpoint_reads_typed_lines_and_refuses_a_typo_with_a_code(api_client, real_catalogue):
    read = api_client.post("/api/army-lists/validate/", {"list": TYPED}, format="json")
    typo = api_client.post("/api/army-lists/validate/", {"list": "Allies\nRatlesnake\n"}, format="json")

    assert read.status_code == 200, read.json()
    assert read.json()["totals"]["unit_ap"] == 28
    assert typo.status_code == 400
    assert typo.json()["code"] == "text-list-unreadable"
    assert typo.json()["errors"][0]["field"] == "list"
    assert "Did you mean Rattlesnake?" in typo.json()["detail"]


def test_the_import_endpoint_makes_a_list_of_typed_lines(api_as, player, real_catalogue):
    response = api_as(player).post("/api/army-lists/import/", {"list": TYPED}, format="json")

    assert response.status_code == 201, response.json()
    assert [entry["unit"] for entry in response.json()["content"]["entries"]] == list(UNITS)


def test_validate_list_gives_typed_lines_the_verdict_of_the_same_list(
    tmp_path, capsys, player, real_catalogue
):
    ours = _ours(player, real_catalogue)
    (tmp_path / "ours.json").write_text(json.dumps(ours.content))
    (tmp_path / "ours.txt").write_text(_chat_export(ours))
    verdicts = []
    for name in ("ours.json", "ours.txt"):
        with pytest.raises(SystemExit) as exit_info:
            call_command("validate_list", str(tmp_path / name), "--json")
        assert exit_info.value.code == 1
        verdicts.append(json.loads(capsys.readouterr().out))

    assert verdicts[0] == verdicts[1]


def test_validate_list_exits_2_with_sentences_for_text_naming_no_unit(tmp_path, capsys, real_catalogue):
    path = tmp_path / "chat.txt"
    path.write_text("see you all on Friday\n")

    with pytest.raises(CommandError) as error:
        call_command("validate_list", str(path))

    assert error.value.returncode == 2
    assert "No line of this text names a unit of the catalogue" in capsys.readouterr().err
