"""One status vocabulary for a battle: the round page, the battle page and the battles list say the same.

A disputed report reads "Disputed" on all three to the organiser and the battle's players (who may see
the report), and "Reported" on all three to a stranger of a public campaign (who may not).
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from battles.services import ReportInput, SideInput, report_dispute, report_submit
from campaign.models import Campaign

pytestmark = pytest.mark.django_db


def _shown_statuses(client, battle) -> dict[str, str]:
    campaign = battle.campaign_id
    round_page = client.get(reverse("campaign:round", args=[campaign, battle.round.number])).content.decode()
    battle_page = client.get(reverse("campaign:battle", args=[campaign, battle.pk])).content.decode()
    listing = client.get(reverse("battles:list", args=[campaign])).content.decode()
    row = re.search(rf"<tr[^>]*>(?:(?!</tr>).)*?/battles/{battle.pk}/(?:(?!</tr>).)*</tr>", round_page, re.S)
    assert row is not None
    return {
        "round": next(s for s in ("Disputed", "Reported") if f">{s}" in row.group(0)),
        "battle": re.search(r'data-testid="battle-status">([^<]+)<', battle_page).group(1),
        "list": re.search(r'data-testid="battle-status">([^<]+)<', listing).group(1),
    }


def test_every_page_says_a_disputed_battle_is_disputed_to_those_who_may_see_its_report(
    client, battle, lists_of, organiser, stranger
):
    Campaign.objects.filter(pk=battle.campaign_id).update(is_public=True)
    data = ReportInput(
        attacker_registration=lists_of["attacker"], defender_registration=lists_of["defender"], turns=6,
        ending="turn_limit", attacker=SideInput(), defender=SideInput(lost=("e1",)),
    )  # fmt: skip
    report = report_submit(battle=battle, actor=battle.attacker.player, side="attacker", data=data)
    report_dispute(report=report, actor=battle.defender.player, reason="Too quick")

    for person in (organiser, battle.attacker.player, battle.defender.player):
        client.force_login(person)
        assert _shown_statuses(client, battle) == {
            "round": "Disputed",
            "battle": "Disputed",
            "list": "Disputed",
        }
    client.force_login(stranger)
    assert _shown_statuses(client, battle) == {"round": "Reported", "battle": "Reported", "list": "Reported"}
