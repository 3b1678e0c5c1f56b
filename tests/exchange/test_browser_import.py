"""The import page in Chromium: upload, watch the worker's progress without a reload, open the campaign; a bad
file's problems listed by field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from accounts.models import User
from campaign.models import Campaign
from tests.campaign.test_browser_campaign import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_upload_is_imported_while_its_page_shows_how_far_it_is(
    page: Any,
    live_server: Any,
    celery_worker_process: Any,
    good: dict[str, Any],
    stranger: User,
    tmp_path: Path,
) -> None:
    sound = tmp_path / "club-campaign.json"
    sound.write_text(json.dumps(good))
    good["battles"][0]["attacker"] = 999_999
    faulty = tmp_path / "faulty.json"
    faulty.write_text(json.dumps(good))
    log_in(page.context, live_server, stranger)

    page.goto("/campaigns/import/")
    page.get_by_label("Campaign export (JSON)").set_input_files(str(sound))
    page.get_by_role("button", name="Import").click()
    expect(page.get_by_role("heading", name="Campaign import")).to_be_visible()
    page.evaluate("window.notReloaded = true")  # gone if the page reloads instead of htmx swapping the status
    expect(page.get_by_test_id("import-status")).to_have_text("Imported", timeout=60_000)
    assert page.evaluate("window.notReloaded") is True
    expect(page.get_by_test_id("import-progress")).to_have_attribute("value", "100")
    made = Campaign.objects.get(organiser=stranger)
    page.get_by_test_id("import-campaign").click()
    expect(page.get_by_role("heading", name=made.name, exact=True)).to_be_visible()

    page.goto("/campaigns/import/")
    expect(page.get_by_test_id("recent-imports")).to_contain_text("club-campaign.json")
    page.get_by_label("Campaign export (JSON)").set_input_files(str(faulty))
    page.get_by_role("button", name="Import").click()
    expect(page.get_by_test_id("import-status")).to_have_text("Refused", timeout=60_000)
    problems = page.get_by_test_id("import-problems")
    expect(problems).to_contain_text("battles[0].attacker")
    expect(problems).to_contain_text("dangling")
    assert Campaign.objects.filter(organiser=stranger).count() == 1
