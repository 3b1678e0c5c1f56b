"""The builder's actions through the API: each change answers the list and its fresh verdict."""

from __future__ import annotations

import pytest

from armies.models import ArmyList
from tests.factories import ArmyListFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def army_list(demo_catalogue, player):
    return ArmyListFactory(owner=player, catalogue=demo_catalogue, bloc="Allies", points_limit=20)


@pytest.fixture
def client(api_as, army_list):
    return api_as(army_list.owner)


def _url(army_list, tail=""):
    return f"/api/army-lists/{army_list.pk}/{tail}"


def test_it_adds_a_unit_and_answers_the_new_verdict(client, army_list):
    response = client.post(
        _url(army_list, "entries/"), {"unit": "allies.gulfport-marine-squad"}, format="json"
    )

    assert response.status_code == 201
    body = response.json()
    assert [e["unit"] for e in body["list"]["content"]["entries"]] == ["allies.gulfport-marine-squad"]
    assert body["verdict"]["totals"]["gross_ap"] == 6


def test_it_shows_a_problem_appear_and_clear(client, army_list):
    client.post(_url(army_list, "entries/"), {"unit": "allies.ironclad-bison"}, format="json")
    over = client.post(
        _url(army_list, "entries/"), {"unit": "allies.gulfport-marine-squad"}, format="json"
    ).json()
    assert "points-limit-exceeded" in {p["code"] for p in over["verdict"]["problems"]}

    cleared = client.delete(_url(army_list, "entries/e1/")).json()

    assert cleared["verdict"]["ok"] is True


def test_it_joins_a_hero_to_a_unit(client, army_list):
    client.post(_url(army_list, "entries/"), {"unit": "allies.gulfport-marine-squad"}, format="json")
    client.post(_url(army_list, "entries/"), {"unit": "allies.sergeant-hollis-crane"}, format="json")

    response = client.patch(_url(army_list, "entries/e2/"), {"joined_to": "e1"}, format="json")

    assert response.status_code == 200
    assert response.json()["list"]["content"]["entries"][1]["joined_to"] == "e1"


def test_it_names_the_field_and_code_of_a_refused_change(client, army_list):
    response = client.post(_url(army_list, "entries/"), {"unit": "no-such-unit"}, format="json")

    assert response.status_code == 400
    assert response.json()["errors"] == [
        {
            "field": "unit",
            "code": "list-unit-unknown",
            "message": "'no-such-unit' is not in the list's catalogue",
        }
    ]


def test_it_claims_and_drops_a_platoon(client, army_list):
    added = client.post(
        _url(army_list, "platoons/"), {"chart": "allies.gulfport-raider-platoon"}, format="json"
    )
    assert added.status_code == 201

    removed = client.delete(_url(army_list, "platoons/p1/"))

    assert removed.json()["list"]["content"]["platoons"] == []


def test_it_buys_a_fortification_only_a_defender_may_field(client, army_list):
    body = client.post(_url(army_list, "fortifications/"), {"kind": "bunker"}, format="json").json()
    assert "fortification-role-unknown" in {p["code"] for p in body["verdict"]["problems"]}

    settings = {"name": "Hold the Zoo", "bloc": "Allies", "points_limit": 40, "role": "defender"}
    body = client.put(_url(army_list, "settings/"), settings, format="json").json()

    assert body["list"]["role"] == "defender"
    assert "fortification-role-unknown" not in {p["code"] for p in body["verdict"]["problems"]}
    assert (
        client.delete(_url(army_list, "fortifications/f1/")).json()["list"]["content"]["fortifications"] == []
    )


@pytest.mark.parametrize("persona", ["organiser", "stranger"])
def test_it_lets_no_one_but_the_owner_change_a_list(api_as, army_list, persona, request):
    other = api_as(request.getfixturevalue(persona))

    responses = [
        other.post(_url(army_list, "entries/"), {"unit": "allies.gulfport-marine-squad"}, format="json"),
        other.put(
            _url(army_list, "settings/"),
            {"name": "Mine", "bloc": "Allies", "points_limit": 50},
            format="json",
        ),
        other.post(_url(army_list, "fortifications/"), {"kind": "bunker"}, format="json"),
    ]

    assert [r.status_code for r in responses] == [404, 404, 404]
    assert ArmyList.objects.get(pk=army_list.pk).content == army_list.content


def test_it_refuses_anonymous_changes(api_client, army_list):
    response = api_client.post(
        _url(army_list, "entries/"), {"unit": "allies.gulfport-marine-squad"}, format="json"
    )

    assert response.status_code in {401, 403}
