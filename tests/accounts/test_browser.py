"""A person signs up, logs out, logs back in and sees the home page, in Chromium."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HOME = re.compile(r"^https?://[^/]+/$")


def test_it_signs_up_logs_in_and_shows_the_home_page(page):
    page.goto("/")
    page.get_by_role("link", name="Create an account").click()
    page.get_by_label("Username").fill("mila")
    page.get_by_label("Display name").fill("Mila")
    page.get_by_label("Email").fill("mila@example.test")
    page.get_by_label("Password", exact=True).fill("a-long-passphrase-9")
    page.get_by_label("Password confirmation").fill("a-long-passphrase-9")
    page.get_by_role("button", name="Sign up").click()

    page.wait_for_url(HOME)
    expect(page.locator(".messages")).to_contain_text("Welcome to Zverograd, Mila.")

    page.locator("label.nav-toggle-label").click()
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("button", name="Log out")).to_have_count(0)
    page.locator("label.nav-toggle-label").click()
    page.get_by_role("link", name="Log in").first.click()
    page.get_by_label("Username").fill("mila")
    page.get_by_label("Password").fill("a-long-passphrase-9")
    page.get_by_role("button", name="Log in").click()

    page.wait_for_url(HOME)
    expect(page.get_by_test_id("welcome")).to_have_text("Welcome back, Mila.")
