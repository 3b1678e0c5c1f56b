"""Query counts of the report's page (the battle's page), the battles list and the dashboard's dispute queue.

Each is pinned, with the expected queries named, and measured at two sizes
(short lists and a short history against long lists and a long history; a few
battles and disputes against many), so a number that grew with them would fail.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from battles.services import (
    ReportInput,
    SideInput,
    report_confirm,
    report_dispute,
    report_resolve,
    report_submit,
)
from campaign.models import Battle, BattleSource, BattleStatus, Campaign, Round, sides_recorded
from tests.battles.conftest import ALLIED_UNITS, AXIS_UNITS, page_url, register

pytestmark = pytest.mark.django_db

UNITS = {"Axis": AXIS_UNITS, "Allies": ALLIED_UNITS, "SSU": ("ssu.volga-rifle-squad", "ssu.medved")}


def _report(battle: Battle, lists: dict[str, object], lost: int = 1) -> ReportInput:
    return ReportInput(
        attacker_registration=lists["attacker"], defender_registration=lists["defender"], turns=6,
        ending="turn_limit", attacker=SideInput(), defender=SideInput(lost=tuple(f"e{i + 1}" for i in range(lost))),
    )  # fmt: skip


def _battle(campaign: Campaign, round: Round, attacker, defender) -> Battle:
    return Battle.objects.create(
        campaign=campaign, round=round, sector=None, attacker=attacker, defender=defender,
        **sides_recorded(attacker=attacker, defender=defender),
        mission="hold-the-line", points_limit=150, status=BattleStatus.SCHEDULED, source=BattleSource.PAIRING,
    )  # fmt: skip


def test_it_shows_a_report_in_a_fixed_number_of_queries(
    client, battle, lists_of, organiser, django_assert_num_queries
):
    """Short lists and two changes, then lists of twelve entries and five changes: the same queries."""
    defender = battle.defender.player
    small = report_submit(
        battle=battle, actor=battle.attacker.player, side="attacker", data=_report(battle, lists_of)
    )
    report_dispute(report=small, actor=defender, reason="Too quick")

    def count(user, expected: int) -> str:
        client.force_login(user)
        # 1 the campaign, 2 the session, 3 the user, 4 what the user is to the campaign (campaign_access:
        # co-organiser, enrolment), 5 the battle with its round, sector and both sides with their accounts,
        # 6 both sides' current registered lists (the list check), 7 the report with both lists and the
        # people named on it, 8 its history with who acted, 9 the sectors for the map
        with django_assert_num_queries(expected):
            return client.get(page_url("battle", battle)).content.decode()

    first = (count(defender, 9), count(organiser, 9))
    big = {
        "attacker": register(battle.attacker, AXIS_UNITS * 6, "Axis"),
        "defender": register(battle.defender, ALLIED_UNITS * 6, "Allies"),
    }
    report_resolve(report=small, actor=organiser, decision="amended", reason="Long lists",
                   data=_report(battle, big, lost=5))  # fmt: skip
    report_resolve(report=small, actor=organiser, decision="amended", reason="Recount",
                   data=_report(battle, big, lost=4))  # fmt: skip
    report_resolve(report=small, actor=organiser, decision="accepted", reason="Fine")
    second = (count(defender, 9), count(organiser, 9))

    assert [page.count('class="report-entry') for page in (*first, *second)] == [4, 4, 24, 24]
    assert [page.count('class="timeline-entry"') for page in (*first, *second)] == [2, 2, 5, 5]


@pytest.fixture
def two_rounds(running_campaign, round_one, place, organiser):
    """Battles of two rounds between the six players, reported and confirmed: ``grow(n)`` adds n of each."""
    lists = {name: register(place(name), UNITS[place(name).bloc], place(name).bloc)
             for name in ("x1", "x2", "a1", "a2", "s1", "s2")}  # fmt: skip
    pairs = [("x1", "a1"), ("a2", "s1"), ("s2", "x2")]

    def grow(count: int) -> None:
        for index in range(count):
            attacker, defender = pairs[index % 3]
            fought = _battle(running_campaign, round_one, place(attacker), place(defender))
            data = _report(fought, {"attacker": lists[attacker], "defender": lists[defender]})
            report = report_submit(battle=fought, actor=place(attacker).player, side="attacker", data=data)
            if index % 2:
                report_confirm(report=report, actor=place(defender).player)
            else:
                report_dispute(report=report, actor=place(defender).player, reason=f"Dispute {index}")

    return grow


def test_it_lists_the_battles_in_a_fixed_number_of_queries(client, running_campaign, two_rounds, place,
                                                         django_assert_num_queries):  # fmt: skip
    client.force_login(place("x1").player)
    shown = []
    for count in (3, 27):
        two_rounds(count)
        # 1 the campaign, 2 the session, 3 the user, 4 what the user is to the campaign (co-organiser, their
        # enrolment), 5 the places to filter by, 6 the count for the paginator,
        # 7 the page of battles with their round, sector, both sides with their accounts and their report
        with django_assert_num_queries(7):
            response = client.get(reverse("battles:list", args=[running_campaign.pk]))
        shown.append(response.content.count(b'data-testid="battle-card"'))
    assert shown == [3, 25]


def test_it_shows_the_dispute_queue_in_a_fixed_number_of_queries(client, running_campaign, two_rounds, organiser,
                                                                 django_assert_num_queries):  # fmt: skip
    client.force_login(organiser)
    queued = []
    for count in (2, 12):
        two_rounds(count)
        # 1 the session, 2 the user, 3 the campaign, 4 its co-organisers, 5 the creator's own enrolment,
        # 6 the admitted placeholders, 7 the join requests,
        # what the round waits on (round_waits_on): 8 the open round, 9 the places grouped by status,
        # bloc and list, 10 its battles by state, 11 its open challenges, 12 the reports waiting and
        # disputed, then 13 the catalogue's factions, 14 the current round's open battle sessions (what is
        # being played at the table),
        # 15 the disputed reports with their battles' rounds, sectors, sides and who submitted them (names only)
        with django_assert_num_queries(15):
            response = client.get(reverse("campaign:dashboard", args=[running_campaign.pk]))
        queued.append(response.content.count(b'data-testid="dispute"'))
    assert queued == [1, 7]


def test_a_stranger_sees_a_battle_whose_result_waits_for_the_close_in_eight_queries(client, battle, lists_of, stranger,
                                                                      django_assert_num_queries):  # fmt: skip
    Campaign.objects.filter(pk=battle.campaign_id).update(is_public=True, hide_results_until_close=True)
    report = report_submit(
        battle=battle, actor=battle.attacker.player, side="attacker", data=_report(battle, lists_of)
    )
    report_confirm(report=report, actor=battle.defender.player)
    client.force_login(stranger)
    # 1 the campaign, 2 the battle (its round, sector and sides), 3 both sides' current lists, 4-6 the
    # session, the user, what they are to the campaign, 7 the report (its history not shown),
    # 8 the sectors (the map is the map: the agreed result waits for the close, nothing is replayed)
    with django_assert_num_queries(8):
        page = client.get(page_url("battle", battle)).content.decode()
    assert 'data-testid="report-hidden"' in page
    assert f'data-sector="{battle.sector.key}" data-owner="neutral"' in page
