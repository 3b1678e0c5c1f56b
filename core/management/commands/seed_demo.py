"""Load the demo data: accounts, a campaign, the demo catalogue and demo lists. Safe to run again."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction

from accounts.models import User
from armies.services.demo import demo_catalogue_load, demo_lists_create
from campaign.models import Bloc, Campaign, Enrolment

DEMO_PASSWORD = "zverograd-demo"  # noqa: S105 - demo accounts, printed on purpose

DEMO_USERS = [
    ("organiser", "Olga the Organiser", True),
    ("anna", "Anna (Allies)", False),
    ("boris", "Boris (SSU)", False),
    ("karl", "Karl (Axis)", False),
]


class Command(BaseCommand):
    help = "Create the demo accounts, campaign, catalogue and army lists (idempotent)."

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        users: dict[str, User] = {}
        for username, display_name, is_staff in DEMO_USERS:
            user, created = User.objects.get_or_create(
                username=username,
                defaults={"display_name": display_name, "email": f"{username}@zverograd.invalid"},
            )
            if created:
                user.set_password(DEMO_PASSWORD)
                user.is_staff = user.is_superuser = is_staff
                user.save()
            users[username] = user
        campaign, _ = Campaign.objects.get_or_create(
            name="Demo: The Battle for Zverograd",
            defaults={"organiser": users["organiser"], "points_limit": 150, "is_public": True},
        )
        for username, bloc in (("anna", Bloc.ALLIES), ("boris", Bloc.SSU), ("karl", Bloc.AXIS)):
            Enrolment.objects.get_or_create(
                campaign=campaign, player=users[username], defaults={"bloc": bloc}
            )
        catalogue = demo_catalogue_load()
        demo_lists_create(catalogue=catalogue, users=users)
        self.stdout.write(
            self.style.SUCCESS(
                "Demo data ready. Log in as organiser, anna, boris or karl "
                f"with the password {DEMO_PASSWORD!r}."
            )
        )
