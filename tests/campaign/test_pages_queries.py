"""Query counts of the campaign list, the campaign page (with its map) and the dashboard.

Each is pinned, with the expected queries named, and measured twice: with 3
players on a 4-sector map and with 30 players on a 40-sector map (with a list
registered each and sector changes in the log), so a number that grew with the
players or the sectors would fail.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.models import User
from armies.blocs import Bloc
from campaign.models import Campaign, EnrolmentStatus, Registration
from campaign.services.map import campaign_map_load, sector_update
from tests.campaign.engine.builders import chain, crossroads
from tests.factories import CampaignFactory, CatalogueFactory, EnrolmentFactory, UserFactory

pytestmark = pytest.mark.django_db

BLOCS = [Bloc.AXIS, Bloc.ALLIES, Bloc.SSU]


def grow(campaign: Campaign, players: int, *, sectors_document: dict) -> None:
    """``players`` admitted players (each with a registered list) and as many pending ones, on a map."""
    Campaign.objects.filter(pk=campaign.pk).update(current_round=0)
    campaign.refresh_from_db()
    campaign_map_load(campaign=campaign, actor=campaign.organiser, document=sectors_document)
    start = campaign.enrolments.count()
    for index in range(start, start + players):
        enrolment = EnrolmentFactory(campaign=campaign, player=UserFactory(username=f"p{index}"),
                                     bloc=BLOCS[index % 3])  # fmt: skip
        EnrolmentFactory(campaign=campaign, player=UserFactory(username=f"q{index}"), bloc=BLOCS[index % 3],
                         status=EnrolmentStatus.PENDING)  # fmt: skip
        Registration.objects.create(
            campaign=campaign, enrolment=enrolment, name=f"List {index}", bloc=enrolment.bloc,
            document={}, catalogue=campaign.catalogue, catalogue_name="Test", catalogue_version="1",
            total_ap=150, verdict={"ok": True, "totals": {}, "problems": []},
        )  # fmt: skip
    sector = campaign.sectors.order_by("position").last()
    for value in (2, 3):
        sector_update(campaign=campaign, actor=campaign.organiser, key=sector.key, changes={"value": value},
                      reason="Shelled")  # fmt: skip
    # A campaign two rounds in, so the round selector has a past to show.
    Campaign.objects.filter(pk=campaign.pk).update(current_round=2)


@pytest.fixture
def big_campaign(organiser: User) -> Campaign:
    return CampaignFactory(organiser=organiser, is_public=True, catalogue=CatalogueFactory())


def test_it_lists_campaigns_in_a_fixed_number_of_queries(
    client, stranger, organiser, django_assert_num_queries
):
    CampaignFactory.create_batch(3, organiser=organiser, is_public=True)
    client.force_login(stranger)

    # 1 the session, 2 the user, 3 the count for the paginator,
    # 4 the page of campaigns with their organiser and admitted-player count (one annotated query)
    with django_assert_num_queries(4):
        first = client.get(reverse("campaign:list"))
    for campaign in Campaign.objects.all():
        for index in range(10):
            EnrolmentFactory(campaign=campaign, player=UserFactory(username=f"c{campaign.pk}-{index}"))
    CampaignFactory.create_batch(27, organiser=organiser, is_public=True)
    with django_assert_num_queries(4):
        second = client.get(reverse("campaign:list"))

    assert (
        first.content.count(b'data-testid="campaign-row"'),
        second.content.count(b'data-testid="campaign-row"'),
    ) == (3, 30)
    assert b'data-testid="player-count">10<' in second.content


def _campaign_page_queries(client, campaign, django_assert_num_queries, query: str = "") -> bytes:
    # 1 the session, 2 the user,
    # 3 the campaign with its organiser and catalogue, 4 its co-organisers with their users (campaign_for_page),
    # 5 is the user a co-organiser, and their own enrolment (campaign_access, one query),
    # 6 the players by bloc: names, factions and statuses only (rosters),
    # 7 the map: the sectors now, or the sector log up to the round chosen,
    # (7b the open round's battles: the sector and the sides' names and blocs, drawn on the map as it stands now only)
    # 8 the player's battle in the open round (for "your battle this round"; admitted players only),
    # 9 the registered lists: names, players, AP and the warnings counted (registration_table_rows)
    with django_assert_num_queries(9 if query else 10):
        response = client.get(reverse("campaign:detail", args=[campaign.pk]) + query)
    assert response.status_code == 200
    return response.content


@pytest.mark.parametrize("query", ["", "?round=1"])
def test_it_shows_the_campaign_page_with_its_map_in_a_fixed_number_of_queries(
    client, big_campaign, player, django_assert_num_queries, query
):
    EnrolmentFactory(campaign=big_campaign, player=player, bloc=Bloc.SSU)
    client.force_login(player)

    grow(big_campaign, 3, sectors_document=crossroads())
    small = _campaign_page_queries(client, big_campaign, django_assert_num_queries, query)
    grow(big_campaign, 30, sectors_document=chain(40))
    large = _campaign_page_queries(client, big_campaign, django_assert_num_queries, query)

    assert (small.count(b"data-sector="), large.count(b"data-sector=")) == (2 * 4, 2 * 40)
    assert (
        small.count(b'data-testid="registration-row"'),
        large.count(b'data-testid="registration-row"'),
    ) == (3, 33)


def _dashboard_queries(client, campaign, django_assert_num_queries) -> bytes:
    # 1 the session, 2 the user,
    # 3 the campaign with its organiser and catalogue, 4 its co-organisers with their users (campaign_for_page),
    # 5 the creator's own enrolment (campaign_access; the creator needs no co-organiser check),
    # 6 the placeholders admitted, for their claim links,
    # 7 the join requests with their players,
    # what the round waits on (round_waits_on): 8 the open round (none here, so no battles nor
    # challenges are counted), 9 the places grouped by status, bloc and list, 10 the reports waiting
    # and disputed (the battles app),
    # 11 the catalogue's factions for the placeholder form,
    # 12 the current round's open battle sessions, with their battles' sides and sectors (the battles app:
    # what is being played at the table), 13 the disputed battle reports with their battles, sides and people
    # (dispute_queue)
    with django_assert_num_queries(13):
        response = client.get(reverse("campaign:dashboard", args=[campaign.pk]))
    assert response.status_code == 200
    return response.content


def test_it_shows_the_dashboard_in_a_fixed_number_of_queries(
    client, big_campaign, organiser, django_assert_num_queries
):
    client.force_login(organiser)

    grow(big_campaign, 3, sectors_document=crossroads())
    small = _dashboard_queries(client, big_campaign, django_assert_num_queries)
    grow(big_campaign, 30, sectors_document=chain(40))
    large = _dashboard_queries(client, big_campaign, django_assert_num_queries)

    assert (small.count(b'data-testid="join-request"'), large.count(b'data-testid="join-request"')) == (3, 33)
