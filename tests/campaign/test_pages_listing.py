"""The campaign list and the short create form."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaign.models import Campaign, EnrolmentStatus, LogEntry
from campaign.options import STANDARD_RTZ, Status
from rules.engine.ruleset import RuleSet
from tests.factories import CampaignFactory, CatalogueFactory, EnrolmentFactory, UserFactory

pytestmark = pytest.mark.django_db


def names(response) -> list[str]:
    return [campaign.name for campaign in response.context["page"].object_list]


def test_it_lists_public_campaigns_and_the_private_ones_of_the_user(client, campaign, player, stranger):
    CampaignFactory(name="Open war", is_public=True)
    CampaignFactory(name="Someone else's secret")
    mine = CampaignFactory(name="Stranger's own", organiser=stranger)
    applied = CampaignFactory(name="Applied to")
    EnrolmentFactory(campaign=applied, player=stranger, status=EnrolmentStatus.PENDING)
    refused = CampaignFactory(name="Refused from")
    EnrolmentFactory(campaign=refused, player=stranger, status=EnrolmentStatus.REFUSED)
    client.force_login(stranger)

    response = client.get(reverse("campaign:list"))

    assert response.status_code == 200
    assert sorted(names(response)) == sorted(["Open war", mine.name, "Applied to"])
    assert b"Siege of the Tractor Works" not in response.content


def test_it_shows_anonymous_visitors_only_public_campaigns(client, campaign):
    CampaignFactory(name="Open war", is_public=True)

    response = client.get(reverse("campaign:list"))

    assert names(response) == ["Open war"]


def test_it_shows_status_and_admitted_player_count(client, campaign, player):
    EnrolmentFactory(
        campaign=campaign, player=UserFactory(username="waiting"), status=EnrolmentStatus.PENDING
    )
    client.force_login(player)

    response = client.get(reverse("campaign:list"))

    assert b'data-testid="player-count">1<' in response.content
    assert b"Draft" in response.content
    assert b"private" in response.content


def test_it_filters_by_status(client):
    CampaignFactory(name="Drafting", is_public=True)
    CampaignFactory(name="Underway", is_public=True, status=Status.RUNNING)

    response = client.get(reverse("campaign:list"), {"status": "running"})

    assert names(response) == ["Underway"]


def test_it_ignores_an_unknown_status_filter(client):
    CampaignFactory(name="Drafting", is_public=True)

    response = client.get(reverse("campaign:list"), {"status": "exploded"})

    assert response.status_code == 200
    assert names(response) == ["Drafting"]


def test_it_answers_the_htmx_filter_with_the_results_only(client):
    CampaignFactory(name="Underway", is_public=True, status=Status.RUNNING)

    response = client.get(
        reverse("campaign:list"),
        {"status": "running"},
        headers={"HX-Request": "true", "HX-Target": "campaign-results"},
    )

    assert response.content.startswith(b'<div id="campaign-results">')
    assert b"<html" not in response.content
    assert b"Underway" in response.content


def test_it_links_campaigns_from_the_site_nav(client):
    response = client.get(reverse("core:home"))

    assert f'href="{reverse("campaign:list")}">Campaigns</a>'.encode() in response.content


def test_it_creates_a_campaign_and_goes_to_its_settings(client, stranger):
    client.force_login(stranger)

    response = client.post(reverse("campaign:create"), {"name": "  Winter offensive ", "is_public": "on"})

    campaign = Campaign.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("campaign:settings", args=[campaign.pk])
    assert (campaign.name, campaign.is_public, campaign.organiser, campaign.status) == (
        "Winter offensive", True, stranger, Status.DRAFT,
    )  # fmt: skip
    assert LogEntry.objects.filter(campaign=campaign, kind="campaign-created").count() == 1


def test_it_keeps_what_was_typed_when_the_name_is_refused(client, stranger):
    client.force_login(stranger)

    too_long = client.post(reverse("campaign:create"), {"name": "x" * 81, "is_public": "on"})
    blank = client.post(reverse("campaign:create"), {"name": "   "})

    assert too_long.status_code == 200
    assert "at most 80 characters" in str(too_long.context["form"].errors["name"])
    assert b'value="' + b"x" * 81 + b'"' in too_long.content
    assert b"checked" in too_long.content
    assert blank.context["form"].errors["name"]
    assert not Campaign.objects.exists()


def test_it_offers_the_only_catalogue_and_the_standard_settings_on_the_create_page(client, stranger):
    only = CatalogueFactory(name="Winter", version="7")
    client.force_login(stranger)

    form = client.get(reverse("campaign:create")).context["form"]

    assert form["catalogue"].value() == only.pk
    assert "the site's only catalogue" in form.fields["catalogue"].help_text
    assert form["standard"].value() is True


def test_it_creates_a_campaign_with_the_standard_settings_and_the_catalogue_chosen(client, stranger):
    catalogue = CatalogueFactory(name="Winter", version="7")
    client.force_login(stranger)

    client.post(
        reverse("campaign:create"), {"name": "Winter offensive", "catalogue": catalogue.pk, "standard": "on"}
    )

    campaign = Campaign.objects.get()
    assert (campaign.catalogue, campaign.catalogue_version) == (catalogue, "7")
    for setting, value in STANDARD_RTZ.items():
        if setting == "ruleset":
            assert RuleSet.from_dict(campaign.ruleset) == RuleSet.from_dict(value)
        else:
            assert getattr(campaign, setting) == value, setting
    assert all(RuleSet.from_dict(campaign.ruleset).to_dict().values())  # every RtZ section on


def test_it_creates_a_campaign_on_the_plain_defaults_when_the_standard_is_unticked(client, stranger):
    client.force_login(stranger)

    client.post(reverse("campaign:create"), {"name": "Winter offensive"})

    campaign = Campaign.objects.get()
    assert (campaign.catalogue, campaign.income_base, campaign.hide_results_until_close) == (None, 0, False)
