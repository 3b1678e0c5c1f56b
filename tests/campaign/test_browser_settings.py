"""On a 390 px phone, an organiser creates a campaign and a refused save opens at its error summary."""

from __future__ import annotations

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from accounts.models import User
from armies.models import Catalogue
from campaign.models import Campaign
from campaign.options import STANDARD_RTZ
from tests.campaign.test_browser_campaign import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def test_it_creates_a_campaign_and_opens_a_refused_save_at_the_summary(
    page, live_server, organiser: User, demo_catalogue: Catalogue
):
    log_in(page.context, live_server, organiser)
    assert page.viewport_size == {"width": 390, "height": 844}

    # The only catalogue and the standard settings are chosen already: a name is all it takes.
    page.goto("/campaigns/new/")
    expect(page.get_by_label("Catalogue")).to_have_value(str(demo_catalogue.pk))
    expect(page.get_by_label("Start from the standard Return to Zverograd settings")).to_be_checked()
    page.get_by_label("Name").fill("Night at the Zoo")
    page.get_by_role("button", name="Create campaign").click()
    page.wait_for_url(re.compile(r"/campaigns/\d+/settings/$"))
    campaign = Campaign.objects.get(name="Night at the Zoo")
    assert (campaign.catalogue_id, campaign.points_limit) == (demo_catalogue.pk, STANDARD_RTZ["points_limit"])
    expect(page.get_by_role("heading", name="Economy", level=2)).to_be_visible()

    # Enter in a field saves (it does not fill in the standard values, the form's first visible button).
    page.get_by_label("Points limit (AP)").fill("200")
    page.get_by_label("Points limit (AP)").press("Enter")
    expect(page.get_by_text("Settings saved.")).to_be_visible()
    assert Campaign.objects.get(pk=campaign.pk).points_limit == 200

    # A bunker cheaper than a strongpoint, far down the page, is refused.
    page.get_by_label("Bunker cost").fill("1")
    page.get_by_role("button", name="Save settings").click()

    summary = page.get_by_test_id("error-summary")
    expect(summary).to_be_visible()
    expect(summary).to_be_focused()
    expect(summary).to_contain_text("a bunker must cost at least as much as a strongpoint")
    box = summary.bounding_box()
    assert box is not None
    assert 0 <= box["y"] < 844 / 2
    assert page.evaluate("window.scrollY") > 0  # the page opened at the summary, past the header

    # The page with its summary has no serious accessibility finding (axe-core, WCAG 2.1 AA).
    found = Axe().run(page, options={"runOnly": {"type": "tag", "values": WCAG_21_AA}}).response["violations"]
    assert [(v["id"], v["impact"]) for v in found if v["impact"] in ("serious", "critical")] == []

    # Its link takes the organiser to the field, which says the same beside it.
    summary.get_by_role("link", name=re.compile("Bunker cost")).click()
    expect(page).to_have_url(re.compile(r"#id_bunker_cost$"))
    field = page.locator("#setting-bunker_cost")
    expect(field.locator(".field-error")).to_contain_text("a bunker must cost at least as much as")
    assert Campaign.objects.get(pk=campaign.pk).bunker_cost == STANDARD_RTZ["bunker_cost"]
    # Nothing scrolls sideways on the phone.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
