"""The organiser's "What the round waits on" panel updates itself as players act, in Chromium."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from accounts.models import User
from armies.blocs import Bloc
from campaign.models import Campaign
from campaign.services.players import enrolment_request, enrolment_withdraw
from tests.campaign.test_browser_campaign import log_in
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_panel_counts_a_join_request_made_while_the_organiser_watches(
    page, live_server, settings, organiser: User, running_campaign: Campaign, place: Any
):
    settings.DASHBOARD_POLL_SECONDS = 2
    campaign = running_campaign
    log_in(page.context, live_server, organiser)
    page.goto(f"/campaigns/{campaign.pk}/dashboard/")
    expect(page.get_by_test_id("wait-join-requests")).to_have_text("0 join requests to decide.")
    expect(page.get_by_test_id("admitted-count")).to_have_text("6 players admitted")
    expect(page.get_by_test_id("next-step")).to_have_text("Open round 1…")

    # A newcomer asks to join from their own phone: no reload here, the panel polls itself.
    enrolment_request(campaign=campaign, user=UserFactory(username="sasha"), bloc=Bloc.SSU)

    expect(page.get_by_test_id("wait-join-requests")).to_have_text("1 join request to decide.", timeout=5_000)
    page.get_by_test_id("wait-join-requests").get_by_role("link").click()
    expect(page.get_by_role("heading", name="Join requests")).to_be_in_viewport()


def test_the_join_requests_follow_the_players_without_taking_the_reason_being_typed(
    page, live_server, settings, organiser: User, running_campaign: Campaign
):
    settings.DASHBOARD_POLL_SECONDS = 1
    campaign = running_campaign
    log_in(page.context, live_server, organiser)
    page.goto(f"/campaigns/{campaign.pk}/dashboard/")
    requests = page.locator("#join-requests")
    expect(requests).to_contain_text("No one is waiting for an answer.")

    # A newcomer asks to join: the request appears, with its buttons, without a reload.
    sasha = enrolment_request(campaign=campaign, user=UserFactory(username="sasha", display_name="Sasha"),
                              bloc=Bloc.SSU)  # fmt: skip
    expect(requests.get_by_role("button", name="Admit Sasha")).to_be_visible(timeout=5_000)

    # The organiser starts typing why Sasha is refused; meanwhile Tanya asks to join.
    reason = page.get_by_label("Why refuse Sasha")
    reason.click()
    reason.press_sequentially("Your list is")
    enrolment_request(
        campaign=campaign, user=UserFactory(username="tanya", display_name="Tanya"), bloc=Bloc.AXIS
    )
    expect(page.get_by_test_id("wait-join-requests")).to_have_text(
        "2 join requests to decide.", timeout=5_000
    )
    # A screen reader hears who asked, even while the list itself is held back.
    expect(page.get_by_role("status").filter(has_text="join requests changed")).to_have_text(
        "The join requests changed: 2 requests wait for an answer, from Sasha and Tanya."
    )
    page.wait_for_timeout(1_500)  # another poll or two: the new list is held back, not swapped in

    expect(reason).to_be_focused()
    expect(reason).to_have_value("Your list is")
    expect(requests.get_by_role("button", name="Admit Tanya")).to_have_count(0)
    reason.press_sequentially(" over the points limit.")

    # Once the organiser leaves the field, Tanya's request shows and the reason typed for Sasha stays.
    page.get_by_role("heading", name="Join requests").click()
    expect(requests.get_by_role("button", name="Admit Tanya")).to_be_visible()
    expect(page.get_by_label("Why refuse Sasha")).to_have_value("Your list is over the points limit.")

    # The swapped-in list works: the refusal goes with the reason typed before the swap, and what was begun
    # for Tanya meanwhile stays in her field when the answer replaces the list.
    page.get_by_label("Why refuse Tanya").fill("Not this")
    requests.get_by_role("button", name="Refuse").first.click()
    expect(requests).to_contain_text("Refused Sasha.")
    expect(page.get_by_label("Why refuse Tanya")).to_have_value("Not this")
    sasha.refresh_from_db()
    assert sasha.decision_reason == "Your list is over the points limit."

    # Tanya withdraws: her request stays on the page while it holds the words typed for it, and goes
    # once they are cleared.
    tanya = campaign.enrolments.get(player__username="tanya")
    enrolment_withdraw(enrolment=tanya, actor=tanya.player)
    expect(page.get_by_test_id("wait-join-requests")).to_have_text(
        "0 join requests to decide.", timeout=5_000
    )
    page.wait_for_timeout(1_500)
    expect(page.get_by_label("Why refuse Tanya")).to_have_value("Not this")
    page.get_by_label("Why refuse Tanya").fill("")
    page.get_by_role("heading", name="Join requests").click()
    expect(requests.get_by_role("button", name="Admit Tanya")).to_have_count(0)
    expect(requests).to_contain_text("No one is waiting for an answer.")
