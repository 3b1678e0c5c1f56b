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
from armies.services.army_lists import army_list_add_unit
from battles.models import BattleReport
from battles.services import ReportInput, SideInput, report_confirm, report_dispute, report_submit
from campaign.models import (
    Battle,
    BattleSource,
    BattleStatus,
    Campaign,
    CoOrganiser,
    Enrolment,
    Registration,
    Round,
    sides_recorded,
)
from campaign.services.registrations import army_list_register
from tests.battles.conftest import ALLIED_UNITS, AXIS_UNITS
from tests.factories import ArmyListFactory, UserFactory

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

    def client_of(self, username: str) -> APIClient:
        """A client logged in as the campaign's player ``username`` (x2, a2, ...)."""
        client = APIClient()
        client.force_authenticate(self.campaign.enrolments.get(player__username=username).player)
        return client

    def place(self, username: str) -> Enrolment:
        return self.campaign.enrolments.get(player__username=username)

    def campaign_url(self, tail: str = "") -> str:
        return f"/api/campaigns/{self.campaign.pk}/{tail}"

    def url(self, tail: str = "", battle: Battle | None = None) -> str:
        return self.campaign_url(f"battles/{(battle or self.battle).pk}/report/{tail}")

    def body(self, lists: dict[str, Registration] | None = None, **changes: Any) -> dict[str, Any]:
        """The report of conftest's ``report_data``, as JSON: the defender lost its first entry by turn 6,
        so the attacker wins on points. ``lists``: another battle's registered lists."""
        lists = lists or self.lists
        body: dict[str, Any] = {
            "attacker_registration": lists["attacker"].pk, "defender_registration": lists["defender"].pk,
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

    def another_battle(
        self,
        attacker: Enrolment,
        defender: Enrolment,
        round: Round | None = None,
        lists: dict[str, Registration] | None = None,
    ) -> tuple[Battle, dict[str, Registration]]:
        """Another scheduled battle (Axis attacks Allies) of round 1 (or ``round``) over another neutral
        sector (none once they are all at stake), both sides with a registered list (``lists``, or new
        ones; a placeholder's is registered by the creator)."""
        taken = Battle.objects.filter(campaign=self.campaign).values_list("sector_id", flat=True)
        sector = self.campaign.sectors.filter(owner="", headquarters_of="").exclude(pk__in=taken).first()
        battle = Battle.objects.create(
            campaign=self.campaign, round=round or self.battle.round, sector=sector, attacker=attacker,
            defender=defender, mission="hold-the-line", points_limit=150, status=BattleStatus.SCHEDULED,
            **sides_recorded(attacker=attacker, defender=defender),
            source=BattleSource.PAIRING,
        )  # fmt: skip
        lists = lists or {"attacker": self._register(attacker, AXIS_UNITS, "Axis"),
                          "defender": self._register(defender, ALLIED_UNITS, "Allies")}  # fmt: skip
        return battle, lists

    def more_confirmed(self, count: int, lists: dict[str, Registration] | None = None) -> None:
        """``count`` more battles of x2 against a2, each reported by its attacker and confirmed by its
        defender (over the sectors left, then over none); ``lists``, or new ones, registered for them."""
        for _ in range(count):
            battle, lists = self.another_battle(self.place("x2"), self.place("a2"), lists=lists)
            data = ReportInput(
                attacker_registration=lists["attacker"], defender_registration=lists["defender"], turns=6,
                ending="turn_limit", attacker=SideInput(), defender=SideInput(lost=("e1",)),
            )  # fmt: skip
            report_confirm(
                report=report_submit(battle=battle, actor=battle.attacker.player, side="attacker", data=data),
                actor=battle.defender.player,
            )

    def _register(self, place: Enrolment, units: tuple[str, ...], bloc: str) -> Registration:
        owner = place.player or self.creator
        army_list = ArmyListFactory(owner=owner, catalogue=self.campaign.catalogue, bloc=bloc)
        for unit in units:
            army_list_add_unit(army_list=army_list, unit_key=unit)
        army_list.refresh_from_db()
        return army_list_register(enrolment=place, army_list=army_list, actor=owner)

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
