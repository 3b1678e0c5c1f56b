"""factory-boy factories shared by the whole suite."""

from __future__ import annotations

import factory

from accounts.models import Notification, User
from armies.blocs import Bloc
from armies.models import ArmyList, Catalogue, CatalogueBloc, Faction, PlatoonChart, Unit
from campaign.models import Campaign, Enrolment, EnrolmentStatus


class UserFactory(factory.django.DjangoModelFactory[User]):
    class Meta:
        model = User
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.test")
    display_name = factory.LazyAttribute(lambda u: u.username.title())
    password = factory.django.Password("correct-horse-battery")


class NotificationFactory(factory.django.DjangoModelFactory[Notification]):
    """An unread notification; its kind need not be registered (the list shows the code then)."""

    class Meta:
        model = Notification

    user = factory.SubFactory(UserFactory)
    kind = "test-news"
    message = factory.Sequence(lambda n: f"Something happened ({n})")
    link = "/campaigns/"


class CampaignFactory(factory.django.DjangoModelFactory[Campaign]):
    class Meta:
        model = Campaign

    name = factory.Sequence(lambda n: f"Campaign {n}")
    organiser = factory.SubFactory(UserFactory)
    points_limit = 150


class EnrolmentFactory(factory.django.DjangoModelFactory[Enrolment]):
    class Meta:
        model = Enrolment

    campaign = factory.SubFactory(CampaignFactory)
    player = factory.SubFactory(UserFactory)
    bloc = Bloc.ALLIES
    status = EnrolmentStatus.ADMITTED


class CatalogueFactory(factory.django.DjangoModelFactory[Catalogue]):
    class Meta:
        model = Catalogue
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Test catalogue {n}")
    version = "1"
    source = Catalogue.Source.JSON

    @factory.post_generation
    def blocs(self, create: bool, extracted: list[str] | None, **kwargs: object) -> None:
        if create:
            for name in extracted if extracted is not None else ["Allies", "Axis", "SSU"]:
                CatalogueBloc.objects.create(catalogue=self, name=name)


class FactionFactory(factory.django.DjangoModelFactory[Faction]):
    class Meta:
        model = Faction

    catalogue = factory.SubFactory(CatalogueFactory)
    key = factory.Sequence(lambda n: f"faction-{n}")
    name = factory.LazyAttribute(lambda f: f.key.replace("-", " ").title())
    bloc = "Allies"


class UnitFactory(factory.django.DjangoModelFactory[Unit]):
    """A plain infantry squad; pass hero=True, unit_type="vehicle" etc. for others."""

    class Meta:
        model = Unit

    catalogue = factory.SubFactory(CatalogueFactory)
    key = factory.Sequence(lambda n: f"unit-{n}")
    name = factory.LazyAttribute(lambda u: u.key.replace("-", " ").title())
    bloc = "Allies"
    unit_type = "infantry"
    armour = 2
    ap = 20
    damage = 5
    model_count = 5
    move = 1
    march = 2
    skills: list[dict[str, object]] = []
    weapons: list[dict[str, object]] = []


class PlatoonChartFactory(factory.django.DjangoModelFactory[PlatoonChart]):
    class Meta:
        model = PlatoonChart

    catalogue = factory.SubFactory(CatalogueFactory)
    key = factory.Sequence(lambda n: f"platoon-{n}")
    name = factory.LazyAttribute(lambda p: p.key.title())
    bloc = "Allies"
    slots = [
        {"name": "command", "role": "command", "required": True, "units": [], "unit_types": ["infantry"]},
        {"name": "combat-1", "role": "combat", "required": True, "units": [], "unit_types": ["infantry"]},
        {"name": "support-1", "role": "support", "required": False, "units": [], "unit_types": ["vehicle"]},
    ]


class ArmyListFactory(factory.django.DjangoModelFactory[ArmyList]):
    """An empty list; add units with armies.services.army_lists or pass ``content``."""

    class Meta:
        model = ArmyList

    owner = factory.SubFactory(UserFactory)
    catalogue = factory.SubFactory(CatalogueFactory)
    name = factory.Sequence(lambda n: f"List {n}")
    bloc = "Allies"
    points_limit = 150
    content = factory.LazyAttribute(
        lambda a: {
            "format": "zverograd-army-list",
            "version": 1,
            "name": a.name,
            "bloc": a.bloc,
            "faction": None,
            "points_limit": a.points_limit,
            "catalogue_version": a.catalogue.version,
            "role": None,
            "entries": [],
            "platoons": [],
            "fortifications": [],
        }
    )
