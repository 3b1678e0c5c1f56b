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
# What the answer reads afresh: 1 the report with its battle (round, sector, sides and their accounts), both
# registered lists, who resolved it and whether each side has a current registered list, 2 its history.
ANSWER = 2

# 1-2 both registered lists named in the body (with their catalogue),
# 3 SAVEPOINT (the service's transaction, inside the test's), 4 the campaign's row locked,
# 5 the battle read under the lock with its round, sector, sides and accounts,
# 6 the battle marked reported (scheduled -> reported), 7 the report written, 8 its log entry,
# 9 the pairing's notifications to both players marked read, 10-13 the opponent told
# (a savepoint, the notification, their e-mail preference, its release), 14 RELEASE SAVEPOINT.
SUBMIT = FOUND + 14 + ANSWER

# 1 the report (report_for_api), 2 SAVEPOINT, 3 the campaign's row locked, 4 the battle read under the lock,
# 5 campaign_access on the locked row (a co-organiser? the caller's place: an organiser may settle a
# closed round's report), 6 the report confirmed (submitted -> confirmed); the result settled
# (campaign.services.results): 7 does the campaign hide results, 8 the campaign, 9 the result's log entry,
# 10 the battle's result, 11 its award, 12 the results version bumped; the map recomputed from the
# history: 13 the attackers' wins, 14 the organisers' sector changes, 15 the entries recording results,
# 16 the sectors; the sector changing hands (sector_update): 17 a savepoint, 18 the campaign locked,
# 19 the sector locked, 20 its log entry, 21 the sector saved, 22 the savepoint released; the webhook:
# 23 the campaign's name and address (none: nothing more); 24 the confirmation's log entry, 25 the report's
# notifications marked read, 26-29 the reporter told (a savepoint, the notification, their e-mail
# preference, its release), 30 RELEASE SAVEPOINT.
CONFIRM = FOUND + 30 + ANSWER


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
