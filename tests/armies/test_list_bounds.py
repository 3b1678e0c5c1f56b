"""Every bound of an army list at its edge, just over it and absurdly over it, everywhere a list enters.

One constant per bound (armies.validation.limits) is read by the list format's
schema, the pages' forms, the API's serializers and the model.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from armies.forms import ArmyListSettingsForm, ListDocumentForm
from armies.models import ArmyList
from armies.services.army_lists import entry_document
from armies.validation import limits
from armies.validation.listformat import army_list_schema
from core.parsers import MAX_JSON_BODY_BYTES
from tests.factories import ArmyListFactory

pytestmark = pytest.mark.django_db

VALIDATE = "/api/army-lists/validate/"


def _document(catalogue: Any, **overrides: Any) -> dict[str, Any]:
    document = {
        "format": "zverograd-army-list", "version": 1, "name": "Test", "bloc": "Allies", "faction": None,
        "points_limit": 75, "catalogue_version": catalogue.version, "role": None,
        "entries": [], "platoons": [], "fortifications": [],
    }  # fmt: skip
    document.update(overrides)
    return document


def _entries(count: int) -> list[dict[str, Any]]:
    return [entry_document(f"e{n}", "allies.gulfport-marine-squad") for n in range(count)]


def test_the_schema_states_the_same_bounds_as_the_constants():
    schema = army_list_schema()
    top, defs = schema["properties"], schema["$defs"]
    assert top["name"]["maxLength"] == limits.NAME_MAX_LENGTH
    assert top["bloc"]["maxLength"] == limits.BLOC_MAX_LENGTH
    assert top["catalogue_version"]["maxLength"] == limits.CATALOGUE_VERSION_MAX_LENGTH
    assert (top["points_limit"]["minimum"], top["points_limit"]["maximum"]) == (
        limits.POINTS_LIMIT_MIN, limits.POINTS_LIMIT_MAX,
    )  # fmt: skip
    assert top["entries"]["maxItems"] == limits.MAX_ENTRIES
    assert top["platoons"]["maxItems"] == limits.MAX_PLATOONS
    assert top["fortifications"]["maxItems"] == limits.MAX_FORTIFICATIONS
    assert defs["platoon"]["properties"]["members"]["maxItems"] == limits.MAX_PLATOON_MEMBERS
    assert defs["key"]["maxLength"] == limits.KEY_MAX_LENGTH
    assert defs["id"]["pattern"].endswith(f"{{0,{limits.ID_MAX_LENGTH - 1}}}$")


def test_the_model_stores_whatever_the_format_admits():
    fields = {field.name: field for field in ArmyList._meta.get_fields()}
    assert fields["name"].max_length == limits.NAME_MAX_LENGTH
    assert fields["bloc"].max_length == limits.BLOC_MAX_LENGTH
    assert fields["faction"].max_length == limits.KEY_MAX_LENGTH


@pytest.mark.parametrize(
    ("count", "accepted"),
    [(limits.MAX_ENTRIES, True), (limits.MAX_ENTRIES + 1, False), (3_000, False)],
)
def test_it_bounds_the_entries_of_a_list_to_validate(api_client, demo_catalogue, count, accepted):
    document = _document(demo_catalogue, entries=_entries(count))

    started = time.monotonic()
    response = api_client.post(VALIDATE, {"list": document}, format="json")
    elapsed = time.monotonic() - started

    if accepted:
        assert response.status_code == 200
        return
    assert response.status_code == 400
    body = response.json()
    assert body["errors"][0]["field"] == "list.entries"
    assert f"at most {limits.MAX_ENTRIES}" in body["errors"][0]["message"]
    # The refusal is about the size, not a copy of the array.
    assert len(response.content) < 1_000
    assert elapsed < 5  # generous: a regression to walking every entry shows up as a pathological time


def test_it_quotes_only_an_excerpt_of_a_huge_string(api_client, demo_catalogue):
    document = _document(demo_catalogue, entries=[entry_document("e1", "x" * 100_000)])

    response = api_client.post(VALIDATE, {"list": document}, format="json")

    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert error["field"] == "list.entries[0].unit"
    assert f"at most {limits.KEY_MAX_LENGTH} characters" in error["message"]
    assert len(response.content) < 1_000


def test_it_names_an_unknown_field_without_repeating_the_document(api_client, demo_catalogue):
    document = _document(demo_catalogue, **{f"extra{n}": n for n in range(5_000)})

    response = api_client.post(VALIDATE, {"list": document}, format="json")

    assert response.status_code == 400
    assert "and 4,997 more" in response.json()["errors"][0]["message"]
    assert len(response.content) < 1_000


def test_it_refuses_a_ten_thousand_entry_list_by_its_size(api_client, demo_catalogue):
    document = _document(demo_catalogue, entries=_entries(10_000))

    response = api_client.post(VALIDATE, {"list": document}, format="json")

    assert response.status_code == 413
    assert len(response.content) < 1_000


def test_it_counts_a_platoon_s_members_before_the_schema_reads_them(api_client, demo_catalogue):
    members = ["e1"] * (limits.MAX_PLATOON_MEMBERS * 100)
    document = _document(
        demo_catalogue, platoons=[{"id": "p1", "chart": "x", "members": members}, "not a platoon"]
    )

    response = api_client.post(VALIDATE, {"list": document}, format="json")

    assert response.status_code == 400
    assert response.json()["errors"] == [
        {
            "field": "list.platoons[0].members",
            "code": "list-format",
            "message": f"too many items: at most {limits.MAX_PLATOON_MEMBERS} (got 3,000)",
        }
    ]


def test_it_refuses_a_body_over_the_json_bound_before_parsing_it(api_client):
    body = json.dumps({"list": {"name": "x" * (MAX_JSON_BODY_BYTES + 10)}})

    response = api_client.post(VALIDATE, body, content_type="application/json")

    assert response.status_code == 413
    assert response.json()["code"] == "too-large"


def test_it_refuses_json_nested_too_deeply(api_client):
    response = api_client.post(VALIDATE, "[" * 50_000 + "]" * 50_000, content_type="application/json")

    assert response.status_code == 400
    assert "nested too deeply" in response.json()["detail"]


@pytest.mark.parametrize(("points", "status"), [(limits.POINTS_LIMIT_MAX, 200), (limits.POINTS_LIMIT_MAX + 1, 400),
                                                (10**12, 400)])  # fmt: skip
def test_it_bounds_the_points_limit_the_same_on_the_api_as_in_the_document(
    api_as, demo_catalogue, player, points, status
):
    army_list = ArmyListFactory(owner=player, catalogue=demo_catalogue, bloc="Allies", points_limit=20)
    client = api_as(player)

    response = client.put(
        f"/api/army-lists/{army_list.pk}/settings/",
        {"name": "Fine", "bloc": "Allies", "points_limit": points},
        format="json",
    )

    assert response.status_code == status
    if status == 400:
        assert response.json()["errors"][0]["field"] == "points_limit"


@pytest.mark.parametrize(
    ("length", "status"), [(limits.NAME_MAX_LENGTH, 201), (limits.NAME_MAX_LENGTH + 1, 400)]
)
def test_it_bounds_the_name_the_same_on_the_api_as_in_the_model(
    api_as, demo_catalogue, player, length, status
):
    response = api_as(player).post(
        "/api/army-lists/",
        {"catalogue": demo_catalogue.pk, "name": "n" * length, "bloc": "Allies", "points_limit": 150},
        format="json",
    )

    assert response.status_code == status


def test_a_list_made_on_the_page_at_the_bounds_is_accepted_by_the_api(api_as, demo_catalogue, player):
    army_list = ArmyListFactory(owner=player, catalogue=demo_catalogue, bloc="Allies", points_limit=20)
    form = ArmyListSettingsForm(
        {
            "name": "n" * limits.NAME_MAX_LENGTH,
            "points_limit": limits.POINTS_LIMIT_MAX,
            "faction": "",
            "role": "",
        },
        army_list=army_list,
        plain=_plain(demo_catalogue),
    )
    assert form.is_valid(), form.errors

    response = api_as(player).put(
        f"/api/army-lists/{army_list.pk}/settings/",
        {
            "name": form.cleaned_data["name"],
            "bloc": "Allies",
            "points_limit": form.cleaned_data["points_limit"],
        },
        format="json",
    )

    assert response.status_code == 200


def test_the_settings_form_refuses_just_over_the_bounds(demo_catalogue, player):
    army_list = ArmyListFactory(owner=player, catalogue=demo_catalogue, bloc="Allies", points_limit=20)
    form = ArmyListSettingsForm(
        {"name": "n" * (limits.NAME_MAX_LENGTH + 1), "points_limit": limits.POINTS_LIMIT_MAX + 1},
        army_list=army_list,
        plain=_plain(demo_catalogue),
    )

    assert not form.is_valid()
    assert set(form.errors) >= {"name", "points_limit"}


def test_the_paste_form_refuses_text_over_the_document_bound():
    form = ListDocumentForm({"text": " " * (limits.MAX_DOCUMENT_BYTES + 1)})

    assert not form.is_valid()
    assert "text" in form.errors


def _plain(catalogue: Any) -> Any:
    from armies.selectors import catalogue_for_validation

    return catalogue_for_validation(catalogue=catalogue)
