"""manage.py replay_campaign: silent agreement, or every difference named (and fixed with --fix)."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from battles.services import report_enter
from campaign.models import Sector

pytestmark = pytest.mark.django_db


def test_it_agrees_with_a_campaign_whose_state_came_from_its_history(battle, report_data, organiser, capsys):
    report_enter(battle=battle, actor=organiser, data=report_data(), reason="entered")

    call_command("replay_campaign", str(battle.campaign_id))

    assert "equals the replay" in capsys.readouterr().out


def test_it_names_a_difference_and_fixes_it(battle, report_data, organiser, capsys):
    report_enter(battle=battle, actor=organiser, data=report_data(), reason="entered")
    # Someone changed a sector behind the services' back.
    Sector.objects.filter(pk=battle.sector_id).update(owner="SSU")

    with pytest.raises(CommandError) as caught:
        call_command("replay_campaign", str(battle.campaign_id), "--fix")

    assert caught.value.returncode == 1
    assert battle.sector.key in capsys.readouterr().out
    assert Sector.objects.get(pk=battle.sector_id).owner == "Axis"
    call_command("replay_campaign", str(battle.campaign_id))
