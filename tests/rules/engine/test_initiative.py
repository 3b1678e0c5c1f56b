"""Initiative (seed 004, Game Turn step 1; seed 002, Initiative)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine.dice import DiceRoller, Face
from rules.engine.errors import EngineInputError
from rules.engine.initiative import (
    TIEBREAK_FACE,
    Decision,
    InitiativeSide,
    decide,
    initiative_dice,
    may_pass,
    roll_initiative,
)
from rules.engine.ruleset import RuleSet

B, T, S = Face.BLOC, Face.TARGET, Face.SHIELD
BOOK = RuleSet.rulebook()
RTZ = RuleSet.rtz()
AXIS = InitiativeSide("axis", units=6)
ALLIES = InitiativeSide("allies", units=6)


def test_it_rolls_three_dice_each_by_default() -> None:
    """Seed 004, Game Turn: each player rolls 3 dice."""
    assert initiative_dice((AXIS, ALLIES), BOOK) == {"axis": 3, "allies": 3}


def test_it_lets_skills_change_the_dice() -> None:
    """Seed 004, Black Ops: a hero with the skill makes its side roll 4."""
    assert initiative_dice((InitiativeSide("axis", 5, dice=4), ALLIES), BOOK) == {"axis": 4, "allies": 3}


def test_it_gives_the_most_bloc_the_initiative() -> None:
    """Seed 004, Game Turn: most [BLOC] wins."""
    assert decide({"axis": [B, B, S], "allies": [B, T, T]}, BOOK) == ("axis", Decision.BLOC)


def test_it_breaks_a_bloc_tie_on_the_second_face() -> None:
    """Seed 004, Game Turn: equal [BLOC], the second face decides (our reading: [TARGET])."""
    assert TIEBREAK_FACE is Face.TARGET
    assert decide({"axis": [B, S, S], "allies": [B, T, S]}, BOOK) == ("allies", Decision.TIEBREAK)


def test_it_asks_for_a_reroll_on_a_full_tie() -> None:
    """Seed 004, Game Turn: a further tie is re-rolled."""
    assert decide({"axis": [B, T, S], "allies": [T, B, S]}, BOOK) is None


def test_it_rerolls_ties_until_someone_wins_and_logs_every_roll() -> None:
    """Seed 004, Game Turn: re-rolls are part of the same initiative and are all logged."""
    for seed in range(200):
        roller = DiceRoller(seed=seed)
        result = roll_initiative((AXIS, ALLIES), BOOK, roller)
        if max(roll.attempt for roll in result.rolls) > 1:
            assert len(result.log) == 6 * max(roll.attempt for roll in result.rolls)
            assert result.log == tuple(roller.log)
            return
    pytest.fail("no seed in 0..199 produced a re-roll")


def test_it_gives_an_extra_die_to_the_side_with_fewer_units_under_rtz() -> None:
    """Seed 002, Initiative: fewer units (a joined hero counts once) rolls one more die."""
    small = InitiativeSide("axis", units=4)
    assert initiative_dice((small, ALLIES), RTZ) == {"axis": 4, "allies": 3}
    assert initiative_dice((small, ALLIES), BOOK) == {"axis": 3, "allies": 3}
    assert initiative_dice((AXIS, ALLIES), RTZ) == {"axis": 3, "allies": 3}


def test_it_adds_the_rtz_die_on_top_of_skills() -> None:
    """Seed 002, Initiative: 'as usual' keeps skill changes, then the extra die is added."""
    assert initiative_dice((InitiativeSide("axis", 2, dice=4), ALLIES), RTZ)["axis"] == 5


def test_it_lets_the_attacker_break_ties_under_rtz() -> None:
    """Seed 002, Initiative: the scenario's attacker breaks ties."""
    faces = {"axis": [B, T, S], "allies": [B, S, S]}
    assert decide(faces, RTZ, attacker="allies") == ("allies", Decision.ATTACKER)
    assert decide(faces, BOOK, attacker="allies") == ("axis", Decision.TIEBREAK)


def test_it_falls_back_on_the_rulebook_tie_break_without_an_attacker() -> None:
    """Seed 002, Initiative: with no attacker named, we use the rulebook's tie-break (our reading)."""
    assert decide({"axis": [B, T, S], "allies": [B, S, S]}, RTZ) == ("axis", Decision.TIEBREAK)


def test_it_keeps_the_turn_one_order_in_turn_two_under_rtz() -> None:
    """Seed 002, Initiative: no roll in turn 2; the turn 1 order stands."""
    roller = DiceRoller(seed=4)
    first = roll_initiative((AXIS, ALLIES), RTZ, roller, turn=1, attacker="axis")
    logged = len(roller.log)
    second = roll_initiative((AXIS, ALLIES), RTZ, roller, turn=2, attacker="axis", previous=first)
    assert (second.winner, second.decided_by, second.rolled) == (first.winner, Decision.KEPT, False)
    assert len(roller.log) == logged


def test_it_needs_the_turn_one_result_for_rtz_turn_two() -> None:
    """Seed 002, Initiative: turn 2 follows turn 1, so the earlier result must be given."""
    with pytest.raises(EngineInputError) as caught:
        roll_initiative((AXIS, ALLIES), RTZ, DiceRoller(seed=1), turn=2)
    assert caught.value.field == "previous"


@pytest.mark.parametrize("turn", [3, 4, 7])
def test_it_rolls_every_turn_from_turn_three_under_rtz(turn: int) -> None:
    """Seed 002, Initiative: from turn 3 initiative is rolled at the start of each turn."""
    result = roll_initiative((AXIS, ALLIES), RTZ, DiceRoller(seed=turn), turn=turn, attacker="axis")
    assert result.rolled
    assert len(result.log) >= 6


def test_it_rolls_every_turn_under_the_rulebook() -> None:
    """Seed 004, Game Turn: initiative is the first step of every turn."""
    result = roll_initiative((AXIS, ALLIES), BOOK, DiceRoller(seed=5), turn=2)
    assert result.rolled


def test_it_refuses_an_attacker_who_is_not_playing() -> None:
    """The attacker must be one of the two sides."""
    with pytest.raises(EngineInputError) as caught:
        roll_initiative((AXIS, ALLIES), RTZ, DiceRoller(seed=1), attacker="ssu")
    assert caught.value.field == "attacker"


@pytest.mark.parametrize(
    ("sides", "field"),
    [((AXIS,), "sides"), ((AXIS, InitiativeSide("axis", 2)), "sides")],
)
def test_it_needs_two_distinct_sides(sides: tuple[InitiativeSide, ...], field: str) -> None:
    """Seed 004, Game Turn: two players roll."""
    with pytest.raises(EngineInputError) as caught:
        roll_initiative(sides, BOOK, DiceRoller(seed=1))
    assert caught.value.field == field


def test_it_refuses_a_side_with_no_dice() -> None:
    """A side rolls at least one die, or ties could never be broken."""
    with pytest.raises(EngineInputError) as caught:
        InitiativeSide("axis", 3, dice=0)
    assert caught.value.field == "axis.dice"


def test_it_lets_a_player_pass_only_with_fewer_units_left() -> None:
    """Seed 004, Activations: a player may pass with fewer units left to activate than the opponent."""
    assert may_pass(2, 3)
    assert not may_pass(3, 3)
    assert not may_pass(4, 3)


sides = st.tuples(
    st.builds(InitiativeSide, st.just("axis"), st.integers(0, 12), st.integers(1, 4)),
    st.builds(InitiativeSide, st.just("allies"), st.integers(0, 12), st.integers(1, 4)),
)


@given(sides, st.sampled_from([BOOK, RTZ]), st.integers(0, 2**32), st.sampled_from([None, "axis", "allies"]))
def test_it_always_names_one_winner_and_one_loser(
    pair: tuple[InitiativeSide, InitiativeSide], ruleset: RuleSet, seed: int, attacker: str | None
) -> None:
    """Seeds 002 and 004: initiative always ends with a winner."""
    result = roll_initiative(pair, ruleset, DiceRoller(seed=seed), attacker=attacker)
    assert {result.winner, result.loser} == {"axis", "allies"}


@given(sides, st.sampled_from([BOOK, RTZ]), st.integers(0, 2**32))
def test_it_replays_the_same_result_from_the_same_seed(
    pair: tuple[InitiativeSide, InitiativeSide], ruleset: RuleSet, seed: int
) -> None:
    """The full die log makes initiative auditable and replayable."""
    first = roll_initiative(pair, ruleset, DiceRoller(seed=seed), attacker="axis")
    again = roll_initiative(pair, ruleset, DiceRoller(seed=seed), attacker="axis")
    assert first.to_dict() == again.to_dict()


@given(
    st.lists(st.sampled_from(Face), min_size=3, max_size=4),
    st.lists(st.sampled_from(Face), min_size=3, max_size=4),
)
def test_it_decides_the_same_whichever_side_is_listed_first(a: list[Face], b: list[Face]) -> None:
    """Seed 004, Game Turn: the roll-off is symmetric between the players."""
    assert decide({"axis": a, "allies": b}, BOOK) == decide({"allies": b, "axis": a}, BOOK)
