"""The bell in the header shows the unread count and follows the notifications page, in Chromium."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from accounts.models import User
from tests.campaign.test_browser_campaign import log_in
from tests.factories import NotificationFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_bell_counts_unread_notifications_and_clears_when_they_are_read(
    page, live_server, owner: User, other: User, kind: str
):
    # Made by the factory, not notify(): these committed rows would otherwise queue real e-mail tasks.
    NotificationFactory(user=owner, kind=kind, message="Round 1 is open.", link="/campaigns/")
    NotificationFactory(user=owner, kind=kind, message="Pairings are published.")
    NotificationFactory(user=other, kind=kind, message="Pairings are published.")
    NotificationFactory(user=owner, kind=kind, message="Oleg challenged you.")
    log_in(page.context, live_server, owner)

    page.goto("/")
    count = page.get_by_test_id("nav-bell").get_by_test_id("unread-count")
    expect(count).to_have_text("3")

    page.get_by_test_id("nav-bell").click()
    page.wait_for_url("**/notifications/")
    expect(page.get_by_test_id("notification")).to_have_count(3)
    expect(page.locator(".notification-unread")).to_have_count(3)

    # Marking one read through htmx updates the list and the bell without reloading the page.
    page.get_by_test_id("notification").filter(has_text="Oleg challenged you.").get_by_role(
        "button", name="Mark read"
    ).click()
    expect(count).to_have_text("2")
    expect(page.locator(".notification-unread")).to_have_count(2)

    page.get_by_role("button", name="Mark all read").click()
    expect(page.locator(".notification-unread")).to_have_count(0)
    expect(count).to_have_count(0)

    # And it stays so on the next page, once the bell has asked.
    with page.expect_response("**/notifications/bell/") as bell:
        page.get_by_role("link", name="Round 1 is open.").click()
    page.wait_for_url("**/campaigns/")
    assert bell.value.ok
    expect(page.get_by_test_id("nav-bell")).to_be_visible()
    expect(page.get_by_test_id("unread-count")).to_have_count(0)


def test_opening_a_notification_reads_it_and_the_bell_counts_one_less(
    page, live_server, owner: User, kind: str
):
    NotificationFactory(user=owner, kind=kind, message="Round 1 is open.", link="/campaigns/")
    NotificationFactory(user=owner, kind=kind, message="Oleg challenged you.")
    log_in(page.context, live_server, owner)
    page.goto("/notifications/")
    expect(page.get_by_test_id("nav-bell").get_by_test_id("unread-count")).to_have_text("2")

    page.get_by_role("link", name="Round 1 is open.").click()

    page.wait_for_url("**/campaigns/")
    expect(page.get_by_test_id("nav-bell").get_by_test_id("unread-count")).to_have_text("1")
    page.goto("/notifications/")
    expect(page.locator(".notification-unread")).to_have_text(re.compile("Oleg challenged you."))
