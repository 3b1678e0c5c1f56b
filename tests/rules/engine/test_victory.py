"""Battle end and victory (seed 004, Victory; product.md, Battles)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine.errors import EngineInputError
from rules.engine.victory import DecidedBy, EndReason, SideReport, judge_battle


def side(name: str, **kw: object) -> SideReport:
    kw.setdefault("units_in_play", 3)
    return SideReport(name, **kw)  # type: ignore[arg-type]


def test_it_plays_on_while_no_end_condition_holds() -> None:
    """Seed 004, Victory: the game goes on until an end condition is met at the end of a turn."""
    result = judge_battle(side("axis"), side("allies"), turn=3, turn_limit=6)
    assert not result.ended
    assert result.winner is None
    assert not result.draw
    assert result.end_reasons == ()


def test_it_ends_on_a_completed_objective_and_gives_that_side_the_win() -> None:
    """Seed 004, Victory: completing the scenario's objective ends the game and wins it."""
    axis = side("axis", objective_completed=True)
    allies = side("allies", eliminated_enemy_ap=(60, 40))
    result = judge_battle(axis, allies, turn=2, turn_limit=6)
    assert result.ended
    assert result.end_reasons == (EndReason.OBJECTIVE,)
    assert (result.winner, result.loser, result.decided_by) == ("axis", "allies", DecidedBy.OBJECTIVE)
    assert result.victory_points == {"axis": 0, "allies": 100}  # still reported for standings


def test_it_ends_on_elimination_and_gives_the_survivor_the_win() -> None:
    """Seed 004, Victory: a player with no units left in play loses outright."""
    result = judge_battle(side("axis", units_in_play=0), side("allies"), turn=4, turn_limit=6)
    assert result.end_reasons == (EndReason.ELIMINATION,)
    assert (result.winner, result.decided_by) == ("allies", DecidedBy.ELIMINATION)


def test_it_ends_at_the_turn_limit_and_counts_victory_points() -> None:
    """Seed 004, Victory: at the turn limit, VP = AP of enemy units eliminated + scenario VP."""
    axis = side("axis", eliminated_enemy_ap=(25, 30), scenario_vp=10)
    allies = side("allies", eliminated_enemy_ap=(50,))
    result = judge_battle(axis, allies, turn=6, turn_limit=6)
    assert result.end_reasons == (EndReason.TURN_LIMIT,)
    assert result.victory_points == {"axis": 65, "allies": 50}
    assert (result.winner, result.decided_by) == ("axis", DecidedBy.VICTORY_POINTS)


def test_it_calls_equal_victory_points_a_draw() -> None:
    """Seed 004, Victory: an equal number of VP is a draw."""
    result = judge_battle(
        side("axis", scenario_vp=20), side("allies", eliminated_enemy_ap=(20,)), turn=6, turn_limit=6
    )
    assert result.draw
    assert result.winner is None
    assert result.loser is None


def test_it_counts_a_unit_eliminated_twice_twice() -> None:
    """Seed 004, Reserve (#): a unit back from reserve can be eliminated again and scores again."""
    assert side("axis", eliminated_enemy_ap=(30, 30)).victory_points == 60


def test_it_falls_back_on_victory_points_when_both_sides_claim_an_outright_win() -> None:
    """Seed 004, Victory: our reading when both sides would win outright (e.g. both wiped out)."""
    axis = side("axis", units_in_play=0, eliminated_enemy_ap=(80,))
    allies = side("allies", units_in_play=0, eliminated_enemy_ap=(70,))
    result = judge_battle(axis, allies, turn=3, turn_limit=6)
    assert (result.winner, result.decided_by) == ("axis", DecidedBy.VICTORY_POINTS)


def test_it_lists_every_end_condition_that_holds() -> None:
    """Seed 004, Victory: several conditions may hold in the same turn."""
    result = judge_battle(side("axis", objective_completed=True), side("allies"), turn=6, turn_limit=6)
    assert result.end_reasons == (EndReason.OBJECTIVE, EndReason.TURN_LIMIT)
    assert result.winner == "axis"


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"turn": 0, "turn_limit": 6}, "turn"),
        ({"turn": 7, "turn_limit": 6}, "turn"),
        ({"turn": 1, "turn_limit": 0}, "turn_limit"),
    ],
)
def test_it_refuses_turns_outside_the_battle(kwargs: dict[str, int], field: str) -> None:
    """Seed 004, Victory: turns run from 1 to the scenario's turn limit."""
    with pytest.raises(EngineInputError) as caught:
        judge_battle(side("axis"), side("allies"), **kwargs)
    assert caught.value.field == field


def test_it_refuses_negative_points_and_duplicate_names() -> None:
    """VP are built from AP and scenario points, never negative; the sides must differ."""
    with pytest.raises(EngineInputError) as caught:
        side("axis", eliminated_enemy_ap=(-5,))
    assert caught.value.field == "axis.eliminated_enemy_ap"
    with pytest.raises(EngineInputError):
        judge_battle(side("axis"), side("axis"), turn=1, turn_limit=6)


def test_it_serialises_the_result() -> None:
    """The result is stored with the battle report as plain data."""
    data = judge_battle(
        side("axis", objective_completed=True), side("allies"), turn=2, turn_limit=6
    ).to_dict()
    assert data == {
        "turn": 2,
        "ended": True,
        "end_reasons": ["objective"],
        "winner": "axis",
        "loser": "allies",
        "draw": False,
        "decided_by": "objective",
        "victory_points": {"axis": 0, "allies": 0},
    }


reports = st.fixed_dictionaries(
    {
        "units_in_play": st.integers(0, 5),
        "objective_completed": st.booleans(),
        "eliminated_enemy_ap": st.lists(st.integers(0, 200), max_size=5).map(tuple),
        "scenario_vp": st.integers(0, 50),
    }
)


@given(reports, reports, st.integers(1, 8), st.integers(1, 8))
def test_it_gives_the_same_verdict_whichever_side_is_listed_first(
    a: dict[str, Any], b: dict[str, Any], turn: int, extra: int
) -> None:
    """Seed 004, Victory: the result does not depend on the order of the players."""
    limit = turn + extra - 1
    one = judge_battle(SideReport("axis", **a), SideReport("allies", **b), turn=turn, turn_limit=limit)
    two = judge_battle(SideReport("allies", **b), SideReport("axis", **a), turn=turn, turn_limit=limit)
    assert (one.winner, one.loser, one.draw, one.ended) == (two.winner, two.loser, two.draw, two.ended)
    assert one.victory_points == two.victory_points
    assert set(one.end_reasons) == set(two.end_reasons)


@given(reports, reports)
def test_it_swaps_the_winner_when_the_sides_swap_reports(a: dict[str, Any], b: dict[str, Any]) -> None:
    """Seed 004, Victory: antisymmetry: give each side the other's report and the result flips."""
    one = judge_battle(SideReport("axis", **a), SideReport("allies", **b), turn=6, turn_limit=6)
    two = judge_battle(SideReport("axis", **b), SideReport("allies", **a), turn=6, turn_limit=6)
    flip = {"axis": "allies", "allies": "axis", None: None}
    assert two.winner == flip[one.winner]
    assert two.draw == one.draw
    assert one.ended
    assert one.draw or one.winner is not None
