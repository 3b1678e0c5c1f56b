"""Whose platoon chart, on the page (issue 26): an organiser's chart is their campaign's alone, staff choose
the whole catalogue, a campaign's chart is shown to its members only, and a choice not offered is refused
with a sentence."""

# ruff: noqa: F401, F811 (the real catalogue's fixture is imported from the page's tests, and named as an argument)

from __future__ import annotations

from typing import Any

import pytest

from armies.models import PlatoonChart
from campaign.models import Campaign
from tests.armies.test_pages_platoon_charts import FORM, page, real
from tests.factories import CampaignFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_an_organisers_chart_is_their_campaigns_alone_and_says_so(client, real, organiser, stranger):
    mine = Campaign.objects.get(catalogue=real)
    client.force_login(organiser)

    form = client.get(page(real)).content.decode()
    answer = client.post(page(real), FORM)
    shown = client.get(page(real)).content.decode()
    client.force_login(stranger)
    to_a_stranger = client.get(page(real)).content.decode()

    assert f"The chart is for {mine.name} alone: only its lists may claim it." in form
    assert answer.status_code == 302
    assert PlatoonChart.objects.get(name=FORM["name"]).campaign_id == mine.pk
    assert f"for {mine.name} alone" in shown
    assert FORM["name"] not in to_a_stranger


def test_an_organiser_of_two_campaigns_chooses_and_cannot_choose_anothers(client, real, organiser):
    second = CampaignFactory(name="Second Front", organiser=organiser, catalogue=real)
    others = CampaignFactory(name="Not Theirs", catalogue=real)
    client.force_login(organiser)

    html = client.get(page(real)).content.decode()
    refused = client.post(page(real), {**FORM, "campaign": str(others.pk)})
    chosen = client.post(page(real), {**FORM, "campaign": str(second.pk)})

    assert 'name="campaign"' in html
    assert ">Second Front alone<" in html
    assert "Not Theirs" not in html
    assert "The whole catalogue" not in html
    assert refused.status_code == 400
    assert "choose whose chart this is from the list" in refused.content.decode()
    assert chosen.status_code == 302
    assert PlatoonChart.objects.get(name=FORM["name"]).campaign_id == second.pk


def test_staff_enter_the_whole_catalogues_chart(client, real):
    client.force_login(UserFactory(username="stella", is_staff=True))

    html = client.get(page(real)).content.decode()
    answer = client.post(page(real), {**FORM, "campaign": ""})

    assert "The chart is for the whole catalogue: every campaign on it may claim it." in html
    assert answer.status_code == 302
    assert PlatoonChart.objects.get(name=FORM["name"]).campaign_id is None
