"""Answering a report on the battle's page: confirm, dispute, accept, amend, void, change a confirmed one."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from battles.models import BattleReport, ReportStatus, Resolution
from battles.services import report_confirm, report_dispute, report_resolve, report_submit
from campaign.models import BattleStatus, LogEntry, LogKind, Sector
from tests.battles.conftest import page_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def submitted(battle, report_data) -> BattleReport:
    """The attacker reported a win: the defender lost its first entry."""
    return report_submit(battle=battle, actor=battle.attacker.player, side="attacker", data=report_data())


@pytest.fixture
def disputed(submitted, battle) -> BattleReport:
    return report_dispute(report=submitted, actor=battle.defender.player, reason="The marines held out")


def test_the_opponent_sees_what_they_may_do_and_the_reporter_waits(client, battle, submitted):
    client.force_login(battle.defender.player)
    theirs = client.get(page_url("battle", battle)).content.decode()
    client.force_login(battle.attacker.player)
    mine = client.get(page_url("battle", battle)).content.decode()

    assert 'data-testid="confirm-form"' in theirs
    assert 'data-testid="dispute-form"' in theirs
    assert 'data-testid="confirm-form"' not in mine
    assert 'data-testid="report-waiting"' in mine


def test_the_opponent_confirms_and_the_sector_changes_hands(client, battle, submitted):
    client.force_login(battle.defender.player)

    response = client.post(page_url("confirm", battle))

    assert response.status_code == 302
    assert response["Location"] == page_url("battle", battle)
    submitted.refresh_from_db()
    assert submitted.status == ReportStatus.CONFIRMED
    assert Sector.objects.get(pk=battle.sector_id).owner == "Axis"
    page = client.get(response["Location"]).content.decode()
    assert "Confirmed: the result is recorded." in page
    assert 'data-testid="report-status">Confirmed<' in page
    history = re.search(r'data-testid="report-history">.*?</ol>', page, re.S).group(0)
    assert re.search(r"new → <strong>Waiting for the opponent</strong>: X1 \(attacker\) wins 6-0", history)
    assert "Waiting for the opponent → <strong>Confirmed</strong>" in history


def test_the_opponent_disputes_with_a_reason_and_the_organisers_see_it_queued(
    client, battle, submitted, organiser
):
    client.force_login(battle.defender.player)

    response = client.post(page_url("dispute", battle), {"dispute-reason": "The marines held out"})

    assert response.status_code == 302
    submitted.refresh_from_db()
    assert (submitted.status, submitted.dispute_reason) == (ReportStatus.DISPUTED, "The marines held out")
    client.force_login(organiser)
    dashboard = client.get(f"/campaigns/{battle.campaign_id}/dashboard/").content.decode()
    queue = re.search(r'data-testid="disputes">.*?</section>', dashboard, re.S).group(0)
    assert queue.count('data-testid="dispute"') == 1
    assert f'href="{page_url("battle", battle)}"' in queue
    assert "The marines held out" in queue


def test_a_dispute_without_a_reason_is_refused_and_nothing_changes(client, battle, submitted):
    client.force_login(battle.defender.player)

    response = client.post(page_url("dispute", battle), {"dispute-reason": "  "})

    assert response.status_code == 200
    form = re.search(r'data-testid="dispute-form".*?</form>', response.content.decode(), re.S).group(0)
    assert "This field is required." in form
    submitted.refresh_from_db()
    assert submitted.status == ReportStatus.SUBMITTED


def test_an_organiser_accepts_a_disputed_report_with_a_reason(client, battle, disputed, organiser):
    client.force_login(organiser)
    page = client.get(page_url("battle", battle)).content.decode()
    assert 'data-testid="accept-form"' in page

    response = client.post(
        page_url("resolve", battle, "accepted"),
        {"accepted-reason": "Photos agree", "accepted-seen": "disputed"},
    )

    assert response.status_code == 302
    disputed.refresh_from_db()
    assert (disputed.status, disputed.resolution, disputed.resolution_reason) == (
        ReportStatus.RESOLVED, Resolution.ACCEPTED, "Photos agree",
    )  # fmt: skip
    battle.refresh_from_db()
    assert battle.status == BattleStatus.CONFIRMED


def test_an_organiser_voids_a_report_with_a_reason(client, battle, disputed, organiser):
    client.force_login(organiser)

    refused = client.post(
        page_url("resolve", battle, "voided"), {"voided-reason": "", "voided-seen": "disputed"}
    )
    assert (
        "This field is required."
        in re.search(r'data-testid="void-form".*?</form>', refused.content.decode(), re.S)[0]
    )
    response = client.post(
        page_url("resolve", battle, "voided"),
        {"voided-reason": "Played the wrong mission", "voided-seen": "disputed"},
    )

    assert response.status_code == 302
    disputed.refresh_from_db()
    assert disputed.status == ReportStatus.VOID
    battle.refresh_from_db()
    assert battle.status == BattleStatus.VOID
    page = client.get(page_url("battle", battle)).content.decode()
    assert 'data-testid="void-form"' not in page
    assert 'data-testid="amend-link"' not in page


def test_an_unknown_decision_is_not_a_page(client, battle, disputed, organiser):
    client.force_login(organiser)

    assert client.post(page_url("resolve", battle, "shrug"), {"shrug-reason": "why not"}).status_code == 404


def test_an_organiser_amends_a_dispute_from_the_form_prefilled(
    client, battle, disputed, organiser, form_data
):
    client.force_login(organiser)

    page = client.get(page_url("amend", battle)).content.decode()
    assert re.search(r'name="defender_lost_e1" value="1"', page)
    assert re.search(r'name="mode" value="amend"', page)
    # The campaign's menu keeps the organiser's tools, as on the battle's page.
    assert f'href="{reverse("campaign:dashboard", args=[battle.campaign_id])}"' in page
    refused = client.post(page_url("amend", battle), form_data(mode="amend", seen="disputed", reason=""))
    assert (
        "This field is required." in re.search(r'id="err-reason".*?</div>', refused.content.decode(), re.S)[0]
    )

    response = client.post(
        page_url("amend", battle),
        form_data(
            mode="amend", seen="disputed", reason="Both lost a squad", defender_lost_e1=1, attacker_lost_e1=1
        ),
    )

    assert response.status_code == 302
    disputed.refresh_from_db()
    assert (disputed.status, disputed.resolution) == (ReportStatus.RESOLVED, Resolution.AMENDED)
    assert disputed.sides["attacker"]["lost"] == ["e1"]
    assert disputed.judgement["draw"] is True
    battle.refresh_from_db()
    assert (battle.status, battle.result["draw"]) == (BattleStatus.CONFIRMED, True)


def test_an_organiser_changes_a_confirmed_report_with_a_reason(
    client, battle, submitted, organiser, form_data
):
    report_confirm(report=submitted, actor=battle.defender.player)
    assert Sector.objects.get(pk=battle.sector_id).owner == "Axis"
    client.force_login(organiser)
    page = client.get(page_url("battle", battle)).content.decode()
    assert "Change the confirmed report…" in page

    response = client.post(
        page_url("amend", battle),
        form_data(
            mode="amend",
            seen="confirmed",
            reason="The score sheet was swapped",
            defender_lost_e1=0,
            attacker_lost_e2=1,
        ),
    )

    assert response.status_code == 302
    battle.refresh_from_db()
    assert battle.result["winner"] == "defender"
    # The attacker's win is taken back: the sector is neutral again.
    assert Sector.objects.get(pk=battle.sector_id).owner == ""
    entry = LogEntry.objects.filter(kind=LogKind.REPORT_CHANGED).order_by("-id").first()
    assert (entry.before, entry.reason) == ("confirmed", "The score sheet was swapped")


def test_an_amendment_that_does_not_add_up_keeps_what_was_entered(
    client, battle, disputed, organiser, form_data
):
    client.force_login(organiser)

    response = client.post(
        page_url("amend", battle),
        form_data(mode="amend", seen="disputed", reason="Recount", ending="objective", turns=4),
    )

    page = response.content.decode()
    assert response.status_code == 200
    assert "neither side completed it" in re.search(r'id="err-ending".*?</div>', page, re.S).group(0)
    assert re.search(r'name="turns" value="4"', page)
    assert "Recount</textarea>" in page
    disputed.refresh_from_db()
    assert disputed.status == ReportStatus.DISPUTED


def test_confirming_a_report_someone_else_answered_first_is_a_409_showing_it_now(
    client, battle, submitted, organiser
):
    client.force_login(battle.defender.player)
    page = client.get(page_url("battle", battle)).content.decode()  # the confirm button is on screen...
    assert 'data-testid="confirm-form"' in page
    report_resolve(
        report=submitted, actor=organiser, decision="voided", reason="Never played"
    )  # ...meanwhile

    response = client.post(page_url("confirm", battle))

    assert response.status_code == 409
    page = response.content.decode()
    error = re.search(r'data-testid="report-error">(.*?)</p>', page, re.S).group(1)
    assert "Someone acted on this report first" in error
    assert "the report is void now" in error
    assert "report-changed" not in error  # the code is the API's
    assert 'data-testid="report-status">Void<' in page
    assert 'data-testid="confirm-form"' not in page


def test_confirming_twice_is_a_409_and_applies_nothing_twice(client, battle, submitted):
    client.force_login(battle.defender.player)
    client.post(page_url("confirm", battle))

    again = client.post(page_url("confirm", battle))

    assert again.status_code == 409
    assert LogEntry.objects.filter(kind=LogKind.RESULT_RECORDED).count() == 1


def test_resolving_a_report_changed_meanwhile_is_a_409(client, battle, disputed, organiser, form_data):
    client.force_login(organiser)
    client.get(page_url("battle", battle))  # the accept form is on screen...
    report_resolve(
        report=disputed, actor=organiser, decision="voided", reason="Double booked"
    )  # ...meanwhile

    response = client.post(
        page_url("resolve", battle, "accepted"),
        {"accepted-reason": "Fine by me", "accepted-seen": "disputed"},
    )
    amend = client.post(page_url("amend", battle), form_data(mode="amend", seen="disputed", reason="Recount"))

    assert response.status_code == 409
    assert 'data-testid="report-status">Void<' in response.content.decode()
    # The amendment page of a void report sends the organiser back to the battle.
    assert amend.status_code == 302


def test_amending_a_report_that_changed_since_the_form_was_drawn_is_a_409_that_keeps_the_form(
    client, battle, disputed, organiser, form_data
):
    client.force_login(organiser)
    page = client.get(page_url("amend", battle)).content.decode()
    assert re.search(r'name="seen" value="disputed"', page)
    report_resolve(report=disputed, actor=organiser, decision="accepted", reason="Another organiser agreed")

    response = client.post(
        page_url("amend", battle), form_data(mode="amend", seen="disputed", reason="Recount", turns=5)
    )

    assert response.status_code == 409
    page = response.content.decode()
    assert "resolved by an organiser now (it was disputed): nothing was done" in page
    assert re.search(r'name="turns" value="5"', page)
    disputed.refresh_from_db()
    assert (disputed.status, disputed.resolution) == (ReportStatus.RESOLVED, Resolution.ACCEPTED)


def test_a_forged_acceptance_of_a_void_report_is_refused(client, battle, disputed, organiser):
    report_resolve(report=disputed, actor=organiser, decision="voided", reason="Never played")
    client.force_login(organiser)

    response = client.post(
        page_url("resolve", battle, "accepted"), {"accepted-reason": "x", "accepted-seen": "void"}
    )

    assert response.status_code == 409
    disputed.refresh_from_db()
    assert disputed.status == ReportStatus.VOID
