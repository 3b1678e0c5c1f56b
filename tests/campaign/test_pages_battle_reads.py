"""A battle's page reads a registered list whole only to check it: offering a side's lists reads their names.

A registered list is 8 kB or more of JSON (document, unit cards, costs, verdict); a campaign night's
battle page, asked for by every player, decoded every current list of both sides to name them in a
choice (scripts/bench_battle_page.py).
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign.selectors import map_state_now, map_state_read_now, sectors_for_map
from campaign.services.map import sector_update
from tests.campaign import test_pages_battles
from tests.campaign.test_pages_battles import register, url

pytestmark = pytest.mark.django_db

# The battle page's own: s1 (SSU) attacks a1 (Allies) over Riverside in round one.
round_one = test_pages_battles.round_one
battle = test_pages_battles.battle

WHOLE_LIST = '"campaign_registration"."document"'


def _whole_list_reads(captured: CaptureQueriesContext) -> int:
    """Queries of the registered lists themselves that fetch a document (the report's own query joins the
    lists it was fought with, and finds no report here)."""
    return sum(
        WHOLE_LIST in query["sql"] and 'FROM "campaign_registration"' in query["sql"]
        for query in captured.captured_queries
    )


def test_it_offers_a_sides_lists_without_reading_any_whole(
    client, running_campaign, battle, place, demo_catalogue
):
    register(place("s1"), demo_catalogue, "Volga line", "ssu.volga-rifle-squad")
    register(place("s1"), demo_catalogue, "Medved push", "ssu.medved")
    register(place("a1"), demo_catalogue, "Home guard", "allies.gulfport-marine-squad")
    client.force_login(place("x1").player)

    with CaptureQueriesContext(connection) as captured:
        page = client.get(url("battle", running_campaign, battle.pk)).content.decode()

    assert _whole_list_reads(captured) == 0
    for name in ("Volga line", "Medved push", "Home guard"):
        assert name in page
    assert "AP, registered" in page  # the choice names each list with its AP and date


def test_it_reads_the_chosen_list_whole_once_to_check_it(
    client, running_campaign, battle, place, demo_catalogue
):
    registration = register(place("s1"), demo_catalogue, "Volga line", "ssu.volga-rifle-squad")
    register(place("s1"), demo_catalogue, "Medved push", "ssu.medved")
    client.force_login(place("s1").player)

    with CaptureQueriesContext(connection) as captured:
        page = client.get(
            url("battle", running_campaign, battle.pk), {"attacker-list": registration.pk}
        ).content.decode()

    assert _whole_list_reads(captured) == 1
    assert 'data-testid="verdict-attacker"' in page
    assert "Checked" in page
    assert "Volga line" in page


def test_it_reads_the_map_as_it_stands_from_the_sectors_columns(running_campaign, organiser, place):
    sector_update(
        campaign=running_campaign, actor=organiser, key="riverside",
        changes={"owner": "SSU", "held_by": place("s1").pk, "fortification": "bunker"}, reason="taken",
    )  # fmt: skip

    assert map_state_read_now(campaign=running_campaign) == map_state_now(
        sectors=sectors_for_map(campaign=running_campaign)
    )
    assert map_state_read_now(campaign=running_campaign)["riverside"].held_by == place("s1").pk
