"""The recompute and the selectors take a fixed number of queries, however many players and battles."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign.models import Campaign
from standings import selectors
from standings.services import adjustment_add, standings_recompute
from tests.standings.builders import populated_campaign

pytestmark = pytest.mark.django_db

# Read the campaign, the stored standings' version, when the rounds opened, the places, two side totals, the
# meetings, the adjustments, the ledger, the sector log; then, in a savepoint and its release, lock the stored
# standings, write them, delete the old tables, insert the new ones. Around all that, one recompute at a time:
# on PostgreSQL the campaign's advisory lock (here, inside the test's transaction, one released with it), on
# SQLite a savepoint and its release. (In production PostgreSQL's read is a snapshot opened by SET TRANSACTION
# instead of the campaign's row locked, and the lock is released by a statement of its own.)
RECOMPUTE_QUERIES = 10 + 6


def around() -> int:
    return 1 if connection.vendor == "postgresql" else 2


def recompute_queries(campaign: Campaign) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        assert standings_recompute(campaign_id=campaign.pk, force=True)
    return [query["sql"] for query in captured.captured_queries]


@pytest.mark.parametrize("tiebreakers", [["vp_difference", "head_to_head"], ["vp_for"]])
def test_the_recompute_takes_the_same_queries_for_6_players_or_120_and_for_ten_times_the_battles(tiebreakers):
    small = populated_campaign(players=6, rounds=3, seed=1)
    large = populated_campaign(players=120, rounds=3, seed=2)
    busy = populated_campaign(players=120, rounds=3, battles_per_round=600, seed=3)
    for campaign in (small, large, busy):
        Campaign.objects.filter(pk=campaign.pk).update(tiebreakers=tiebreakers)
        campaign.refresh_from_db()
        standings_recompute(campaign_id=campaign.pk)  # the first write creates the Standings row
    expected = RECOMPUTE_QUERIES + around() - (0 if "head_to_head" in tiebreakers else 1)

    counts = [len(recompute_queries(campaign)) for campaign in (small, large, busy)]

    assert counts == [expected] * 3
    assert busy.battles.count() == 10 * large.battles.count()


def test_the_recompute_never_loads_battle_rows(league):
    league.fight("a1", "x1", "attacker")
    league.fight("s1", "x2", None)

    queries = recompute_queries(league.campaign)

    battle_reads = [sql for sql in queries if 'FROM "campaign_battle"' in sql]
    assert len(battle_reads) == 3
    assert all("GROUP BY" in sql for sql in battle_reads)


@pytest.fixture
def computed_pair(organiser):
    small = populated_campaign(players=6, rounds=2, seed=4)
    large = populated_campaign(players=90, rounds=4, seed=5)
    for campaign in (small, large):
        place = campaign.enrolments.first()
        adjustment_add(campaign=campaign, enrolment=place, points=2, reason="bonus", actor=organiser)
        standings_recompute(campaign_id=campaign.pk)
        campaign.refresh_from_db()
    return small, large


@pytest.mark.parametrize(
    ("read", "queries"),
    [
        (lambda c, p: selectors.standings_for(campaign=c), 2),
        (lambda c, p: selectors.standings_for(campaign=c, round_number=1), 2),
        (lambda c, p: selectors.standings_status(campaign=c), 1),
        (lambda c, p: selectors.standings_pending(campaign=c), 1),
        (lambda c, p: selectors.player_standing(campaign=c, enrolment=p), 3),
        (lambda c, p: selectors.history_points(campaign=c, leaders=5), 2),
        (lambda c, p: selectors.history_sectors(campaign=c), 1),
        (lambda c, p: list(selectors.adjustments_for(campaign=c)), 1),
    ],
)
def test_each_selector_takes_a_fixed_number_of_queries(
    computed_pair, django_assert_num_queries, read, queries
):
    for campaign in computed_pair:
        place = campaign.enrolments.order_by("pk").first()
        with django_assert_num_queries(queries):
            got = read(campaign, place)
        assert got is not None
