"""The sector log replayed: the map as it stood at any moment, and the changes refused."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from armies.blocs import Bloc
from campaign.engine import (
    Fortification,
    SectorChange,
    SectorChangeError,
    SectorState,
    Terrain,
    check_change,
    default_map,
    replay,
)


def test_it_gives_back_the_starting_state_for_an_empty_log_without_sharing_it() -> None:
    initial = default_map().initial_state()

    state = replay(initial, [])
    state["zoo"] = SectorState(
        owner=Bloc.SSU, fortification=Fortification.NONE, value=1, terrain=Terrain.OPEN
    )

    assert replay(initial, []) == default_map().initial_state()
    assert initial["zoo"].owner is None


def test_it_applies_each_kind_of_change() -> None:
    initial = default_map().initial_state()

    state = replay(
        initial,
        [
            SectorChange("zoo", "owner", "SSU"),
            SectorChange("zoo", "fortification", "bunker"),
            SectorChange("zoo", "value", 5),
            SectorChange("zoo", "terrain", "ruins"),
            SectorChange("kolkhoz-fields", "owner", None),
        ],
    )

    assert state["zoo"] == SectorState(
        owner=Bloc.SSU, fortification=Fortification.BUNKER, value=5, terrain=Terrain.RUINS
    )
    assert state["kolkhoz-fields"].owner is None
    assert {key for key in state if state[key] != initial[key]} == {"zoo", "kolkhoz-fields"}


def test_it_applies_changes_in_order_so_the_last_one_counts() -> None:
    initial = default_map().initial_state()
    log = [
        SectorChange("central-station", "owner", Bloc.AXIS),
        SectorChange("central-station", "owner", Bloc.ALLIES),
    ]

    assert replay(initial, log)["central-station"].owner is Bloc.ALLIES
    assert replay(initial, reversed(log))["central-station"].owner is Bloc.AXIS


def test_it_shows_the_map_as_it_was_after_any_prefix_of_the_log() -> None:
    initial = default_map().initial_state()
    log_by_round = {
        1: [SectorChange("memorial-park", "owner", "Axis")],
        2: [
            SectorChange("memorial-park", "owner", "SSU"),
            SectorChange("memorial-park", "fortification", "strongpoint"),
        ],
        3: [SectorChange("memorial-park", "value", 2)],
    }

    def as_of(round_number: int) -> dict[str, SectorState]:
        entries = [
            change
            for number in sorted(log_by_round)
            if number <= round_number
            for change in log_by_round[number]
        ]
        return replay(initial, entries)

    assert as_of(0)["memorial-park"] == initial["memorial-park"]
    assert as_of(1)["memorial-park"].owner is Bloc.AXIS
    assert as_of(2)["memorial-park"] == SectorState(
        owner=Bloc.SSU, fortification=Fortification.STRONGPOINT, value=1, terrain=Terrain.PARKLAND
    )
    assert as_of(3)["memorial-park"].value == 2


@pytest.mark.parametrize(
    ("change", "code", "field"),
    [
        (SectorChange("moon", "owner", "Axis"), "unknown-sector", "changes[1].key"),
        (SectorChange("zoo", "colour", "red"), "unknown-field", "changes[1].field"),
        (SectorChange("zoo", "owner", "Soviets"), "unknown-bloc", "changes[1].owner"),
        (
            SectorChange("zoo", "fortification", "minefield"),
            "unknown-fortification",
            "changes[1].fortification",
        ),
        (SectorChange("zoo", "terrain", "swamp"), "unknown-terrain", "changes[1].terrain"),
        (SectorChange("zoo", "value", 11), "out-of-bounds", "changes[1].value"),
        (SectorChange("zoo", "value", -1), "out-of-bounds", "changes[1].value"),
        (SectorChange("zoo", "value", True), "wrong-type", "changes[1].value"),
        (SectorChange("zoo", "value", "2"), "wrong-type", "changes[1].value"),
        (SectorChange("zoo", "fortification", None), "unknown-fortification", "changes[1].fortification"),
    ],
)
def test_it_refuses_a_log_entry_it_cannot_apply_and_says_which(
    change: SectorChange, code: str, field: str
) -> None:
    log = [SectorChange("zoo", "owner", "Axis"), change]

    with pytest.raises(SectorChangeError) as caught:
        replay(default_map().initial_state(), log)

    assert (caught.value.code, caught.value.field) == (code, field)


def test_it_refuses_to_move_a_headquarters_to_another_holder() -> None:
    zmap = default_map()

    with pytest.raises(SectorChangeError) as caught:
        check_change(zmap, SectorChange("tractor-works", "owner", "Axis"))
    with pytest.raises(SectorChangeError):
        check_change(zmap, SectorChange("tractor-works", "owner", None))

    assert (caught.value.code, caught.value.field) == ("headquarters-owner", "owner")


def test_it_allows_every_other_well_formed_change() -> None:
    zmap = default_map()

    for change in [
        SectorChange("tractor-works", "owner", "SSU"),
        SectorChange("tractor-works", "fortification", "bunker"),
        SectorChange("tractor-works", "value", 0),
        SectorChange("zoo", "owner", "Allies"),
        SectorChange("zoo", "terrain", "urban"),
    ]:
        check_change(zmap, change)


@pytest.mark.parametrize(
    ("change", "code", "field"),
    [
        (SectorChange("moon", "owner", "Axis"), "unknown-sector", "key"),
        (SectorChange("zoo", "value", 99), "out-of-bounds", "value"),
        (SectorChange("zoo", "size", 3), "unknown-field", "field"),
    ],
)
def test_it_checks_a_change_before_it_is_logged(change: SectorChange, code: str, field: str) -> None:
    with pytest.raises(SectorChangeError) as caught:
        check_change(default_map(), change)

    assert (caught.value.code, caught.value.field) == (code, field)


CHANGES = st.builds(
    SectorChange,
    key=st.sampled_from(default_map().keys),
    field=st.sampled_from(["owner", "fortification", "value", "terrain"]),
    value=st.none(),
).flatmap(
    lambda change: st.builds(
        SectorChange,
        key=st.just(change.key),
        field=st.just(change.field),
        value={
            "owner": st.sampled_from([None, *(bloc.value for bloc in Bloc)]),
            "fortification": st.sampled_from([kind.value for kind in Fortification]),
            "value": st.integers(0, 10),
            "terrain": st.sampled_from([terrain.value for terrain in Terrain]),
        }[change.field],
    )
)


@given(first=st.lists(CHANGES, max_size=20), then=st.lists(CHANGES, max_size=20))
def test_it_replays_a_log_in_one_go_as_in_two_parts(
    first: list[SectorChange], then: list[SectorChange]
) -> None:
    initial = default_map().initial_state()

    assert replay(initial, first + then) == replay(replay(initial, first), then)


def test_it_takes_plain_key_field_value_tuples_as_log_entries() -> None:
    initial = default_map().initial_state()
    rows = [("zoo", "owner", "Allies"), ("zoo", "value", 3)]

    assert replay(initial, rows) == replay(initial, [SectorChange(*row) for row in rows])
    assert replay(initial, rows)["zoo"].owner is Bloc.ALLIES
