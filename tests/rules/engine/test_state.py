"""UnitProfile and UnitState: the unit facts and the turn state the rules change."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine.errors import EngineInputError
from rules.engine.state import (
    PendingSuppression,
    RtzLevel,
    Token,
    UnitKind,
    UnitProfile,
    UnitState,
    begin_activation,
    clear_stun,
    fresh_state,
    new_turn,
    stun,
)


def test_it_starts_a_unit_with_no_markers() -> None:
    """Seed 004, Reserve: a unit that (re)enters play is whole and unmarked."""
    state = fresh_state()
    assert (state.token, state.rtz_level, state.stunned, state.activated) == (
        Token.NONE,
        RtzLevel.NONE,
        False,
        False,
    )


@pytest.mark.parametrize(
    ("kind", "low", "high"),
    [(UnitKind.INFANTRY, 1, 4), (UnitKind.VEHICLE, 1, 7), (UnitKind.AIRCRAFT, 1, 3)],
)
def test_it_accepts_only_the_armour_classes_of_each_kind(kind: UnitKind, low: int, high: int) -> None:
    """product.md, unit classes: infantry 1-4, vehicles 1-7, aircraft 1-3."""
    UnitProfile(kind, low)
    UnitProfile(kind, high)
    for bad in (low - 1, high + 1):
        with pytest.raises(EngineInputError) as caught:
            UnitProfile(kind, bad)
        assert caught.value.field == "armour"


def test_it_refuses_a_bool_as_armour() -> None:
    """True is an int in Python but never an armour class."""
    with pytest.raises(EngineInputError):
        UnitProfile(UnitKind.INFANTRY, True)


def test_it_pins_only_light_infantry() -> None:
    """Seed 002, Suppression Rules: only infantry of class 1 and 2 can be pinned."""
    assert UnitProfile(UnitKind.INFANTRY, 1).can_be_pinned
    assert UnitProfile(UnitKind.INFANTRY, 2).can_be_pinned
    assert not UnitProfile(UnitKind.INFANTRY, 3).can_be_pinned
    assert not UnitProfile(UnitKind.VEHICLE, 1).can_be_pinned
    assert not UnitProfile(UnitKind.AIRCRAFT, 1).can_be_pinned


def test_it_never_pins_a_hero_on_its_own() -> None:
    """Seed 002, Suppression Rules: a lone hero ignores pinned; joined, it follows its unit."""
    assert not UnitProfile(UnitKind.INFANTRY, 2, lone_hero=True).can_be_pinned
    assert UnitProfile(UnitKind.INFANTRY, 2, lone_hero=False).can_be_pinned


def test_it_refuses_a_lone_hero_that_is_not_infantry() -> None:
    """Seed 004, Heroes: heroes are infantry units of one model."""
    with pytest.raises(EngineInputError) as caught:
        UnitProfile(UnitKind.VEHICLE, 2, lone_hero=True)
    assert caught.value.field == "lone_hero"


def test_it_refuses_zero_rally_dice() -> None:
    """Seed 004, Suppression: the removal roll uses 2 dice (3 with Brave), never none."""
    with pytest.raises(EngineInputError) as caught:
        UnitProfile(UnitKind.INFANTRY, 1, rally_dice=0)
    assert caught.value.field == "rally_dice"


def test_it_lets_every_unit_activate_again_in_a_new_turn() -> None:
    """Seed 004, Game Turn: each unit activates once per turn; markers outlast the turn."""
    state = UnitState(token=Token.SUPPRESSION, activated=True, stunned=True)
    after = new_turn(state)
    assert not after.activated
    assert after.token is Token.SUPPRESSION
    assert after.stunned


def test_it_refuses_a_second_activation_in_one_turn() -> None:
    """Seed 004, Game Turn: a unit that has activated cannot activate again this turn."""
    state = begin_activation(fresh_state())
    assert state.activated
    assert state.activating
    with pytest.raises(EngineInputError) as caught:
        begin_activation(state)
    assert caught.value.field == "activated"


def test_it_does_not_stack_stunned_tokens() -> None:
    """Seed 004, Stunned: a unit is stunned or not; clearing removes it."""
    state = stun(stun(fresh_state()))
    assert state.stunned
    assert not clear_stun(state).stunned


def test_it_is_immutable() -> None:
    """Every rule returns a new state so turns can be replayed."""
    with pytest.raises(dataclasses.FrozenInstanceError):
        fresh_state().stunned = True  # type: ignore[misc]


states = st.builds(
    UnitState,
    token=st.sampled_from(Token),
    rtz_level=st.sampled_from(RtzLevel),
    stunned=st.booleans(),
    activated=st.booleans(),
    activating=st.booleans(),
    pending=st.lists(
        st.builds(PendingSuppression, steps=st.integers(0, 3), automatic=st.booleans()), max_size=3
    ).map(tuple),
)


@given(states)
def test_it_round_trips_a_state_through_a_dict(state: UnitState) -> None:
    """A stored unit state reads back unchanged."""
    assert UnitState.from_dict(state.to_dict()) == state


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"token": "pinned"}, "token"),
        ({"rtz_level": "under_fire"}, "rtz_level"),
        ({"stunned": "no"}, "stunned"),
        ({"pending": "x"}, "pending"),
        ({"pending": [{"steps": -1}]}, "pending.steps"),
    ],
)
def test_it_names_the_field_of_a_bad_stored_state(data: dict[str, object], field: str) -> None:
    """Bad stored data is refused with the field named."""
    with pytest.raises(EngineInputError) as caught:
        UnitState.from_dict(data)
    assert caught.value.field == field
