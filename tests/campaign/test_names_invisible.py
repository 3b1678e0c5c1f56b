"""A campaign's name and a place's name hold no direction override nor any invisible character (core/names.py)."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.errors import CampaignError
from campaign.models import Campaign, Enrolment
from campaign.services import campaigns, players
from core.names import NAME_CONTROL_CODE, NAME_CONTROL_MESSAGE

pytestmark = pytest.mark.django_db

HIDDEN = ["Winter\u202e offensive", "Winter\u200b offensive", "\u3164"]


@pytest.mark.parametrize("name", HIDDEN)
def test_a_campaign_s_name_is_refused_with_one(organiser: Any, name: str) -> None:
    with pytest.raises(CampaignError) as refused:
        campaigns.campaign_create(creator=organiser, name=name)

    assert (refused.value.code, refused.value.field, refused.value.message) == (
        NAME_CONTROL_CODE, "name", NAME_CONTROL_MESSAGE,
    )  # fmt: skip
    assert (
        not Campaign.objects.filter(organiser=organiser).exclude(name="Siege of the Tractor Works").exists()
    )


def test_the_api_refuses_a_campaign_name_with_one(api_as: Any, organiser: Any) -> None:
    response = api_as(organiser).post("/api/campaigns/", {"name": "Olga\u202e"}, format="json")

    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == NAME_CONTROL_CODE


@pytest.mark.parametrize("name", HIDDEN)
def test_a_place_s_name_is_refused_with_one(open_campaign: Campaign, organiser: Any, name: str) -> None:
    with pytest.raises(CampaignError) as refused:
        players.placeholder_add(campaign=open_campaign, actor=organiser, name=name, bloc="SSU")

    assert refused.value.code == NAME_CONTROL_CODE
    assert not Enrolment.objects.filter(campaign=open_campaign, player=None).exists()
