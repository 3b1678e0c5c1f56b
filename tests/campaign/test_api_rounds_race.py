"""Races through the API, from real threads: purchases on one balance, and two closings of one round.

Each thread has its own database connection; under CI=true that is the
PostgreSQL server the test command starts (the test insists on it), where the
lock each service takes on the campaign row, and the round's conditional
status change, are what keep a balance from going below zero and a round from
paying twice. On the SQLite fallback, transactions begin IMMEDIATE, so they
are serialised too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from campaign.models import (
    Battle,
    BattleStatus,
    EntryKind,
    FortificationPurchase,
    ResourceEntry,
    Round,
    Sector,
)
from campaign.options import Status
from campaign.services.economy import Holder, balance
from tests.campaign.api_world import World, build_world
from tests.races import at_once, require_postgresql

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

BUYERS = 6


def running_world() -> World:
    require_postgresql()
    return build_world(status=Status.RUNNING)


def test_purchases_racing_on_one_balance_succeed_exactly_as_often_as_it_pays_for():
    world = running_world()
    # Six SSU sectors to fortify at 3 points each, and 7 points: two strongpoints, one point left.
    keys = list(
        Sector.objects.filter(campaign=world.campaign, headquarters_of="").order_by("position")
        .values_list("key", flat=True)[:BUYERS]
    )  # fmt: skip
    Sector.objects.filter(campaign=world.campaign, key__in=keys).update(owner="SSU")
    world.fund("SSU", 7)
    clients = [world.client("player") for _ in keys]

    def buy(client: Any, key: str) -> Callable[[], Any]:
        return lambda: client.post(
            world.url("purchases/"), {"sector": key, "kind": "strongpoint"}, format="json"
        )

    answers = at_once([buy(client, key) for client, key in zip(clients, keys, strict=True)])

    assert sorted(response.status_code for response in answers) == [201, 201] + [409] * (BUYERS - 2)
    refused = [response.json()["code"] for response in answers if response.status_code == 409]
    assert refused == ["balance-too-low"] * (BUYERS - 2)
    assert FortificationPurchase.objects.count() == 2
    assert balance(campaign=world.campaign, holder=Holder(bloc="SSU")) == 1
    bought = {response.json()["sector"]["key"] for response in answers if response.status_code == 201}
    fortified = set(
        Sector.objects.filter(campaign=world.campaign, key__in=keys, fortification="strongpoint").values_list(
            "key", flat=True
        )
    )
    assert fortified == bought


def test_two_organisers_closing_one_round_at_once_pay_its_income_once():
    world = running_world()
    battle = world.battle()
    clients = [world.client("creator"), world.client("co_organiser")]
    close = world.url(f"rounds/{battle.round.number}/close/")

    answers = at_once([lambda client=client: client.post(close) for client in clients])

    assert sorted(response.status_code for response in answers) == [200, 409]
    refused = next(response for response in answers if response.status_code == 409)
    assert refused.json()["code"] == "round-not-open"
    income = ResourceEntry.objects.filter(kind=EntryKind.INCOME)
    assert sorted(income.values_list("bloc", "amount")) == [("Allies", 4), ("Axis", 4), ("SSU", 4)]
    assert Round.objects.get(pk=battle.round_id).status == "closed"
    assert Battle.objects.get(pk=battle.pk).status == BattleStatus.UNPLAYED
