"""Query counts of what the round waits on (selector, panel poll, API) and of the close preview (page, API).

Each is measured twice, with 8 and with 80 players in an open round (half the battles scheduled, a
quarter reported and waiting, a quarter disputed, a challenge per battle and a join request per
player), so a number that grew with the campaign would fail.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from armies.blocs import Bloc
from battles.models import BattleReport, ReportStatus
from campaign.models import (
    Battle,
    BattleSource,
    BattleStatus,
    Campaign,
    Challenge,
    ChallengeStatus,
    EnrolmentStatus,
    Registration,
    Round,
    sides_recorded,
)
from campaign.options import Status
from campaign.selectors.dashboard import round_waits_on
from campaign.selectors.round_close import round_close_preview
from tests.factories import EnrolmentFactory, UserFactory

pytestmark = pytest.mark.django_db

PAIRS = [(Bloc.AXIS, Bloc.ALLIES), (Bloc.SSU, Bloc.AXIS), (Bloc.ALLIES, Bloc.SSU)]


def build(campaign: Campaign, pairs: int) -> Round:
    """``pairs`` battles (each a new pair of players with lists) in round 1, and as many join requests."""
    Campaign.objects.filter(pk=campaign.pk).update(status=Status.RUNNING, current_round=1)
    campaign.refresh_from_db()
    round = Round.objects.create(campaign=campaign, number=1, deadline=timezone.now() + timedelta(days=7))
    sectors = list(campaign.sectors.order_by("position"))
    for index in range(pairs):
        blocs = PAIRS[index % 3]
        sides = [EnrolmentFactory(campaign=campaign, player=UserFactory(username=f"p{index}{side}"), bloc=bloc)
                 for side, bloc in zip("ad", blocs, strict=True)]  # fmt: skip
        EnrolmentFactory(campaign=campaign, player=UserFactory(username=f"q{index}"), bloc=blocs[0],
                         status=EnrolmentStatus.PENDING)  # fmt: skip
        lists = [
            Registration.objects.create(
                campaign=campaign, enrolment=place, name=f"List {place.pk}", bloc=place.bloc, document={},
                catalogue=campaign.catalogue, catalogue_name="Demo", catalogue_version="1", total_ap=150,
                verdict={"ok": True, "totals": {}, "problems": []},
            )
            for place in sides
        ]  # fmt: skip
        sector = sectors[index % len(sectors)]
        reported = index % 2 == 1
        battle = Battle.objects.create(
            campaign=campaign, round=round, sector=sector, attacker=sides[0], defender=sides[1],
            **sides_recorded(attacker=sides[0], defender=sides[1]), mission="hold-the-line", points_limit=150,
            status=BattleStatus.REPORTED if reported else BattleStatus.SCHEDULED, source=BattleSource.PAIRING,
        )  # fmt: skip
        if reported:
            BattleReport.objects.create(
                battle=battle, campaign=campaign, attacker_registration=lists[0], defender_registration=lists[1],
                turns=6, ending="turn_limit", sides={}, judgement={}, submitted_by=sides[0],
                status=ReportStatus.DISPUTED if index % 4 == 3 else ReportStatus.SUBMITTED,
                dispute_reason="Not so" if index % 4 == 3 else "", disputed_at=timezone.now(),
            )  # fmt: skip
        Challenge.objects.create(campaign=campaign, round=round, challenger=sides[0], challenged=sides[1],
                                 sector=sector, deadline=round.deadline)  # fmt: skip
    return round


@pytest.mark.parametrize("pairs", [4, 40])
def test_it_counts_what_the_round_waits_on_in_five_queries(open_campaign, django_assert_num_queries, pairs):
    build(open_campaign, pairs)

    # 1 the open round, 2 the places grouped by status, bloc and whether they hold a current list,
    # 3 the round's battles counted by state, 4 its open challenges, 5 the reports (the battles app)
    with django_assert_num_queries(5):
        waits = round_waits_on(campaign=open_campaign)

    assert (waits.players_admitted, waits.join_requests, waits.challenges_open) == (2 * pairs, pairs, pairs)
    assert waits.battles_unreported + waits.reports_waiting + waits.disputes == pairs


@pytest.mark.parametrize("pairs", [4, 40])
def test_it_previews_the_close_in_a_fixed_number_of_queries(open_campaign, django_assert_num_queries, pairs):
    round = build(open_campaign, pairs)

    # 1 the round's open battles with both sides and the sector, 2 the disputes (the battles app),
    # 3 the battles being played at the table (their open sessions, the battles app), 4 the open
    # challenges with both sides and the sector, 5 the sectors and 6 the hidden results, for the income
    # (income_preview)
    with django_assert_num_queries(6):
        preview = round_close_preview(campaign=open_campaign, round=round)

    assert len(preview.unreported) + len(preview.reports_unanswered) + len(preview.disputes) == pairs
    assert len(preview.challenges) == pairs


@pytest.mark.parametrize("pairs", [4, 40])
def test_a_poll_that_brings_the_disputes_and_the_join_requests_costs_the_same_at_any_size(
    client, open_campaign, organiser, django_assert_num_queries, pairs
):
    build(open_campaign, pairs)
    client.force_login(organiser)
    url = reverse("campaign:dashboard_waits", args=[open_campaign.pk])

    # The ten of a quiet poll, then 11 the disputed reports with their battles, sides, round and reporter
    # (the disputes section); the join requests sent are those already read for their digest
    with django_assert_num_queries(11):
        answer = client.get(url, {"v": "stale", "r": "stale"})

    html = answer.content.decode()
    assert html.count('data-testid="join-request"') == pairs
    assert html.count('data-testid="dispute"') == pairs // 4


@pytest.mark.parametrize("pairs", [4, 40])
def test_the_poll_the_api_and_the_close_page_cost_the_same_at_any_size(
    client, api_client, open_campaign, organiser, django_assert_num_queries, pairs
):
    build(open_campaign, pairs)
    client.force_login(organiser)
    api_client.force_authenticate(organiser)

    # 1 the session, 2 the user, 3 the campaign, 4 the caller's own place (campaign_access; the
    # creator needs no co-organiser check), 5 the join requests (for their digest), then the five counts
    with django_assert_num_queries(10):
        assert client.get(reverse("campaign:dashboard_waits", args=[open_campaign.pk])).status_code == 200
    # 1 the campaign, 2 the caller's own place, then the five counts (no session: a forced login)
    with django_assert_num_queries(7):
        assert api_client.get(f"/api/campaigns/{open_campaign.pk}/dashboard/").status_code == 200
    # 1 the session, 2 the user, 3 the campaign, 4 the caller's place, 5 the round, then the preview's six
    with django_assert_num_queries(11):
        page = client.get(reverse("campaign:round_close", args=[open_campaign.pk, 1]))
    assert page.content.count(b'data-testid="close-dispute"') == pairs // 4


@pytest.mark.parametrize("pairs", [4, 40])
def test_the_panel_poll_costs_the_same_with_nothing_new_or_something_new(
    client, open_campaign, organiser, django_assert_num_queries, pairs
):
    round = build(open_campaign, pairs)
    client.force_login(organiser)
    url = reverse("campaign:dashboard_waits", args=[open_campaign.pk])
    digest = re.search(r'dashboard/waits/\?v=([0-9a-f]+)"', client.get(url).content.decode()).group(1)

    # Nothing new: 1 the session, 2 the user, 3 the campaign, 4 the caller's place, 5 the join requests
    # (for their digest), then the five counts (what the panel shows, so what its digest is made of);
    # a 204 with nothing rendered.
    with django_assert_num_queries(10):
        assert client.get(url, {"v": digest}).status_code == 204
    Challenge.objects.filter(round=round).update(status=ChallengeStatus.EXPIRED)
    # Something new: the same ten, then the disputed reports (with their battles and sides, one query)
    # that the disputes section brings along out of band.
    with django_assert_num_queries(11):
        changed = client.get(url, {"v": digest})
    assert changed.status_code == 200
    assert b'hx-swap-oob="true"' in changed.content
