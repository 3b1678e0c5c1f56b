"""A list imported for a campaign reads that campaign's own platoon charts (issue 26): a list claiming a
chart the campaign's organiser entered imports with its platoon when the importer says which campaign it
is for (a campaign they take part in), and without that the refusal says the chart is not one the catalogue
offers to everyone, in words that are the same whatever any campaign holds."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.urls import reverse

from armies import selectors
from armies.list_intake import TextListError, list_read
from armies.models import ArmyList, Catalogue
from armies.services import army_lists as lists
from campaign.models import Campaign
from tests.armies.test_api_platoon_charts import CHART
from tests.factories import ArmyListFactory, CampaignFactory, PlatoonChartFactory, UserFactory

pytestmark = pytest.mark.django_db

KEY = "ssu.volga-night-raiders"
SAID = "is not a platoon chart the catalogue offers to everyone"


@pytest.fixture
def claimed(api_as: Any, open_campaign: Campaign, player: Any) -> str:
    """The player's list claiming the campaign's own chart, exported as text (as a roster of ours is)."""
    cache.clear()
    entered = api_as(open_campaign.organiser).post(
        reverse("api:catalogue-platoon-charts", args=[open_campaign.catalogue.pk]), CHART, format="json"
    )
    assert entered.json()["key"] == KEY, entered.json()
    catalogue = Catalogue.objects.get(pk=open_campaign.catalogue_id)
    army_list = ArmyListFactory(owner=player, catalogue=catalogue, bloc="SSU", name="Night raid")
    lists.army_list_add_unit(army_list=army_list, unit_key="ssu.commissar-yelena-orlova")
    lists.army_list_add_platoon(army_list=army_list, chart_key=KEY)
    lists.army_list_update_entry(army_list=army_list, entry_id="e1", platoon="p1", slot="Command")
    army_list.refresh_from_db()
    assert army_list.content["platoons"][0]["chart"] == KEY
    return selectors.army_list_text(army_list=army_list)


def test_it_reads_a_campaigns_chart_only_for_that_campaign(claimed, open_campaign):
    catalogue = Catalogue.objects.get(pk=open_campaign.catalogue_id)
    elsewhere = CampaignFactory(catalogue=catalogue)

    read = list_read(data=claimed, catalogue=catalogue, campaign_ids=(open_campaign.pk,))
    with pytest.raises(TextListError) as for_everyone:
        list_read(data=claimed, catalogue=catalogue)
    with pytest.raises(TextListError) as for_another:
        list_read(data=claimed, catalogue=catalogue, campaign_ids=(elsewhere.pk,))

    assert read.document["platoons"][0]["chart"] == KEY
    assert any(SAID in why for _, why in for_everyone.value.errors)
    assert for_everyone.value.errors == for_another.value.errors


def test_the_import_page_offers_the_players_campaigns_and_imports_for_one(
    client, claimed, open_campaign, player
):
    client.force_login(player)
    page = reverse("armies:list_import")

    form = client.get(page).content.decode()
    without = client.post(page, {"text": claimed})
    imported = client.post(page, {"text": claimed, "campaign": str(open_campaign.pk)})

    assert "For a campaign" in form
    assert open_campaign.name in form
    assert without.status_code == 200
    assert SAID in without.content.decode()
    assert imported.status_code == 302, imported.content.decode()[:2000]
    made = ArmyList.objects.filter(owner=player).order_by("-pk").first()
    assert made is not None
    assert made.content["platoons"][0]["chart"] == KEY


def test_the_import_page_offers_no_campaign_to_a_stranger_and_takes_none_not_theirs(
    client, claimed, open_campaign, stranger
):
    client.force_login(stranger)
    page = reverse("armies:list_import")

    form = client.get(page).content.decode()
    answer = client.post(page, {"text": claimed, "campaign": str(open_campaign.pk)})

    assert "For a campaign" not in form
    assert open_campaign.name not in form
    assert answer.status_code == 200
    assert SAID in answer.content.decode()
    assert not ArmyList.objects.filter(owner=stranger).exists()


def test_the_api_imports_for_a_campaign_of_the_callers_and_refuses_any_other_alike(
    api_as, claimed, open_campaign, player
):
    url = reverse("api:army-list-import")
    private = CampaignFactory(
        catalogue=open_campaign.catalogue, organiser=UserFactory(username="quiet"), is_public=False
    )

    imported = api_as(player).post(url, {"list": claimed, "campaign": open_campaign.pk}, format="json")
    without = api_as(player).post(url, {"list": claimed}, format="json")
    not_theirs = api_as(player).post(url, {"list": claimed, "campaign": private.pk}, format="json")
    no_such = api_as(player).post(url, {"list": claimed, "campaign": private.pk + 1000}, format="json")

    assert imported.status_code == 201, imported.json()
    assert imported.json()["content"]["platoons"][0]["chart"] == KEY
    assert without.status_code == 400
    assert SAID in without.content.decode()
    assert not_theirs.status_code == no_such.status_code == 400
    assert not_theirs.json() == no_such.json()
    assert private.name not in not_theirs.content.decode()


def test_a_roster_claiming_a_campaigns_chart_keeps_its_platoon_when_read_for_that_campaign(real_catalogue):
    owner = UserFactory(username="rosa")
    campaign = CampaignFactory(catalogue=real_catalogue, organiser=owner)
    PlatoonChartFactory(
        catalogue=real_catalogue, key="ranger-platoon", name="Ranger Platoon: Bravo", entered=True,
        campaign=campaign,
    )  # fmt: skip
    Catalogue.objects.filter(pk=real_catalogue.pk).update(charts_revision=real_catalogue.charts_revision + 1)
    catalogue = Catalogue.objects.get(pk=real_catalogue.pk)
    army_list = ArmyListFactory(owner=owner, catalogue=catalogue, bloc="Allies", name="Rangers")
    lists.army_list_add_unit(army_list=army_list, unit_key="allies.bravo-company-ranger-command-squad")
    lists.army_list_add_platoon(army_list=army_list, chart_key="ranger-platoon")
    lists.army_list_update_entry(army_list=army_list, entry_id="e1", platoon="p1", slot="command")
    army_list.refresh_from_db()
    rosz = selectors.army_list_rosz(army_list=army_list, filename="rangers.ros")

    for_it = list_read(data=rosz, catalogue=catalogue, campaign_ids=(campaign.pk,))
    for_everyone = list_read(data=rosz, catalogue=catalogue)

    assert for_it.warnings == ()
    assert for_it.document["platoons"] == army_list.content["platoons"]
    assert [warning.code for warning in for_everyone.warnings] == ["roster-note-unread"]
    assert SAID in for_everyone.warnings[0].message
    assert for_everyone.document["platoons"] == []
