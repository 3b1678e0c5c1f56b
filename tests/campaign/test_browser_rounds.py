"""An organiser runs round 1 from the browser; a player sees their battle and fortifies a sector, in Chromium."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from accounts.models import User
from campaign.models import Battle, BattleStatus, Campaign, Enrolment, Round
from campaign.services.economy import Holder, balance, ledger_adjust
from tests.campaign.test_browser_campaign import log_in, sector

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_organiser_pairs_round_one_and_a_player_fortifies_a_sector(
    page, browser, live_server, organiser: User, running_campaign: Campaign, place: Any
):
    campaign = running_campaign
    ledger_adjust(
        campaign=campaign, holder=Holder(bloc="SSU"), amount=10, reason="War chest", actor=organiser
    )
    log_in(page.context, live_server, organiser)

    # The organiser opens round 1 with a deadline five days ahead.
    page.goto(f"/campaigns/{campaign.pk}/")
    page.get_by_role("navigation", name="Campaign").get_by_role("link", name="Rounds").click()
    deadline = timezone.localtime() + timedelta(days=5)
    page.get_by_label("Deadline").fill(deadline.strftime("%Y-%m-%dT%H:%M"))
    page.get_by_role("button", name="Open the round").click()
    page.wait_for_url(re.compile(rf"/campaigns/{campaign.pk}/rounds/1/$"))
    expect(page.get_by_test_id("round-status")).to_have_text("Open")

    # Generates the pairings: a draft only organisers see, each battle with why.
    page.get_by_role("button", name="Generate pairings").click()
    expect(page.get_by_text("Drafted 3 battles and 0 byes")).to_be_visible()
    expect(page.get_by_test_id("draft-battle")).to_have_count(3)

    # And publishes them, confirming first.
    page.get_by_role("link", name="Publish…").click()
    expect(page.get_by_test_id("publish-list").locator("li")).to_have_count(3)
    page.get_by_role("button", name="Yes: publish the pairings").click()
    expect(page.get_by_test_id("battle-row")).to_have_count(3)
    assert Round.objects.get(campaign=campaign).pairings_published_at is not None
    assert Battle.objects.filter(campaign=campaign, status=BattleStatus.SCHEDULED).count() == 3

    # A player sees their battle on the campaign page and opens it.
    player: Enrolment = place("s1")
    player_context = browser.new_context(base_url=live_server.url)
    player_context.set_default_timeout(10_000)
    try:
        log_in(player_context, live_server, player.player)
        player_page = player_context.new_page()
        player_page.goto(f"/campaigns/{campaign.pk}/")
        callout = player_page.get_by_test_id("your-battle")
        expect(callout).to_contain_text("Your battle this round")
        callout.get_by_role("link").click()
        expect(player_page.get_by_test_id("battle-mission")).to_contain_text("Mission:")
        expect(player_page.get_by_test_id("battle-map").locator("a.sector.highlight")).to_have_count(1)

        # Buys a bunker for Workers' Settlement, which the SSU holds, from the SSU's balance.
        player_page.get_by_role("navigation", name="Campaign").get_by_role("link", name="Economy").click()
        expect(player_page.get_by_test_id("my-balance")).to_have_text("10")
        player_page.get_by_label("For the sector").select_option("workers-settlement")
        player_page.get_by_label("Buy", exact=True).select_option("bunker")
        player_page.get_by_role("button", name="Buy", exact=True).click()
        expect(
            player_page.get_by_text("Bought a bunker at Workers' Settlement for 5 resource points.")
        ).to_be_visible()
        expect(player_page.get_by_test_id("my-balance")).to_have_text("5")
        expect(player_page.get_by_test_id("purchase-row")).to_have_count(1)

        # And sees it on the map.
        player_page.get_by_role("navigation", name="Campaign").get_by_role("link", name="Campaign").click()
        expect(sector(player_page, "workers-settlement")).to_have_attribute("data-fortification", "bunker")
    finally:
        player_context.close()
    assert balance(campaign=campaign, holder=Holder(bloc="SSU")) == 5
