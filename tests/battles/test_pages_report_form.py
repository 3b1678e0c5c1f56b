"""The report form: each side's lists and units to pick from, the live preview, submitting and entering."""

from __future__ import annotations

import re

import pytest
from django.utils.html import escape

from accounts.models import Notification
from battles.judging import MAX_SCENARIO_VP, MAX_TURNS
from battles.models import BattleReport, ReportStatus, Resolution
from battles.notices import REPORT_WAITING
from battles.services import ReportInput, SideInput, report_submit
from campaign.models import BattleStatus
from tests.battles.conftest import ALLIED_UNITS, page_url, register

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_it_offers_each_sides_latest_list_its_units_and_what_the_mission_allows(client, battle, lists_of):
    older = lists_of["defender"]
    newer = register(battle.defender, ALLIED_UNITS[:1], "Allies")
    client.force_login(battle.attacker.player)

    page = client.get(page_url("report", battle)).content.decode()

    # The defender's lists, newest first and chosen; its units are the newest list's.
    assert re.search(rf'<option value="{newer.pk}" selected>', page)
    assert f'<option value="{older.pk}">' in page
    assert page.count('data-testid="unit-row"') == 2 + 1
    assert 'name="defender_lost_e1"' in page
    assert 'name="defender_lost_e2"' not in page
    # Hold the line allows a bunker; turns bounded by the mission and the judge.
    assert '<option value="bunker">A bunker</option>' in page
    assert f'max="{min(6, MAX_TURNS)}"' in page
    assert f'max="{MAX_SCENARIO_VP}"' in page
    assert "1 reserve placement for the attacker" in page


def test_a_side_submits_a_report_and_the_battle_page_shows_it(client, battle, lists_of, form_data):
    client.force_login(battle.attacker.player)

    response = client.post(page_url("report", battle), form_data())

    assert response.status_code == 302
    assert response["Location"] == page_url("battle", battle)
    report = BattleReport.objects.get(battle=battle)
    assert (report.status, report.sides["defender"]["lost"], report.judgement["winner"]) == (
        ReportStatus.SUBMITTED, ["e1"], "attacker",
    )  # fmt: skip
    page = client.get(response["Location"]).content.decode()
    assert 'data-testid="report-status">Waiting for the opponent<' in page
    assert "<del>Gulfport Marine Squad</del>" in page
    assert "<del>Prairie Dog</del>" not in page
    assert "X1 (attacker) wins 6-0 on victory points" in page


def test_a_unit_back_from_reserve_can_be_lost_again(client, battle, lists_of, form_data):
    client.force_login(battle.defender.player)

    client.post(page_url("report", battle), form_data(defender_lost_e1=2, defender_reserves_e1=1))

    report = BattleReport.objects.get(battle=battle)
    assert (report.sides["defender"]["lost"], report.sides["defender"]["reserves"]) == (["e1", "e1"], ["e1"])
    page = client.get(page_url("battle", battle)).content.decode()
    assert re.search(r'data-lost="2">\s*<del>Gulfport Marine Squad</del>.*?lost ×2', page, re.S)
    assert "to reserve</span>" in page


def test_a_report_that_does_not_add_up_comes_back_with_everything_entered(
    client, battle, lists_of, form_data
):
    client.force_login(battle.attacker.player)

    response = client.post(
        page_url("report", battle),
        form_data(ending="elimination", attacker_scenario_vp=7, defender_reserves_e2=1),
    )

    assert response.status_code == 200
    page = response.content.decode()
    # Each problem by its field, in the service's words.
    ending = re.search(r'id="err-ending".*?</div>', page, re.S).group(0)
    assert "an elimination is claimed while both sides still have units in play" in ending
    # A problem of the side's reserves as a whole shows above that side's units.
    units = re.search(r'id="err-defender-units".*?</div>', page, re.S).group(0)
    assert escape("Prairie Dog went to reserve 1 times but was lost 0") in units
    # Nothing lost: what was typed is still there.
    assert re.search(r'name="attacker_scenario_vp" value="7"', page)
    assert re.search(r'name="defender_lost_e1" value="1"', page)
    assert re.search(r'<option value="elimination" selected>', page)
    assert not BattleReport.objects.exists()
    battle.refresh_from_db()
    assert battle.status == BattleStatus.SCHEDULED


def test_counts_out_of_the_forms_bounds_are_refused_before_the_service(client, battle, lists_of, form_data):
    client.force_login(battle.attacker.player)

    response = client.post(page_url("report", battle), form_data(turns=MAX_TURNS + 1, defender_lost_e1=-1))

    page = response.content.decode()
    assert response.status_code == 200
    assert f"less than or equal to {MAX_TURNS}" in re.search(r'id="err-turns".*?</div>', page, re.S).group(0)
    assert "greater than or equal to 0" in re.search(r'id="err-defender_lost_e1".*?</div>', page, re.S).group(
        0
    )
    assert not BattleReport.objects.exists()


def test_the_preview_gives_the_result_as_you_pick_and_saves_nothing(client, battle, lists_of, form_data):
    client.force_login(battle.attacker.player)

    response = client.post(
        page_url("preview", battle), form_data(defender_lost_e2=1, attacker_scenario_vp=3), **HTMX
    )

    page = response.content.decode()
    assert response.status_code == 200
    assert re.search(r'data-testid="preview-score">X1 <strong>17</strong> – <strong>0</strong> A1', page)
    assert "X1 (attacker) wins" in page
    # Every problem slot is refreshed out of band (empty now).
    assert '<div id="err-ending" class="slot-errors" hx-swap-oob="true"></div>' in page
    assert not BattleReport.objects.exists()


def test_the_preview_names_each_problem_by_its_field(client, battle, lists_of, form_data):
    client.force_login(battle.attacker.player)

    response = client.post(page_url("preview", battle), form_data(defender_lost_e1=3), **HTMX)

    page = response.content.decode()
    assert "No result yet" in page
    assert re.search(r'data-testid="preview-score">X1 <strong>18</strong>.*so far', page)
    slot = re.search(
        r'<div id="err-defender-units" class="slot-errors" hx-swap-oob="true">.*?</div>', page, re.S
    )
    assert "Gulfport Marine Squad is lost 3 times but came back from reserve only 0" in slot.group(0)


def test_choosing_another_list_swaps_that_sides_units_in(client, battle, lists_of, form_data):
    newer = register(battle.defender, ALLIED_UNITS[1:], "Allies")
    client.force_login(battle.attacker.player)

    response = client.post(
        page_url("preview", battle), form_data(defender_registration=newer.pk, defender_lost_e1=1),
        HTTP_HX_REQUEST="true", HTTP_HX_TRIGGER_NAME="defender_registration",
    )  # fmt: skip

    page = response.content.decode()
    units = re.search(r'<div id="units-defender" class="units" hx-swap-oob="true".*?</ul>', page, re.S).group(
        0
    )
    assert "Prairie Dog" in units
    assert "Gulfport" not in units
    # The counts belonged to the other list's entries: the new list starts from nothing lost.
    assert 'name="defender_lost_e1" value="0"' in units


def test_without_javascript_the_check_button_previews_on_a_whole_page(client, battle, lists_of, form_data):
    client.force_login(battle.attacker.player)

    response = client.post(page_url("preview", battle), form_data(check="1"))

    page = response.content.decode()
    assert 'data-testid="report-form"' in page
    assert "X1 (attacker) wins" in page
    assert not BattleReport.objects.exists()


def test_an_organiser_enters_a_result_with_a_reason(client, battle, lists_of, form_data, organiser):
    client.force_login(organiser)
    page = client.get(page_url("report", battle)).content.decode()
    assert 'type="hidden" name="mode" value="enter"' in page

    refused = client.post(page_url("report", battle), form_data(mode="enter", reason=""))
    assert (
        "This field is required." in re.search(r'id="err-reason".*?</div>', refused.content.decode(), re.S)[0]
    )
    assert not BattleReport.objects.exists()

    response = client.post(
        page_url("report", battle), form_data(mode="enter", reason="Club night score sheet")
    )

    assert response.status_code == 302
    report = BattleReport.objects.get(battle=battle)
    assert (report.status, report.resolution, report.resolution_reason) == (
        ReportStatus.RESOLVED, Resolution.ENTERED, "Club night score sheet",
    )  # fmt: skip
    battle.refresh_from_db()
    assert battle.status == BattleStatus.CONFIRMED


def test_an_organiser_reports_for_a_placeholder_side_or_enters_it(
    client, battle, lists_of, form_data, organiser
):
    battle.defender.__class__.objects.filter(pk=battle.defender_id).update(
        player=None, placeholder_name="Misha"
    )
    client.force_login(organiser)

    page = client.get(page_url("report", battle)).content.decode()
    assert 'value="submit"' in page
    assert 'value="enter"' in page
    response = client.post(page_url("report", battle), form_data(mode="submit"))

    assert response.status_code == 302
    report = BattleReport.objects.get(battle=battle)
    assert (report.status, report.submitted_by_id) == (ReportStatus.SUBMITTED, battle.defender_id)


def test_a_second_report_is_a_conflict_that_says_so(client, battle, lists_of, form_data):
    client.force_login(battle.attacker.player)
    client.post(page_url("report", battle), form_data())
    client.force_login(battle.defender.player)

    response = client.post(page_url("report", battle), form_data(defender_lost_e1=0, attacker_lost_e1=1))

    assert response.status_code == 409
    page = response.content.decode()
    assert "report it only once" in page
    assert "already-reported" not in page  # the code is the API's
    assert BattleReport.objects.get(battle=battle).sides["defender"]["lost"] == ["e1"]
    # Asking for the form again leads to the report instead.
    assert client.get(page_url("report", battle))["Location"] == page_url("battle", battle)


def test_the_notification_of_a_report_leads_to_it_with_the_opponents_answer(
    client, battle, lists_of, form_data
):
    client.force_login(battle.attacker.player)
    client.post(page_url("report", battle), form_data())
    notice = Notification.objects.get(user=battle.defender.player, kind=REPORT_WAITING)
    client.force_login(battle.defender.player)

    page = client.get(notice.link).content.decode()

    assert notice.link == page_url("battle", battle)
    assert "<del>Gulfport Marine Squad</del>" in page
    assert 'data-testid="confirm-form"' in page


def test_an_organiser_previews_an_amendment_and_a_player_may_not(
    client, battle, lists_of, form_data, organiser
):
    report_submit(battle=battle, actor=battle.attacker.player, side="attacker", data=ReportInput(
        attacker_registration=lists_of["attacker"], defender_registration=lists_of["defender"], turns=6,
        ending="turn_limit", attacker=SideInput(), defender=SideInput(lost=("e1",)),
    ))  # fmt: skip
    amendment = form_data(mode="amend", seen="submitted", reason="Recount", attacker_lost_e2=1)
    client.force_login(battle.defender.player)
    refused = client.post(page_url("preview", battle), amendment, **HTMX)
    client.force_login(organiser)

    response = client.post(page_url("preview", battle), amendment, **HTMX)

    assert refused.status_code == 403
    assert response.status_code == 200
    assert "A1 (defender) wins" in response.content.decode()
