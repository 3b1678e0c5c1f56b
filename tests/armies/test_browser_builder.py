"""A player builds a list in Chromium; anyone checks a list on the validator page."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from accounts.models import User
from armies.models import ArmyList, Catalogue

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(page: Any, live_server: Any, user: User) -> None:
    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url}]
    )


def test_it_builds_a_list_and_shows_problems_come_and_go(page, live_server, stranger, demo_catalogue):
    log_in(page, live_server, stranger)
    page.goto("/lists/new/")
    page.get_by_label("Name").fill("Metro depot")
    page.get_by_label("Bloc").select_option("SSU")
    page.get_by_label("Points limit (AP)").fill("20")
    page.get_by_role("button", name="Create list").click()

    page.wait_for_url(re.compile(r"/lists/\d+/$"))
    points = page.get_by_test_id("summary-points")
    problems = page.locator("#verdict")
    expect(points).to_have_text("0 / 20 AP")
    expect(problems).to_contain_text("has no units")

    page.get_by_role("button", name="Add Volga Rifle Squad").click()
    expect(points).to_have_text("6 / 20 AP")
    expect(problems).to_contain_text("No problems: the list may be registered.")

    page.get_by_role("button", name="Add Pavel Dron").click()
    expect(points).to_have_text("13 / 20 AP")
    page.get_by_role("button", name="Add Pavel Dron").click()
    expect(points).to_have_text("20 / 20 AP")
    expect(problems).to_contain_text("are the same hero")
    expect(page.get_by_test_id("summary-verdict")).to_have_text("1 error")

    page.get_by_label("Search units").fill("kolokol")
    expect(page.locator("#catalogue-units li")).to_have_count(1)
    page.get_by_role("button", name="Add Kolokol Heavy Squad").click()
    expect(points).to_have_text("35 / 20 AP")
    expect(problems).to_contain_text("over the limit of 20 AP")
    expect(page.get_by_test_id("summary-verdict")).to_have_text("2 errors")

    page.get_by_role("button", name="Remove Kolokol Heavy Squad").click()
    expect(points).to_have_text("20 / 20 AP")
    page.get_by_role("button", name="Remove Pavel Dron 2").click()
    expect(points).to_have_text("13 / 20 AP")
    expect(problems).to_contain_text("No problems: the list may be registered.")
    expect(page.get_by_test_id("summary-verdict")).to_have_text("ok")

    # A change to an entry saves itself as soon as it is made.
    page.locator("#entry-e1").get_by_label("Reserve").check()
    expect(page.locator("#builder-summary")).to_contain_text("Saved Volga Rifle Squad.")

    army_list = ArmyList.objects.get(owner=stranger)
    assert [(e["unit"], e["reserve"]) for e in army_list.content["entries"]] == [
        ("ssu.volga-rifle-squad", True),
        ("ssu.pavel-dron", False),
    ]


def test_it_checks_a_pasted_list_for_a_visitor(page, demo_catalogue: Catalogue):
    blank = dict.fromkeys(("joined_to", "pilot_of", "platoon", "slot")) | {
        "captured": False,
        "reserve": False,
    }
    document = {
        "format": "zverograd-army-list",
        "version": 1,
        "name": "Zoo patrol",
        "bloc": "SSU",
        "faction": None,
        "points_limit": 10,
        "catalogue_version": demo_catalogue.version,
        "role": None,
        "entries": [{"id": "e1", "unit": "ssu.kolokol-heavy-squad", **blank}],
        "platoons": [],
        "fortifications": [],
    }
    page.goto("/validator/")

    page.get_by_label("List (JSON)").fill(json.dumps(document, indent=2))
    page.get_by_role("button", name="Check the list").click()

    result = page.locator("#validator-result")
    expect(result).to_contain_text("over the limit of 10 AP")
    expect(result).to_contain_text("15 / 10 AP")
    expect(page.get_by_test_id("validator-verdict")).to_have_text("1 error")
    assert page.url.endswith("/validator/")

    page.get_by_label("List (JSON)").fill('{"format": "zverograd-army-list"}')
    page.get_by_role("button", name="Check the list").click()

    expect(page.get_by_test_id("format-errors")).to_contain_text("Missing required fields: version,")
    expect(page.get_by_label("List (JSON)")).to_have_value('{"format": "zverograd-army-list"}')
