"""Weather (seed 004, Weather): severity, onset, end and effects."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine.dice import DiceRoller, Face
from rules.engine.errors import EngineInputError
from rules.engine.weather import (
    CLEAR,
    EFFECTS,
    SEVERITY_TABLE,
    Risk,
    Severity,
    WeatherState,
    advance_weather,
    begins,
    can_see,
    capped_moves,
    current_effects,
    ends,
    roll_severity,
    roll_weather,
    severity_from_faces,
    weather_cover,
)

B, T, S = Face.BLOC, Face.TARGET, Face.SHIELD
NAMES = {"initiative_winner": "axis", "initiative_loser": "allies"}


def test_it_maps_every_pair_of_faces_to_one_severity() -> None:
    """Seed 004, Weather: two dice give severe, moderate or mild, two pairs each."""
    pairs = {tuple(sorted(p, key=lambda f: f.value)) for p in itertools.product(Face, repeat=2)}
    assert set(SEVERITY_TABLE) == pairs
    for severity in Severity:
        assert sum(1 for value in SEVERITY_TABLE.values() if value is severity) == 2


def test_it_reads_severity_the_same_in_any_order() -> None:
    """Seed 004, Weather: two dice rolled together have no order."""
    assert severity_from_faces([B, T]) is severity_from_faces([T, B])


def test_it_rolls_severity_on_two_logged_dice() -> None:
    """Seed 004, Weather: the last player to place terrain rolls 2 dice."""
    roller = DiceRoller(seed=11)
    assert roll_severity(roller) in set(Severity)
    assert [record.purpose for record in roller.log] == ["weather: severity"] * 2


@pytest.mark.parametrize(
    ("risk", "blocs_needed"),
    [(Risk.LOW, 3), (Risk.MEDIUM, 2), (Risk.HIGH, 1)],
)
def test_it_starts_weather_more_easily_at_higher_risk(risk: Risk, blocs_needed: int) -> None:
    """Seed 004, Weather: three [BLOC] always, two at medium or high risk, one at high risk."""
    for blocs in range(4):
        faces = [B] * blocs + [S] * (3 - blocs)
        assert begins(faces, risk) is (blocs >= blocs_needed)


@pytest.mark.parametrize(
    ("persisted", "blocs_needed"),
    [(1, 3), (2, 2), (3, 1), (5, 1)],
)
def test_it_ends_weather_more_easily_the_longer_it_lasts(persisted: int, blocs_needed: int) -> None:
    """Seed 004, Weather: three [BLOC] end it; two after 2 turns; one after 3 or more."""
    for blocs in range(4):
        faces = [B] * blocs + [T] * (3 - blocs)
        assert ends(faces, persisted) is (blocs >= blocs_needed)


def test_it_lets_the_initiative_winner_roll_for_onset_and_the_loser_for_the_end() -> None:
    """Seed 004, Weather: the winner rolls while it is clear, the loser while it lasts."""
    start = advance_weather(WeatherState(), [B, B, B], turn=1, risk=Risk.LOW, **NAMES)
    assert start.started
    assert start.roller_side == "axis"
    assert start.after.active
    stop = advance_weather(start.after, [B, B, B], turn=2, risk=Risk.LOW, **NAMES)
    assert stop.stopped
    assert stop.roller_side == "allies"
    assert not stop.after.active


def test_it_counts_how_long_weather_has_lasted() -> None:
    """Seed 004, Weather: at the start of turn 3 weather begun in turn 1 has lasted 2 turns."""
    state = advance_weather(WeatherState(), [B, S, S], turn=1, risk=Risk.HIGH, **NAMES).after
    assert state.persisted(3) == 2
    state = advance_weather(state, [B, T, S], turn=2, risk=Risk.HIGH, **NAMES).after
    assert state.active  # one [BLOC] after one turn is not enough
    assert advance_weather(state, [B, B, S], turn=3, risk=Risk.HIGH, **NAMES).stopped


def test_it_keeps_the_turn_weather_ends_clear() -> None:
    """Seed 004, Weather: after it ends the weather stays clear for that round; the next
    round the initiative winner rolls again."""
    active = WeatherState(active=True, began_turn=1, last_checked_turn=1)
    stopped = advance_weather(active, [B, B, B], turn=2, risk=Risk.HIGH, **NAMES).after
    with pytest.raises(EngineInputError) as caught:
        advance_weather(stopped, [B, B, B], turn=2, risk=Risk.HIGH, **NAMES)
    assert caught.value.field == "turn"
    again = advance_weather(stopped, [B, S, S], turn=3, risk=Risk.HIGH, **NAMES)
    assert again.started
    assert again.roller_side == "axis"


def test_it_keeps_the_weather_until_it_ends() -> None:
    """Seed 004, Weather: once begun, weather lasts until a roll ends it (or the battle does)."""
    active = WeatherState(active=True, began_turn=1, last_checked_turn=1)
    assert advance_weather(active, [T, S, S], turn=2, risk=Risk.LOW, **NAMES).after.active


def test_it_applies_the_severe_effects() -> None:
    """Seed 004, Severe weather effects: sight 6, cover from range 3, re-roll failed cover at 5-6,
    move 2 / march 4, aircraft leave."""
    severe = EFFECTS[Severity.SEVERE]
    assert can_see(severe, 6)
    assert not can_see(severe, 7)
    assert not weather_cover(severe, 2).cover
    assert weather_cover(severe, 3) == weather_cover(severe, 4)
    assert weather_cover(severe, 3).cover
    assert not weather_cover(severe, 4).reroll_failed_cover
    assert weather_cover(severe, 5).reroll_failed_cover
    assert weather_cover(severe, 6).reroll_failed_cover
    assert capped_moves(severe, 3, 6) == (2, 4)
    assert severe.aircraft_leave
    assert not severe.is_terrain
    assert severe.cover_ignores_weapon_rules


def test_it_applies_the_moderate_effects() -> None:
    """Seed 004, Moderate weather effects: sight 8, cover from range 5, move 3 / march 6,
    ground units attacked by aircraft in cover."""
    moderate = EFFECTS[Severity.MODERATE]
    assert can_see(moderate, 8)
    assert not can_see(moderate, 9)
    assert not weather_cover(moderate, 4).cover
    assert weather_cover(moderate, 5).cover
    assert weather_cover(moderate, 1, attacker_is_aircraft=True).cover
    assert not weather_cover(moderate, 1, attacker_is_aircraft=True, target_is_ground=False).cover
    assert capped_moves(moderate, 4, 8) == (3, 6)
    assert capped_moves(moderate, 2, 4) == (2, 4)
    assert not moderate.aircraft_leave


def test_it_gives_mild_weather_no_effect() -> None:
    """Seed 004, Mild weather effects: no effect on sight, movement or aircraft."""
    mild = EFFECTS[Severity.MILD]
    assert can_see(mild, 30)
    assert capped_moves(mild, 4, 8) == (4, 8)
    assert not weather_cover(mild, 10, attacker_is_aircraft=True).cover


def test_it_has_no_effect_while_the_weather_is_clear() -> None:
    """Seed 004, Weather: the severity applies only while weather is in effect."""
    assert current_effects(WeatherState(), Severity.SEVERE) is CLEAR
    assert (
        current_effects(WeatherState(active=True, began_turn=1), Severity.SEVERE) is EFFECTS[Severity.SEVERE]
    )


def test_it_needs_three_dice_for_the_onset_roll() -> None:
    """Seed 004, Weather: the onset and end rolls use 3 dice."""
    with pytest.raises(EngineInputError):
        begins([B, B], Risk.HIGH)


@given(st.integers(0, 2**32), st.sampled_from(Risk))
def test_it_replays_a_whole_game_of_weather_from_its_seed(seed: int, risk: Risk) -> None:
    """Every weather die is logged: the same seed replays the same weather."""

    def play() -> list[object]:
        roller = DiceRoller(seed=seed)
        state = WeatherState()
        steps = []
        for turn in range(1, 7):
            step = roll_weather(state, roller, turn=turn, risk=risk, **NAMES)
            state = step.after
            steps.append(step.to_dict())
        return [steps, roller.log_as_dicts()]

    assert play() == play()


@given(st.lists(st.sampled_from(Face), min_size=3, max_size=3))
def test_it_starts_weather_at_least_as_easily_at_higher_risk(faces: list[Face]) -> None:
    """Seed 004, Weather: higher risk never makes weather less likely to begin."""
    assert begins(faces, Risk.LOW) <= begins(faces, Risk.MEDIUM) <= begins(faces, Risk.HIGH)
