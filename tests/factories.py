"""factory-boy factories shared by the whole suite."""

from __future__ import annotations

import factory

from accounts.models import User
from campaign.models import Bloc, Campaign, Enrolment


class UserFactory(factory.django.DjangoModelFactory[User]):
    class Meta:
        model = User
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.test")
    display_name = factory.LazyAttribute(lambda u: u.username.title())
    password = factory.django.Password("correct-horse-battery")


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
