"""A battle to report through the API, with one of each persona the report endpoints' tests use.

Built on the battles fixtures (tests/battles/conftest.py): round 1 of a running campaign is open and
x1 (Axis) attacks a1 (Allies) over a neutral sector, both with a registered list.

- ``creator``: made the campaign; ``co_organiser``: helps run it;
- ``attacker`` and ``defender``: the battle's two players;
- ``bystander``: an admitted player (a2, Allies) not in this battle;
- ``stranger``: an account with no part in the campaign; ``anonymous``: no account.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rest_framework.test import APIClient

from accounts.models import User
from battles.models import BattleReport
from battles.services import ReportInput, report_confirm, report_dispute, report_submit
from campaign.models import Battle, Campaign, CoOrganiser, Registration
from tests.factories import UserFactory

PERSONAS = ("creator", "co_organiser", "attacker", "defender", "bystander", "stranger", "anonymous")


@dataclass
class ReportWorld:
    campaign: Campaign
    battle: Battle
    lists: dict[str, Registration]
    creator: User
    co_organiser: User
    attacker: User
    defender: User
    bystander: User
    stranger: User
    make_data: Any  # the battles conftest's ``report_data``: ReportInput(**changes)

    def user(self, persona: str) -> User | None:
        return None if persona == "anonymous" else getattr(self, persona)

    def client(self, persona: str) -> APIClient:
        client = APIClient()
        user = self.user(persona)
        if user is not None:
            client.force_authenticate(user)
        return client

    def campaign_url(self, tail: str = "") -> str:
        return f"/api/campaigns/{self.campaign.pk}/{tail}"

    def url(self, tail: str = "", battle: Battle | None = None) -> str:
        return self.campaign_url(f"battles/{(battle or self.battle).pk}/report/{tail}")

    def body(self, **changes: Any) -> dict[str, Any]:
        """The report of conftest's ``report_data``, as JSON: the defender lost its first entry by turn 6,
        so the attacker wins on points."""
        body: dict[str, Any] = {
            "attacker_registration": self.lists["attacker"].pk, "defender_registration": self.lists["defender"].pk,
            "fortification": "none", "turns": 6, "ending": "turn_limit", "conceded_by": None,
            "attacker": {"lost": [], "reserves": [], "objective": False, "scenario_vp": 0},
            "defender": {"lost": ["e1"], "reserves": [], "objective": False, "scenario_vp": 0},
        }  # fmt: skip
        body.update(changes)
        return body

    def data(self, **changes: Any) -> ReportInput:
        data: ReportInput = self.make_data(**changes)
        return data

    def submitted(self) -> BattleReport:
        """The attacker's report, waiting for the defender (made by the service)."""
        return report_submit(battle=self.battle, actor=self.attacker, side="attacker", data=self.data())

    def confirmed(self) -> BattleReport:
        return report_confirm(report=self.submitted(), actor=self.defender)

    def disputed(self) -> BattleReport:
        return report_dispute(report=self.submitted(), actor=self.defender, reason="I kept the squad")

    def publish(self, public: bool) -> None:
        Campaign.objects.filter(pk=self.campaign.pk).update(is_public=public)
        self.campaign.refresh_from_db()

    def hide_results(self) -> None:
        Campaign.objects.filter(pk=self.campaign.pk).update(hide_results_until_close=True)
        self.campaign.refresh_from_db()


def build(
    battle: Battle, lists_of: dict[str, Registration], report_data: Any, organiser: User
) -> ReportWorld:
    campaign = battle.campaign
    co_organiser = UserFactory(username="cora")
    CoOrganiser.objects.create(campaign=campaign, user=co_organiser, added_by=organiser)
    bystander = campaign.enrolments.get(player__username="a2").player
    assert battle.attacker.player is not None
    assert battle.defender.player is not None
    assert bystander is not None
    return ReportWorld(
        campaign=campaign, battle=battle, lists=lists_of, creator=organiser, co_organiser=co_organiser,
        attacker=battle.attacker.player, defender=battle.defender.player, bystander=bystander,
        stranger=UserFactory(username="sasha"), make_data=report_data,
    )  # fmt: skip
