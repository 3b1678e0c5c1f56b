"""The bell in the header shows the unread count and follows the notifications page, in Chromium."""

from __future__ import annotations

import re
from typing import Any

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


def test_the_bell_shows_its_count_again_when_the_server_answers_304(
    page, live_server, owner: User, kind: str
):
    # The browser keeps the bell's answer and revalidates it: a 304 reaches htmx as the kept 200, which must
    # still be the count, and a new notification must still show.
    NotificationFactory(user=owner, kind=kind, message="Round 1 is open.")
    NotificationFactory(user=owner, kind=kind, message="Pairings are published.")
    log_in(page.context, live_server, owner)
    asked: list[tuple[str, str]] = []  # (the ETag sent back, the answer's)

    def bell_answer(response: Any) -> None:
        if response.url.endswith("/notifications/bell/"):
            sent = response.request.all_headers().get("if-none-match", "")
            asked.append((sent, response.all_headers().get("etag", "")))

    page.on("response", bell_answer)
    count = page.get_by_test_id("nav-bell").get_by_test_id("unread-count")

    page.goto("/")
    expect(count).to_have_text("2")
    page.goto("/campaigns/")
    expect(count).to_have_text("2")
    with page.expect_response("**/notifications/bell/"):
        page.evaluate("htmx.trigger(document.body, 'notifications-changed')")
    expect(count).to_have_text("2")
    # The first ask sent no ETag; the later ones sent the first answer's (the server's 304 reaches the page
    # as the kept 200, so Chromium reports 200: the count shown is what matters).
    first = asked[0][1]
    assert first
    assert [sent for sent, _tag in asked] == ["", first, first]

    NotificationFactory(user=owner, kind=kind, message="Oleg challenged you.")
    with page.expect_response("**/notifications/bell/"):
        page.evaluate("htmx.trigger(document.body, 'notifications-changed')")
    expect(count).to_have_text("3")
