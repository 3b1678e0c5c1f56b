"""The permission filter says what the predicate says: ``visible_reports`` is ``can_view_report``, for
every persona, battles of a closed and of the open round, reports in each state, with the campaign hiding
results and without."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from battles.models import BattleReport
from battles.permissions import can_view_report, visible_reports
from battles.services import ReportInput, SideInput, report_confirm, report_dispute, report_submit
from campaign.models import Battle, Campaign
from campaign.services.rounds import round_close, round_open
from tests.battles.api_world import PERSONAS

pytestmark = pytest.mark.django_db


def report(world: Any, battle: Battle, lists: dict[str, Any]) -> BattleReport:
    data = ReportInput(
        attacker_registration=lists["attacker"], defender_registration=lists["defender"], turns=6,
        ending="turn_limit", attacker=SideInput(), defender=SideInput(lost=("e1",)),
    )  # fmt: skip
    return report_submit(battle=battle, actor=battle.attacker.player, side="attacker", data=data)


@pytest.fixture
def two_rounds(report_world: Any) -> Any:
    """Round 1 closed with x1's win; round 2 open: x2 beat a2 (confirmed), x1 and a1 disputed."""
    world = report_world
    world.confirmed()
    round_close(round=world.battle.round, actor=world.creator)
    second = round_open(
        campaign=world.campaign, actor=world.creator, deadline=timezone.now() + timedelta(days=7)
    )
    won, lists = world.another_battle(world.place("x2"), world.place("a2"), round=second)
    report_confirm(report=report(world, won, lists), actor=won.defender.player)
    disputed, lists = world.another_battle(world.place("x1"), world.place("a1"), round=second)
    report_dispute(report=report(world, disputed, lists), actor=disputed.defender.player, reason="No")
    world.another_battle(world.place("x2"), world.place("a2"), round=second)  # scheduled, no report
    return world


@pytest.mark.parametrize("hide", [False, True], ids=["shown", "hidden"])
@pytest.mark.parametrize("persona", [*PERSONAS, "s1"])
def test_the_filters_agree_with_the_predicates(two_rounds, persona, hide):
    world = two_rounds
    Campaign.objects.filter(pk=world.campaign.pk).update(hide_results_until_close=hide, is_public=True)
    campaign = Campaign.objects.get(pk=world.campaign.pk)
    user = world.user(persona) if persona in PERSONAS else world.place(persona).player
    user = user or AnonymousUser()
    battles = list(Battle.objects.filter(campaign=campaign).select_related("round", "attacker", "defender"))
    for battle in battles:
        battle.campaign = campaign
    reports = list(BattleReport.objects.filter(campaign=campaign).select_related("battle__round"))
    for row in reports:
        row.battle = next(battle for battle in battles if battle.pk == row.battle_id)

    visible = visible_reports(user, campaign)
    shown = BattleReport.objects.filter(campaign=campaign)
    shown = set(shown if visible is None else shown.filter(visible))

    assert shown == {row for row in reports if can_view_report(user, row)}
    # The fixture is worth its name: hiding keeps a report from all but the organisers and players.
    if hide and persona in ("bystander", "stranger", "anonymous", "s1"):
        assert shown != set(reports)
