"""The public validator page gives the API's verdict, to anyone."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from armies.models import Catalogue
from tests.factories import CatalogueFactory

pytestmark = pytest.mark.django_db

URL = "/validator/"
HTMX = {"HX-Request": "true"}

LIST_TEXT = re.compile(r'<pre data-testid="list-text"><code>.*?</code></pre>', re.S)


@pytest.fixture
def demo(demo_catalogue: Catalogue) -> Catalogue:
    """The project's demo catalogue (tests/armies/conftest.py)."""
    return demo_catalogue


def entry(entry_id: str, unit: str, **fields: Any) -> dict[str, Any]:
    blank = dict.fromkeys(("joined_to", "pilot_of", "platoon", "slot")) | {
        "captured": False,
        "reserve": False,
    }
    return {"id": entry_id, "unit": unit, **blank, **fields}


def document(demo: Catalogue, **fields: Any) -> dict[str, Any]:
    return {
        "format": "zverograd-army-list",
        "version": 1,
        "name": "Harbour raid",
        "bloc": "Allies",
        "faction": "coastal-raiders",
        "points_limit": 50,
        "catalogue_version": demo.version,
        "role": "attacker",
        "entries": [
            entry("e1", "allies.gulfport-assault-squad"),
            entry("e2", "allies.gulfport-marine-squad"),
            entry("e3", "allies.jude-calloway", joined_to="e1"),
            entry("e4", "allies.jude-calloway"),
            entry("e5", "axis.barwolf", captured=True),
            entry("e6", "allies.ironclad-bison"),
        ],
        "platoons": [],
        "fortifications": [{"id": "f1", "kind": "bunker", "unit": None}],
        **fields,
    }


def test_it_shows_the_form_to_anyone(client):
    response = client.get(URL)

    assert response.status_code == 200
    assert "Check an army list" in response.content.decode()


@pytest.mark.parametrize("who", ["anonymous", "stranger", "player"])
def test_it_checks_a_list_for_anyone(client, demo, request, who):
    if who != "anonymous":
        client.force_login(request.getfixturevalue(who))

    response = client.post(URL, {"text": json.dumps(document(demo))})

    assert response.status_code == 200
    assert response.context["verdict"].errors


FACTION_FORCE = {
    "faction": "coastal-raiders",
    "points_limit": 30,
    "role": None,
    "entries": [
        entry("e1", "allies.gulfport-assault-squad"),
        entry("e2", "allies.gulfport-marine-squad"),
        entry("e3", "allies.wren-calloway", joined_to="e1"),
        entry("e4", "allies.sergeant-hollis-crane", joined_to="e2"),
    ],
    "fortifications": [],
}


@pytest.mark.parametrize("fields", [{}, FACTION_FORCE], ids=["faulty", "faction-force-with-bonus"])
def test_it_gives_the_same_verdict_as_the_api(client, api_client, demo, fields):
    doc = document(demo, **fields)

    page = client.post(URL, {"text": json.dumps(doc)})
    api = api_client.post("/api/army-lists/validate/", {"list": doc}, format="json").json()

    verdict = page.context["verdict"].to_dict()
    assert [p["code"] for p in verdict["problems"]] == [p["code"] for p in api["problems"]]
    assert verdict["totals"] == api["totals"]
    assert verdict["ok"] is api["ok"]
    html = page.content.decode()
    for problem in api["problems"]:
        assert problem["code"] in html
    assert f"{api['totals']['paid_ap']} / {doc['points_limit']} AP" in html
    for use in api["totals"]["bonus_uses"]:
        assert f" ({use['ap']} AP)" in html
        # A unit is named, never by its id (the list's text format, for copying, keeps its ids).
        assert f"[{use['entry_id']}]" not in LIST_TEXT.sub("", html)
    assert page.context["catalogue"].pk == api["catalogue"]["id"]


def test_it_uses_the_catalogue_chosen_over_the_one_the_list_names(client, api_client, demo):
    empty = CatalogueFactory(name="Empty", version="0", blocs=["Allies"])
    doc = document(demo)

    page = client.post(URL, {"text": json.dumps(doc), "catalogue": empty.pk})
    api = api_client.post(
        "/api/army-lists/validate/", {"list": doc, "catalogue": empty.pk}, format="json"
    ).json()

    assert page.context["catalogue"] == empty
    assert [p["code"] for p in page.context["verdict"].to_dict()["problems"]] == [
        p["code"] for p in api["problems"]
    ]
    assert "unknown-unit" in page.content.decode()


def test_it_shows_the_list_as_text(client, demo):
    page = client.post(URL, {"text": json.dumps(document(demo, entries=[entry("e1", "allies.longhorn")]))})

    html = page.content.decode()
    assert "Harbour raid\nAllies | " in html
    assert "Longhorn [e1]: 15 AP" in html


def test_it_reads_an_uploaded_file(client, demo):
    upload = SimpleUploadedFile("list.json", json.dumps(document(demo)).encode(), "application/json")

    response = client.post(URL, {"file": upload})

    assert response.context["verdict"] is not None
    assert "&quot;Harbour raid&quot;" in response.content.decode()  # the file's text is shown in the box


def test_it_lists_format_errors_with_their_paths(client, demo):
    doc = document(demo, version=2)
    doc["entries"][1]["reserve"] = "no"

    response = client.post(URL, {"text": json.dumps(doc)})

    html = response.content.decode()
    errors = response.context["form"].format_errors
    assert errors[0][0] == "$.version"  # a wrong version is said first
    assert ("$.entries[1].reserve", "must be a boolean (true or false) (got a string)") in errors
    assert "<code>$.entries[1].reserve</code>" in html
    assert "verdict" not in response.context or response.context.get("verdict") is None


def test_it_answers_htmx_with_the_result_panel_only(client, demo):
    response = client.post(URL, {"text": json.dumps(document(demo))}, headers=HTMX)

    html = response.content.decode()
    assert html.lstrip().startswith('<section id="validator-result"')
    assert "<html" not in html
    assert "duplicate-hero" in html


def test_it_tells_htmx_what_is_missing(client, demo):
    response = client.post(URL, {"text": "  "}, headers=HTMX)

    assert "Paste a list or choose a file." in response.content.decode()


def test_it_says_when_there_is_no_catalogue(client):
    response = client.post(URL, {"text": json.dumps(document(Catalogue(version="1")))})

    assert "No catalogue has been imported yet" in response.content.decode()
    assert response.context["form"].has_error("catalogue", "catalogue-missing")
