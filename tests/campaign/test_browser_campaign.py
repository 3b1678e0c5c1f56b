"""An organiser sets a campaign up and admits a player who registers a list, in Chromium, without the admin."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from accounts.models import User
from armies.models import Catalogue
from armies.services.army_lists import army_list_add_unit, army_list_create
from campaign.engine.svg import DEFAULT_COLOURS
from campaign.models import Campaign, Enrolment, EnrolmentStatus
from campaign.options import Status

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(context: Any, live_server: Any, user: User) -> None:
    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url}])


def sector(page: Any, key: str) -> Any:
    return page.locator(f'#campaign-map svg a[data-sector="{key}"]')


def test_it_sets_up_a_campaign_and_admits_a_player(
    page, browser, live_server, organiser: User, stranger: User, demo_catalogue: Catalogue
):
    log_in(page.context, live_server, organiser)

    # The organiser creates the campaign, then chooses the demo catalogue on its settings page.
    page.goto("/")
    page.locator(".nav-toggle-label").click()  # the phone-sized menu
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Campaigns").click()
    page.get_by_role("link", name="New campaign").click()
    page.get_by_label("Name").fill("Battle for the Zoo")
    page.get_by_role("button", name="Create campaign").click()
    page.wait_for_url(re.compile(r"/campaigns/\d+/settings/$"))
    page.locator("#id_catalogue").select_option(label=str(demo_catalogue))
    page.get_by_role("button", name="Save settings").click()
    expect(page.get_by_text("Settings saved.")).to_be_visible()

    # Loads the default map and opens registration, confirming it.
    page.get_by_role("navigation", name="Campaign").get_by_role("link", name="Map").click()
    page.get_by_role("button", name="Load the default map").click()
    expect(page.get_by_text("Loaded the default Zverograd map.")).to_be_visible()
    page.get_by_role("navigation", name="Campaign").get_by_role("link", name="Dashboard").click()
    page.get_by_role("link", name="Open registration…").click()
    page.get_by_role("button", name="Yes: open registration").click()
    expect(page.get_by_test_id("campaign-status")).to_have_text("Open for registration")
    campaign = Campaign.objects.get(name="Battle for the Zoo")
    assert (campaign.status, campaign.catalogue_id) == (Status.REGISTRATION, demo_catalogue.pk)
    invitation = page.get_by_test_id("invite-url").input_value()

    # A player opens the invitation to the private campaign and asks to join for the SSU.
    player_context = browser.new_context(base_url=live_server.url, viewport={"width": 390, "height": 844})
    player_context.set_default_timeout(10_000)
    try:
        log_in(player_context, live_server, stranger)
        player_page = player_context.new_page()
        player_page.goto(invitation)
        player_page.get_by_label("Bloc").select_option("SSU")
        # The faction list follows the bloc (htmx swaps it in).
        expect(
            player_page.get_by_label("Faction (optional)").locator("option", has_text="Taiga Scouts")
        ).to_have_count(1)
        expect(
            player_page.get_by_label("Faction (optional)").locator("option", has_text="Coastal Raiders")
        ).to_have_count(0)
        player_page.get_by_label("Faction (optional)").select_option(label="Taiga Scouts")
        player_page.get_by_label("A message to the organisers (optional)").fill("Ready at the Metro depot.")
        player_page.get_by_role("button", name="Ask to join").click()
        expect(
            player_page.get_by_text("You asked to join for SSU: an organiser will decide.")
        ).to_be_visible()
    finally:
        player_context.close()

    # The organiser admits them from the dashboard (an htmx swap, no reload).
    page.reload()
    request = page.get_by_test_id("join-request")
    expect(request).to_contain_text("Ready at the Metro depot.")
    request.get_by_role("button", name="Admit Sasha").click()
    expect(page.get_by_text("Admitted Sasha.")).to_be_visible()
    expect(page.get_by_test_id("wait-join-requests")).to_have_text("0 join requests to decide.")
    enrolment = Enrolment.objects.get(campaign=campaign, player=stranger)
    assert (enrolment.status, enrolment.bloc, enrolment.faction) == (
        EnrolmentStatus.ADMITTED,
        "SSU",
        "taiga-scouts",
    )

    # The admitted player registers a list they built: the campaign freezes it with its costs.
    army_list = army_list_create(owner=stranger, catalogue=demo_catalogue, name="Taiga eyes", bloc="SSU",
                                 points_limit=150)  # fmt: skip
    army_list_add_unit(army_list=army_list, unit_key="ssu.taiga-scout-squad")
    player_context = browser.new_context(base_url=live_server.url)
    player_context.set_default_timeout(10_000)
    try:
        log_in(player_context, live_server, stranger)
        player_page = player_context.new_page()
        player_page.goto(f"/campaigns/{campaign.pk}/")
        player_page.get_by_role("navigation", name="Campaign").get_by_role("link", name="Lists").click()
        player_page.get_by_label("List", exact=True).select_option(label="Taiga eyes (SSU, 150 AP)")
        player_page.get_by_role("button", name="Register").click()
        expect(player_page.get_by_text("Registered Taiga eyes for Sasha.")).to_be_visible()
        expect(player_page.get_by_test_id("registration-entries")).to_contain_text("Taiga Scout Squad")
        paid = campaign.registrations.get().total_ap
        expect(player_page.get_by_test_id("registration-total")).to_have_text(str(paid))
    finally:
        player_context.close()

    # The map shows each sector in its holder's colour, and follows a sector change.
    page.get_by_role("navigation", name="Campaign").get_by_role("link", name="Campaign").click()
    expect(sector(page, "airfield")).to_have_attribute("data-owner", "Axis")
    expect(sector(page, "airfield").locator("polygon")).to_have_attribute("fill", DEFAULT_COLOURS["Axis"])
    expect(sector(page, "port").locator("polygon")).to_have_attribute("fill", DEFAULT_COLOURS["Allies"])
    expect(sector(page, "zoo")).to_have_attribute("data-owner", "neutral")
    expect(sector(page, "zoo").locator("polygon")).to_have_attribute("fill", DEFAULT_COLOURS[None])
    expect(page.locator('.bloc-card[data-bloc="SSU"]')).to_contain_text("Sasha")

    sector(page, "zoo").click()
    page.get_by_label("Held by").select_option("SSU")
    page.get_by_label("Why").fill("Taken by Sasha's scouts")
    page.get_by_role("button", name="Save the change").click()
    expect(page.get_by_test_id("sector-history")).to_contain_text("The Zoo: holder neutral → SSU")
    page.get_by_role("link", name="← Battle for the Zoo").click()
    expect(sector(page, "zoo")).to_have_attribute("data-owner", "SSU")
    expect(sector(page, "zoo").locator("polygon")).to_have_attribute("fill", DEFAULT_COLOURS["SSU"])
