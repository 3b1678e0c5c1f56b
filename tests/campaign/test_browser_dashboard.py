"""The organiser's "What the round waits on" panel updates itself as players act, in Chromium."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from accounts.models import User
from armies.blocs import Bloc
from campaign.models import Campaign
from campaign.services.players import enrolment_request
from tests.campaign.test_browser_campaign import log_in
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_panel_counts_a_join_request_made_while_the_organiser_watches(
    page, live_server, organiser: User, running_campaign: Campaign, place: Any
):
    campaign = running_campaign
    log_in(page.context, live_server, organiser)
    page.goto(f"/campaigns/{campaign.pk}/dashboard/")
    expect(page.get_by_test_id("wait-join-requests")).to_have_text("0 join requests to decide.")
    expect(page.get_by_test_id("admitted-count")).to_have_text("6 players admitted")
    expect(page.get_by_test_id("next-step")).to_have_text("Open round 1…")

    # A newcomer asks to join from their own phone: no reload here, the panel polls every 10 s.
    enrolment_request(campaign=campaign, user=UserFactory(username="sasha"), bloc=Bloc.SSU)

    expect(page.get_by_test_id("wait-join-requests")).to_have_text(
        "1 join request to decide.", timeout=15_000
    )
    page.get_by_test_id("wait-join-requests").get_by_role("link").click()
    expect(page.get_by_role("heading", name="Join requests")).to_be_in_viewport()
