from __future__ import annotations

import pytest
from django.core.management import call_command

from accounts.models import User
from armies.models import ArmyList, Catalogue
from armies.selectors import army_list_verdict
from campaign.models import (
    BattleStatus,
    Campaign,
    ChallengeStatus,
    EnrolmentStatus,
    Registration,
    RoundStatus,
)
from campaign.options import Status
from campaign.selectors.rounds import balances

pytestmark = pytest.mark.django_db


def test_it_loads_the_demo_data_and_can_run_again_without_duplicating_it():
    call_command("seed_demo")
    call_command("seed_demo")

    assert User.objects.filter(username__in=["organiser", "anna", "boris", "karl"]).count() == 4
    assert User.objects.count() == 11
    assert Campaign.objects.count() == 1
    assert Catalogue.objects.get().name == "Zverograd Demo"
    # The nine players' lists and the latecomer's, whom the battles' demo has fight her challenge.
    assert ArmyList.objects.count() == 11
    assert Registration.objects.count() == 10


def test_it_ships_legal_demo_lists_and_one_with_problems():
    call_command("seed_demo")

    verdicts = {army.name: army_list_verdict(army_list=army) for army in ArmyList.objects.all()}

    broken = verdicts.pop("Overloaded Grauwolf column (has problems)")
    assert not broken.ok
    assert {p.code for p in broken.problems} >= {"points-limit-exceeded", "duplicate-hero"}
    assert all(verdict.ok for verdict in verdicts.values())


def test_it_runs_a_demo_campaign_on_the_default_map_with_every_player_registered():
    call_command("seed_demo")

    campaign = Campaign.objects.get()
    assert campaign.status == Status.RUNNING
    assert campaign.is_public
    assert campaign.sectors.count() >= 12
    registered = campaign.enrolments.filter(
        status=EnrolmentStatus.ADMITTED, registrations__isnull=False
    ).distinct()
    # The nine players who joined before it started and Lena, who joined late to fight her challenge.
    assert registered.count() == 10
    assert registered.count() == campaign.enrolments.filter(status=EnrolmentStatus.ADMITTED).count()
    assert {e.bloc for e in registered} == {"Allies", "Axis", "SSU"}


def test_the_demo_campaign_has_a_closed_round_an_open_one_a_fortification_and_a_challenge():
    call_command("seed_demo")

    campaign = Campaign.objects.get()
    first, second = campaign.rounds.order_by("number")
    assert (first.status, second.status) == (RoundStatus.CLOSED, RoundStatus.OPEN)
    assert second.pairings_published_at is not None
    # Four paired battles and the accepted challenge's (the battles' demo reports most of them).
    assert second.battles.exclude(status=BattleStatus.DRAFT).count() == 5
    assert all(line.balance > 0 for line in balances(campaign=campaign))
    assert campaign.purchases.count() == 1
    assert campaign.sectors.exclude(fortification="none").exclude(headquarters_of__gt="").count() == 1
    assert campaign.challenges.filter(status=ChallengeStatus.ACCEPTED).count() == 1


def test_it_gathers_the_demo_data_from_each_app_in_dependency_order():
    from core.demo import demo_seeders

    assert demo_seeders() == [
        "accounts.seed",
        "armies.seed",
        "campaign.seed",
        "battles.seed",
        "standings.seed",
    ]
