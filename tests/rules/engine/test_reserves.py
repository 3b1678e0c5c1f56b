"""Reserves (seed 004, Special rules, Reserve (#); product.md, Reserves)."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine.errors import EngineInputError
from rules.engine.reserves import (
    ReserveCandidate,
    ReserveCode,
    ReserveLedger,
    ReserveReason,
    ReserveRefusedError,
    enter_from_reserve,
    place_aircraft_after_weather,
    place_in_reserve,
    refusal,
)
from rules.engine.state import RtzLevel, Token

SQUAD = ReserveCandidate("squad-1")
OTHER = ReserveCandidate("squad-2")


def code_of(ledger: ReserveLedger, unit: ReserveCandidate, turn: int = 1) -> ReserveCode:
    with pytest.raises(ReserveRefusedError) as caught:
        place_in_reserve(ledger, unit, turn=turn)
    return caught.value.code


def test_it_places_an_eliminated_unit_while_placements_remain() -> None:
    """Seed 004, Reserve (#): each eliminated unit may go to reserve until # are placed."""
    ledger = place_in_reserve(ReserveLedger(allowed=2), SQUAD, turn=1)
    assert ledger.used == 1
    assert ledger.remaining == 1
    assert ledger.is_waiting("squad-1")


def test_it_refuses_once_every_placement_is_used() -> None:
    """Seed 004, Reserve (#): no more than # placements in the battle."""
    ledger = place_in_reserve(ReserveLedger(allowed=1), SQUAD, turn=1)
    assert code_of(ledger, OTHER) is ReserveCode.FULL


def test_it_refuses_when_the_mission_allows_no_reserve() -> None:
    """Seed 004, Reserve (#): only if the scenario allows it."""
    assert code_of(ReserveLedger(allowed=0), SQUAD) is ReserveCode.NOT_ALLOWED


def test_it_lets_the_same_unit_go_to_reserve_again() -> None:
    """Seed 004, Reserve (#): one unit can go to reserve repeatedly."""
    ledger = place_in_reserve(ReserveLedger(allowed=3), SQUAD, turn=1)
    ledger, _ = enter_from_reserve(ledger, "squad-1", turn=2)
    ledger = place_in_reserve(ledger, SQUAD, turn=3)
    assert ledger.used == 2
    assert [entry.unit_id for entry in ledger.history] == ["squad-1", "squad-1"]


def test_it_refuses_a_unit_already_waiting_in_reserve() -> None:
    """Seed 004, Reserve (#): a unit in reserve is not on the table to be eliminated again."""
    ledger = place_in_reserve(ReserveLedger(allowed=3), SQUAD, turn=1)
    assert code_of(ledger, SQUAD) is ReserveCode.ALREADY_IN_RESERVE


def test_it_never_places_a_hero_unless_a_rule_allows_it() -> None:
    """Seed 004, Reserve (#): heroes never go to reserve unless noted (e.g. Commissar Poon)."""
    hero = ReserveCandidate("koshka", is_hero=True)
    assert code_of(ReserveLedger(allowed=2), hero) is ReserveCode.HERO
    allowed = ReserveCandidate("poon", is_hero=True, hero_reserve_allowed=True)
    assert place_in_reserve(ReserveLedger(allowed=2), allowed, turn=1).used == 1


def test_it_never_places_a_strongpoint_unit() -> None:
    """Seed 004, Strongpoint units: they can never be placed in reserve."""
    unit = ReserveCandidate("bunker-crew", strongpoint_unit=True, hero_reserve_allowed=True)
    assert code_of(ReserveLedger(allowed=2), unit) is ReserveCode.STRONGPOINT_UNIT


def test_it_brings_a_unit_back_whole_with_full_ammunition() -> None:
    """Seed 004, Reserve (#): units from reserve have no damage and full ammunition."""
    ledger = place_in_reserve(ReserveLedger(allowed=1), SQUAD, turn=2)
    ledger, returning = enter_from_reserve(ledger, "squad-1", turn=3)
    assert returning.damage == 0
    assert returning.ammunition_replenished
    assert returning.state.token is Token.NONE
    assert returning.state.rtz_level is RtzLevel.NONE
    assert not returning.state.stunned
    assert returning.state.activated  # coming back is its activation
    assert not ledger.is_waiting("squad-1")
    assert ledger.used == 1  # returning does not give the placement back


def test_it_brings_units_back_only_in_a_later_turn() -> None:
    """Seed 004, Reserve (#): a unit returns in any turn after the one it was eliminated in."""
    ledger = place_in_reserve(ReserveLedger(allowed=1), SQUAD, turn=2)
    with pytest.raises(ReserveRefusedError) as caught:
        enter_from_reserve(ledger, "squad-1", turn=2)
    assert caught.value.code is ReserveCode.TOO_EARLY


def test_it_refuses_to_bring_back_a_unit_not_in_reserve() -> None:
    """Seed 004, Reserve (#): only units placed in reserve come back from it."""
    with pytest.raises(ReserveRefusedError) as caught:
        enter_from_reserve(ReserveLedger(allowed=1), "ghost", turn=2)
    assert caught.value.code is ReserveCode.NOT_IN_RESERVE


def test_it_sends_aircraft_to_reserve_after_severe_weather_without_using_a_placement() -> None:
    """Seed 004, Severe weather effects: aircraft go to reserve when it ends (our reading:
    outside the scenario's #)."""
    ledger = place_aircraft_after_weather(ReserveLedger(allowed=0), "stuka", turn=4)
    assert ledger.used == 0
    assert ledger.is_waiting("stuka")
    assert ledger.waiting[0].reason is ReserveReason.SEVERE_WEATHER


def test_it_raises_an_engine_input_error_with_a_stable_code() -> None:
    """Refusals are EngineInputErrors naming the field, with a code that survives pickling."""
    error = refusal(ReserveLedger(allowed=0), SQUAD)
    assert isinstance(error, EngineInputError)
    assert error.field == "unit"
    assert error.code is ReserveCode.NOT_ALLOWED
    copy = pickle.loads(pickle.dumps(error))  # noqa: S301 - our own object
    assert (copy.code, copy.field, copy.reason) == (error.code, error.field, error.reason)


def test_it_refuses_a_negative_allowance() -> None:
    """Seed 004, Reserve (#): # is a count of placements."""
    with pytest.raises(EngineInputError) as caught:
        ReserveLedger(allowed=-1)
    assert caught.value.field == "allowed"


def test_it_round_trips_a_ledger_through_a_dict() -> None:
    """A ledger is stored with the battle and read back unchanged."""
    ledger = place_in_reserve(ReserveLedger(allowed=2), SQUAD, turn=1)
    ledger = place_aircraft_after_weather(ledger, "stuka", turn=2)
    assert ReserveLedger.from_dict(ledger.to_dict()) == ledger


def test_it_refuses_a_stored_ledger_with_more_placements_than_allowed() -> None:
    """Seed 004, Reserve (#): stored data cannot exceed #."""
    data = {"allowed": 0, "history": [{"unit_id": "a", "turn": 1, "reason": "eliminated"}], "waiting": []}
    with pytest.raises(EngineInputError) as caught:
        ReserveLedger.from_dict(data)
    assert caught.value.field == "history"


events = st.lists(
    st.tuples(st.sampled_from(["place", "enter"]), st.sampled_from(["a", "b", "c"]), st.booleans()),
    max_size=25,
)


@given(st.integers(0, 5), events)
def test_it_never_uses_more_placements_than_the_mission_allows(
    allowed: int, script: list[tuple[str, str, bool]]
) -> None:
    """Seed 004, Reserve (#): whatever happens, placements used never exceed #."""
    ledger = ReserveLedger(allowed=allowed)
    for turn, (action, unit_id, hero) in enumerate(script, start=1):
        try:
            if action == "place":
                ledger = place_in_reserve(ledger, ReserveCandidate(unit_id, is_hero=hero), turn=turn)
            else:
                ledger, _ = enter_from_reserve(ledger, unit_id, turn=turn)
        except ReserveRefusedError:
            pass
        assert 0 <= ledger.used <= allowed
        assert len({entry.unit_id for entry in ledger.waiting}) == len(ledger.waiting)
