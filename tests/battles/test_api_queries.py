"""Query counts of a battle's report and of the campaign's reports: pinned, each expected query named, and
measured at two sizes (one report, then dozens of reports and a report with a long history) so they do
not grow with the data."""

from __future__ import annotations

from typing import Any

import pytest

from battles.models import BattleReport, ReportStatus
from battles.services import (
    SideInput,
    report_dispute,
    report_resolve,
)

pytestmark = pytest.mark.django_db

# The caller is a player (not the creator): campaign_access asks, in one query, whether they help run the
# campaign and for their place.
ACCESS = 1
MORE_REPORTS = 24


def grow(world: Any, report: BattleReport) -> None:
    """Many more confirmed reports in the campaign, and ``report`` disputed (if waiting) and amended twice."""
    world.more_confirmed(MORE_REPORTS)
    if report.status == ReportStatus.SUBMITTED:
        report_dispute(report=report, actor=world.defender, reason="not so")
    for lost in (("e1", "e2"), ("e2",)):
        amended = world.data(defender=SideInput(lost=lost))
        report_resolve(
            report=report, actor=world.creator, decision="amended", reason="recounted", data=amended
        )


def measured(world: Any, persona: str, url: str, queries: int, django_assert_num_queries: Any) -> Any:
    with django_assert_num_queries(queries):
        response = world.client(persona).get(url)
    assert response.status_code == 200
    return response.json()


def test_a_report_takes_six_queries_however_long_its_history_and_many_the_reports(
    report_world, django_assert_num_queries
):
    # 1 the campaign, 2-3 campaign_access (a co-organiser? the caller's place)
    # 4 the battle with its round, sector, sides and their accounts
    # 5 the report with both registered lists, who resolved it and whether each side has a current
    #   registered list (each side's has_registered_list)
    # 6 its history with the actors
    report = report_world.submitted()
    small = measured(report_world, "defender", report_world.url(), 1 + ACCESS + 3, django_assert_num_queries)
    grow(report_world, report)
    large = measured(report_world, "defender", report_world.url(), 1 + ACCESS + 3, django_assert_num_queries)

    # Submitted; then disputed and amended twice.
    assert (len(small["history"]), len(large["history"])) == (1, 4)


def test_a_result_waiting_for_the_close_costs_no_more_queries(report_world, django_assert_num_queries):
    # As above: a result agreed in a campaign that hides results waits for the round's close, so the
    # sector brief is the sector as it is, read with the battle; nothing is replayed.
    report_world.hide_results()
    report = report_world.confirmed()
    small = measured(report_world, "defender", report_world.url(), 1 + ACCESS + 3, django_assert_num_queries)
    grow(report_world, report)
    large = measured(report_world, "defender", report_world.url(), 1 + ACCESS + 3, django_assert_num_queries)

    # The defender sees their battle's result; its sector is still neutral, for everyone.
    assert (small["result"]["winner"], small["sector"]["owner"]) == ("attacker", None)
    assert large["sector"]["owner"] is None


def test_the_reports_take_five_queries_however_many_reports(report_world, django_assert_num_queries):
    # 1 the campaign, 2-3 campaign_access
    # 4 the number of reports the caller may see (the page count)
    # 5 that page with their battles, rounds, sectors, sides, accounts and lists (select_related)
    # 6 the places with a current registered list (each side's has_registered_list)
    report = report_world.confirmed()
    url = report_world.campaign_url("reports/")
    small = measured(report_world, "bystander", url, 1 + ACCESS + 3, django_assert_num_queries)
    grow(report_world, report)
    large = measured(report_world, "bystander", url, 1 + ACCESS + 3, django_assert_num_queries)

    assert (small["count"], large["count"]) == (1, 1 + MORE_REPORTS)


def test_the_dispute_queue_takes_five_queries_however_many_disputes(report_world, django_assert_num_queries):
    # 1 the campaign, 2-3 campaign_access (the creator: is the caller a co-organiser? their place)
    # 4 the number of disputes, 5 that page (select_related), 6 the places with a registered list
    report_world.disputed()
    url = report_world.campaign_url("reports/disputes/")
    small = measured(report_world, "co_organiser", url, 1 + ACCESS + 3, django_assert_num_queries)
    lists = None
    for _ in range(5):
        battle, lists = report_world.another_battle(
            report_world.place("x2"), report_world.place("a2"), lists=lists
        )
        report_world.client_of("x2").post(
            report_world.url(battle=battle), report_world.body(lists), format="json"
        )
        report_world.client_of("a2").post(
            report_world.url("dispute/", battle=battle), {"reason": "No"}, format="json"
        )
    large = measured(report_world, "co_organiser", url, 1 + ACCESS + 3, django_assert_num_queries)

    assert (small["count"], large["count"]) == (1, 6)
