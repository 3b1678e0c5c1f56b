"""A whole campaign night in Chromium: the organiser at a desk (1280 px), two players on their phones (390 px).

Round 1: the organiser opens it and schedules Karl (Axis) against Anna (Allies); Karl reports from the
notification his bell shows, Anna disputes it, the dashboard counts the dispute (by its own 10 s poll) and the
close page will not close the round; the organiser accepts the report, closes round 1 and opens round 2, pairs
it and publishes the pairings; Karl reports again and Anna confirms. At each step the dashboard's counts and
every bell say what waits on whom: nobody is told of their own act, and opening or answering a notification
reads it.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from accounts.models import User
from armies.blocs import Bloc
from battles.models import BattleReport, ReportStatus
from campaign.models import Battle, BattleStatus, Campaign, Round, RoundStatus
from campaign.options import Status
from tests.battles.conftest import ALLIED_UNITS, AXIS_UNITS, register
from tests.campaign.test_browser_campaign import log_in
from tests.factories import EnrolmentFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESK = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def opened(browser: Any, live_server: Any, user: User, viewport: dict[str, int]) -> Any:
    """A page in a browser context of its own, logged in as ``user``."""
    context = browser.new_context(base_url=live_server.url, viewport=viewport)
    context.set_default_timeout(10_000)
    log_in(context, live_server, user)
    return context.new_page()


def bell_says(page: Any, unread: int) -> None:
    """The bell of the page as loaded (it asks the server once the page has loaded)."""
    count = page.get_by_test_id("nav-bell").get_by_test_id("unread-count")
    if unread:
        expect(count).to_have_text(str(unread))
    else:
        expect(page.get_by_test_id("nav-bell")).to_be_visible()
        expect(count).to_have_count(0)


def bells(pages: dict[str, Any], **unread: int) -> None:
    """Each person's bell on a freshly loaded page."""
    for name, count in unread.items():
        pages[name].reload()
        bell_says(pages[name], count)


def plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def dashboard_says(
    page: Any, *, round: int, unreported: int, waiting: int, disputes: int, timeout: int = 10_000
) -> None:
    """The "What the round waits on" panel's three counts of battles and reports, in its words."""
    panel = page.get_by_test_id("waits-panel")
    expect(panel.get_by_test_id("wait-battles-unreported")).to_contain_text(
        f"{plural(unreported, 'battle', 'battles')} of round {round} not yet reported", timeout=timeout
    )
    expect(panel.get_by_test_id("wait-reports-waiting")).to_contain_text(
        f"{plural(waiting, 'report waits', 'reports wait')} for the opponent", timeout=timeout
    )
    expect(panel.get_by_test_id("wait-disputes")).to_contain_text(
        f"{plural(disputes, 'dispute', 'disputes')} to resolve", timeout=timeout
    )


def open_notification(page: Any, message: str | re.Pattern[str]) -> None:
    """From the bell to the notifications page, then follow the one unread notification with these words."""
    page.get_by_test_id("nav-bell").click()
    page.wait_for_url("**/notifications/")
    page.locator(".notification-unread").filter(has_text=message).get_by_role("link").click()


@pytest.fixture
def night(open_campaign: Campaign) -> Campaign:
    """The campaign running with two admitted players of different blocs, each with a registered list."""
    karl = EnrolmentFactory(
        campaign=open_campaign, player=UserFactory(username="karl", display_name="Karl"), bloc=Bloc.AXIS
    )
    anna = EnrolmentFactory(
        campaign=open_campaign, player=UserFactory(username="anna", display_name="Anna"), bloc=Bloc.ALLIES
    )
    register(karl, AXIS_UNITS, "Axis")
    register(anna, ALLIED_UNITS, "Allies")
    Campaign.objects.filter(pk=open_campaign.pk).update(status=Status.RUNNING)
    open_campaign.refresh_from_db()
    return open_campaign


def test_a_campaign_night_from_the_first_battle_to_the_next_rounds_confirmed_report(
    browser, live_server, organiser: User, night: Campaign
):
    campaign = night
    karl, anna = User.objects.get(username="karl"), User.objects.get(username="anna")
    sector = campaign.sectors.filter(owner="", headquarters_of="").order_by("key").first()
    assert sector is not None
    desk = opened(browser, live_server, organiser, DESK)
    pages = {"olga": desk, "karl": opened(browser, live_server, karl, PHONE),
             "anna": opened(browser, live_server, anna, PHONE)}  # fmt: skip
    for page in pages.values():
        page.goto(f"/campaigns/{campaign.pk}/")
    dashboard = f"/campaigns/{campaign.pk}/dashboard/"
    try:
        bells(pages, olga=0, karl=0, anna=0)

        # The organiser opens round 1 (the deadline a week ahead, as offered): both players are told.
        desk.goto(dashboard)
        desk.get_by_test_id("next-step").click()
        desk.get_by_role("button", name="Open the round").click()
        desk.wait_for_url(re.compile(rf"/campaigns/{campaign.pk}/rounds/1/$"))
        expect(desk.get_by_test_id("round-status")).to_have_text("Open")
        bells(pages, olga=0, karl=1, anna=1)

        # Schedules Karl against Anna over a neutral sector, from the round's schedule page.
        desk.get_by_test_id("schedule-link").click()
        # The attacker first; then the defender and only the sectors the attacker's bloc may attack.
        desk.get_by_label("Attacker").select_option(label="Karl")
        desk.get_by_role("button", name="Next").click()
        desk.get_by_label("Defender").select_option(label="Anna")
        desk.get_by_label("Over the sector").select_option(value=sector.key)
        desk.get_by_label("Mission").select_option(value="hold-the-line")
        desk.get_by_role("button", name="Schedule the battle").click()
        desk.wait_for_url(re.compile(rf"/campaigns/{campaign.pk}/rounds/1/$"))
        expect(
            desk.get_by_text(f"Scheduled: Karl attacks Anna over {sector.name}. Both players are told.")
        ).to_be_visible()
        battle = Battle.objects.get(campaign=campaign, round__number=1)
        desk.goto(dashboard)
        dashboard_says(desk, round=1, unreported=1, waiting=0, disputes=0)
        bells(pages, olga=0, karl=2, anna=2)

        # Karl opens the notice of his battle from the bell (it is read) and reports it: the attacker wins.
        karl_page = pages["karl"]
        open_notification(karl_page, f"Round 1: Karl attacks Anna over {sector.name}.")
        karl_page.wait_for_url(re.compile(rf"/battles/{battle.pk}/$"))
        bell_says(karl_page, 1)
        karl_page.get_by_test_id("report-link").click()
        karl_page.get_by_role("button", name="One more loss: Gulfport Marine Squad").click()
        expect(karl_page.get_by_test_id("preview-result")).to_contain_text("Karl (attacker) wins")
        karl_page.get_by_test_id("report-submit").click()
        karl_page.wait_for_url(re.compile(rf"/battles/{battle.pk}/$"))
        expect(karl_page.get_by_test_id("report-status")).to_have_text("Waiting for the opponent")
        # The organiser's dashboard, left open, follows by itself from here (no reload).
        dashboard_says(desk, round=1, unreported=0, waiting=1, disputes=0, timeout=15_000)
        # Anna's notice of the battle asked her to play it: that is done; the report waits on her.
        bells(pages, olga=0, karl=1, anna=2)

        # Anna opens the report from her bell and disputes it.
        anna_page = pages["anna"]
        open_notification(anna_page, "Karl reported your battle: confirm or dispute it.")
        anna_page.wait_for_url(re.compile(rf"/battles/{battle.pk}/$"))
        bell_says(anna_page, 1)
        anna_page.get_by_label("What is wrong with it").fill("My Marines held: they were never lost.")
        anna_page.get_by_role("button", name="Dispute it").click()
        expect(anna_page.get_by_test_id("report-status")).to_have_text("Disputed")
        bell_says(anna_page, 1)
        # Still the same dashboard page: its poll brings the dispute.
        dashboard_says(desk, round=1, unreported=0, waiting=0, disputes=1, timeout=15_000)
        # And the disputes its count links to come with it.
        expect(desk.get_by_test_id("disputes").get_by_test_id("dispute")).to_contain_text(
            "My Marines held: they were never lost."
        )
        bells(pages, olga=1, karl=2, anna=1)

        # The close page names the dispute and offers no close until it is resolved.
        desk.goto(f"/campaigns/{campaign.pk}/rounds/1/close/")
        expect(desk.get_by_test_id("close-disputes")).to_contain_text(
            "1 disputed report must be resolved first."
        )
        expect(desk.get_by_role("button", name="Yes: close round 1")).to_have_count(0)
        expect(desk.get_by_text("Resolve the disputes above to close the round.")).to_be_visible()

        # The organiser follows the dispute to the battle and accepts the report as reported.
        desk.get_by_test_id("close-dispute").get_by_role("link").click()
        desk.wait_for_url(re.compile(rf"/battles/{battle.pk}/$"))
        desk.get_by_test_id("accept-form").get_by_role("textbox").fill("The photo shows the Marines lost.")
        desk.get_by_role("button", name="Accept as reported").click()
        expect(desk.get_by_test_id("report-status")).to_have_text("Resolved by an organiser")
        desk.goto(dashboard)
        dashboard_says(desk, round=1, unreported=0, waiting=0, disputes=0)
        # Both players are told of the decision; the dispute's notices are settled for everyone told of it.
        bells(pages, olga=0, karl=2, anna=2)

        # Closes round 1 from the dashboard's next step.
        expect(desk.get_by_test_id("next-step")).to_have_text("Close round 1…")
        desk.get_by_test_id("next-step").click()
        desk.get_by_role("button", name="Yes: close round 1").click()
        expect(desk.get_by_text("Round 1 is closed: unplayed battles settled, income paid.")).to_be_visible()
        assert Round.objects.get(campaign=campaign, number=1).status == RoundStatus.CLOSED
        bells(pages, olga=0, karl=2, anna=2)

        # Opens round 2, generates its pairings and publishes them from the round page.
        desk.goto(dashboard)
        expect(desk.get_by_test_id("next-step")).to_have_text("Open round 2…")
        desk.get_by_test_id("next-step").click()
        desk.get_by_role("button", name="Open the round").click()
        desk.wait_for_url(re.compile(rf"/campaigns/{campaign.pk}/rounds/2/$"))
        desk.get_by_role("button", name="Generate pairings").click()
        expect(desk.get_by_test_id("draft-battle")).to_have_count(1)
        desk.goto(dashboard)
        expect(desk.get_by_test_id("wait-battles-drafted")).to_contain_text(
            "1 drafted battle not yet published"
        )
        dashboard_says(desk, round=2, unreported=0, waiting=0, disputes=0)
        bells(pages, olga=0, karl=2, anna=2)  # round 1's close is old news once round 2 opens
        desk.goto(f"/campaigns/{campaign.pk}/rounds/2/")
        desk.get_by_role("link", name="Publish…").click()
        desk.get_by_role("button", name="Yes: publish the pairings").click()
        expect(desk.get_by_test_id("round-battles").locator("tbody tr")).to_have_count(1)
        second = Battle.objects.get(campaign=campaign, round__number=2)
        assert second.status == BattleStatus.SCHEDULED
        desk.goto(dashboard)
        dashboard_says(desk, round=2, unreported=1, waiting=0, disputes=0)
        bells(pages, olga=0, karl=3, anna=3)

        # Karl reports the second battle from its notice; Anna confirms it from hers.
        open_notification(
            karl_page, f"Round 2: {second.attacker.display_name} attacks {second.defender.display_name}."
        )
        karl_page.wait_for_url(re.compile(rf"/battles/{second.pk}/$"))
        bell_says(karl_page, 2)
        karl_page.get_by_test_id("report-link").click()
        karl_page.get_by_role("button", name="One more loss: Gulfport Marine Squad").click()
        karls_side = (
            "attacker" if second.attacker.player_id == karl.pk else "defender"
        )  # as the pairing drew it
        expect(karl_page.get_by_test_id("preview-result")).to_contain_text(f"Karl ({karls_side}) wins")
        karl_page.get_by_test_id("report-submit").click()
        karl_page.wait_for_url(re.compile(rf"/battles/{second.pk}/$"))
        expect(karl_page.get_by_test_id("report-status")).to_have_text("Waiting for the opponent")
        desk.reload()
        dashboard_says(desk, round=2, unreported=0, waiting=1, disputes=0)
        bells(pages, olga=0, karl=2, anna=3)

        open_notification(anna_page, "Karl reported your battle: confirm or dispute it.")
        anna_page.wait_for_url(re.compile(rf"/battles/{second.pk}/$"))
        bell_says(anna_page, 2)
        anna_page.get_by_role("button", name="Confirm the report").click()
        expect(anna_page.get_by_text("Confirmed: the result is recorded.")).to_be_visible()
        expect(anna_page.get_by_test_id("report-status")).to_have_text("Confirmed")
        desk.reload()
        dashboard_says(desk, round=2, unreported=0, waiting=0, disputes=0)
        expect(desk.get_by_test_id("next-step")).to_have_text("Close round 2…")
        bells(pages, olga=0, karl=3, anna=2)
    finally:
        for page in pages.values():
            page.context.close()
    statuses = dict(
        BattleReport.objects.filter(campaign=campaign).values_list("battle__round__number", "status")
    )
    assert statuses == {1: ReportStatus.RESOLVED, 2: ReportStatus.CONFIRMED}
