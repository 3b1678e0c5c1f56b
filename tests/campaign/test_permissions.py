"""Who may see and manage a campaign: the organiser, an enrolled player, a stranger."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from campaign.models import Campaign, CoOrganiser, EnrolmentStatus
from campaign.permissions import (
    can_manage_campaign,
    can_view_campaign,
    can_view_campaign_row,
    is_enrolled,
    is_organiser,
    viewer_annotations,
)
from tests.factories import EnrolmentFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_it_lets_the_organiser_see_and_manage(campaign, organiser):
    assert is_organiser(organiser, campaign)
    assert can_view_campaign(organiser, campaign)
    assert can_manage_campaign(organiser, campaign)


def test_it_lets_an_enrolled_player_see_but_not_manage(campaign, player):
    assert is_enrolled(player, campaign)
    assert can_view_campaign(player, campaign)
    assert not can_manage_campaign(player, campaign)


def test_it_hides_a_private_campaign_from_a_stranger(campaign, stranger):
    assert not can_view_campaign(stranger, campaign)
    assert not can_manage_campaign(stranger, campaign)


def test_it_shows_a_public_campaign_to_a_stranger_and_to_anyone(campaign, stranger):
    campaign.is_public = True

    assert can_view_campaign(stranger, campaign)
    assert can_view_campaign(AnonymousUser(), campaign)
    assert not can_manage_campaign(AnonymousUser(), campaign)


@pytest.mark.parametrize("public", [False, True], ids=["private", "public"])
def test_the_polls_one_query_decides_who_sees_as_can_view_campaign_does(
    campaign, organiser, stranger, public
):
    # Every kind of person a campaign knows: creator, co-organiser, a place of each status, a stranger, nobody.
    Campaign.objects.filter(pk=campaign.pk).update(is_public=public)
    campaign.refresh_from_db()
    co = UserFactory(username="corinna")
    CoOrganiser.objects.create(campaign=campaign, user=co, added_by=organiser)
    people = [organiser, co, stranger, AnonymousUser()]
    for status in EnrolmentStatus:
        people.append(EnrolmentFactory(campaign=campaign, status=status).player)
    seen = [can_view_campaign(user, Campaign.objects.get(pk=campaign.pk)) for user in people]
    assert all(seen) if public else not all(seen)  # in a private campaign some are refused

    for user in people:
        query = Campaign.objects.filter(pk=campaign.pk).annotate(**viewer_annotations(user))
        values = query.values("is_public", "organiser_id", *viewer_annotations(user)).get()
        fresh = Campaign.objects.get(pk=campaign.pk)
        assert can_view_campaign_row(user, values) == can_view_campaign(user, fresh), user
