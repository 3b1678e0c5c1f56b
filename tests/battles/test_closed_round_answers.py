"""Answering a report once its round has closed, or once the answering player has left.

A player confirms or disputes only while the battle's round is open (409 ``round-closed`` after) and
while still in the campaign (403 through the API, ``left-campaign`` from the service). The organisers
may still settle a closed round's report (accept, amend, void, enter, or confirm for a placeholder), and
so may the clock that confirms for a silent opponent: a closed round's results are public, so what they
settle takes effect at once, hidden results or not (docs/battle-reports.md).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from battles.models import BattleReport, ReportStatus
from battles.services import (
    ReportConflictError,
    report_confirm,
    report_dispute,
    report_submit,
    reports_autoconfirm,
)
from campaign.models import BattleStatus, Enrolment, LogEntry, LogKind, Sector
from campaign.services.players import enrolment_leave
from campaign.services.rounds import round_close
from tests.races import at_once, outcome, require_postgresql

pytestmark = pytest.mark.django_db


@pytest.fixture
def closed(report_world):
    """x1's report waits for a1 when the organiser closes round 1."""
    report = report_world.submitted()
    round_close(round=report_world.battle.round, actor=report_world.creator)
    return report_world, report


def owner(world) -> str:
    return str(Sector.objects.get(pk=world.battle.sector_id).owner)


@pytest.mark.parametrize("action", ["confirm", "dispute"])
def test_a_player_cannot_answer_once_the_round_is_closed(closed, action):
    world, report = closed

    response = world.client("defender").post(world.url(f"{action}/"), {"reason": "No"}, format="json")

    assert (response.status_code, response.json()["code"]) == (409, "round-closed")
    report.refresh_from_db()
    assert report.status == ReportStatus.SUBMITTED
    assert not LogEntry.objects.filter(kind=LogKind.RESULT_RECORDED).exists()
    assert owner(world) == ""


def test_the_page_says_why_too(closed):
    world, report = closed
    client = Client()
    client.force_login(world.defender)
    page = client.post(
        f"/campaigns/{world.campaign.pk}/battles/{world.battle.pk}/report/confirm/", follow=True
    ).content.decode()

    report.refresh_from_db()
    assert report.status == ReportStatus.SUBMITTED
    assert "round is closed" in page


@pytest.mark.parametrize("hide", [False, True], ids=["shown", "hidden"])
def test_an_organiser_settles_a_closed_rounds_report_and_it_takes_effect_at_once(closed, hide):
    world, _report = closed
    if hide:
        world.hide_results()

    response = world.client("creator").post(
        world.url("resolve/"), {"decision": "accepted", "reason": "Agreed at the club"}, format="json"
    )

    assert response.status_code == 200, response.content
    world.battle.refresh_from_db()
    assert (world.battle.status, world.battle.pending_result) == (BattleStatus.CONFIRMED, None)
    assert owner(world) == "Axis"


def test_the_clock_confirms_a_closed_rounds_report_for_the_silent_opponent(closed):
    world, report = closed

    assert (
        reports_autoconfirm(now=timezone.now() + timedelta(hours=world.campaign.report_confirm_hours + 1))
        == 1
    )

    report.refresh_from_db()
    assert (report.status, report.auto_confirmed) == (ReportStatus.CONFIRMED, True)
    assert owner(world) == "Axis"


def test_an_organiser_confirms_for_a_placeholder_after_the_close(report_world):
    world = report_world
    Enrolment.objects.filter(pk=world.battle.defender_id).update(player=None, placeholder_name="Ada")
    report = world.submitted()
    round_close(round=world.battle.round, actor=world.creator)

    report_confirm(report=BattleReport.objects.get(pk=report.pk), actor=world.creator)

    assert owner(world) == "Axis"


@pytest.mark.parametrize("action", ["confirm", "dispute"])
def test_a_player_who_left_can_no_longer_answer(report_world, action):
    world = report_world
    report = world.submitted()
    enrolment_leave(enrolment=world.place("a1"), actor=world.defender)

    response = world.client("defender").post(world.url(f"{action}/"), {"reason": "No"}, format="json")

    assert response.status_code == 403
    row = BattleReport.objects.get(pk=report.pk)
    answer = {
        "confirm": lambda: report_confirm(report=row, actor=world.defender),
        "dispute": lambda: report_dispute(report=row, actor=world.defender, reason="No"),
    }[action]
    with pytest.raises(ReportConflictError) as refused:
        answer()
    assert refused.value.code == "left-campaign"
    # They still see their battle's report.
    assert world.client("defender").get(world.url()).status_code == 200


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_confirmations_racing_the_close_are_either_before_it_or_refused(report_world):
    require_postgresql()
    world = report_world
    reports = [world.submitted()]
    for attacker, defender in (("x2", "a2"), ("x1", "a2"), ("x2", "a1")):
        battle, lists = world.another_battle(world.place(attacker), world.place(defender))
        data = world.data(attacker_registration=lists["attacker"], defender_registration=lists["defender"])
        reports.append(report_submit(battle=battle, actor=battle.attacker.player, side="attacker", data=data))

    def confirm(pk: int):
        row = BattleReport.objects.select_related("battle__defender__player").get(pk=pk)
        return lambda: report_confirm(report=row, actor=row.battle.defender.player)

    def close():
        round_close(round=world.battle.round, actor=world.creator)

    calls = [outcome("closed", close)] + [outcome("confirmed", confirm(r.pk)) for r in reports]
    outcomes = at_once(calls)

    assert outcomes[0] == "closed"
    assert set(outcomes[1:]) <= {"confirmed", "round-closed"}
    closed_at = LogEntry.objects.get(kind=LogKind.ROUND_CHANGED, after__status="closed").pk
    recorded = LogEntry.objects.filter(kind=LogKind.RESULT_RECORDED)
    # Every confirmation that went through was made before the close; none after.
    assert recorded.count() == outcomes.count("confirmed")
    assert all(entry.pk < closed_at for entry in recorded)
