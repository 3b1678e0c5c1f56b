"""The public validator endpoint: no account, the same verdict as the validator, clear format errors."""

from __future__ import annotations

import pytest

from armies.services.army_lists import entry_document

pytestmark = pytest.mark.django_db


def _document(catalogue, **overrides):
    document = {
        "format": "zverograd-army-list", "version": 1, "name": "Test", "bloc": "Allies", "faction": None,
        "points_limit": 75, "catalogue_version": catalogue.version, "role": None,
        "entries": [], "platoons": [], "fortifications": [],
    }  # fmt: skip
    document.update(overrides)
    return document


def test_it_validates_a_list_without_an_account(api_client, demo_catalogue):
    document = _document(demo_catalogue, entries=[entry_document("e1", "allies.gulfport-marine-squad")])

    response = api_client.post("/api/army-lists/validate/", {"list": document}, format="json")

    assert response.status_code == 200
    body = response.json()
    assert body["ok"] is True
    assert body["totals"]["paid_ap"] == 6
    assert body["catalogue"]["name"] == "Zverograd Demo"


def test_it_names_every_rule_a_list_breaks(api_client, demo_catalogue):
    document = _document(
        demo_catalogue,
        points_limit=10,
        entries=[
            entry_document("e1", "allies.sergeant-hollis-crane"),
            entry_document("e2", "allies.sergeant-hollis-crane"),
            entry_document("e3", "ssu.medved"),
        ],
    )

    body = api_client.post("/api/army-lists/validate/", document, format="json").json()

    codes = {problem["code"] for problem in body["problems"]}
    assert {"points-limit-exceeded", "duplicate-hero", "wrong-bloc"} <= codes
    assert all(p["message"] for p in body["problems"])


def test_it_answers_a_malformed_list_with_the_path_of_the_mistake(api_client, demo_catalogue):
    document = _document(demo_catalogue, points_limit="lots")

    response = api_client.post("/api/army-lists/validate/", {"list": document}, format="json")

    assert response.status_code == 400
    fields = {error["field"] for error in response.json()["errors"]}
    assert "list.points_limit" in fields


def test_it_refuses_an_unknown_catalogue(api_client, demo_catalogue):
    response = api_client.post(
        "/api/army-lists/validate/", {"list": _document(demo_catalogue), "catalogue": 9999}, format="json"
    )

    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "catalogue"
