"""The demo campaign (see core.demo)."""

from __future__ import annotations

from armies.blocs import Bloc
from campaign.models import Campaign, Enrolment
from core.demo import DemoData


def seed_demo(data: DemoData) -> None:
    users = data.users
    campaign, _ = Campaign.objects.get_or_create(
        name="Demo: The Battle for Zverograd",
        defaults={"organiser": users["organiser"], "points_limit": 150, "is_public": True},
    )
    for username, bloc in (("anna", Bloc.ALLIES), ("boris", Bloc.SSU), ("karl", Bloc.AXIS)):
        Enrolment.objects.get_or_create(campaign=campaign, player=users[username], defaults={"bloc": bloc})
    data.objects["campaign"] = campaign
