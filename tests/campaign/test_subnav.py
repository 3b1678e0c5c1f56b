"""The campaign's links drawn once per process are the bytes the include gives, for every page marked
current and both kinds of viewer, under any script prefix."""

from __future__ import annotations

import pytest
from django.template import engines
from django.urls import clear_script_prefix, set_script_prefix

from campaign.views.subnav import subnav_html
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db

INCLUDED = engines["django"].from_string('{% include "campaign/_subnav.html" with current=current %}')
PAGES = ["detail", "registrations", "rounds", "battles", "challenges", "economy", "standings", "timeline",
         "dashboard", "settings", "map", "elsewhere"]  # fmt: skip


@pytest.mark.parametrize("prefix", ["/", "/zverograd/"])
def test_it_draws_the_bytes_the_include_gave(prefix: str) -> None:
    campaign = CampaignFactory(name="<b>Siege</b> & co")
    set_script_prefix(prefix)
    try:
        for current in PAGES:
            for manages in (False, True):
                included = INCLUDED.render({"campaign": campaign, "current": current, "can_manage": manages})

                assert subnav_html(campaign.pk, current=current, can_manage=manages) == included, current
    finally:
        clear_script_prefix()


def test_it_keeps_each_campaigns_links_apart() -> None:
    first, second = CampaignFactory(), CampaignFactory()

    mine = subnav_html(first.pk, current="battles", can_manage=True)
    theirs = subnav_html(second.pk, current="battles", can_manage=False)

    assert f"/campaigns/{first.pk}/dashboard/" in mine
    assert f"/campaigns/{second.pk}/" in theirs
    assert f"/campaigns/{first.pk}/" not in theirs
    assert "dashboard" not in theirs
