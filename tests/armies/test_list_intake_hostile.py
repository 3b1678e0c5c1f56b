"""Hostile lists at every door a list comes in by (the validator page, the import page, their API
endpoints and ``validate_list``): each is answered at once with a sentence (a stable code on the API),
never a 500, a traceback or a parser's words (review of issue 21)."""

from __future__ import annotations

import base64
import io
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from armies.validation import limits

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
