"""The demo campaign (see core.demo): running on the default map, nine players, each with a registered list."""

from __future__ import annotations

from typing import Any

from armies.models import ArmyList
from campaign.models import Campaign, Enrolment, EnrolmentStatus, Registration
from campaign.options import Status
from campaign.services.campaigns import campaign_create, campaign_open_registration, campaign_start
from campaign.services.map import campaign_map_load
from campaign.services.players import enrolment_admit, enrolment_request
from campaign.services.registrations import army_list_register
from core.demo import DemoData

DEMO_CAMPAIGN = "Demo: The Battle for Zverograd"

# username -> (bloc, the list the player registers)
PLAYERS: dict[str, tuple[str, str]] = {
    "anna": ("Allies", "Coastal Raiders landing party"),
    "mila": ("Allies", "Ridgeback fire base"),
    "tom": ("Allies", "Iron Prairie spearhead"),
    "boris": ("SSU", "Volga shock group"),
    "dmitri": ("SSU", "Volga breakthrough"),
    "ivan": ("SSU", "Taiga eyes"),
    "karl": ("Axis", "Grauwolf patrol"),
    "greta": ("Axis", "Eisenwacht wall"),
    "otto": ("Axis", "Sturmfalke strike"),
}


def seed_demo(data: DemoData) -> None:
    """Build the demo campaign through the same services organisers and players use."""
    users = data.users
    organiser = users["organiser"]
    campaign = Campaign.objects.filter(name=DEMO_CAMPAIGN).first()
    if campaign is None:
        campaign = campaign_create(
            creator=organiser, name=DEMO_CAMPAIGN, is_public=True, catalogue=data.objects["catalogue"],
            description="A demonstration campaign: three blocs fight for the sectors of Zverograd.",
        )  # fmt: skip
        campaign_map_load(campaign=campaign, actor=organiser)
        campaign = campaign_open_registration(campaign=campaign, actor=organiser)
    for username, (bloc, list_name) in PLAYERS.items():
        _seat(campaign, organiser, users[username], bloc, list_name)
    if campaign.status == Status.REGISTRATION:
        campaign = campaign_start(campaign=campaign, actor=organiser)
    data.objects["campaign"] = campaign


def _seat(campaign: Campaign, organiser: Any, user: Any, bloc: str, list_name: str) -> None:
    enrolment = Enrolment.objects.filter(campaign=campaign, player=user).first()
    if enrolment is None:
        enrolment = enrolment_request(campaign=campaign, user=user, bloc=bloc)
    if enrolment.status == EnrolmentStatus.PENDING:
        enrolment = enrolment_admit(enrolment=enrolment, actor=organiser)
    if not Registration.objects.filter(enrolment=enrolment).exists():
        army_list = ArmyList.objects.get(owner=user, name=list_name)
        army_list_register(enrolment=enrolment, army_list=army_list, actor=user)
