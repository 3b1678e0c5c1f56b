"""The organiser's edits before publishing: swapping players and choosing sectors."""

from __future__ import annotations

import pytest

from campaign.engine.pairing import (
    Battle,
    Pairing,
    PairingError,
    PastRound,
    generate_pairing,
    set_sector,
    swap_players,
)
from core.errors import DomainError

from .pairing_builders import ALLIES, AXIS, players

FRONTS = {(ALLIES, AXIS): ["station", "zoo"], (AXIS, ALLIES): ["park"]}
# Allies 100 and 101 have defended, so both attack now: 100 against 200, 101 against 201 (first meetings).
HISTORY = [PastRound(((201, 100), (200, 101)))]


@pytest.fixture
def pairing() -> Pairing:
    pairing = generate_pairing(players(allies=2, axis=2), HISTORY, FRONTS, seed=0)
    assert {b.player_ids for b in pairing.battles} == {(100, 200), (101, 201)}
    return pairing


def battle_of(pairing: Pairing, player: int) -> Battle:
    return next(b for b in pairing.battles if player in b.player_ids)


def codes(battle: Battle) -> set[str]:
    return {e.code for e in battle.explanations}


def test_it_swaps_two_players_of_one_bloc_between_battles(pairing: Pairing) -> None:
    edited = swap_players(pairing, 100, 101)

    assert {b.player_ids for b in edited.battles} == {(101, 200), (100, 201)}
    for battle in edited.battles:
        assert battle.sector in FRONTS[(ALLIES, AXIS)]
        assert "organiser-swap" in codes(battle)
        assert "repeat" in codes(battle)  # they met in round 1
    assert {b.player_ids for b in pairing.battles} == {(100, 200), (101, 201)}  # the original stays


def test_it_swaps_the_roles_of_one_battle_and_moves_it_to_a_sector_the_new_attacker_can_attack(
    pairing: Pairing,
) -> None:
    edited = swap_players(pairing, 100, 200)

    battle = battle_of(edited, 100)
    assert battle.player_ids == (200, 100)
    assert (battle.attacker_bloc, battle.defender_bloc) == (AXIS, ALLIES)
    assert battle.sector == "park"


def test_it_refuses_a_swap_that_makes_a_battle_within_one_bloc(pairing: Pairing) -> None:
    with pytest.raises(PairingError) as refused:
        swap_players(pairing, 100, 201)

    assert refused.value.code == "pairing-same-bloc"
    assert refused.value.field.startswith("battles[")
    assert isinstance(refused.value, DomainError)


def test_it_swaps_a_player_who_sits_out_into_a_battle() -> None:
    pairing = generate_pairing(players(allies=2, axis=1), [], FRONTS, seed=0)
    (resting,) = pairing.bye_ids
    playing = next(p for p in (100, 101) if p != resting)

    edited = swap_players(pairing, resting, playing)

    assert edited.bye_ids == (playing,)
    assert edited.byes[0].explanation.code == "organiser-swap"
    assert resting in edited.battles[0].player_ids
    assert playing not in edited.battles[0].player_ids


@pytest.mark.parametrize(
    ("a", "b", "code", "field"),
    [
        (100, 999, "pairing-unknown-player", "b"),
        (999, 100, "pairing-unknown-player", "a"),
        (100, 100, "pairing-same-player", "b"),
    ],
)
def test_it_refuses_to_swap_unknown_or_identical_players(
    pairing: Pairing, a: int, b: int, code: str, field: str
) -> None:
    with pytest.raises(PairingError) as refused:
        swap_players(pairing, a, b)

    assert (refused.value.code, refused.value.field) == (code, field)


def test_it_sets_a_sector_the_attacker_can_attack(pairing: Pairing) -> None:
    index = pairing.battles.index(battle_of(pairing, 100))
    other = "zoo" if pairing.battles[index].sector == "station" else "station"

    edited = set_sector(pairing, index, other)

    assert edited.battles[index].sector == other
    assert edited.battles[index].no_sector_reason == ""
    assert "organiser-sector" in codes(edited.battles[index])
    assert not codes(edited.battles[index]) & {"sector", "sector-shared"}


def test_it_refuses_a_sector_the_attacker_cannot_attack(pairing: Pairing) -> None:
    with pytest.raises(PairingError) as refused:
        set_sector(pairing, 0, "park")  # only Axis can attack the park

    assert refused.value.code == "pairing-sector-not-attackable"
    assert refused.value.field == "battles[0].sector"


def test_it_clears_a_sector_with_a_reason(pairing: Pairing) -> None:
    edited = set_sector(pairing, 1, None)

    assert edited.battles[1].sector is None
    assert edited.battles[1].no_sector_reason == "cleared by the organiser"


def test_it_refuses_a_battle_the_round_does_not_have(pairing: Pairing) -> None:
    with pytest.raises(PairingError) as refused:
        set_sector(pairing, 2, "zoo")

    assert refused.value.code == "pairing-unknown-battle"
