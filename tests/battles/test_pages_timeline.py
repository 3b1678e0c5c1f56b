"""The campaign's timeline tells the battle reports in words, as its main entries, linked to each battle."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from battles.models import BattleReport
from battles.services import (
    SideInput,
    report_confirm,
    report_dispute,
    report_enter,
    report_resolve,
    report_submit,
    reports_autoconfirm,
)
from campaign.models import Campaign
from tests.battles.conftest import page_url

pytestmark = pytest.mark.django_db


def timeline_lines(client, campaign: Campaign) -> list[tuple[str, str, str]]:
    """(kind, text, reason) of each entry, newest first."""
    page = client.get(reverse("campaign:timeline", args=[campaign.pk])).content.decode()
    lines = []
    for item in re.findall(r'<li class="timeline-entry[^"]*" data-kind="([^"]+)">(.*?)</li>', page, re.S):
        kind, body = item
        text = re.sub(r"<[^>]+>", "", re.search(r'<p class="timeline-text">(.*?)</p>', body, re.S).group(1))
        reason = re.search(r'<p class="timeline-reason">Why: (.*?)</p>', body, re.S)
        lines.append((kind, text.strip(), reason.group(1) if reason else ""))
    return lines


def test_it_tells_a_report_from_submission_to_confirmation(client, battle, report_data, organiser):
    report = report_submit(battle=battle, actor=battle.attacker.player, side="attacker", data=report_data())
    report_confirm(report=report, actor=battle.defender.player)
    client.force_login(organiser)

    lines = [
        line
        for line in timeline_lines(client, battle.campaign)
        if line[0] in ("report-changed", "result-recorded")
    ]

    where = escape(f"the battle at {battle.sector.name} (X1 attacks A1)")
    assert [text for _kind, text, _why in lines] == [
        f"A1 confirmed the report of {where}: X1 (attacker) wins 6-0 on victory points",
        f"Result of {where}: X1 (attacker) wins 6-0 on victory points",
        f"X1 reported {where}: X1 (attacker) wins 6-0 on victory points",
    ]


def test_reports_are_its_main_entries_linked_to_their_battle(client, battle, report_data, organiser):
    report_submit(battle=battle, actor=battle.attacker.player, side="attacker", data=report_data())
    client.force_login(organiser)

    page = client.get(reverse("campaign:timeline", args=[battle.campaign_id])).content.decode()

    entry = re.search(
        r'<li class="timeline-entry timeline-main" data-kind="report-changed">.*?</li>', page, re.S
    )
    assert entry is not None
    assert f'<strong><a href="{page_url("battle", battle)}">X1 reported' in entry.group(0)


def test_it_tells_a_dispute_with_its_reason_and_how_it_was_resolved(client, battle, report_data, organiser):
    report = report_submit(battle=battle, actor=battle.attacker.player, side="attacker", data=report_data())
    report_dispute(report=report, actor=battle.defender.player, reason="The marines held out")
    report_resolve(report=report, actor=organiser, decision="voided", reason="Nobody kept score")
    client.force_login(organiser)

    lines = [line for line in timeline_lines(client, battle.campaign) if line[0] == "report-changed"]

    assert [(text.split(" the ")[0], why) for _kind, text, why in lines] == [
        ("Olga voided", "Nobody kept score"),
        ("A1 disputed", "The marines held out"),
        ("X1 reported", ""),
    ]


def test_it_tells_a_confirmed_report_changed_and_its_result_taken_back(
    client, battle, report_data, organiser
):
    report = report_submit(battle=battle, actor=battle.attacker.player, side="attacker", data=report_data())
    report_confirm(report=report, actor=battle.defender.player)
    report_resolve(report=report, actor=organiser, decision="amended", reason="Score sheet swapped",
                   data=report_data(defender=SideInput(), attacker=SideInput(lost=("e1",))))  # fmt: skip
    client.force_login(organiser)

    texts = [text for _kind, text, _why in timeline_lines(client, battle.campaign)]

    where = escape(f"the battle at {battle.sector.name} (X1 attacks A1)")
    assert f"Olga changed the confirmed report of {where}: A1 (defender) wins 0-6 on victory points" in texts
    assert f"The result of {where} was taken back (the battle is reported now)" in texts


def test_it_tells_a_report_confirmed_after_the_deadline_and_one_entered(
    client, battle, report_data, organiser
):
    report = report_submit(battle=battle, actor=battle.attacker.player, side="attacker", data=report_data())
    BattleReport.objects.filter(pk=report.pk).update(submitted_at=timezone.now() - timedelta(days=30))
    reports_autoconfirm()
    client.force_login(organiser)

    texts = [text for _kind, text, _why in timeline_lines(client, battle.campaign)]

    assert any(
        text.startswith("The report of the battle at") and "for the silent opponent" in text for text in texts
    )


def test_it_tells_a_result_entered_by_an_organiser(client, battle, report_data, organiser):
    report_enter(battle=battle, actor=organiser, data=report_data(), reason="Paper slip")
    client.force_login(organiser)

    texts = [text for kind, text, _why in timeline_lines(client, battle.campaign) if kind == "report-changed"]

    assert texts == [f"Olga entered the result of {escape(f'the battle at {battle.sector.name} (X1 attacks A1)')}: "
                     "X1 (attacker) wins 6-0 on victory points"]  # fmt: skip


def test_a_report_not_yet_agreed_is_told_without_its_result_or_reasons_to_others(
    client, battle, report_data, stranger
):
    Campaign.objects.filter(pk=battle.campaign_id).update(is_public=True)
    report = report_submit(battle=battle, actor=battle.attacker.player, side="attacker", data=report_data())
    report_dispute(report=report, actor=battle.defender.player, reason="The marines held out")
    client.force_login(stranger)

    lines = [line for line in timeline_lines(client, battle.campaign) if line[0] == "report-changed"]

    where = escape(f"the battle at {battle.sector.name} (X1 attacks A1)")
    assert lines == [
        ("report-changed", f"A1 disputed the report of {where}", ""),
        ("report-changed", f"X1 reported {where}", ""),
    ]
