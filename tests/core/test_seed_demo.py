from __future__ import annotations

import pytest
from django.core.management import call_command

from accounts.models import User
from armies.models import ArmyList, Catalogue
from armies.selectors import army_list_verdict
from campaign.models import Campaign

pytestmark = pytest.mark.django_db


def test_it_loads_the_demo_data_and_can_run_again_without_duplicating_it():
    call_command("seed_demo")
    call_command("seed_demo")

    assert User.objects.filter(username__in=["organiser", "anna", "boris", "karl"]).count() == 4
    assert Campaign.objects.count() == 1
    assert Catalogue.objects.get().name == "Zverograd Demo"
    assert ArmyList.objects.count() == 3


def test_it_ships_two_legal_demo_lists_and_one_with_problems():
    call_command("seed_demo")

    verdicts = {army.owner.username: army_list_verdict(army_list=army) for army in ArmyList.objects.all()}

    assert verdicts["anna"].ok
    assert verdicts["boris"].ok
    assert not verdicts["karl"].ok
    assert {p.code for p in verdicts["karl"].problems} >= {"points-limit-exceeded", "duplicate-hero"}


def test_it_gathers_the_demo_data_from_each_app_in_dependency_order():
    from core.demo import demo_seeders

    assert demo_seeders() == ["accounts.seed", "armies.seed", "campaign.seed"]
