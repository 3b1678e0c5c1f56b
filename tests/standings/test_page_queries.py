"""The standings page, its poll and its endpoints take the same number of queries for any campaign size."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.test import APIClient

from campaign.models import Campaign
from standings.services import standings_recompute
from tests.standings.builders import populated_campaign

pytestmark = pytest.mark.django_db


@pytest.fixture
def small_and_large() -> tuple[Campaign, Campaign]:
    small = populated_campaign(players=6, rounds=2, seed=11)
    large = populated_campaign(players=150, rounds=5, seed=12)
    for campaign in (small, large):
        standings_recompute(campaign_id=campaign.pk)
    return small, large


def _count(call: Callable[[], Any]) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = call()
    assert response.status_code == 200
    return len(captured.captured_queries)


def _page(campaign: Campaign, name: str, query: str = "") -> int:
    client = Client()
    client.force_login(campaign.organiser)
    return _count(lambda: client.get(reverse(name, args=[campaign.pk]) + query))


def _api(campaign: Campaign, tail: str) -> int:
    client = APIClient()
    client.force_authenticate(campaign.organiser)
    return _count(lambda: client.get(f"/api/campaigns/{campaign.pk}/standings/{tail}"))


@pytest.mark.parametrize(
    ("name", "query"),
    [("standings:standings", ""), ("standings:standings", "?round=1"), ("standings:print", ""),
     ("standings:status", "?seen=0")],
)  # fmt: skip
def test_a_page_takes_the_same_queries_for_6_players_or_150(small_and_large, name: str, query: str) -> None:
    small, large = small_and_large
    assert _page(small, name, query) == _page(large, name, query)


@pytest.mark.parametrize("tail", ["", "?round=1", "status/", "history/", "adjustments/"])
def test_an_endpoint_takes_the_same_queries_for_6_players_or_150(small_and_large, tail: str) -> None:
    small, large = small_and_large
    assert _api(small, tail) == _api(large, tail)


def test_the_standings_page_stays_within_its_budget(small_and_large) -> None:
    # Session and user, the campaign, the organiser check (the creator: only their enrolment), hidden
    # results (no query while they are shown), the status, the table with its places, the history of both
    # charts (on the page's first request: the charts are then kept, standings/drawings.py), the players
    # for the adjustment form and the latest adjustments.
    _small, large = small_and_large
    assert _page(large, "standings:standings") == 10
