"""Checking and judging a battle report (pure: no database)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battles.judging import Ending, Entry, ReportError, ReportFacts, SideFacts, judge_report

ATTACKERS = (Entry("a1", "Rifles", 20), Entry("a2", "Walker", 30), Entry("a3", "Sergeant", 15, hero=True))
DEFENDERS = (
    Entry("d1", "Guards", 25),
    Entry("d2", "Gun", 10, strongpoint_unit=True),
    Entry("d3", "Tank", 40),
)
LIMITS = {"attacker": 2, "defender": 1}


def report(*, lost_a=(), lost_d=(), res_a=(), res_d=(), turns=6, ending=Ending.TURN_LIMIT, obj_a=False,
           obj_d=False, vp_a=0, vp_d=0, conceded_by=None) -> ReportFacts:  # fmt: skip
    return ReportFacts(
        SideFacts(ATTACKERS, lost_a, res_a, obj_a, vp_a), SideFacts(DEFENDERS, lost_d, res_d, obj_d, vp_d),
        turns, ending, conceded_by,
    )  # fmt: skip


def problems(facts: ReportFacts) -> set[tuple[str, str]]:
    with pytest.raises(ReportError) as caught:
        judge_report(facts, turn_limit=6, reserve_limits=LIMITS)
    return {(p.field, p.code) for p in caught.value.problems}


def test_victory_points_are_the_ap_of_enemy_units_eliminated_plus_the_scenarios():
    judged = judge_report(
        report(lost_d=("d1", "d3"), lost_a=("a1",), vp_a=5), turn_limit=6, reserve_limits=LIMITS
    )

    assert judged.victory_points == {"attacker": 25 + 40 + 5, "defender": 20}
    assert (judged.winner, judged.draw, judged.decided_by) == ("attacker", False, "victory_points")
    assert judged.ap_destroyed == {"attacker": 65, "defender": 20}


def test_a_unit_back_from_reserve_can_be_lost_again_and_scores_twice():
    judged = judge_report(report(lost_a=("a1", "a1"), res_a=("a1",)), turn_limit=6, reserve_limits=LIMITS)

    assert judged.victory_points["defender"] == 40
    assert judged.units_in_play["attacker"] == 2  # a1 was lost after it came back


def test_a_commissar_back_with_his_squad_can_be_lost_again_without_a_placement_of_his_own():
    """Seed 004, Commissar: he returns with the unit he joined, whose placement is the one in the report."""
    attackers = (*ATTACKERS, Entry("a4", "Commissar", 5, commissar=True))
    twice = SideFacts(attackers, ("a1", "a4", "a1", "a4"), ("a1",))
    facts = ReportFacts(twice, SideFacts(DEFENDERS), 6, Ending.TURN_LIMIT)
    judged = judge_report(facts, turn_limit=6, reserve_limits=LIMITS)
    assert judged.victory_points["defender"] == 2 * (20 + 5)

    thrice = SideFacts(attackers, ("a1", "a4", "a1", "a4", "a4"), ("a1",))
    with pytest.raises(ReportError) as caught:
        judge_report(
            ReportFacts(thrice, SideFacts(DEFENDERS), 6, Ending.TURN_LIMIT),
            turn_limit=6,
            reserve_limits=LIMITS,
        )
    assert {(p.field, p.code) for p in caught.value.problems} == {("attacker.lost", "lost-too-often")}


def test_equal_points_draw():
    judged = judge_report(report(lost_a=("a2",), lost_d=("d1",), vp_a=5), turn_limit=6, reserve_limits=LIMITS)

    assert judged.draw
    assert judged.winner is None


def test_the_side_that_eliminates_the_other_wins_outright():
    judged = judge_report(report(lost_d=("d1", "d2", "d3"), turns=3, ending=Ending.ELIMINATION, vp_d=99),
                          turn_limit=6, reserve_limits=LIMITS)  # fmt: skip

    assert (judged.winner, judged.decided_by) == ("attacker", "elimination")


def test_an_elimination_stands_while_the_eliminated_sides_units_wait_in_reserve():
    """Seed 004, Reserve (#): a unit in reserve moves "onto the play area from reserve" when activated in a
    later turn, so one still waiting is not in play; the defender's d1 fell and waits, d2 and d3 are gone."""
    facts = report(lost_d=("d1", "d2", "d3"), res_d=("d1",), turns=3, ending=Ending.ELIMINATION)

    judged = judge_report(facts, turn_limit=6, reserve_limits=LIMITS)

    assert (judged.winner, judged.decided_by) == ("attacker", "elimination")
    assert judged.units_in_play == {"attacker": 3, "defender": 0}


def test_a_unit_back_from_reserve_keeps_its_side_in_play_when_the_other_is_eliminated():
    # Every attacker unit fell once; a1 came back from reserve, the defender lost everything it had.
    facts = report(lost_a=("a1", "a2", "a3"), res_a=("a1",), lost_d=("d1", "d2", "d3"), turns=3,
                   ending=Ending.ELIMINATION)  # fmt: skip

    judged = judge_report(facts, turn_limit=6, reserve_limits=LIMITS)

    assert (judged.winner, judged.decided_by) == ("attacker", "elimination")


def test_a_concession_loses_whatever_the_points():
    judged = judge_report(report(lost_d=("d1",), turns=2, ending=Ending.CONCESSION, conceded_by="attacker"),
                          turn_limit=6, reserve_limits=LIMITS)  # fmt: skip

    assert (judged.winner, judged.decided_by) == ("defender", "concession")


@pytest.mark.parametrize(
    ("facts", "expected"),
    [
        (report(ending=Ending.ELIMINATION, turns=3), {("ending", "elimination-with-units-in-play")}),
        (report(ending=Ending.OBJECTIVE, turns=3), {("ending", "objective-not-completed")}),
        (report(ending=Ending.TURN_LIMIT, turns=4), {("turns", "turn-limit-not-reached")}),
        (report(lost_a=("zz",)), {("attacker.lost[0]", "unknown-entry")}),
        (report(lost_a=("a3",), res_a=("a3",)), {("attacker.reserves[0]", "reserve-hero")}),
        (report(lost_d=("d2",), res_d=("d2",)), {("defender.reserves[0]", "reserve-strongpoint-unit")}),
        (
            report(lost_d=("d1", "d1", "d3", "d3"), res_d=("d1", "d3")),
            {("defender.reserves", "too-many-reserves")},
        ),
        (report(res_a=("a1",)), {("attacker.reserves", "reserve-without-loss")}),
        (report(lost_a=("a1", "a1")), {("attacker.lost", "lost-too-often")}),
        (report(turns=0), {("turns", "out-of-range")}),
        (report(vp_a=101), {("attacker.scenario_vp", "out-of-range")}),
        (report(ending=Ending.CONCESSION, turns=2), {("conceded_by", "required")}),
    ],
)
def test_a_report_that_does_not_add_up_is_refused_saying_what(facts, expected):
    assert problems(facts) == expected


def test_every_problem_of_a_report_is_named_at_once():
    found = problems(report(lost_a=("zz",), res_d=("d3",), turns=9))

    assert found == {("attacker.lost[0]", "unknown-entry"), ("defender.reserves", "reserve-without-loss"),
                     ("turns", "out-of-range")}  # fmt: skip


losses = st.lists(st.sampled_from(["d1", "d2", "d3"]), max_size=3, unique=True)


@given(lost_d=losses, lost_a=st.lists(st.sampled_from(["a1", "a2"]), max_size=2, unique=True),
       vp_a=st.integers(0, 20), vp_d=st.integers(0, 20))  # fmt: skip
def test_at_the_turn_limit_more_victory_points_always_win(lost_d, lost_a, vp_a, vp_d):
    judged = judge_report(report(lost_a=tuple(lost_a), lost_d=tuple(lost_d), vp_a=vp_a, vp_d=vp_d),
                          turn_limit=6, reserve_limits=LIMITS)  # fmt: skip

    vp = judged.victory_points
    assert judged.draw == (vp["attacker"] == vp["defender"])
    if not judged.draw:
        assert judged.winner == max(vp, key=lambda side: vp[side])
