"""The demo campaign's battle reports: confirmed ones that moved the front, one for Lena, one dispute."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from battles.models import BattleReport, ReportStatus
from campaign.models import BattleStatus, Campaign, LogEntry
from campaign.selectors import campaign_map
from campaign.services.results import campaign_check

pytestmark = pytest.mark.django_db


def test_the_demo_campaign_has_confirmed_reports_one_waiting_for_lena_and_one_dispute():
    call_command("seed_demo")

    campaign = Campaign.objects.get()
    reports = BattleReport.objects.filter(campaign=campaign).select_related(
        "battle__attacker__player", "battle__defender__player", "submitted_by__player"
    )
    by_status: dict[str, list[BattleReport]] = {}
    for report in reports:
        by_status.setdefault(report.status, []).append(report)
    assert {status: len(rows) for status, rows in by_status.items()} == {
        ReportStatus.CONFIRMED: 2, ReportStatus.SUBMITTED: 1, ReportStatus.DISPUTED: 1,
    }  # fmt: skip
    waiting = by_status[ReportStatus.SUBMITTED][0]
    # Lena did not submit it: she is the one to confirm or dispute it.
    assert waiting.submitted_by.player.username != "lena"
    assert "lena" in {waiting.battle.attacker.player.username, waiting.battle.defender.player.username}
    assert by_status[ReportStatus.DISPUTED][0].dispute_reason
    # One battle is left for the demo users to report themselves.
    assert campaign.battles.filter(status=BattleStatus.SCHEDULED).count() == 1


def test_the_confirmed_attackers_wins_moved_the_front_line():
    call_command("seed_demo")

    campaign = Campaign.objects.get()
    start = campaign_map(campaign=campaign).initial_state()
    taken = {
        report.battle.sector.key: report.battle.attacker.bloc
        for report in BattleReport.objects.filter(
            campaign=campaign, status=ReportStatus.CONFIRMED
        ).select_related("battle__sector", "battle__attacker")
    }
    now = {sector.key: sector.owner for sector in campaign.sectors.filter(key__in=taken)}

    assert now == taken
    assert all((start[key].owner.value if start[key].owner else "") != bloc for key, bloc in taken.items())
    assert campaign_check(campaign=campaign).ok


def test_seeding_again_adds_no_report_and_changes_nothing():
    call_command("seed_demo")
    reports, log = BattleReport.objects.count(), LogEntry.objects.count()

    call_command("seed_demo")

    assert (BattleReport.objects.count(), LogEntry.objects.count()) == (reports, log)


@pytest.mark.parametrize("bloc", ["Allies", "Axis", "SSU"])
def test_lenas_list_registers_whichever_bloc_the_pairing_leaves_her(bloc):
    # Lena joins the bloc the round-1 bye was not, and the pairing's seed (database ids) decides the bye.
    from armies.services import army_lists as lists
    from battles.seed import LATECOMER_LISTS
    from campaign.services.registrations import army_list_register
    from tests.factories import EnrolmentFactory, UserFactory

    call_command("seed_demo")
    campaign = Campaign.objects.get()
    user = UserFactory()
    place = EnrolmentFactory(campaign=campaign, player=user, bloc=bloc)
    name, units = LATECOMER_LISTS[bloc]
    army_list = lists.army_list_create(
        owner=user, catalogue=campaign.catalogue, name=name, bloc=bloc, points_limit=campaign.points_limit
    )
    for unit in units:
        lists.army_list_add_unit(army_list=army_list, unit_key=unit)
    army_list.refresh_from_db()

    registration = army_list_register(enrolment=place, army_list=army_list, actor=user)

    assert registration.enrolment_id == place.pk


def test_the_demos_battle_left_to_play_has_its_matchup_sheet_ready_to_open():
    from django.test import Client
    from django.urls import reverse

    from battles.models import MatchupSheet, MatchupStatus

    call_command("seed_demo")
    sheet = MatchupSheet.objects.select_related("battle__attacker__player").get()
    battle = sheet.battle
    client = Client()
    client.force_login(battle.attacker.player)

    page = client.get(reverse("battles:matchup", args=[battle.campaign_id, battle.pk])).content.decode()

    assert battle.status == BattleStatus.SCHEDULED
    assert sheet.status == MatchupStatus.DONE
    assert "Your units against" in page
    assert "to destroy" in page


def test_the_demo_has_a_battle_in_progress_at_the_table():
    from battles.sessions.models import BattleSession, SessionStatus
    from battles.sessions.selectors import session_replay

    call_command("seed_demo")

    session = BattleSession.objects.select_related("battle").get()
    assert session.status == SessionStatus.OPEN
    assert session.battle.status == BattleStatus.SCHEDULED
    assert session.version == 12
    assert session_replay(session=session, step=12)["state"]["log"]
