"""Who may see and manage a campaign: the organiser, an enrolled player, a stranger."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from campaign.permissions import can_manage_campaign, can_view_campaign, is_enrolled, is_organiser

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
