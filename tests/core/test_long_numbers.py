"""A number of thousands of digits is refused in a sentence, never in Python's own words.

Python converts at most 4,300 digits to an int and says so as "Exceeds the limit ... use
sys.set_int_max_str_digits()": every JSON reader passes ``core.numbers.bounded_int``, and every
number read from an address goes through ``core.numbers.whole_number``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from rest_framework.test import APIClient

from core.numbers import NUMBER_TOO_LONG
from exchange.reading import read_upload
from tests.standings.builders import populated_campaign

pytestmark = pytest.mark.django_db

HUGE = "7" * 5000
PYTHON_S_WORDS = "set_int_max_str_digits"


def test_the_api_s_json_parser_refuses_it_in_a_sentence(api_client: APIClient) -> None:
    body = '{"list": {"name": "x", "points_limit": ' + HUGE + "}}"

    response = api_client.post(reverse("api:army-list-validate"), body, content_type="application/json")

    assert response.status_code == 400
    assert PYTHON_S_WORDS not in response.content.decode()
    assert NUMBER_TOO_LONG in response.json()["detail"]


def test_the_map_upload_refuses_it_in_a_sentence(client: Any, campaign: Any, organiser: Any) -> None:
    client.force_login(organiser)
    raw = ('{"format": "zverograd-map", "version": 1, "width": ' + HUGE + "}").encode()

    response = client.post(
        reverse("campaign:map_upload", args=[campaign.pk]),
        {"document": SimpleUploadedFile("map.json", raw, "application/json")},
    )

    assert PYTHON_S_WORDS not in response.content.decode()
    assert NUMBER_TOO_LONG in response.content.decode()


def test_a_campaign_import_refuses_it_in_a_sentence() -> None:
    import io

    from exchange.checks import ImportRefusedError

    raw = (
        json.dumps({"format": "zverograd-campaign", "version": 1}).encode()[:-1]
        + b', "x": '
        + HUGE.encode()
        + b"}"
    )

    with pytest.raises(ImportRefusedError) as refused:
        read_upload(io.BytesIO(raw), len(raw))

    words = " ".join(problem.message for problem in refused.value.problems)
    assert PYTHON_S_WORDS not in words


@pytest.mark.parametrize("value", [HUGE, "²", "１２"])
def test_a_round_asked_for_in_the_address_is_a_number_or_ignored(client: Any, value: str) -> None:
    played = populated_campaign(players=4, rounds=1, seed=3)
    client.force_login(played.organiser)

    response = client.get(reverse("standings:standings", args=[played.pk]), {"round": value})

    assert response.status_code == 200
