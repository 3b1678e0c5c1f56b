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
