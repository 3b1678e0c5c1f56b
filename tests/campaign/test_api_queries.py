"""Query counts of the campaign list, the campaign detail, the places of a campaign and its sectors:
pinned, each expected query named, and measured at two sizes so they do not grow with the data."""

from __future__ import annotations

from typing import Any

import pytest

from armies.blocs import Bloc
from campaign.models import CoOrganiser, EnrolmentStatus
from campaign.services.map import campaign_map_load, sector_update
from tests.campaign.api_world import World, build_world
from tests.factories import CampaignFactory, EnrolmentFactory, UserFactory

pytestmark = pytest.mark.django_db


def add_players(world: World, count: int) -> None:
    blocs = list(Bloc)
    for number in range(count):
        status = EnrolmentStatus.PENDING if number % 3 == 0 else EnrolmentStatus.ADMITTED
        EnrolmentFactory(campaign=world.campaign, bloc=blocs[number % 3], status=status)


def line_map(sectors: int) -> dict[str, Any]:
    """A valid map of ``sectors`` sectors in a chain, the three headquarters first."""
    keys = [f"s{number}" for number in range(sectors)]
    return {
        "format": "zverograd-map", "version": 1, "name": "Long front", "width": 2000, "height": 2000,
        "sectors": [
            {
                "key": key, "name": f"Sector {number}", "terrain": "urban", "value": 1,
                "x": 50 + (number % 10) * 150, "y": 50 + (number // 10) * 150,
                "neighbours": [k for k in (keys[number - 1] if number else None,
                                           keys[number + 1] if number + 1 < sectors else None) if k],
                "owner": list(Bloc)[number].value if number < 3 else None,
                "headquarters_of": list(Bloc)[number].value if number < 3 else None,
                "fortification": "none",
            }
            for number, key in enumerate(keys)
        ],
    }  # fmt: skip


def test_the_campaign_list_takes_two_queries_however_many_campaigns_and_players(
    api_as, django_assert_num_queries
):
    world = build_world(public=True)
    client = world.client("player")

    # 1 the number of campaigns the caller sees (the page count)
    # 2 that page: campaigns with their organiser and admitted-player count (one join, annotated)
    with django_assert_num_queries(2):
        small = client.get("/api/campaigns/")
    for _ in range(6):
        campaign = CampaignFactory(is_public=True)
        EnrolmentFactory.create_batch(4, campaign=campaign)
    add_players(world, 12)
    with django_assert_num_queries(2):
        large = client.get("/api/campaigns/")

    assert (small.json()["count"], large.json()["count"]) == (1, 7)


def test_the_campaign_detail_takes_three_queries_however_many_players_and_organisers(
    django_assert_num_queries,
):
    world = build_world()
    client = world.client("player")

    # 1 the campaign with its organiser, catalogue, players per bloc and pending count (annotated)
    # 2 its co-organisers with their accounts (prefetched)
    # 3 is the caller a co-organiser, and their own place (campaign_access, once per request)
    with django_assert_num_queries(3):
        small = client.get(world.url())
    add_players(world, 15)
    for number in range(4):
        CoOrganiser.objects.create(campaign=world.campaign, user=UserFactory(username=f"helper{number}"))
    with django_assert_num_queries(3):
        large = client.get(world.url())

    assert small.json()["players_per_bloc"] != large.json()["players_per_bloc"]
    assert len(large.json()["co_organisers"]) == 5


@pytest.mark.parametrize(("persona", "queries"), [("creator", 4), ("player", 4)])
def test_the_places_of_a_campaign_take_a_fixed_number_of_queries(persona, queries, django_assert_num_queries):
    world = build_world()
    client = world.client(persona)

    # 1 the campaign
    # 2 is the caller a co-organiser, and their own place (campaign_access: the row the list shows them
    #   whatever its status)
    # 3 the number of places the caller may see (the page count)
    # 4 that page of places with their accounts (select_related)
    with django_assert_num_queries(queries):
        small = client.get(world.url("enrolments/"))
    add_players(world, 20)
    with django_assert_num_queries(queries):
        large = client.get(world.url("enrolments/"))

    assert small.json()["count"] < large.json()["count"]


def test_the_sectors_take_three_queries_however_many_sectors(django_assert_num_queries):
    world = build_world()
    client = world.client("player")

    # 1 the campaign
    # 2 is the caller a co-organiser, and their own place (campaign_access)
    # 3 the sectors in map order (their columns are the state now)
    with django_assert_num_queries(3):
        small = client.get(world.url("sectors/"))
    world.set_status("draft")
    campaign_map_load(campaign=world.campaign, actor=world.creator, document=line_map(40))
    add_players(world, 10)
    with django_assert_num_queries(3):
        large = client.get(world.url("sectors/"))

    assert (len(small.json()["sectors"]), len(large.json()["sectors"])) == (14, 40)


def test_the_sectors_of_a_past_round_take_three_queries_however_many_changes(django_assert_num_queries):
    world = build_world()
    client = world.client("player")
    world.campaign.current_round = 1
    world.campaign.save()

    # 1 the campaign, 2 campaign_access, 3 the sector log up to that round (replayed on the map document)
    with django_assert_num_queries(3):
        client.get(world.url("sectors/?round=1"))
    for number in range(12):
        sector_update(campaign=world.campaign, actor=world.creator, key="zoo", changes={"value": number % 10},
                      reason="test")  # fmt: skip
    with django_assert_num_queries(3):
        response = client.get(world.url("sectors/?round=1"))

    assert next(row for row in response.json()["sectors"] if row["key"] == "zoo")["value"] == 11 % 10
