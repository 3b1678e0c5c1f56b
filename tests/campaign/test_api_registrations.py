"""Registered lists through the API: register, refusals with their codes, the snapshots, and supersession."""

from __future__ import annotations

import pytest

from armies.services.army_lists import army_list_add_unit
from campaign.models import Registration
from tests.campaign.api_world import build_world
from tests.factories import ArmyListFactory

pytestmark = pytest.mark.django_db


def test_a_player_registers_a_list_and_reads_the_frozen_snapshot() -> None:
    world = build_world()
    army_list = world.player_list()

    created = world.client("player").post(
        world.url("registrations/"), {"army_list": army_list.pk}, format="json"
    )

    assert created.status_code == 201
    body = created.json()
    assert (body["player"], body["total_ap"], body["ok"], body["is_current"]) == ("Pavel", 20, True, True)
    assert body["document"] == army_list.content
    assert [row["paid_ap"] for row in body["costs"]["entries"]] == [20]
    detail = world.client("stranger").get(world.url(f"registrations/{body['id']}/"))
    assert detail.status_code == 404  # a private campaign: the stranger sees nothing of it
    listed = world.client("applicant").get(world.url("registrations/")).json()
    assert [row["id"] for row in listed["results"]] == [body["id"]]


def test_registering_again_supersedes_and_the_list_shows_current_snapshots_unless_asked() -> None:
    world = build_world()
    army_list = world.player_list()
    client = world.client("player")
    first = client.post(world.url("registrations/"), {"army_list": army_list.pk}, format="json").json()
    army_list_add_unit(army_list=army_list, unit_key="ssu-squad")
    second = client.post(world.url("registrations/"), {"army_list": army_list.pk}, format="json").json()

    current = client.get(world.url("registrations/")).json()["results"]
    everything = client.get(world.url("registrations/?all=true")).json()["results"]

    assert [row["id"] for row in current] == [second["id"]]
    assert {row["id"] for row in everything} == {first["id"], second["id"]}
    assert Registration.objects.get(pk=first["id"]).superseded_by_id == second["id"]


def test_someone_elses_list_is_refused_with_its_code() -> None:
    world = build_world()
    others = ArmyListFactory(owner=world.stranger, catalogue=world.campaign.catalogue, bloc="SSU")

    response = world.client("player").post(
        world.url("registrations/"), {"army_list": others.pk}, format="json"
    )

    assert response.status_code == 400
    assert (response.json()["code"], response.json()["errors"][0]["field"]) == ("not-your-list", "army_list")
    assert not Registration.objects.exists()


def test_a_list_with_errors_is_refused_naming_the_problem() -> None:
    world = build_world()
    empty = ArmyListFactory(owner=world.player, catalogue=world.campaign.catalogue, bloc="SSU")

    response = world.client("player").post(
        world.url("registrations/"), {"army_list": empty.pk}, format="json"
    )

    assert response.status_code == 400
    assert response.json()["code"] == "list-has-errors"
    assert "has no units" in response.json()["detail"]
    assert "empty-list" in [error["code"] for error in response.json()["errors"]]


@pytest.mark.parametrize(("value", "status"), [(0, 400), (2**63, 400), ("seven", 400), (2**63 - 1, 404)])
def test_the_list_id_is_bounded(value, status) -> None:
    world = build_world()

    response = world.client("player").post(world.url("registrations/"), {"army_list": value}, format="json")

    assert response.status_code == status
