"""Who may attack which sector, the front line, and what holding sectors earns."""

from __future__ import annotations

from dataclasses import replace

import pytest

from armies.blocs import Bloc
from campaign.engine import (
    AttackRefusal,
    SectorState,
    ZverogradMap,
    attack_refusal,
    attackable_sectors,
    can_attack,
    default_map,
    income,
    sectors_held,
)

# The default map at the start: Axis holds the Airfield (HQ) and the Kolkhoz
# Fields, the SSU the Tractor Works (HQ) and the Workers' Settlement, the Allies
# the Port (HQ) and the Riverside Embankment; the other eight are neutral.


def held(zmap: ZverogradMap, **owners: Bloc | None) -> dict[str, SectorState]:
    state = zmap.initial_state()
    for key, owner in owners.items():
        state[key.replace("_", "-")] = replace(state[key.replace("_", "-")], owner=owner)
    return state


def test_it_lets_a_bloc_attack_an_enemy_sector_next_to_one_of_its_own() -> None:
    zmap = default_map()
    state = held(zmap, memorial_park=Bloc.SSU)

    assert zmap.are_adjacent("airfield", "memorial-park")
    assert attack_refusal(zmap, state, Bloc.AXIS, "memorial-park") is None
    assert can_attack(zmap, state, Bloc.AXIS, "memorial-park")


def test_it_refuses_an_enemy_sector_away_from_the_attackers_sectors() -> None:
    zmap = default_map()
    state = zmap.initial_state()

    assert attack_refusal(zmap, state, Bloc.AXIS, "workers-settlement") is AttackRefusal.NOT_ADJACENT
    assert not can_attack(zmap, state, Bloc.AXIS, "workers-settlement")


def test_it_refuses_a_sector_the_bloc_already_holds() -> None:
    zmap = default_map()

    assert attack_refusal(zmap, zmap.initial_state(), Bloc.AXIS, "kolkhoz-fields") is AttackRefusal.OWN_SECTOR


def test_it_never_lets_a_headquarters_be_attacked_even_from_next_door() -> None:
    zmap = default_map()
    state = held(zmap, monastery_hill=Bloc.ALLIES)

    assert zmap.are_adjacent("monastery-hill", "tractor-works")
    assert attack_refusal(zmap, state, Bloc.ALLIES, "tractor-works") is AttackRefusal.HEADQUARTERS
    assert not can_attack(zmap, state, Bloc.ALLIES, "tractor-works")


def test_it_lets_a_bloc_attack_a_neutral_sector_anywhere_by_default() -> None:
    zmap = default_map()
    state = zmap.initial_state()

    assert not any(state[key].owner is Bloc.AXIS for key in zmap.neighbours("zoo"))
    assert can_attack(zmap, state, Bloc.AXIS, "zoo")


def test_it_can_require_a_neutral_sector_to_be_next_to_the_attacker() -> None:
    zmap = default_map()
    state = zmap.initial_state()

    refusal = attack_refusal(zmap, state, Bloc.AXIS, "zoo", neutral_needs_adjacency=True)

    assert refusal is AttackRefusal.NOT_ADJACENT
    assert can_attack(zmap, state, Bloc.AXIS, "memorial-park", neutral_needs_adjacency=True)


def test_it_refuses_a_sector_the_map_does_not_have() -> None:
    zmap = default_map()

    assert attack_refusal(zmap, zmap.initial_state(), Bloc.AXIS, "moon") is AttackRefusal.UNKNOWN_SECTOR
    assert not can_attack(zmap, zmap.initial_state(), Bloc.AXIS, "moon")


def test_it_offers_the_neutral_sectors_and_the_defenders_front_line() -> None:
    zmap = default_map()
    # The SSU has pushed into Memorial Park (next to the Axis) and holds the Zoo (far from it).
    state = held(zmap, memorial_park=Bloc.SSU, zoo=Bloc.SSU)

    offered = attackable_sectors(zmap, state, Bloc.AXIS, Bloc.SSU)

    assert offered == (
        "memorial-park",
        "old-town",
        "monastery-hill",
        "central-station",
        "metro-depot",
        "brickworks",
        "hospital-quarter",
    )


def test_it_keeps_the_front_line_to_neighbours_when_neutral_sectors_need_adjacency() -> None:
    zmap = default_map()
    state = held(zmap, memorial_park=Bloc.SSU, zoo=Bloc.SSU)

    offered = attackable_sectors(zmap, state, Bloc.AXIS, Bloc.SSU, neutral_needs_adjacency=True)

    assert offered == ("memorial-park", "old-town", "metro-depot", "brickworks")


def test_it_never_offers_another_blocs_sectors_or_a_headquarters() -> None:
    zmap = default_map()
    state = held(zmap, old_town=Bloc.ALLIES, monastery_hill=Bloc.AXIS)

    offered = attackable_sectors(zmap, state, Bloc.AXIS, Bloc.SSU)

    assert "old-town" not in offered  # held by the Allies, not the defender
    assert "tractor-works" not in offered  # the SSU headquarters, next to the Monastery Hill
    assert "workers-settlement" in offered  # SSU, next to the Monastery Hill


def test_it_offers_nothing_for_a_battle_within_one_bloc() -> None:
    zmap = default_map()

    assert attackable_sectors(zmap, zmap.initial_state(), Bloc.AXIS, Bloc.AXIS) == ()


@pytest.mark.parametrize(
    ("bloc", "expected"),
    [
        (Bloc.AXIS, ("airfield", "kolkhoz-fields")),
        (Bloc.SSU, ("tractor-works", "workers-settlement")),
        (Bloc.ALLIES, ("port", "riverside")),
    ],
)
def test_it_lists_the_sectors_a_bloc_holds(bloc: Bloc, expected: tuple[str, ...]) -> None:
    zmap = default_map()

    assert sectors_held(zmap, zmap.initial_state(), bloc) == expected


def test_it_pays_a_bloc_the_value_of_what_it_holds_now() -> None:
    zmap = default_map()
    state = held(zmap, central_station=Bloc.AXIS)
    state["airfield"] = replace(state["airfield"], value=5)

    assert income(zmap, state, Bloc.AXIS) == 5 + 1 + 3
