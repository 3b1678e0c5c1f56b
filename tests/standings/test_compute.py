"""What the standings count, against hand-built campaigns: results, scores, VP, AP, forfeits, ranks."""

from __future__ import annotations

import pytest

from battles.models import BattleReport
from campaign.models import BattleStatus, Campaign
from campaign.services.players import enrolment_admit, enrolment_request
from standings import engine
from standings.selectors import player_standing
from standings.services import adjustment_add
from tests.battles.conftest import ALLIED_UNITS, AXIS_UNITS, register
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def record(row):
    return (row.played, row.won, row.drawn, row.lost, row.points)


def test_it_counts_wins_draws_and_losses_with_the_default_scores(league):
    league.fight("a1", "x1", "attacker")
    league.fight("a1", "s1", None)
    league.fight("x1", "s1", "attacker")
    league.fight("s2", "x2", "defender")

    rows = league.rows()

    assert record(rows["a1"]) == (2, 1, 1, 0, 4)
    assert record(rows["x1"]) == (2, 1, 0, 1, 3)
    assert record(rows["s1"]) == (2, 0, 1, 1, 1)
    assert record(rows["x2"]) == (1, 1, 0, 0, 3)
    assert record(rows["s2"]) == (1, 0, 0, 1, 0)
    assert record(rows["a2"]) == (0, 0, 0, 0, 0)


def test_it_scores_with_the_campaigns_own_points(league):
    Campaign.objects.filter(pk=league.campaign.pk).update(points_win=5, points_draw=2, points_loss=1)
    league.fight("a1", "x1", "attacker")
    league.fight("a1", "s1", None)

    rows = league.rows()

    assert rows["a1"].points == 7
    assert rows["x1"].points == 1
    assert rows["s1"].points == 2


def test_it_sums_victory_points_for_and_against_and_ap_destroyed_from_each_sides_view(league):
    league.fight("a1", "x1", "attacker", vp=(6, 2), ap=(45, 20))
    league.fight("x2", "a1", "defender", vp=(3, 4), ap=(10, 60))

    rows = league.rows()

    assert (rows["a1"].vp_for, rows["a1"].vp_against, rows["a1"].ap_destroyed) == (10, 5, 105)
    assert rows["a1"].vp_difference == 5
    assert (rows["x1"].vp_for, rows["x1"].vp_against, rows["x1"].ap_destroyed) == (2, 6, 20)
    assert (rows["x2"].vp_for, rows["x2"].vp_against, rows["x2"].ap_destroyed) == (3, 4, 10)


@pytest.mark.parametrize(
    "status", [BattleStatus.SCHEDULED, BattleStatus.REPORTED, BattleStatus.UNPLAYED, BattleStatus.VOID,
               BattleStatus.DRAFT],
)  # fmt: skip
def test_only_confirmed_and_forfeited_battles_count(league, status):
    league.fight("a1", "x1", "attacker", status=status)

    standings = league.standings()

    assert all(row.played == 0 for row in standings.players)
    assert standings.info.reports_counted == 0
    assert standings.info.forfeits_counted == 0


def test_a_forfeit_nobody_reported_is_a_loss_for_both_sides_with_no_vp(league):
    Campaign.objects.filter(pk=league.campaign.pk).update(points_loss=-1, points_draw=0)
    league.fight("a1", "x1", status=BattleStatus.FORFEITED)

    standings = league.standings()
    rows = league.rows()

    for name in ("a1", "x1"):
        assert record(rows[name]) == (1, 0, 0, 1, -1)
        assert rows[name].forfeited == 1
        assert rows[name].vp_for == rows[name].vp_against == 0
    assert (standings.info.forfeits_counted, standings.info.reports_counted) == (1, 0)


def test_a_forfeit_is_won_by_the_side_that_reported_it(league):
    battle = league.fight("a1", "x1", status=BattleStatus.FORFEITED)
    attacker = register(battle.attacker, ALLIED_UNITS, "Allies")
    defender = register(battle.defender, AXIS_UNITS, "Axis")
    BattleReport.objects.create(
        battle=battle, campaign=league.campaign, attacker_registration=attacker, defender_registration=defender,
        turns=3, ending="turn_limit", sides={}, judgement={}, submitted_by=battle.defender,
    )  # fmt: skip

    rows = league.rows()

    assert (rows["x1"].won, rows["x1"].points, rows["x1"].forfeited) == (1, 3, 0)
    assert (rows["a1"].lost, rows["a1"].points, rows["a1"].forfeited) == (1, 0, 1)


def test_adjustments_add_to_the_points_from_the_round_they_are_made_in(league, organiser):
    league.fight("a1", "x1", "attacker", round=1)
    league.round(2)
    adjustment_add(campaign=league.campaign, enrolment=league.place("a1"), points=-2, reason="late report",
                   actor=organiser)  # fmt: skip
    adjustment_add(campaign=league.campaign, enrolment=league.place("s1"), points=4, reason="painting prize",
                   actor=organiser)  # fmt: skip

    now, first = league.rows(), league.rows(1)

    assert (now["a1"].points, now["a1"].adjustment) == (1, -2)
    assert (now["s1"].points, now["s1"].adjustment, now["s1"].played) == (4, 4, 0)
    assert (first["a1"].points, first["a1"].adjustment) == (3, 0)
    assert league.standings().info.adjustments_counted == 2


def test_true_ties_share_a_rank_and_the_next_rank_skips(league):
    Campaign.objects.filter(pk=league.campaign.pk).update(tiebreakers=[])
    league.fight("a1", "x1", "attacker")
    league.fight("s1", "x2", "attacker")
    league.fight("a2", "s2", None)

    ranks = {name: row.rank for name, row in league.rows().items()}

    assert ranks == {"a1": 1, "s1": 1, "a2": 3, "s2": 3, "x1": 5, "x2": 5}


def test_the_campaigns_tiebreakers_order_players_level_on_points_in_the_order_chosen(league):
    # a1 and s1 both won once: a1 by more VP, s1 with more VP scored and more AP destroyed.
    league.fight("a1", "x1", "attacker", vp=(5, 0), ap=(10, 0))
    league.fight("s1", "x2", "attacker", vp=(9, 6), ap=(80, 0))

    def order(tiebreakers):
        Campaign.objects.filter(pk=league.campaign.pk).update(tiebreakers=tiebreakers)
        rows = league.rows()
        return rows["a1"].rank, rows["s1"].rank

    assert order([engine.VP_DIFFERENCE]) == (1, 2)
    assert order([engine.VP_FOR]) == (2, 1)
    assert order([engine.AP_DESTROYED, engine.VP_DIFFERENCE]) == (2, 1)
    assert order([]) == (1, 1)


def test_head_to_head_decides_between_the_tied_players_by_their_own_battle(league):
    Campaign.objects.filter(pk=league.campaign.pk).update(tiebreakers=[engine.HEAD_TO_HEAD])
    league.fight("a1", "s1", "defender", round=1)  # s1 beat a1
    league.fight("a1", "x1", "attacker", round=2)

    rows = league.rows()

    assert (rows["a1"].points, rows["s1"].points) == (3, 3)
    assert (rows["s1"].rank, rows["a1"].rank) == (1, 2)
    assert (rows["s1"].tiebreaks["head_to_head"], rows["a1"].tiebreaks["head_to_head"]) == (3, 0)


def test_strength_of_schedule_favours_the_player_who_beat_stronger_opponents(league):
    Campaign.objects.filter(pk=league.campaign.pk).update(tiebreakers=[engine.STRENGTH_OF_SCHEDULE])
    league.fight("a1", "x1", "attacker")  # x1 then wins once more: 3 points
    league.fight("x1", "s2", "attacker")
    league.fight("s1", "x2", "attacker")  # x2 has nothing

    rows = league.rows()

    assert (rows["a1"].tiebreaks["strength_of_schedule"], rows["s1"].tiebreaks["strength_of_schedule"]) == (
        3,
        0,
    )
    assert (rows["a1"].rank, rows["x1"].rank, rows["s1"].rank) == (1, 1, 3)


def test_each_round_has_its_table_and_the_last_is_now(league):
    league.fight("a1", "x1", "attacker", round=1)
    league.fight("x1", "a1", "attacker", round=2)
    league.fight("x1", "s1", "attacker", round=3)

    first, second, now = league.rows(1), league.rows(2), league.rows()

    assert (first["x1"].points, second["x1"].points, now["x1"].points) == (0, 3, 6)
    assert (first["a1"].rank, second["a1"].rank, now["a1"].rank) == (1, 1, 2)
    standings = league.standings()
    assert standings.round_number == standings.info.round_number == 3
    assert standings.info.rounds == [1, 2, 3]


def test_it_lists_admitted_players_and_those_who_left_after_playing_but_not_applicants(league, make_player):
    league.fight("a1", "x1", "attacker")
    league.campaign.enrolments.filter(player__username="x1").update(status="left")
    make_player("applicant", status="pending")

    rows = league.rows()

    assert "x1" in rows
    assert "applicant" not in rows
    assert len(rows) == 6


def test_a_player_who_joins_late_is_listed_from_the_round_they_joined_in(league, organiser):
    league.fight("a1", "x1", "attacker", round=1)
    league.round(2)
    request = enrolment_request(campaign=league.campaign, user=UserFactory(username="lena"), bloc="SSU")
    late = enrolment_admit(enrolment=request, actor=organiser)
    league.fight("a2", "x2", "attacker", round=2)

    first, now = league.rows(1), league.rows()

    assert "lena" not in first
    assert len(first) == 6
    assert (now["lena"].played, now["lena"].rank) == (0, 3)
    standing = player_standing(campaign=league.campaign, enrolment=late)
    assert standing is not None
    assert standing.points == [None, 0]
