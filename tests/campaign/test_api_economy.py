"""The economy endpoints: balances, the ledger and its filters, an organiser's adjustment, fortification
purchases; and the mission library. Each success, and each refusal with its status, code and field."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.engine.map import Terrain
from campaign.engine.missions import MISSIONS, suggested_mission
from campaign.models import Campaign, EntryKind, FortificationPurchase, ResourceEntry, Sector
from campaign.options import ResourceHolder, Status
from campaign.services.economy import Holder, ledger_adjust
from tests.campaign.api_world import World, build_world

pytestmark = pytest.mark.django_db


def problem(response: Any) -> tuple[int, str, str]:
    body = response.json()
    return response.status_code, body["code"], body["errors"][0]["field"] if body["errors"] else ""


def field_problem(response: Any) -> tuple[int, str, str]:
    error = response.json()["errors"][0]
    return response.status_code, error["field"], error["code"]


@pytest.fixture
def world() -> World:
    return build_world(status=Status.RUNNING)


def per_player(world: World) -> None:
    Campaign.objects.filter(pk=world.campaign.pk).update(resources_held_by=ResourceHolder.PLAYER)
    world.campaign.refresh_from_db()


def ssu_balance(world: World) -> int:
    rows = world.client("player").get(world.url("balances/")).json()
    return int(next(row["balance"] for row in rows if row["holder"] == "SSU"))


# --------------------------------------------------------------------------- balances and the ledger


def test_the_balances_are_the_sums_of_each_blocs_entries(world):
    world.fund("SSU", 7)
    world.fund("Axis", 2)
    world.fund("SSU", -3)

    rows = world.client("player").get(world.url("balances/")).json()

    # Allies (the placeholder's bloc) earned nothing yet and is listed at 0; Axis has no admitted
    # player but has entries, so it is listed too.
    assert [(row["bloc"], row["holder"], row["place"], row["balance"]) for row in rows] == [
        ("Allies", "Allies", None, 0),
        ("Axis", "Axis", None, 2),
        ("SSU", "SSU", None, 4),
    ]


def test_where_resources_are_per_player_each_player_has_a_balance(world):
    per_player(world)
    for place, amount in ((world.player_place, 5), (world.placeholder, 2)):
        ledger_adjust(campaign=world.campaign, holder=Holder(enrolment=place), amount=amount, reason="start",
                      actor=world.creator)  # fmt: skip

    rows = world.client("player").get(world.url("balances/")).json()

    assert [(row["bloc"], row["place"]["name"], row["balance"]) for row in rows] == [
        ("Allies", "Grisha", 2),
        ("SSU", "Pavel", 5),
    ]


def test_the_ledger_is_newest_first_with_who_and_why(world):
    world.fund("SSU", 7)
    world.fund("Axis", 2)

    body = world.client("player").get(world.url("ledger/")).json()

    assert body["count"] == 2
    rows = body["results"]
    assert [(r["bloc"], r["amount"], r["kind"], r["reason"]) for r in rows] == [
        ("Axis", 2, "adjustment", "war chest"),
        ("SSU", 7, "adjustment", "war chest"),
    ]
    assert rows[0]["actor"]["username"] == "olga"
    assert (rows[0]["place"], rows[0]["reverses"], rows[0]["round_number"]) == (None, None, 0)


def test_the_ledger_is_filtered_by_bloc_or_by_player(world):
    world.fund("SSU", 7)
    world.fund("Axis", 2)
    client = world.client("player")

    by_bloc = client.get(world.url("ledger/?bloc=SSU")).json()["results"]
    per_player(world)
    ledger_adjust(campaign=world.campaign, holder=Holder(enrolment=world.player_place), amount=4, reason="loot",
                  actor=world.creator)  # fmt: skip
    by_player = client.get(world.url(f"ledger/?player={world.player_place.pk}")).json()["results"]

    assert [row["amount"] for row in by_bloc] == [7]
    assert [(row["amount"], row["place"]["id"], row["bloc"]) for row in by_player] == [
        (4, world.player_place.pk, None)
    ]


def test_a_ledger_filter_out_of_its_choices_is_refused(world):
    assert field_problem(world.client("player").get(world.url("ledger/?bloc=Martians"))) == (
        400, "bloc", "invalid_choice",
    )  # fmt: skip


def test_an_organiser_adjusts_a_balance_with_a_reason(world):
    response = world.client("co_organiser").post(
        world.url("ledger/"), {"bloc": "SSU", "amount": 6, "reason": "Captured a supply dump"}, format="json"
    )

    assert response.status_code == 201
    assert (response.json()["kind"], response.json()["amount"], response.json()["actor"]["username"]) == (
        "adjustment", 6, "cora",
    )  # fmt: skip
    assert ssu_balance(world) == 6


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"amount": 5, "reason": "x"}, (400, "", "one-holder")),
        ({"bloc": "SSU", "player": 1, "amount": 5, "reason": "x"}, (400, "", "one-holder")),
        ({"bloc": "SSU", "amount": 0, "reason": "x"}, (400, "amount", "out-of-range")),
        ({"bloc": "SSU", "amount": 1001, "reason": "x"}, (400, "amount", "max_value")),
        ({"bloc": "SSU", "amount": 5, "reason": ""}, (400, "reason", "blank")),
        ({"bloc": "SSU", "amount": 5, "reason": "   "}, (400, "reason", "blank")),
        ({"bloc": "SSU", "amount": -1, "reason": "fine"}, (409, "amount", "balance-too-low")),
    ],
)
def test_bad_adjustments_are_refused_and_the_ledger_is_unchanged(world, body, expected):
    response = world.client("creator").post(world.url("ledger/"), body, format="json")

    assert field_problem(response) == expected
    assert not ResourceEntry.objects.exists()


def test_an_adjustment_names_the_holder_the_campaign_keeps_resources_for(world):
    by_player = world.client("creator").post(
        world.url("ledger/"), {"player": world.player_place.pk, "amount": 5, "reason": "x"}, format="json"
    )
    per_player(world)
    by_bloc = world.client("creator").post(world.url("ledger/"), {"bloc": "SSU", "amount": 5, "reason": "x"},
                                           format="json")  # fmt: skip
    unknown = world.client("creator").post(world.url("ledger/"), {"player": 999_999, "amount": 5, "reason": "x"},
                                           format="json")  # fmt: skip

    assert problem(by_player) == (400, "wrong-holder", "player")
    assert problem(by_bloc) == (400, "wrong-holder", "bloc")
    assert problem(unknown) == (400, "unknown-player", "player")
    assert not ResourceEntry.objects.exists()


# --------------------------------------------------------------------------- purchases


def test_a_player_buys_a_strongpoint_for_a_sector_their_bloc_holds_and_the_map_shows_it(world):
    world.fund("SSU", 10)
    client = world.client("player")

    response = client.post(world.url("purchases/"), {"sector": "workers-settlement", "kind": "strongpoint"},
                           format="json")  # fmt: skip

    assert response.status_code == 201
    body = response.json()
    assert (body["kind"], body["cost"], body["upgrade"], body["bought_by"]["name"]) == ("strongpoint", 3, False,
                                                                                        "Pavel")  # fmt: skip
    assert body["sector"]["fortification"] == "strongpoint"
    assert ssu_balance(world) == 7
    sectors = client.get(world.url("sectors/")).json()["sectors"]
    assert next(s["fortification"] for s in sectors if s["key"] == "workers-settlement") == "strongpoint"
    listed = client.get(world.url("purchases/")).json()["results"]
    assert [row["id"] for row in listed] == [body["id"]]


def test_a_strongpoint_is_upgraded_to_a_bunker_for_the_difference(world):
    world.fund("SSU", 5)
    client = world.client("player")
    client.post(
        world.url("purchases/"), {"sector": "workers-settlement", "kind": "strongpoint"}, format="json"
    )

    upgrade = client.post(
        world.url("purchases/"), {"sector": "workers-settlement", "kind": "bunker"}, format="json"
    )
    again = client.post(
        world.url("purchases/"), {"sector": "workers-settlement", "kind": "bunker"}, format="json"
    )

    assert (upgrade.status_code, upgrade.json()["upgrade"], upgrade.json()["cost"]) == (201, True, 2)
    assert problem(again) == (409, "already-fortified", "kind")
    assert ssu_balance(world) == 0


def test_a_purchase_over_the_balance_is_refused_and_changes_nothing(world):
    world.fund("SSU", 4)

    response = world.client("player").post(world.url("purchases/"), {"sector": "workers-settlement",
                                                                     "kind": "bunker"}, format="json")  # fmt: skip

    assert problem(response) == (409, "balance-too-low", "kind")
    assert "costs 5" in response.json()["detail"]
    assert not FortificationPurchase.objects.exists()
    assert ResourceEntry.objects.count() == 1
    assert Sector.objects.get(campaign=world.campaign, key="workers-settlement").fortification == "none"


@pytest.mark.parametrize(
    ("sector", "code"),
    [("riverside", "not-your-sector"), ("zoo", "not-your-sector"), ("atlantis", "unknown-sector")],
)
def test_a_purchase_for_a_sector_the_bloc_does_not_hold_is_refused(world, sector, code):
    world.fund("SSU", 10)

    response = world.client("player").post(world.url("purchases/"), {"sector": sector, "kind": "strongpoint"},
                                           format="json")  # fmt: skip

    assert problem(response) == (400, code, "sector")
    assert not FortificationPurchase.objects.exists()
    assert ssu_balance(world) == 10


@pytest.mark.parametrize("kind", ["strongpoint", "bunker"])
def test_nothing_is_bought_for_the_blocs_own_headquarters(world, kind):
    world.fund("SSU", 10)

    response = world.client("player").post(world.url("purchases/"), {"sector": "tractor-works", "kind": kind},
                                           format="json")  # fmt: skip

    assert problem(response) == (400, "headquarters-not-fortifiable", "sector")
    assert "The Tractor Works is the SSU headquarters, which is never attacked" in response.json()["detail"]
    assert not FortificationPurchase.objects.exists()
    assert ssu_balance(world) == 10
    assert Sector.objects.get(campaign=world.campaign, key="tractor-works").fortification == "strongpoint"


def test_where_resources_are_per_player_only_the_player_holding_the_sector_buys(world):
    per_player(world)
    ledger_adjust(campaign=world.campaign, holder=Holder(enrolment=world.player_place), amount=5, reason="start",
                  actor=world.creator)  # fmt: skip
    sector = Sector.objects.get(campaign=world.campaign, key="workers-settlement")
    body = {"sector": "workers-settlement", "kind": "strongpoint"}

    not_held = world.client("player").post(world.url("purchases/"), body, format="json")
    Sector.objects.filter(pk=sector.pk).update(held_by=world.player_place)
    held = world.client("player").post(world.url("purchases/"), body, format="json")

    assert problem(not_held) == (400, "not-your-sector", "sector")
    assert held.status_code == 201
    balance = world.client("player").get(world.url("balances/")).json()
    # The placeholder (admitted, Allies) has earned nothing: listed at 0.
    assert [(row["place"]["id"], row["balance"]) for row in balance] == [
        (world.placeholder.pk, 0),
        (world.player_place.pk, 2),
    ]


def test_an_unknown_fortification_is_refused_at_its_field(world):
    response = world.client("player").post(world.url("purchases/"), {"sector": "workers-settlement",
                                                                     "kind": "moat"}, format="json")  # fmt: skip

    assert field_problem(response) == (400, "kind", "invalid_choice")


def test_no_fortification_is_bought_once_the_campaign_is_finished(world):
    world.fund("SSU", 10)
    world.set_status(Status.FINISHED)

    response = world.client("player").post(world.url("purchases/"), {"sector": "workers-settlement",
                                                                     "kind": "strongpoint"}, format="json")  # fmt: skip

    assert problem(response)[:2] == (409, "campaign-not-running")


# --------------------------------------------------------------------------- the mission library


def test_the_mission_library_lists_every_mission_and_each_terrains_suggestion(api_client):
    body = api_client.get("/api/missions/").json()

    assert body["missions"] == [mission.to_dict() for mission in MISSIONS]
    assert body["suggested"] == {terrain.value: suggested_mission(terrain).key for terrain in Terrain}
    assert body["suggested"]["industrial"] == "sabotage"
    assert body["default"] == "meeting-engagement"


def test_income_paid_by_a_closing_shows_in_the_ledger_as_income(world):
    world.closed_round()

    rows = world.client("player").get(world.url("ledger/?bloc=SSU")).json()["results"]

    assert [(row["kind"], row["amount"], row["round_number"]) for row in rows] == [(EntryKind.INCOME, 4, 1)]
