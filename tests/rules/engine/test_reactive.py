"""Reactive attacks (seed 004, Reactive Attacks) with the RtZ changes of seed 002."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine.dice import BLOC_ONLY, DiceRoller, Face
from rules.engine.errors import EngineInputError
from rules.engine.reactive import (
    PassTokenEvent,
    ReactiveOutcome,
    Refusal,
    attempt_reactive,
    attempt_reactive_with,
    pass_tokens_gained,
    reactive_refusal,
    resolve_reactive,
    usable_in_reactive,
)
from rules.engine.ruleset import RuleSet
from rules.engine.state import RtzLevel, Token, UnitKind, UnitProfile, UnitState, fresh_state

B, T, S = Face.BLOC, Face.TARGET, Face.SHIELD
BOOK = RuleSet.rulebook()
RTZ = RuleSet.rtz()
SQUAD = UnitProfile(UnitKind.INFANTRY, 2)
PLANE = UnitProfile(UnitKind.AIRCRAFT, 2)


@pytest.mark.parametrize(
    ("faces", "outcome"),
    [
        ([B, B], ReactiveOutcome.SUSTAINED_OR_TURN_AND_ATTACK),
        ([B, T], ReactiveOutcome.ATTACK),
        ([S, B], ReactiveOutcome.ATTACK),
        ([T, S], ReactiveOutcome.NOTHING),
        ([B], ReactiveOutcome.ATTACK),
        ([T], ReactiveOutcome.NOTHING),
    ],
)
def test_it_reads_the_reactive_table_by_bloc_count(faces: list[Face], outcome: ReactiveOutcome) -> None:
    """Seed 004, Reactive Attacks: two [BLOC] sustained (or turn and attack), one attack, none NOTHING."""
    assert resolve_reactive(faces) is outcome


def test_it_lets_a_skill_widen_the_success_faces() -> None:
    """Seed 004, Advanced Reactive Fire: other faces may count as successes."""
    assert resolve_reactive([T, T], {B, T}) is ReactiveOutcome.SUSTAINED_OR_TURN_AND_ATTACK


def test_it_refuses_three_dice() -> None:
    """Seed 004, Reactive Attacks: the roll is 2 dice (1 when hampered)."""
    with pytest.raises(EngineInputError):
        resolve_reactive([B, B, B])


def test_it_never_lets_aircraft_react() -> None:
    """Seed 004, Reactive Attacks: aircraft can never make a reactive attack."""
    assert reactive_refusal(fresh_state(), PLANE, BOOK, distance=1) is Refusal.AIRCRAFT
    with pytest.raises(EngineInputError) as caught:
        attempt_reactive(fresh_state(), PLANE, BOOK, DiceRoller(seed=1), distance=1)
    assert caught.value.field == "unit"


def test_it_never_uses_close_combat_weapons_in_a_reactive_attack() -> None:
    """Seed 004, Reactive Attacks: range C weapons cannot be used."""
    assert not usable_in_reactive("C")
    assert not usable_in_reactive(" c ")
    assert usable_in_reactive("4")
    assert usable_in_reactive("U")


def test_it_lets_only_units_that_have_not_acted_react() -> None:
    """Seed 004, Reactive Attacks: a unit that already acted this turn cannot react."""
    assert reactive_refusal(UnitState(activated=True), SQUAD, BOOK, distance=1) is Refusal.ALREADY_ACTIVATED


def test_it_lets_only_one_unit_react_per_enemy_activation() -> None:
    """Seed 004, Reactive Attacks: one and only one unit per enemy activation."""
    assert (
        reactive_refusal(fresh_state(), SQUAD, BOOK, distance=1, reaction_used=True) is Refusal.REACTION_USED
    )


def test_it_needs_the_reacting_unit_within_range_four() -> None:
    """Seed 004, Reactive Attacks: within range 4 (range 6 with Advanced Reactive Fire)."""
    assert reactive_refusal(fresh_state(), SQUAD, BOOK, distance=4) is None
    assert reactive_refusal(fresh_state(), SQUAD, BOOK, distance=5) is Refusal.OUT_OF_RANGE
    assert reactive_refusal(fresh_state(), SQUAD, BOOK, distance=6, max_range=6) is None


def test_it_rolls_two_dice_for_an_unhampered_unit() -> None:
    """Seed 004, Reactive Attacks: the reacting player rolls 2 dice."""
    attempt = attempt_reactive_with(fresh_state(), SQUAD, BOOK, [B, T], distance=2)
    assert attempt.dice == 2
    assert attempt.outcome is ReactiveOutcome.ATTACK
    assert attempt.state.activated
    assert not attempt.state.activating


def test_it_rolls_one_die_when_the_suppression_token_stays() -> None:
    """Seed 004, Target units take suppression: a suppressed unit first rolls to remove the token;
    if it stays, the reactive roll uses 1 die."""
    attempt = attempt_reactive_with(UnitState(token=Token.SUPPRESSION), SQUAD, BOOK, [B], [T, S], distance=1)
    assert attempt.rally is not None
    assert attempt.dice == 1


def test_it_rolls_two_dice_once_the_suppression_token_is_removed() -> None:
    """Seed 004, Target units take suppression: a removed token no longer hampers the reaction."""
    attempt = attempt_reactive_with(
        UnitState(token=Token.SUPPRESSION), SQUAD, BOOK, [B, B], [B, T], distance=1
    )
    assert attempt.state.token is Token.UNDER_FIRE
    assert attempt.dice == 2


def test_it_does_not_roll_to_rally_for_a_bare_under_fire_token() -> None:
    """Seed 004, Target units take suppression: only a suppression token triggers the extra roll."""
    roller = DiceRoller(seed=3)
    attempt = attempt_reactive(UnitState(token=Token.UNDER_FIRE), SQUAD, BOOK, roller, distance=1)
    assert attempt.rally is None
    assert attempt.dice == 2
    assert [record.purpose for record in roller.log] == ["reactive: attempt"] * 2


def test_it_rolls_one_die_for_a_stunned_unit_and_clears_the_stun_either_way() -> None:
    """Seed 004, Cheat death / Tesla weapons: a stunned unit reacts on 1 die and loses the token."""
    for faces in ([B], [T]):
        attempt = attempt_reactive_with(UnitState(stunned=True), SQUAD, BOOK, faces, distance=1)
        assert attempt.dice == 1
        assert not attempt.state.stunned


def test_it_refuses_a_pinned_unit() -> None:
    """Seed 002, Suppression Rules: a pinned unit cannot attempt a reactive attack."""
    pinned = UnitState(rtz_level=RtzLevel.PINNED)
    assert reactive_refusal(pinned, SQUAD, RTZ, distance=1) is Refusal.PINNED
    with pytest.raises(EngineInputError):
        attempt_reactive_with(pinned, SQUAD, RTZ, [B, B], [B, B], distance=1)


def test_it_rallies_an_rtz_suppressed_unit_before_it_reacts() -> None:
    """Seed 002, Suppression Rules (rallying as usual) with seed 004: still suppressed means 1 die."""
    suppressed = UnitState(rtz_level=RtzLevel.SUPPRESSED)
    still = attempt_reactive_with(suppressed, SQUAD, RTZ, [B], [T, S], distance=1)
    assert still.dice == 1
    assert still.state.rtz_level is RtzLevel.SUPPRESSED
    cleared = attempt_reactive_with(suppressed, SQUAD, RTZ, [B, S], [B, S], distance=1)
    assert cleared.dice == 2
    assert cleared.state.rtz_level is RtzLevel.NONE


def test_it_refuses_faces_that_do_not_match_the_dice_due() -> None:
    """Seed 004, Reactive Attacks: the dice count is set by the unit's markers."""
    with pytest.raises(EngineInputError) as caught:
        attempt_reactive_with(UnitState(stunned=True), SQUAD, BOOK, [B, B], distance=1)
    assert caught.value.field == "faces"


def test_it_gives_a_pass_token_for_a_reactive_attempt_under_rtz_only() -> None:
    """Seed 002, Pass Tokens: a unit activated by a reactive attempt earns its player a pass token."""
    assert attempt_reactive_with(fresh_state(), SQUAD, RTZ, [T, S], distance=1).pass_tokens == 1
    assert attempt_reactive_with(fresh_state(), SQUAD, BOOK, [T, S], distance=1).pass_tokens == 0
    assert (
        attempt_reactive_with(
            fresh_state(), SQUAD, RuleSet.rtz(pass_tokens_rtz=False), [T, S], distance=1
        ).pass_tokens
        == 0
    )


def test_it_gives_a_pass_token_when_one_unit_activates_another_but_not_for_reactivation() -> None:
    """Seed 002, Pass Tokens: an observer activating artillery earns a token; reactivations do not."""
    assert pass_tokens_gained(RTZ, PassTokenEvent.ACTIVATED_BY_ANOTHER_UNIT) == 1
    assert pass_tokens_gained(RTZ, PassTokenEvent.REACTIVATION) == 0
    assert pass_tokens_gained(BOOK, PassTokenEvent.ACTIVATED_BY_ANOTHER_UNIT) == 0


def test_it_replays_an_attempt_from_its_seed() -> None:
    """Every die is logged with its purpose: the same seed replays the same attempt."""

    def run(seed: int) -> tuple[object, list[dict[str, object]]]:
        roller = DiceRoller(seed=seed)
        attempt = attempt_reactive(UnitState(token=Token.SUPPRESSION), SQUAD, BOOK, roller, distance=3)
        return attempt.to_dict(), roller.log_as_dicts()

    first = run(99)
    assert first == run(99)
    assert {entry["purpose"] for entry in first[1]} == {
        "reactive: rally before reacting",
        "reactive: attempt",
    }


@given(st.lists(st.sampled_from(Face), min_size=1, max_size=2))
def test_it_always_gives_exactly_one_outcome_and_more_blocs_never_worse(faces: list[Face]) -> None:
    """Seed 004, Reactive Attacks: the table is total and monotonic in [BLOC]."""
    order = list(reversed(ReactiveOutcome))  # NOTHING < ATTACK < SUSTAINED
    outcome = resolve_reactive(faces)
    better = [B if i == 0 else face for i, face in enumerate(faces)]
    assert order.index(resolve_reactive(better, BLOC_ONLY)) >= order.index(outcome)
