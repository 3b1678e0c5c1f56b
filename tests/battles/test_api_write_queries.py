"""Query counts of a report's submission and its confirmation through the API: pinned, each expected query
named, and the same in the small campaign of the battles fixtures and once it has many more players with
registered lists and many more confirmed results (the campaign night's 500 players, in miniature)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import User
from battles.models import BattleReport, ReportStatus
from campaign.models import Battle, Enrolment, EnrolmentStatus, Registration

pytestmark = pytest.mark.django_db

MORE_PLAYERS = 60
MORE_REPORTS = 24

# 1 the campaign, 2 campaign_access (a co-organiser? the caller's place: one query), 3 the battle with its
# round, sector, sides and their accounts (campaign_battle). The client is authenticated without a session.
FOUND = 3
# What the answer reads: 1 the report's history. The rest is built from what the service wrote and read under
# the campaign's lock (the report, its battle with its round, sector, sides and whether each side has a
# current registered list): battles.api.reports.written.
ANSWER = 1

# 1 both registered lists named in the body, with their catalogue (one query for the two),
# 2 SAVEPOINT (the service's transaction, inside the test's), 3 the campaign's row locked,
# 4 the battle read under the lock with its round, sector, sides and accounts and whether each side has a
# current registered list, 5 the battle marked reported (scheduled -> reported), 6 the report written,
# 7 its log entry, 8 the pairing's notifications to both players marked read, 9-10 the opponent told (the
# notification, their e-mail preference; no savepoint of its own), 11 RELEASE SAVEPOINT.
SUBMIT = FOUND + 11 + ANSWER

# 1 the report (report_for_api), 2 SAVEPOINT, 3 the campaign's row locked, 4 the battle read under the lock
# (the answering side's round open and place admitted: whether the caller organises is not asked),
# 5 the report confirmed (submitted -> confirmed); the result settled (campaign.services.results) with the
# row locked in 3 (whether it hides results, its awards, its name and webhook address: not read again):
# 6 the result's log entry, 7 the battle's result, 8 its award, 9 the results version bumped; the map
# recomputed from the history: 10 the attackers' wins, 11 the organisers' sector changes, 12 the entries
# recording results, 13 the sectors (read under the campaign's lock, which every writer of a sector
# takes); the sector changing hands (sector_changes_derive): 14 its log entry, 15 the columns that changed
# saved; 16 the confirmation's log entry, 17 the report's notifications marked read, 18-19 the reporter
# told (the notification, their e-mail preference), 20 RELEASE SAVEPOINT.
CONFIRM = FOUND + 20 + ANSWER


def submit_and_confirm(
    world: Any, battle: Battle, lists: dict[str, Registration], assert_queries: Any
) -> None:
    """The attacker reports ``battle`` and the defender confirms it, each within its pinned count."""
    url = world.url(battle=battle)
    attacker, defender = APIClient(), APIClient()
    attacker.force_authenticate(battle.attacker.player)
    defender.force_authenticate(battle.defender.player)
    with assert_queries(SUBMIT):
        submitted = attacker.post(url, world.body(lists), format="json")
    assert submitted.status_code == 201, submitted.content
    with assert_queries(CONFIRM):
        confirmed = defender.post(f"{url}confirm/", format="json")
    assert confirmed.status_code == 200, confirmed.content
    answer = confirmed.json()
    assert answer["status"] == ReportStatus.CONFIRMED
    # Read with the report: both sides fought with a list registered in this campaign.
    assert (answer["attacker"]["has_registered_list"], answer["defender"]["has_registered_list"]) == (
        True,
        True,
    )


def more_players(world: Any) -> None:
    """``MORE_PLAYERS`` more admitted players in each bloc of the battle, each with a registered list."""
    campaign = world.campaign
    template = world.lists["attacker"]
    users = User.objects.bulk_create(User(username=f"more{n}") for n in range(2 * MORE_PLAYERS))
    places = Enrolment.objects.bulk_create(
        Enrolment(
            campaign=campaign, player=user, bloc=("Axis", "Allies")[n % 2], status=EnrolmentStatus.ADMITTED
        )
        for n, user in enumerate(users)
    )
    copied = ("name", "bloc", "document", "catalogue", "catalogue_name", "catalogue_version", "profiles",
              "costs", "total_ap", "terms", "verdict")  # fmt: skip
    Registration.objects.bulk_create(
        Registration(campaign=campaign, enrolment=place, **{f: getattr(template, f) for f in copied})
        for place in places
    )


def test_a_submission_and_its_confirmation_cost_the_same_queries_however_large_the_campaign(
    report_world, django_assert_num_queries
):
    # The large campaign's battle is made first, so that it keeps a sector at stake (the results that
    # grow the campaign take the others) and its result moves it as the small one's does.
    later, lists = report_world.another_battle(report_world.place("x2"), report_world.place("a2"))
    submit_and_confirm(report_world, report_world.battle, report_world.lists, django_assert_num_queries)
    report_world.more_confirmed(MORE_REPORTS, lists)
    more_players(report_world)

    submit_and_confirm(report_world, later, lists, django_assert_num_queries)

    assert later.sector is not None
    confirmed = BattleReport.objects.filter(campaign=report_world.campaign, status=ReportStatus.CONFIRMED)
    assert confirmed.count() == 2 + MORE_REPORTS
    assert Registration.objects.filter(campaign=report_world.campaign).count() > 2 * MORE_PLAYERS
