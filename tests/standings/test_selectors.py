"""What the pages and the API read: tables now and by round, whether a recompute is due, a player, series."""

from __future__ import annotations

import pytest

from campaign.models import Campaign
from campaign.options import Status
from standings import selectors
from standings.services import adjustment_add, standings_recompute
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db


def test_it_has_nothing_before_the_first_recompute(league):
    assert selectors.standings_for(campaign=league.campaign) is None
    assert selectors.standings_status(campaign=league.campaign) is None
    assert selectors.history_points(campaign=league.campaign) is None
    assert selectors.history_sectors(campaign=league.campaign) is None
    assert selectors.player_standing(campaign=league.campaign, enrolment=league.place("a1")) is None


def test_the_table_now_names_the_players_and_says_what_it_was_computed_from(league):
    league.fight("a1", "x1", "attacker", round=1)
    league.fight("s1", "x2", "attacker", round=2)
    standings_recompute(campaign_id=league.campaign.pk)
    league.campaign.refresh_from_db()

    view = selectors.standings_for(campaign=league.campaign)

    assert view is not None
    assert view.is_now
    assert view.round_number == 2
    assert [(row.name, row.rank) for row in view.players[:2]] == [("A1", 1), ("S1", 1)]
    assert view.info.reports_counted == 2
    assert view.info.standings_version == league.campaign.results_version
    assert not view.info.pending
    assert view.info.tiebreakers == league.campaign.tiebreakers
    assert [row.key for row in view.blocs]
    assert {row.key for row in view.blocs} == {"Allies", "Axis", "SSU"}


def test_a_past_rounds_table_is_not_now_and_a_round_without_table_is_none(league):
    league.fight("a1", "x1", "attacker", round=1)
    league.fight("x1", "a1", "attacker", round=2)
    standings_recompute(campaign_id=league.campaign.pk)

    first = selectors.standings_for(campaign=league.campaign, round_number=1)

    assert first is not None
    assert not first.is_now
    assert {row.name: row.points for row in first.players}["X1"] == 0
    assert selectors.standings_for(campaign=league.campaign, round_number=3) is None


def test_a_recompute_is_pending_while_the_standings_lag_the_results(league):
    assert selectors.standings_pending(campaign=league.campaign)  # running, never computed
    standings_recompute(campaign_id=league.campaign.pk)
    league.campaign.refresh_from_db()
    assert not selectors.standings_pending(campaign=league.campaign)

    Campaign.objects.filter(pk=league.campaign.pk).update(results_version=league.campaign.results_version + 1)
    league.campaign.refresh_from_db()

    assert selectors.standings_pending(campaign=league.campaign)
    info = selectors.standings_status(campaign=league.campaign)
    assert info is not None
    assert info.pending


def test_a_draft_nobody_joined_waits_for_no_recompute():
    draft = CampaignFactory(status=Status.DRAFT)

    assert not selectors.standings_pending(campaign=draft)


def test_a_players_standing_has_its_row_its_series_and_its_adjustments(league, organiser):
    league.fight("a1", "x1", "attacker", round=1)
    league.fight("x2", "a1", "attacker", round=2)
    league.round(3)
    adjustment_add(campaign=league.campaign, enrolment=league.place("a1"), points=2, reason="fair play",
                   actor=organiser)  # fmt: skip
    standings_recompute(campaign_id=league.campaign.pk)

    standing = selectors.player_standing(campaign=league.campaign, enrolment=league.place("a1"))

    assert standing is not None
    assert (standing.row.name, standing.row.points, standing.row.played) == ("A1", 5, 2)
    assert standing.rounds == [1, 2, 3]
    assert standing.points == [3, 3, 5]
    assert standing.ranks[0] == 1
    assert [a.reason for a in standing.adjustments] == ["fair play"]


def test_the_points_history_follows_the_leaders_now(league):
    league.fight("s1", "x1", "attacker", round=1)
    league.fight("s1", "x2", "attacker", round=2)
    league.fight("a1", "a2", "attacker", round=2)
    standings_recompute(campaign_id=league.campaign.pk)

    history = selectors.history_points(campaign=league.campaign, leaders=2)

    assert history is not None
    assert history.rounds == [1, 2]
    assert [(s.name, s.values) for s in history.series] == [("S1", [3, 6]), ("A1", [0, 3])]


def test_the_sectors_history_has_a_series_per_bloc(league):
    league.round(2)
    standings_recompute(campaign_id=league.campaign.pk)

    history = selectors.history_sectors(campaign=league.campaign)
    now = selectors.standings_for(campaign=league.campaign)

    assert history is not None
    assert now is not None
    assert history.rounds == [1, 2]
    assert {s.key: s.values[-1] for s in history.series} == {row.key: row.sectors_held for row in now.blocs}


def test_adjustments_are_listed_newest_first_and_by_player(league, organiser):
    for name, points in (("a1", 1), ("s1", -1), ("a1", 3)):
        adjustment_add(campaign=league.campaign, enrolment=league.place(name), points=points, reason="r",
                       actor=organiser)  # fmt: skip

    assert [a.points for a in selectors.adjustments_for(campaign=league.campaign)] == [3, -1, 1]
    mine = selectors.adjustments_for(campaign=league.campaign, enrolment=league.place("a1"))
    assert [a.points for a in mine] == [3, 1]
