"""What the standings page keeps between requests (standings/drawings.py, standings/kept.py) is never stale:
a rename, an adjustment and a recompute all show at once, and a kept drawing spares the history's read."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import User
from campaign.models import Campaign, Enrolment
from standings.kept import Kept
from standings.selectors import standings_for
from standings.services import adjustment_add, standings_recompute
from tests.standings.builders import populated_campaign

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign() -> Campaign:
    played = populated_campaign(players=9, rounds=2, seed=21)
    standings_recompute(campaign_id=played.pk)
    return played


def _page(campaign: Campaign, client: Client | None = None) -> str:
    if client is None:
        client = Client()
        client.force_login(campaign.organiser)
    response = client.get(reverse("standings:standings", args=[campaign.pk]))
    assert response.status_code == 200
    return response.content.decode()


def _leader(campaign: Campaign) -> Enrolment:
    view = standings_for(campaign=campaign)
    assert view is not None
    return Enrolment.objects.select_related("player").get(pk=view.players[0].enrolment_id)


def test_it_names_a_renamed_leader_in_the_table_and_the_chart(campaign: Campaign) -> None:
    leader = _leader(campaign)
    assert leader.display_name in _page(campaign)
    User.objects.filter(pk=leader.player_id).update(display_name="Renamed Leader")
    page = _page(campaign)
    assert 'data-player="Renamed Leader"' in page  # the players table
    assert 'data-series="Renamed Leader"' in page  # the points chart
    assert f'data-series="{leader.display_name}"' not in page


def test_it_shows_an_adjustment_once_the_standings_are_recomputed(campaign: Campaign) -> None:
    leader = _leader(campaign)
    before = _page(campaign)
    points = standings_for(campaign=campaign).players[0].points  # type: ignore[union-attr]
    adjustment_add(
        campaign=campaign, enrolment=leader, points=50, reason="Held the bridge", actor=campaign.organiser
    )
    standings_recompute(campaign_id=campaign.pk)
    after = _page(campaign)
    assert after != before
    assert f"{leader.display_name} {points + 50}" in after  # the chart's end label and summary
    assert f"<strong>{points + 50}</strong>" in after  # the table


def test_it_reads_the_history_only_when_the_charts_were_not_drawn_before(campaign: Campaign) -> None:
    client = Client()
    client.force_login(campaign.organiser)

    def queries() -> list[str]:
        with CaptureQueriesContext(connection) as captured:
            _page(campaign, client)
        return [query["sql"] for query in captured.captured_queries]

    first, second = queries(), queries()
    history = [sql for sql in first if '"standings_standings"."history"' in sql]
    assert len(history) == 1
    assert len(second) == len(first) - 1
    assert not [sql for sql in second if '"standings_standings"."history"' in sql]


def test_it_keeps_only_the_most_recently_used() -> None:
    kept: Kept[str] = Kept(2)
    kept.put("a", "A")
    kept.put("b", "B")
    assert kept.get("a") == "A"  # now the most recent
    kept.put("c", "C")
    assert (kept.get("a"), kept.get("b"), kept.get("c")) == ("A", None, "C")
