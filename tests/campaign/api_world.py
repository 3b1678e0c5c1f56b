"""A campaign with one of each persona the API's permission tests use, built through the services.

- ``creator``: made the campaign; ``co_organiser``: helps run it;
- ``player``: admitted (SSU); ``applicant``: asked to join (Axis), pending;
- ``stranger``: an account with no part in it; ``anonymous``: no account;
- ``placeholder``: an admitted club member without an account (Allies), with a claim token.

The default map is loaded, the campaign has a catalogue, and two blocs have
players, so every step of the life cycle can succeed when the right person asks.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import User
from armies.blocs import Bloc
from armies.models import ArmyList
from armies.services.army_lists import army_list_add_unit
from campaign.models import (
    Battle,
    BattleStatus,
    Campaign,
    Challenge,
    CoOrganiser,
    Enrolment,
    EnrolmentStatus,
    Registration,
    Round,
)
from campaign.models.players import new_claim_token
from campaign.options import Status
from campaign.services.challenges import challenge_issue
from campaign.services.economy import Holder, ledger_adjust
from campaign.services.map import campaign_map_load
from campaign.services.pairings import pairings_generate, pairings_publish
from campaign.services.registrations import army_list_register
from campaign.services.rounds import round_close, round_open
from tests.factories import (
    ArmyListFactory,
    CampaignFactory,
    CatalogueFactory,
    EnrolmentFactory,
    UnitFactory,
    UserFactory,
)

SSU_SQUAD = "ssu-squad"

PERSONAS = ("creator", "co_organiser", "player", "applicant", "stranger", "anonymous")


@dataclass
class World:
    campaign: Campaign
    creator: User
    co_organiser: User
    player: User
    applicant: User
    stranger: User
    player_place: Enrolment
    applicant_place: Enrolment
    placeholder: Enrolment

    def user(self, persona: str) -> User | None:
        return None if persona == "anonymous" else getattr(self, persona)

    def client(self, persona: str) -> APIClient:
        client = APIClient()
        user = self.user(persona)
        if user is not None:
            client.force_authenticate(user)
        return client

    def url(self, tail: str = "") -> str:
        return f"/api/campaigns/{self.campaign.pk}/{tail}"

    def player_list(self) -> ArmyList:
        """A legal army list of the player's: one SSU squad of the campaign's catalogue."""
        catalogue = self.campaign.catalogue
        assert catalogue is not None
        army_list = ArmyListFactory(owner=self.player, catalogue=catalogue, bloc=Bloc.SSU)
        army_list_add_unit(army_list=army_list, unit_key=SSU_SQUAD)
        army_list.refresh_from_db()
        return army_list

    def registration(self) -> Registration:
        return army_list_register(
            enrolment=self.player_place, army_list=self.player_list(), actor=self.player
        )

    # Rounds, battles, challenges and the economy (the campaign must be running), made by the services.

    def open_round(self) -> Round:
        deadline = timezone.now() + timedelta(days=7)
        return round_open(campaign=self.campaign, actor=self.creator, deadline=deadline)

    def closed_round(self) -> Round:
        return round_close(round=self.open_round(), actor=self.creator)

    def drafted_round(self) -> Round:
        """An open round whose pairing (the player against the placeholder) is drafted, not published."""
        round = self.open_round()
        pairings_generate(round=round, actor=self.creator)
        return round

    def draft_battle(self) -> Battle:
        return Battle.objects.get(campaign=self.campaign, status=BattleStatus.DRAFT)

    def battle(self) -> Battle:
        """A scheduled battle of the open round: the player against the placeholder."""
        round = self.drafted_round()
        pairings_publish(round=round, actor=self.creator)
        return Battle.objects.get(round=round)

    def side_of_player(self, battle: Battle) -> str:
        return "attacker" if battle.attacker_id == self.player_place.pk else "defender"

    def challenge(self, *, by_player: bool) -> Challenge:
        """An open challenge over the Zoo (neutral): the player's to the placeholder, or the reverse."""
        self.open_round()
        ours, theirs = (self.player_place, self.placeholder)
        challenger, challenged = (ours, theirs) if by_player else (theirs, ours)
        return challenge_issue(
            challenger=challenger, challenged=challenged, sector_key="zoo", actor=self.creator
        )

    def fund(self, bloc: str, amount: int) -> None:
        ledger_adjust(
            campaign=self.campaign,
            holder=Holder(bloc=bloc),
            amount=amount,
            reason="war chest",
            actor=self.creator,
        )

    def set_status(self, status: str) -> None:
        Campaign.objects.filter(pk=self.campaign.pk).update(status=status)
        self.campaign.refresh_from_db()


def build_world(*, public: bool = False, status: str = Status.REGISTRATION) -> World:
    creator = UserFactory(username="olga", display_name="Olga")
    campaign = CampaignFactory(
        name="Siege of the Tractor Works", organiser=creator, is_public=public, catalogue=CatalogueFactory()
    )
    # The catalogue's one unit, made before anything reads (and caches) the catalogue.
    UnitFactory(catalogue=campaign.catalogue, key=SSU_SQUAD, bloc=Bloc.SSU, ap=20)
    campaign_map_load(campaign=campaign, actor=creator)
    co_organiser = UserFactory(username="cora")
    CoOrganiser.objects.create(campaign=campaign, user=co_organiser, added_by=creator)
    player = UserFactory(username="pavel")
    player_place = EnrolmentFactory(campaign=campaign, player=player, bloc=Bloc.SSU)
    applicant = UserFactory(username="anya")
    applicant_place = EnrolmentFactory(
        campaign=campaign,
        player=applicant,
        bloc=Bloc.AXIS,
        status=EnrolmentStatus.PENDING,
        message="Let me in",
    )
    placeholder = EnrolmentFactory(
        campaign=campaign,
        player=None,
        placeholder_name="Grisha",
        bloc=Bloc.ALLIES,
        claim_token=new_claim_token(),
    )
    world = World(
        campaign=campaign,
        creator=creator,
        co_organiser=co_organiser,
        player=player,
        applicant=applicant,
        stranger=UserFactory(username="sasha"),
        player_place=player_place,
        applicant_place=applicant_place,
        placeholder=placeholder,
    )
    world.set_status(status)
    return world
