"""Hostile lists at every door a list comes in by (the validator page, the import page, their API
endpoints and ``validate_list``): each is answered at once with a sentence (a stable code on the API),
never a 500, a traceback or a parser's words (review of issue 21)."""

from __future__ import annotations

import base64
import io
import zipfile
from xml.etree import ElementTree as ET

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from armies.models import ArmyList
from armies.validation import limits
from tests.armies.roster_files import NS, pick, roster_xml

pytestmark = pytest.mark.django_db

# A line at the bound that is one long run of spaces: a pattern reading a cost once split the run
# every way, in time cubic in the line (12 s of CPU for a line half this long).
SPACED = "Rattlesnake" + " " * (limits.MAX_TEXT_LINE_LENGTH - len("Rattlesnake") - 1) + "x"


def _validate(api_client, text: str):
    return api_client.post("/api/army-lists/validate/", {"list": text}, format="json")


def test_the_validate_endpoint_reads_a_line_of_spaces_at_the_bound_as_single_spaces(
    api_client, real_catalogue
):
    assert len(SPACED) == limits.MAX_TEXT_LINE_LENGTH

    refused = _validate(api_client, f"Allies\n{SPACED}")
    read = _validate(api_client, f"Allies\n{SPACED[:-6]}(8 AP)\nRattlesnake{' ' * 1500}- 8 pts")

    assert refused.status_code == 400
    assert refused.json()["code"] == "text-list-unreadable"
    assert refused.json()["detail"].startswith(
        'list: line 2: no unit called "Rattlesnake x" in the catalogue.'
    )
    assert read.status_code == 200, read.json()
    assert read.json()["totals"]["unit_ap"] == 16


def test_the_validate_endpoint_refuses_a_line_past_the_bound_naming_it(api_client, real_catalogue):
    response = _validate(api_client, f"Allies\n{SPACED} ")

    assert response.status_code == 400
    assert response.json()["code"] == "text-list-unreadable"
    assert response.json()["detail"] == (
        f"list: line 2 is {limits.MAX_TEXT_LINE_LENGTH + 1:,} characters long: a line of a list is at most "
        f"{limits.MAX_TEXT_LINE_LENGTH:,}."
    )


def test_the_validator_page_answers_a_line_of_spaces_at_the_bound_with_a_sentence(client, real_catalogue):
    response = client.post(reverse("armies:validator"), {"text": f"Allies\n{SPACED}"})

    assert response.status_code == 200
    assert (
        response.context["form"]
        .format_errors[0][1]
        .startswith('line 2: no unit called "Rattlesnake x" in the catalogue.')
    )


def test_validate_list_answers_a_line_of_spaces_at_the_bound_with_a_sentence(
    tmp_path, capsys, real_catalogue
):
    path = tmp_path / "spaced.txt"
    path.write_text(f"Allies\n{SPACED}\n")

    with pytest.raises(CommandError) as error:
        call_command("validate_list", str(path))

    assert error.value.returncode == 2
    assert 'line 2: no unit called "Rattlesnake x" in the catalogue.' in capsys.readouterr().err


# --------------------------------------------------------------------------- a .rosz locked with a password


def _locked_rosz() -> bytes:
    """A .rosz whose one file says it is encrypted (the flag bit in both of the zip's headers)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("zoo.ros", b'<roster gameSystemId="bacf-9ebb-dbda-57d0"/>')
    data = bytearray(buffer.getvalue())
    data[6] |= 0x1  # the local file header's general purpose flags
    central = data.index(b"PK\x01\x02")
    data[central + 8] |= 0x1  # the central directory's
    return bytes(data)


LOCKED = "This zipped roster is locked with a password: save it again from BattleScribe without one."


def test_the_validator_page_refuses_a_rosz_locked_with_a_password_with_a_sentence(client, real_catalogue):
    upload = SimpleUploadedFile("zoo.rosz", _locked_rosz(), "application/zip")

    response = client.post(reverse("armies:validator"), {"file": upload})

    assert response.status_code == 200
    assert response.context.get("verdict") is None
    assert LOCKED in response.content.decode()
    assert "roster-encrypted" not in response.content.decode()


def test_the_import_endpoint_refuses_a_rosz_locked_with_a_password_with_a_code(
    api_as, player, real_catalogue
):
    encoded = base64.b64encode(_locked_rosz()).decode()

    response = api_as(player).post("/api/army-lists/import/", {"list": encoded}, format="json")

    assert response.status_code == 400
    assert response.json()["code"] == "roster-encrypted"
    assert response.json()["errors"][0]["message"] == LOCKED


def test_validate_list_exits_2_for_a_rosz_locked_with_a_password(tmp_path, capsys, real_catalogue):
    path = tmp_path / "zoo.rosz"
    path.write_bytes(_locked_rosz())

    with pytest.raises(CommandError) as error:
        call_command("validate_list", str(path))

    assert error.value.returncode == 2
    assert LOCKED in capsys.readouterr().err


# --------------------------------------------------------------------------- numbers in a roster's notes


def _roster_with_notes(digits: str) -> str:
    """A .ros of one Rattlesnake whose notes, as our export writes them, number a unit and a platoon
    with ``digits``."""
    root = ET.fromstring(roster_xml([("Main", "Allies", [pick("Allies", "Rattlesnake")])]))  # noqa: S314 - our own XML
    ET.SubElement(root, f"{{{NS}}}customNotes").text = (
        f"Zverograd: platoon {digits}, Zoo: unit {digits} (Rattlesnake).\n"
        "Zverograd: the force plays as the defender."
    )
    selection = next(element for element in root.iter() if element.tag == f"{{{NS}}}selection")
    ET.SubElement(
        selection, f"{{{NS}}}customNotes"
    ).text = (
        f"Zverograd: joins unit {digits} of this list, Rattlesnake.\nZverograd: in platoon {digits}, Zoo."
    )
    return ET.tostring(root, encoding="unicode")


def test_the_import_endpoint_reads_a_roster_whose_notes_hold_a_number_of_5000_digits(
    api_as, player, real_catalogue
):
    response = api_as(player).post(
        "/api/army-lists/import/", {"list": _roster_with_notes("9" * 5000)}, format="json"
    )

    assert response.status_code == 201, response.json()
    content = response.json()["content"]
    assert [(e["unit"], e["joined_to"], e["platoon"]) for e in content["entries"]] == [
        ("allies.rattlesnake", None, None)
    ]
    assert content["role"] == "defender"  # the rest of the notes is still read
    assert content["platoons"] == []
    unread = [w for w in response.json()["warnings"] if w["code"] == "roster-note-unread"]
    assert len(unread) == 1
    assert "whose number is not one of this list's" in unread[0]["message"]


def test_the_validator_page_reads_a_roster_whose_notes_hold_a_number_of_5000_digits(client, real_catalogue):
    response = client.post(reverse("armies:validator"), {"text": _roster_with_notes("9" * 5000)})

    assert response.status_code == 200
    assert response.context["verdict"] is not None


# --------------------------------------------------------------------------- a JSON number of 5,000 digits

LONG_NUMBER = "[" + "9" * 5000 + "]"
TOO_LONG = f"a number in it is longer than {limits.MAX_JSON_NUMBER_DIGITS:,} digits"


def test_the_validator_page_refuses_pasted_json_with_a_number_of_5000_digits_in_a_sentence(
    client, real_catalogue
):
    response = client.post(reverse("armies:validator"), {"text": LONG_NUMBER})

    assert response.status_code == 200
    assert response.context["form"].format_errors == [
        ("$", f"This is not a list in the JSON format: {TOO_LONG}")
    ]


def test_the_validator_page_refuses_an_uploaded_file_with_a_number_of_5000_digits_in_a_sentence(
    client, real_catalogue
):
    upload = SimpleUploadedFile("list.json", LONG_NUMBER.encode(), "application/json")

    response = client.post(reverse("armies:validator"), {"file": upload})

    assert response.status_code == 200
    assert response.context["form"].format_errors == [
        ("$", f"This is not a list in the JSON format: {TOO_LONG}")
    ]


def test_the_validate_endpoint_refuses_json_text_with_a_number_of_5000_digits_with_a_code(
    api_client, real_catalogue
):
    response = _validate(api_client, LONG_NUMBER)

    assert response.status_code == 400
    assert response.json()["code"] == "list-format"
    assert response.json()["errors"][0]["message"] == f"This is not a list in the JSON format: {TOO_LONG}"


def test_the_import_endpoint_refuses_a_large_new_recruit_export_with_a_number_of_5000_digits(
    api_as, player, real_catalogue
):
    text = '{"roster": {"n": ' + "9" * 5000 + ', "pad": "' + "a" * limits.MAX_DOCUMENT_BYTES + '"}}'

    response = api_as(player).post("/api/army-lists/import/", {"list": text}, format="json")

    assert response.status_code == 400
    assert response.json()["code"] == "roster-unreadable"
    assert response.json()["errors"][0]["message"] == f"This New Recruit export cannot be read: {TOO_LONG}."


# --------------------------------------------------------------------------- text that only starts like a document

BRACKETED = "[Allies]\nRattlesnake (8 AP)\n"


def test_the_validate_endpoint_reads_typed_lines_that_start_with_a_bracket_or_a_heart(
    api_client, real_catalogue
):
    for text in (BRACKETED, "<3 my list\nAllies\nRattlesnake (8 AP)\n", "{Allies}\nRattlesnake\n"):
        response = _validate(api_client, text)

        assert response.status_code == 200, (text, response.json())
        assert response.json()["totals"]["unit_ap"] == 8


def test_the_import_page_makes_a_list_of_typed_lines_under_a_bracketed_heading(
    client, player, real_catalogue
):
    client.force_login(player)

    client.post(reverse("armies:list_import"), {"text": BRACKETED}, follow=True)

    army_list = ArmyList.objects.get(owner=player)
    assert [entry["unit"] for entry in army_list.content["entries"]] == ["allies.rattlesnake"]


def test_the_validator_page_says_in_a_sentence_why_text_like_xml_is_neither_a_roster_nor_a_list(
    client, real_catalogue
):
    response = client.post(reverse("armies:validator"), {"text": "<3 see you Friday"})

    page = response.content.decode()
    assert response.context.get("verdict") is None
    assert "This is not a BattleScribe roster: its XML is broken at line 1." in page
    assert "well-formed" not in page
    assert "column" not in page
    assert "invalid token" not in page


def test_the_validate_endpoint_says_where_broken_json_breaks_without_the_parsers_words(
    api_client, real_catalogue
):
    response = _validate(api_client, '{"name": "Zoo",\n "bloc": "Allies" "points_limit": 20}')

    assert response.status_code == 400
    assert response.json()["code"] == "list-format"
    assert response.json()["errors"][0]["message"] == (
        "This is not a list in the JSON format: a comma is missing between two items, at line 2"
    )


def test_validate_list_reads_typed_lines_under_a_bracketed_heading(tmp_path, capsys, real_catalogue):
    path = tmp_path / "list.txt"
    path.write_text(BRACKETED)

    call_command("validate_list", str(path), "--json")

    assert '"unit_ap": 8' in capsys.readouterr().out
