"""Campaign fixtures: a campaign ready for players (catalogue and the default map), and its people."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import User
from armies.blocs import Bloc
from campaign.models import Campaign, Enrolment
from campaign.options import Status
from campaign.services.map import campaign_map_load
from tests.factories import EnrolmentFactory, UserFactory


@pytest.fixture
def open_campaign(campaign: Campaign, organiser: User, demo_catalogue: Any) -> Campaign:
    """The shared ``campaign`` with the demo catalogue and the default map, open for registration."""
    campaign.catalogue = demo_catalogue
    campaign.catalogue_version = demo_catalogue.version
    campaign.save()
    campaign_map_load(campaign=campaign, actor=organiser)
    Campaign.objects.filter(pk=campaign.pk).update(status=Status.REGISTRATION)
    campaign.refresh_from_db()
    return campaign


@pytest.fixture
def make_player(campaign: Campaign) -> Any:
    def make(name: str, bloc: str = Bloc.AXIS, **extra: Any) -> Enrolment:
        return EnrolmentFactory(campaign=campaign, player=UserFactory(username=name), bloc=bloc, **extra)

    return make


@pytest.fixture
def running_campaign(open_campaign: Campaign) -> Campaign:
    """``open_campaign`` running, with two admitted players in each bloc (a1, a2, s1, s2, x1, x2)."""
    for name, bloc in (("a1", Bloc.ALLIES), ("a2", Bloc.ALLIES), ("s1", Bloc.SSU), ("s2", Bloc.SSU),
                       ("x1", Bloc.AXIS), ("x2", Bloc.AXIS)):  # fmt: skip
        EnrolmentFactory(campaign=open_campaign, player=UserFactory(username=name), bloc=bloc)
    Campaign.objects.filter(pk=open_campaign.pk).update(status=Status.RUNNING)
    open_campaign.refresh_from_db()
    return open_campaign


@pytest.fixture
def place(running_campaign: Campaign) -> Any:
    def find(username: str) -> Enrolment:
        return running_campaign.enrolments.get(player__username=username)

    return find
