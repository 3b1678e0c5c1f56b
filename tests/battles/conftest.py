"""Battle fixtures: a running campaign's round 1 with one scheduled battle, both sides with a registered list."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from armies.services import army_lists as lists
from battles.services import ReportInput, SideInput
from campaign.models import Battle, BattleSource, BattleStatus, Campaign, Registration, Round, sides_recorded
from campaign.services.registrations import army_list_register
from campaign.services.rounds import round_open
from tests.factories import ArmyListFactory

AXIS_UNITS = ("axis.grauwolf-rifle-squad", "axis.keiler")
ALLIED_UNITS = ("allies.gulfport-marine-squad", "allies.prairie-dog")


def register(enrolment: Any, units: tuple[str, ...], bloc: str) -> Registration:
    army_list = ArmyListFactory(owner=enrolment.player, catalogue=enrolment.campaign.catalogue, bloc=bloc)
    for unit in units:
        lists.army_list_add_unit(army_list=army_list, unit_key=unit)
    army_list.refresh_from_db()
    return army_list_register(enrolment=enrolment, army_list=army_list, actor=enrolment.player)


@pytest.fixture
def round_one(running_campaign: Campaign, organiser: Any) -> Round:
    return round_open(campaign=running_campaign, actor=organiser, deadline=timezone.now() + timedelta(days=7))


@pytest.fixture
def battle(running_campaign: Campaign, round_one: Round, place: Any) -> Battle:
    """x1 (Axis) attacks a1 (Allies) over a neutral sector, in a hold-the-line mission (1 reserve each)."""
    sector = running_campaign.sectors.filter(owner="", headquarters_of="").first()
    return Battle.objects.create(
        campaign=running_campaign, round=round_one, sector=sector, attacker=place("x1"), defender=place("a1"),
        **sides_recorded(attacker=place("x1"), defender=place("a1")),
        mission="hold-the-line", points_limit=150, status=BattleStatus.SCHEDULED, source=BattleSource.PAIRING,
    )  # fmt: skip


@pytest.fixture
def lists_of(battle: Battle) -> dict[str, Registration]:
    return {
        "attacker": register(battle.attacker, AXIS_UNITS, "Axis"),
        "defender": register(battle.defender, ALLIED_UNITS, "Allies"),
    }


@pytest.fixture
def report_data(lists_of: dict[str, Registration]) -> Any:
    """A report where the defender lost its first entry by turn 6: the attacker wins on points."""

    def make(**changes: Any) -> ReportInput:
        data: dict[str, Any] = {
            "attacker_registration": lists_of["attacker"], "defender_registration": lists_of["defender"],
            "turns": 6, "ending": "turn_limit", "attacker": SideInput(), "defender": SideInput(lost=("e1",)),
        }  # fmt: skip
        data.update(changes)
        return ReportInput(**data)

    return make


@pytest.fixture
def report_world(battle: Battle, lists_of: dict[str, Registration], report_data: Any, organiser: Any) -> Any:
    """The battle with every persona of the report endpoints' tests (tests/battles/api_world.py)."""
    from tests.battles.api_world import build

    return build(battle, lists_of, report_data, organiser)


# --- for the page tests ---------------------------------------------------------------------------------


def page_url(name: str, battle: Battle, *extra: object) -> str:
    """A report page's URL (``battles:<name>``) or the battle's own page (``campaign:battle``)."""
    from django.urls import reverse

    namespace = "campaign" if name == "battle" else "battles"
    return reverse(f"{namespace}:{name}", args=[battle.campaign_id, battle.pk, *extra])


@pytest.fixture
def form_data(lists_of: dict[str, Registration]) -> Any:
    """What the report form posts for ``report_data()``: the defender lost its first entry by turn 6."""

    def make(**changes: Any) -> dict[str, Any]:
        data: dict[str, Any] = {
            "mode": "submit", "attacker_registration": lists_of["attacker"].pk,
            "defender_registration": lists_of["defender"].pk, "fortification": "none", "turns": 6,
            "ending": "turn_limit", "conceded_by": "", "attacker_scenario_vp": 0, "defender_scenario_vp": 0,
            "defender_lost_e1": 1,
        }  # fmt: skip
        data.update(changes)
        return {key: value for key, value in data.items() if value is not None}

    return make
