"""The army-list API: owner only, every write through the services, errors with codes and fields."""

from __future__ import annotations

import pytest

from armies.models import ArmyList
from tests.factories import ArmyListFactory, UnitFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def army_list(demo_catalogue, player):
    return ArmyListFactory(owner=player, catalogue=demo_catalogue, bloc="SSU", name="Volga push")


def test_it_creates_a_list_for_the_caller(api_as, player, demo_catalogue):
    response = api_as(player).post(
        "/api/army-lists/",
        {"catalogue": demo_catalogue.pk, "name": "Red dawn", "bloc": "SSU", "points_limit": 75},
        format="json",
    )

    assert response.status_code == 201
    created = ArmyList.objects.get(pk=response.json()["id"])
    assert created.owner == player
    assert created.content["catalogue_version"] == demo_catalogue.version
    assert created.content["entries"] == []


def test_it_lists_only_the_callers_lists(api_as, army_list, stranger, demo_catalogue):
    ArmyListFactory(owner=stranger, catalogue=demo_catalogue)

    names = [item["name"] for item in api_as(army_list.owner).get("/api/army-lists/").json()]

    assert names == ["Volga push"]


@pytest.mark.parametrize("persona", ["organiser", "stranger"])
def test_it_hides_a_list_from_anyone_but_its_owner(api_as, army_list, persona, request):
    client = api_as(request.getfixturevalue(persona))

    assert client.get(f"/api/army-lists/{army_list.pk}/").status_code == 404
    assert client.get(f"/api/army-lists/{army_list.pk}/verdict/").status_code == 404
    assert client.delete(f"/api/army-lists/{army_list.pk}/").status_code == 404
    assert ArmyList.objects.filter(pk=army_list.pk).exists()


def test_it_refuses_anonymous_callers(api_client, army_list):
    assert api_client.get("/api/army-lists/").status_code in {401, 403}
    assert api_client.get(f"/api/army-lists/{army_list.pk}/").status_code in {401, 403}


def test_it_returns_the_verdict_of_the_stored_list(api_as, army_list):
    content = dict(army_list.content)
    content["entries"] = [
        {"id": "e1", "unit": "ssu.volga-rifle-squad", "joined_to": None, "pilot_of": None, "captured": False,
         "reserve": False, "platoon": None, "slot": None},
    ]  # fmt: skip
    content["points_limit"] = 5
    client = api_as(army_list.owner)
    assert (
        client.put(f"/api/army-lists/{army_list.pk}/", {"content": content}, format="json").status_code == 200
    )

    verdict = client.get(f"/api/army-lists/{army_list.pk}/verdict/").json()

    assert verdict["ok"] is False
    assert verdict["totals"]["gross_ap"] == 6
    assert "points-limit-exceeded" in {p["code"] for p in verdict["problems"]}


def test_it_refuses_content_that_is_not_a_list_and_keeps_the_old_one(api_as, army_list):
    before = army_list.content
    bad = {**before, "entries": [{"id": "e1"}]}

    response = api_as(army_list.owner).put(
        f"/api/army-lists/{army_list.pk}/", {"content": bad}, format="json"
    )

    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert error["code"] == "list-format"
    assert error["field"].startswith("content.entries[0]")
    army_list.refresh_from_db()
    assert army_list.content == before


def test_it_round_trips_an_export_through_import_exactly(api_as, army_list):
    client = api_as(army_list.owner)
    exported = client.get(f"/api/army-lists/{army_list.pk}/export/").json()

    created = client.post("/api/army-lists/import/", {"list": exported}, format="json")

    assert created.status_code == 201
    assert ArmyList.objects.get(pk=created.json()["id"]).content == exported


def test_it_exports_plain_text_for_a_chat(api_as, army_list):
    text = api_as(army_list.owner).get(f"/api/army-lists/{army_list.pk}/export/?as=text").json()["text"]

    assert text.startswith("Volga push")


def test_it_duplicates_a_list_for_its_owner(api_as, army_list):
    response = api_as(army_list.owner).post(f"/api/army-lists/{army_list.pk}/duplicate/")

    assert response.status_code == 201
    copy = ArmyList.objects.get(pk=response.json()["id"])
    assert copy.name == "Volga push (copy)"
    assert copy.pk != army_list.pk


def test_it_lets_the_owner_delete_a_list(api_as, army_list):
    assert api_as(army_list.owner).delete(f"/api/army-lists/{army_list.pk}/").status_code == 204
    assert not ArmyList.objects.filter(pk=army_list.pk).exists()


def test_it_lists_catalogue_units_with_filters(api_client, demo_catalogue):
    UnitFactory(catalogue=demo_catalogue, key="zz-extra", bloc="SSU", unit_type="aircraft")

    units = api_client.get(f"/api/catalogues/{demo_catalogue.pk}/units/?bloc=SSU&unit_type=aircraft").json()

    assert {u["key"] for u in units} == {"ssu.strekoza", "zz-extra"}
