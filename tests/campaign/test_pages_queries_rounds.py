"""Query counts of the rounds page, a round's page with its battles, and the economy page.

Each is pinned, with the expected queries named, and measured on two
campaigns: 2 players per bloc and 10 per bloc (more battles, byes, ledger
entries and purchases), so a number that grew with them would fail.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from armies.blocs import Bloc
from campaign.models import Battle, Campaign, Enrolment, FortificationPurchase, ResourceEntry
from campaign.options import Status
from campaign.services.economy import Holder, fortification_buy, ledger_adjust
from campaign.services.map import campaign_map_load
from campaign.services.pairings import pairings_generate, pairings_publish
from campaign.services.rounds import round_close, round_open
from tests.factories import CampaignFactory, CatalogueFactory, EnrolmentFactory, UserFactory

pytestmark = pytest.mark.django_db

# Sectors each bloc holds on the default map, to buy strongpoints for.
BOUGHT = [("Axis", "kolkhoz-fields"), ("SSU", "workers-settlement"), ("Allies", "riverside")]


def build(organiser: User, per_bloc: int, *, tag: str) -> tuple[Campaign, Enrolment]:
    """A running campaign: round 1 paired, published and closed (income paid), round 2 open with a draft."""
    campaign = CampaignFactory(organiser=organiser, is_public=True, catalogue=CatalogueFactory())
    campaign_map_load(campaign=campaign, actor=organiser)
    Campaign.objects.filter(pk=campaign.pk).update(status=Status.RUNNING)
    campaign.refresh_from_db()
    places = {
        bloc: [
            EnrolmentFactory(
                campaign=campaign, player=UserFactory(username=f"{tag}-{bloc.value}-{index}"), bloc=bloc
            )
            for index in range(per_bloc)
        ]
        for bloc in Bloc
    }
    for index in range(per_bloc * 3):
        ledger_adjust(campaign=campaign, holder=Holder(bloc=list(Bloc)[index % 3].value), amount=5,
                      reason=f"Supply {index}", actor=organiser)  # fmt: skip
    for bloc, key in BOUGHT[: 1 if per_bloc < 5 else 3]:
        fortification_buy(campaign=campaign, buyer=places[Bloc(bloc)][0], sector_key=key, kind="strongpoint",
                          actor=organiser)  # fmt: skip
    first = round_open(campaign=campaign, actor=organiser, deadline=timezone.now() + timedelta(days=7))
    pairings_generate(round=first, actor=organiser)
    pairings_publish(round=first, actor=organiser)
    round_close(round=first, actor=organiser)
    second = round_open(campaign=campaign, actor=organiser, deadline=timezone.now() + timedelta(days=7))
    pairings_generate(round=second, actor=organiser)
    return campaign, places[Bloc.SSU][0]


@pytest.fixture
def campaigns(organiser: User) -> list[tuple[Campaign, Enrolment]]:
    return [build(organiser, 2, tag="small"), build(organiser, 10, tag="large")]


def test_the_two_sizes_really_differ(campaigns):
    (small, _), (large, _) = campaigns

    sizes = [
        (Battle.objects.filter(campaign=c).count(), ResourceEntry.objects.filter(campaign=c).count(),
         FortificationPurchase.objects.filter(campaign=c).count())
        for c in (small, large)
    ]  # fmt: skip

    assert sizes == [(6, 6 + 1 + 3, 1), (30, 30 + 3 + 3, 3)]


def test_it_shows_the_rounds_page_in_a_fixed_number_of_queries(client, campaigns, django_assert_num_queries):
    for campaign, place in campaigns:
        client.force_login(place.player)
        # 1 the campaign with its organiser and catalogue, 2 the session, 3 the user,
        # 4 is the user a co-organiser, and their own enrolment (campaign_access, one query),
        # 5 the rounds with their battles, drafts and byes counted (one annotated query)
        with django_assert_num_queries(5):
            response = client.get(reverse("campaign:rounds", args=[campaign.pk]))
        assert response.content.count(b'data-testid="round-row"') == 2


def test_it_shows_a_round_with_its_battles_in_a_fixed_number_of_queries(
    client, campaigns, django_assert_num_queries
):
    shown = []
    for campaign, place in campaigns:
        client.force_login(place.player)
        # 1 the campaign, 2 the session, 3 the user, 4 is the user a co-organiser, and their enrolment,
        # 5 the round, 6 its battles with both sides, their accounts and the sector, 7 its byes with their players,
        # 8 the places with a current registered list (flagged beside a battle still to be fought)
        with django_assert_num_queries(8):
            response = client.get(reverse("campaign:round", args=[campaign.pk, 1]))
        shown.append(response.content.count(b'data-testid="battle-row"'))
    assert shown == [3, 15]


def test_it_shows_the_organisers_draft_in_a_fixed_number_of_queries(
    client, campaigns, organiser, django_assert_num_queries
):
    client.force_login(organiser)
    shown = []
    for campaign, _place in campaigns:
        # 1 the campaign, 2 the session, 3 the user, 4 the creator's own enrolment (campaign_access),
        # 5 the round, 6 its battles (drafts too) with both sides and the sector, 7 its byes,
        # 8 the places with a current registered list (flagged beside each drafted battle),
        # 9 the sectors now, for the fronts each drafted battle may be moved along (the map is parsed once)
        with django_assert_num_queries(9):
            response = client.get(reverse("campaign:round", args=[campaign.pk, 2]))
        shown.append(response.content.count(b'data-testid="draft-battle"'))
    assert shown == [3, 15]


def test_it_shows_the_schedule_page_in_a_fixed_number_of_queries(
    client, campaigns, organiser, django_assert_num_queries
):
    client.force_login(organiser)
    shown = []
    for campaign, _place in campaigns:
        # 1 the campaign, 2 the session, 3 the user, 4 the creator's own enrolment (campaign_access),
        # 5 the round, 6 the places with a current registered list, 7 the admitted players with accounts,
        # 8 the sectors now, for the front lines (the map is parsed once), 9 the sectors, for the select,
        # 10 the places with a battle this round (not offered)
        with django_assert_num_queries(10):
            response = client.get(reverse("campaign:battle_schedule", args=[campaign.pk, 2]))
        shown.append(response.content.count(b"(no registered list yet)</option>"))
    # The first step offers every admitted player without a battle once, as the attacker; none has a list yet.
    assert shown == [6, 30]


def test_it_shows_the_economy_page_in_a_fixed_number_of_queries(client, campaigns, django_assert_num_queries):
    shown = []
    for campaign, place in campaigns:
        client.force_login(place.player)
        # 1 the campaign, 2 the session, 3 the user, 4 is the user a co-organiser, and their enrolment,
        # 5 the count of ledger entries for the paginator, 6 the balances summed by bloc,
        # 7 the blocs with admitted players, 8 the sectors for the purchase form,
        # 9 the purchases with their sectors and buyers, 10 the page of ledger entries with holders and actors
        with django_assert_num_queries(10):
            response = client.get(reverse("campaign:economy", args=[campaign.pk]))
        shown.append(
            (
                response.content.count(b'data-testid="ledger-entry"'),
                response.content.count(b'data-testid="purchase-row"'),
            )
        )
    assert shown == [(10, 1), (25, 3)]


def test_it_shows_the_economy_page_to_an_organiser_in_a_fixed_number_of_queries(
    client, campaigns, organiser, django_assert_num_queries
):
    client.force_login(organiser)
    for campaign, _place in campaigns:
        # 1 the campaign, 2 the session, 3 the user, 4 the creator's own enrolment,
        # 5 the count of ledger entries, 6 the balances by bloc, 7 the blocs with admitted players,
        # 8 the purchases, 9 the page of ledger entries (the adjustment form offers the three blocs: no query)
        with django_assert_num_queries(9):
            response = client.get(reverse("campaign:economy", args=[campaign.pk]))
        assert b'data-testid="adjust-form"' in response.content
