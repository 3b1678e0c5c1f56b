"""A person signs up, logs out, logs back in and sees the home page, in Chromium."""

from __future__ import annotations

import re

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_it_signs_up_logs_in_and_shows_the_home_page(page):
    page.goto("/")
    page.get_by_role("link", name="Create an account").click()
    page.get_by_label("Username").fill("mila")
    page.get_by_label("Display name").fill("Mila")
    page.get_by_label("Email").fill("mila@example.test")
    page.get_by_label("Password", exact=True).fill("a-long-passphrase-9")
    page.get_by_label("Password confirmation").fill("a-long-passphrase-9")
    page.get_by_role("button", name="Sign up").click()

    page.wait_for_url(re.compile(r"/$"))
    assert "Welcome to Zverograd, Mila." in page.locator(".messages").inner_text()

    page.locator("label.nav-toggle-label").click()
    page.get_by_role("button", name="Log out").click()
    page.locator("label.nav-toggle-label").click()
    page.get_by_role("link", name="Log in").first.click()
    page.get_by_label("Username").fill("mila")
    page.get_by_label("Password").fill("a-long-passphrase-9")
    page.get_by_role("button", name="Log in").click()

    page.wait_for_url(re.compile(r"/$"))
    assert page.get_by_test_id("welcome").inner_text() == "Welcome back, Mila."
