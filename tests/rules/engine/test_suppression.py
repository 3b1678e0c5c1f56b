"""Suppression: rulebook tokens (seed 004) and the RtZ three states (seed 002)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine.dice import DiceRoller, Face
from rules.engine.errors import EngineInputError
from rules.engine.ruleset import RuleSet
from rules.engine.state import RtzLevel, Token, UnitKind, UnitProfile, UnitState, fresh_state
from rules.engine.suppression import (
    RallyKind,
    apply_hit,
    apply_hit_faces,
    ceiling,
    end_activation,
    rank,
    resolve_rally,
    restrictions,
    roll_rally,
    start_activation,
    start_activation_with,
)

B, T, S = Face.BLOC, Face.TARGET, Face.SHIELD
BOOK = RuleSet.rulebook()
RTZ = RuleSet.rtz()
LIGHT = UnitProfile(UnitKind.INFANTRY, 1)
HEAVY = UnitProfile(UnitKind.INFANTRY, 3)
TANK = UnitProfile(UnitKind.VEHICLE, 4)
PLANE = UnitProfile(UnitKind.AIRCRAFT, 2)
LONE_HERO = UnitProfile(UnitKind.INFANTRY, 2, lone_hero=True)


def tokened(token: Token, stunned: bool = False) -> UnitState:
    return UnitState(token=token, stunned=stunned)


def level(value: RtzLevel, stunned: bool = False) -> UnitState:
    return UnitState(rtz_level=value, stunned=stunned)


# ---------------------------------------------------------------- rulebook: taking tokens


def test_it_gives_an_under_fire_token_for_a_first_hit() -> None:
    """Seed 004, Target units take suppression: a hit gives an under-fire token."""
    assert apply_hit_faces(fresh_state(), LIGHT, BOOK).state.token is Token.UNDER_FIRE


def test_it_upgrades_under_fire_to_suppression_on_another_hit() -> None:
    """Seed 004, Target units take suppression: a second hit replaces it with suppression."""
    assert apply_hit_faces(tokened(Token.UNDER_FIRE), LIGHT, BOOK).state.token is Token.SUPPRESSION


def test_it_never_gives_a_second_suppression_token() -> None:
    """Seed 004, Target units take suppression: a suppressed unit cannot receive another."""
    assert apply_hit_faces(tokened(Token.SUPPRESSION), TANK, BOOK).state.token is Token.SUPPRESSION


def test_it_rolls_no_dice_when_the_rulebook_suppresses() -> None:
    """Seed 004, Target units take suppression: tokens come with the hit, no roll."""
    roller = DiceRoller(seed=1)
    apply_hit(fresh_state(), LIGHT, BOOK, roller)
    assert roller.log == []
    with pytest.raises(EngineInputError) as caught:
        apply_hit_faces(fresh_state(), LIGHT, BOOK, [B, B])
    assert caught.value.field == "faces"


@pytest.mark.parametrize("ruleset", [BOOK, RTZ])
def test_it_never_suppresses_from_close_combat(ruleset: RuleSet) -> None:
    """Seed 004, Target units take suppression: close-combat attacks give no suppression."""
    roller = DiceRoller(seed=2)
    outcome = apply_hit(fresh_state(), LIGHT, ruleset, roller, close_combat=True)
    assert outcome.state == fresh_state()
    assert outcome.ignored == "close_combat"
    assert roller.log == []


@pytest.mark.parametrize("ruleset", [BOOK, RTZ])
def test_it_leaves_immune_units_alone(ruleset: RuleSet) -> None:
    """Seed 004, Mindless zombies / Superhuman: some units never take suppression."""
    immune = UnitProfile(UnitKind.INFANTRY, 1, suppression_immune=True)
    outcome = apply_hit(fresh_state(), immune, ruleset, DiceRoller(seed=3), automatic=True)
    assert outcome.state == fresh_state()
    assert outcome.ignored == "immune"


@pytest.mark.parametrize("start", [Token.NONE, Token.UNDER_FIRE])
def test_it_gives_a_suppression_token_for_an_automatically_suppressing_weapon(start: Token) -> None:
    """Seed 004, Flame weapons: a hit gives a suppression token, replacing under fire."""
    assert apply_hit_faces(tokened(start), LIGHT, BOOK, automatic=True).state.token is Token.SUPPRESSION


def test_it_waits_for_an_interrupted_activation_to_end_before_suppressing() -> None:
    """Seed 004, Target units take suppression: a unit hit by a reactive attack mid-activation
    finishes its actions and then takes the token."""
    acting = UnitState(activated=True, activating=True)
    hit = apply_hit_faces(acting, LIGHT, BOOK)
    assert hit.deferred
    assert hit.state.token is Token.NONE
    after = end_activation(hit.state, LIGHT, BOOK)
    assert after.token is Token.UNDER_FIRE
    assert not after.activating
    assert after.pending == ()


# ---------------------------------------------------------------- rulebook: shedding tokens


@pytest.mark.parametrize("start", [Token.UNDER_FIRE, Token.SUPPRESSION])
def test_it_removes_every_token_on_two_bloc(start: Token) -> None:
    """Seed 004, Target units take suppression: two [BLOC] on the activation roll clear all."""
    result = resolve_rally(tokened(start), BOOK, [B, B], RallyKind.ACTIVATION)
    assert result.after.token is Token.NONE


def test_it_removes_an_under_fire_token_on_one_bloc() -> None:
    """Seed 004, Target units take suppression: one [BLOC] removes an under-fire token."""
    assert (
        resolve_rally(tokened(Token.UNDER_FIRE), BOOK, [B, T], RallyKind.ACTIVATION).after.token is Token.NONE
    )


def test_it_turns_suppression_into_under_fire_on_one_bloc() -> None:
    """Seed 004, Target units take suppression: one [BLOC] swaps suppression for under fire."""
    result = resolve_rally(tokened(Token.SUPPRESSION), BOOK, [S, B], RallyKind.ACTIVATION)
    assert result.after.token is Token.UNDER_FIRE


@pytest.mark.parametrize("start", [Token.UNDER_FIRE, Token.SUPPRESSION])
def test_it_keeps_the_token_without_bloc(start: Token) -> None:
    """Seed 004, Target units take suppression: no [BLOC], no change."""
    assert resolve_rally(tokened(start), BOOK, [T, S], RallyKind.ACTIVATION).after.token is start


def test_it_rolls_three_dice_for_a_brave_unit() -> None:
    """Seed 004, Brave: three dice instead of two to remove tokens."""
    brave = UnitProfile(UnitKind.INFANTRY, 2, rally_dice=3)
    roller = DiceRoller(seed=5)
    result = roll_rally(tokened(Token.SUPPRESSION), brave, BOOK, roller, RallyKind.ACTIVATION)
    assert result is not None
    assert len(result.faces) == 3
    assert [record.purpose for record in roller.log] == ["suppression: rally (activation)"] * 3


def test_it_rolls_nothing_for_an_unmarked_unit_as_it_activates() -> None:
    """Seed 004, Target units take suppression: only a unit with a token rolls."""
    roller = DiceRoller(seed=6)
    start = start_activation(fresh_state(), LIGHT, BOOK, roller)
    assert start.rally is None
    assert roller.log == []
    assert start.state.activated


def test_it_clears_stunned_on_an_officers_full_rally_only() -> None:
    """Seed 004, command action RALLY: two [BLOC] remove every token, stunned included;
    the activation roll does not touch stunned."""
    state = tokened(Token.SUPPRESSION, stunned=True)
    assert resolve_rally(state, BOOK, [B, B], RallyKind.COMMAND).after.stunned is False
    assert resolve_rally(state, BOOK, [B, B], RallyKind.ACTIVATION).after.stunned is True
    assert resolve_rally(state, BOOK, [B, T], RallyKind.COMMAND).after.stunned is True


def test_it_refuses_a_self_rally_under_the_rulebook() -> None:
    """Seed 002: only RtZ lets every unit rally as a special action."""
    with pytest.raises(EngineInputError) as caught:
        resolve_rally(tokened(Token.SUPPRESSION), BOOK, [B, B], RallyKind.SPECIAL)
    assert caught.value.field == "kind"


# ---------------------------------------------------------------- rulebook: effects


def test_it_gives_under_fire_no_effect() -> None:
    """Seed 004, Target units take suppression: an under-fire token has no effect."""
    assert restrictions(tokened(Token.UNDER_FIRE), BOOK) == restrictions(fresh_state(), BOOK)


def test_it_makes_a_suppressed_unit_start_with_nothing_and_forbids_close_combat() -> None:
    """Seed 004, Target units take suppression: first action NOTHING, no CC attack but may retaliate."""
    limits = restrictions(tokened(Token.SUPPRESSION), BOOK)
    assert limits.first_action_nothing
    assert not limits.may_close_combat_attack
    assert limits.may_retaliate
    assert limits.reactive_dice == 1


def test_it_stops_a_stunned_unit_fighting_and_clears_the_stun_after_its_first_action() -> None:
    """Seed 004, Cheat death / Tesla: a stunned unit cannot fight or retaliate, does NOTHING
    first and then loses the token."""
    limits = restrictions(UnitState(stunned=True), BOOK)
    assert limits.first_action_nothing
    assert not limits.may_attack
    assert not limits.may_retaliate
    start = start_activation_with(UnitState(stunned=True), BOOK, None)
    assert start.first_action_nothing
    assert not start.state.stunned


def test_it_costs_one_action_for_suppression_and_stunned_together() -> None:
    """Seed 004, Tesla weapons: a suppressed and stunned unit loses only one action."""
    start = start_activation_with(tokened(Token.SUPPRESSION, stunned=True), BOOK, [T, S])
    assert start.first_action_nothing is True  # a single NOTHING, not two


# ---------------------------------------------------------------- RtZ: taking suppression


@pytest.mark.parametrize(
    ("faces", "expected"),
    [([T, S], RtzLevel.NONE), ([B, S], RtzLevel.SUPPRESSED), ([B, B], RtzLevel.PINNED)],
)
def test_it_climbs_one_state_per_bloc_when_hit(faces: list[Face], expected: RtzLevel) -> None:
    """Seed 002, Suppression Rules: each [BLOC] of the 2 hit dice climbs one state."""
    assert apply_hit_faces(fresh_state(), LIGHT, RTZ, faces).state.rtz_level is expected


def test_it_pins_a_suppressed_unit_on_one_more_bloc() -> None:
    """Seed 002, Suppression Rules: suppressed goes to pinned."""
    assert apply_hit_faces(level(RtzLevel.SUPPRESSED), LIGHT, RTZ, [T, B]).state.rtz_level is RtzLevel.PINNED


@pytest.mark.parametrize("profile", [HEAVY, TANK, PLANE, LONE_HERO])
def test_it_stops_at_suppressed_for_units_that_cannot_be_pinned(profile: UnitProfile) -> None:
    """Seed 002, Suppression Rules: vehicles, aircraft, class 3-4 infantry and lone heroes ignore pinned."""
    assert apply_hit_faces(fresh_state(), profile, RTZ, [B, B]).state.rtz_level is RtzLevel.SUPPRESSED
    assert ceiling(profile, RTZ) == 1


def test_it_applies_automatic_suppression_before_the_hit_roll() -> None:
    """Seed 002, Suppression Rules: an automatic suppressed result comes first, then the roll."""
    assert (
        apply_hit_faces(fresh_state(), LIGHT, RTZ, [B, T], automatic=True).state.rtz_level is RtzLevel.PINNED
    )
    assert apply_hit_faces(fresh_state(), LIGHT, RTZ, [T, T], automatic=True).state.rtz_level is (
        RtzLevel.SUPPRESSED
    )


def test_it_rolls_two_logged_dice_for_an_rtz_hit() -> None:
    """Seed 002, Suppression Rules: a hit unit rolls 2 dice, and they are audited."""
    roller = DiceRoller(seed=7)
    outcome = apply_hit(fresh_state(), LIGHT, RTZ, roller)
    assert len(outcome.faces) == 2
    assert [record.purpose for record in roller.log] == ["suppression: hit roll"] * 2
    with pytest.raises(EngineInputError):
        apply_hit_faces(fresh_state(), LIGHT, RTZ, [B])


# ---------------------------------------------------------------- RtZ: rallying


@pytest.mark.parametrize(
    ("start", "faces", "expected"),
    [
        (RtzLevel.PINNED, [B, T], RtzLevel.SUPPRESSED),
        (RtzLevel.PINNED, [B, B], RtzLevel.NONE),
        (RtzLevel.SUPPRESSED, [B, S], RtzLevel.NONE),
        (RtzLevel.PINNED, [T, S], RtzLevel.PINNED),
    ],
)
def test_it_drops_one_state_per_bloc_when_rallying(
    start: RtzLevel, faces: list[Face], expected: RtzLevel
) -> None:
    """Seed 002, Suppression Rules: each [BLOC] of the rally roll lowers the state by one."""
    assert resolve_rally(level(start), RTZ, faces, RallyKind.ACTIVATION).after.rtz_level is expected


def test_it_clears_stunned_on_a_double_bloc_rally_before_the_first_action() -> None:
    """Seed 002, Suppression Rules: two [BLOC] when rallying also remove stunned."""
    start = start_activation_with(level(RtzLevel.SUPPRESSED, stunned=True), RTZ, [B, B])
    assert start.rally is not None
    assert start.rally.stun_cleared
    assert not start.first_action_nothing


def test_it_keeps_stunned_on_a_single_bloc_rally() -> None:
    """Seed 002, Suppression Rules: only two [BLOC] clear stunned."""
    start = start_activation_with(level(RtzLevel.SUPPRESSED, stunned=True), RTZ, [B, T])
    assert start.rally is not None
    assert not start.rally.stun_cleared
    assert start.first_action_nothing  # stunned still costs the first action


def test_it_makes_a_unit_still_suppressed_after_rallying_start_with_nothing() -> None:
    """Seed 002, Suppression Rules: still suppressed or pinned after rallying: first action NOTHING."""
    assert start_activation_with(level(RtzLevel.PINNED), RTZ, [B, S]).first_action_nothing
    assert not start_activation_with(level(RtzLevel.SUPPRESSED), RTZ, [B, S]).first_action_nothing


def test_it_forbids_reactive_attacks_and_third_actions_when_pinned() -> None:
    """Seed 002, Suppression Rules: a pinned unit cannot react and loses any third action."""
    pinned = restrictions(level(RtzLevel.PINNED), RTZ)
    assert not pinned.may_attempt_reactive
    assert not pinned.may_take_third_action
    suppressed = restrictions(level(RtzLevel.SUPPRESSED), RTZ)
    assert suppressed.may_attempt_reactive
    assert suppressed.may_take_third_action


def test_it_lets_any_unit_rally_itself_as_a_special_action() -> None:
    """Seed 002, Suppression Rules: every unit may rally as a special action."""
    roller = DiceRoller(seed=8)
    result = roll_rally(level(RtzLevel.NONE, stunned=True), TANK, RTZ, roller, RallyKind.SPECIAL)
    assert result is not None
    assert len(result.faces) == 2


def test_it_demands_the_rally_roll_exactly_when_one_is_due() -> None:
    """Seed 002, Suppression Rules: a suppressed unit rallies at the start of its activation."""
    with pytest.raises(EngineInputError) as missing:
        start_activation_with(level(RtzLevel.SUPPRESSED), RTZ, None)
    assert missing.value.field == "rally_faces"
    with pytest.raises(EngineInputError):
        start_activation_with(fresh_state(), RTZ, [B, B])


def test_it_refuses_to_start_an_activation_twice() -> None:
    """Seed 004, Game Turn: one activation per unit per turn."""
    with pytest.raises(EngineInputError):
        start_activation_with(UnitState(activated=True), RTZ, None)


# ---------------------------------------------------------------- properties and replay

profiles = st.sampled_from([LIGHT, HEAVY, TANK, PLANE, LONE_HERO])
faces2 = st.lists(st.sampled_from(Face), min_size=2, max_size=2)


@given(profiles, faces2, st.booleans(), st.sampled_from(RtzLevel))
def test_it_never_lowers_suppression_on_a_hit_nor_passes_the_ceiling(
    profile: UnitProfile, faces: list[Face], automatic: bool, start: RtzLevel
) -> None:
    """Seed 002, Suppression Rules: hits only climb, and only light infantry reach pinned."""
    state = level(start) if start.rank <= ceiling(profile, RTZ) else fresh_state()
    after = apply_hit_faces(state, profile, RTZ, faces, automatic=automatic).state
    assert rank(state, RTZ) <= rank(after, RTZ) <= ceiling(profile, RTZ)


@given(
    st.sampled_from([BOOK, RTZ]), st.lists(st.sampled_from(Face), min_size=2, max_size=3), st.integers(0, 2)
)
def test_it_never_raises_suppression_by_rallying(
    ruleset: RuleSet, faces: list[Face], start_rank: int
) -> None:
    """Seeds 002 and 004: rallying only ever removes suppression."""
    state = (
        level(RtzLevel.from_rank(start_rank))
        if ruleset.suppression_rtz
        else tokened(Token.from_rank(start_rank))
    )
    after = resolve_rally(state, ruleset, faces, RallyKind.ACTIVATION).after
    assert rank(after, ruleset) <= rank(state, ruleset)


def test_it_replays_a_sequence_of_hits_and_rallies_from_its_seed() -> None:
    """Every die is logged: the same seed gives the same faces and states."""

    def play(seed: int) -> tuple[list[dict[str, object]], UnitState]:
        roller = DiceRoller(seed=seed)
        state = fresh_state()
        for _ in range(3):
            state = apply_hit(state, LIGHT, RTZ, roller).state
        state = start_activation(state, LIGHT, RTZ, roller).state
        return roller.log_as_dicts(), state

    assert play(42) == play(42)
