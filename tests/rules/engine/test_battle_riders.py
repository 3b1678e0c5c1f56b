"""Riders on one squad: a pair of Siblings heroes and a commissar, joined to it as one unit."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from rules.engine.battle import (
    Action,
    Activate,
    Allocate,
    Attack,
    BattleSetup,
    BattleState,
    ChooseFirst,
    EndTurn,
    Initiative,
    PlaceInReserve,
    Step,
    StepRefused,
    WeaponUse,
    apply,
    legal_steps,
    replay,
    report_from_state,
    setup_from_dict,
    state_to_dict,
    with_seed,
)
from rules.engine.battle.state import PendingAllocation, Phase, groups, left_to_activate, members, status
from rules.engine.dice import Face
from rules.engine.errors import EngineInputError
from rules.engine.state import RtzLevel

from .battle_builders import battle, commissar, hero, squad

B, T, S = Face.BLOC, Face.TARGET, Face.SHIELD
FLAK = {"name": "Flak", "line": {"infantry": "8/AK", "vehicle": "8/AK"}}
PEPPER = {"name": "Pepper guns", "line": {"infantry": "3/1"}, "count": 5}


def riders_setup(**options: Any) -> BattleSetup:
    """The Rangers carry Wren and Jude (Siblings) and Commissar Vera; the Recon Boys stand alone."""
    return setup_from_dict(
        battle(
            [squad("a1", "Flak Troopers", weapons=[FLAK]), squad("a2", "Grenadiers", weapons=[PEPPER])],
            [
                squad("d1", "Rangers", ap=20),
                hero("d2", "Wren", joined_to="d1", siblings=True, ap=15),
                hero("d3", "Jude", joined_to="d1", siblings=True, ap=16),
                commissar("d4", "Vera", joined_to="d1", ap=5),
                squad("d5", "Recon Boys"),
            ],
            **options,
        )
    )


def started(setup: BattleSetup, *steps: Step) -> BattleState:
    opening: list[Step] = [
        Initiative(by="attacker", attacker_faces=(B, B, B), defender_faces=(S, S, S)),
        ChooseFirst(by="attacker", first="attacker"),
    ]
    return replay(setup, [*opening, *steps])


def fire(target: str, seed: int, unit: str = "a1") -> Attack:
    return Attack(by="attacker", unit=unit, target=target, weapons=(WeaponUse(0),), seed=seed)


def until(
    setup: BattleSetup, state: BattleState, make: Callable[[int], Step], wanted: Callable[[BattleState], bool]
) -> BattleState:
    for seed in range(500):
        after = apply(setup, state, make(seed))
        if wanted(after):
            return after
    raise AssertionError("no seed under 500 gives it")


def unsaved(state: BattleState) -> int:
    pending = state.pending[0]
    assert isinstance(pending, PendingAllocation)
    return sum(hits for _, hits in pending.lines)


def flak_on_rangers(setup: BattleSetup, low: int, high: int) -> BattleState:
    """The Flak Troopers' sustained attack on the Rangers, leaving ``low`` to ``high`` unsaved hits to split."""
    state = started(setup, Activate(by="attacker", unit="a1", actions=(Action.SUSTAINED,)))
    return until(
        setup, state, lambda seed: fire("d1", seed), lambda s: bool(s.pending) and low <= unsaved(s) <= high
    )


def refusal(setup: BattleSetup, state: BattleState, step: Step) -> StepRefused:
    with pytest.raises(StepRefused) as caught:
        apply(setup, state, step)
    return caught.value


# -- the setup -------------------------------------------------------------------------------


def test_it_joins_a_pair_of_siblings_and_a_commissar_to_one_squad() -> None:
    """Seed 004, Heroes (a Siblings pair may share a unit) and Commissar (one more, not a hero, joins)."""
    setup = riders_setup()
    assert setup.riders == {"d1": ("d2", "d3", "d4")}
    assert setup.unit("d4").commissar
    assert not setup.unit("d4").hero


def _refused(*extra: dict[str, Any], squad_armour: int = 2) -> EngineInputError:
    data = battle(defender=[squad("d1", "Rangers", armour=squad_armour), *extra])
    with pytest.raises(EngineInputError) as caught:
        setup_from_dict(data)
    assert caught.value.code == "invalid-battle-setup"
    return caught.value


@pytest.mark.parametrize(
    ("riders", "field", "named"),
    [
        # Seed 004, Heroes: only 1 hero in a unit, save a pair of Siblings.
        ([hero("d2", "Wren", joined_to="d1"), hero("d3", "Jude", joined_to="d1")], "d3", "Wren"),
        (
            [hero("d2", "Wren", joined_to="d1", siblings=True), hero("d3", "Rosie", joined_to="d1")],
            "d3",
            "Wren",
        ),
        (
            [
                hero("d2", "Wren", joined_to="d1", siblings=True),
                hero("d3", "Jude", joined_to="d1", siblings=True),
                hero("d4", "Jill", joined_to="d1", siblings=True),
            ],
            "d4",
            "Rangers",
        ),
        # Seed 004, Commissar: no more than 1 commissar in a unit.
        ([commissar("d2", "Vera", joined_to="d1"), commissar("d3", "Ivan", joined_to="d1")], "d3", "Vera"),
        # Seed 004, Commissar Poon: a hero and a commissar; no other hero or commissar joins his unit.
        (
            [hero("d2", "Poon", commissar=True, joined_to="d1"), hero("d3", "Rosie", joined_to="d1")],
            "d3",
            "Poon",
        ),
        (
            [commissar("d2", "Vera", joined_to="d1"), hero("d3", "Poon", commissar=True, joined_to="d1")],
            "d2",
            "Poon",
        ),
        # Seed 004, Commissar: the same armour as the unit joined.
        ([commissar("d2", "Vera", armour=3, joined_to="d1")], "d2", "Vera"),
        # Only heroes and commissars join; and they join a squad, not one another.
        ([squad("d2", "Thugs", joined_to="d1")], "d2", "Thugs"),
        ([commissar("d2", "Vera"), commissar("d3", "Ivan", joined_to="d2")], "d3", "Ivan"),
    ],
)
def test_it_refuses_riders_the_rules_do_not_allow(
    riders: list[dict[str, Any]], field: str, named: str
) -> None:
    """Each refusal names the field of the rider at fault and, in its sentence, the unit."""
    refused = _refused(*riders)
    assert refused.field == f"defender.{field}.joined_to"
    assert named in refused.message


def test_it_lets_a_commissar_no_list_joined_fight_on_his_own() -> None:
    """A commissar left unjoined (a link the referee could not hold) is a unit of its own, not a refusal."""
    setup = setup_from_dict(battle(defender=[squad("d1", "Rangers"), commissar("d2", "Vera")]))
    assert list(groups(setup, started(setup), "defender")) == ["d1", "d2"]


# -- one unit ----------------------------------------------------------------------------------


def test_it_activates_the_squad_with_all_its_riders_and_counts_them_once() -> None:
    """Seed 004, Heroes: the combined unit activates together and counts as one for the passing rule."""
    setup = riders_setup()
    state = started(setup, Activate(by="attacker", unit="a1", actions=(Action.NOTHING, Action.NOTHING)))
    assert list(groups(setup, state, "defender")) == ["d1", "d5"]
    assert left_to_activate(setup, state, "defender") == 2
    after = apply(setup, state, Activate(by="defender", unit="d4", actions=(Action.MOVE,)))
    assert after.activation is not None
    assert after.activation.unit == "d1"
    assert all(status(setup, after, unit).markers.activated for unit in ("d1", "d2", "d3", "d4"))
    assert left_to_activate(setup, after, "defender") == 1


def test_it_fires_every_riders_weapons_with_the_squad() -> None:
    """Seed 004, Heroes and Commissar: the riders are part of the unit, so their weapons are the group's."""
    setup = riders_setup()
    state = started(setup, Activate(by="attacker", unit="a1", actions=(Action.NOTHING, Action.NOTHING)))
    state = apply(setup, state, Activate(by="defender", unit="d1", actions=(Action.SUSTAINED,)))
    attacks = [step for step in legal_steps(setup, state) if isinstance(step, Attack) and step.target == "a2"]
    # The Rangers' rifles, Wren's and Jude's pistols and Vera's pistol: four lines.
    assert [len(step.weapons) for step in attacks] == [4]


def test_it_rolls_three_dice_to_rally_a_unit_with_a_commissar() -> None:
    """Seed 004, Commissar: a unit with a commissar rolls 3 dice instead of 2 to remove suppression."""
    setup = riders_setup(rtz=True)
    state = started(setup, Activate(by="attacker", unit="a2", actions=(Action.SUSTAINED,)))
    state = until(
        setup,
        state,
        lambda seed: fire("d1", seed, unit="a2"),
        lambda s: (
            bool(s.pending)
            and unsaved(s) < 5
            and status(setup, s, "d1").markers.rtz_level is not RtzLevel.NONE
        ),
    )
    state = apply(setup, state, Allocate(by="defender", rider_hits=((0,), (0,), (0,)), seed=1))
    assert state.to_act == "defender"
    assert status(setup, state, "d1").in_play
    rally = Activate(by="defender", unit="d1", actions=(Action.NOTHING, Action.NOTHING), faces=(S, S))
    assert refusal(setup, state, rally).code == "dice-too-few"
    after = apply(setup, state, Activate(by="defender", unit="d1", actions=rally.actions, faces=(S, S, B)))
    rolled = [record for record in after.log[-1].dice if record.purpose.startswith("suppression: rally")]
    assert len(rolled) == 3


# -- the hits split among the parts ------------------------------------------------------------


def test_it_lets_the_player_split_the_hits_among_squad_heroes_and_commissar() -> None:
    """Seed 004, Heroes: when the combined unit takes damage its player assigns the hits among its parts."""
    setup = riders_setup()
    state = flak_on_rangers(setup, 3, 6)
    pending = state.pending[0]
    assert isinstance(pending, PendingAllocation)
    assert pending.riders == ("d2", "d3", "d4")
    assert state_to_dict(setup, state)["pending"][0]["riders"] == ["d2", "d3", "d4"]
    hits = unsaved(state)
    assert refusal(setup, state, Allocate(by="defender", hero_hits=(1,), seed=1)).code == "allocation-invalid"
    too_many = Allocate(by="defender", rider_hits=((hits,), (0,), (1,)), seed=1)
    assert refusal(setup, state, too_many).code == "allocation-invalid"
    after = apply(setup, state, Allocate(by="defender", rider_hits=((1,), (0,), (1,)), seed=1))
    # Each flak hit kills outright: Wren and Vera fall, Jude is untouched, the Rangers lose the rest.
    assert status(setup, after, "d2").eliminated
    assert status(setup, after, "d4").eliminated
    assert status(setup, after, "d3").remaining == 3
    assert status(setup, after, "d1").remaining == 5 - (hits - 2)
    assert after.side("attacker").victory_points == 15 + 5
    assert members(setup, after, "d1") == ("d1", "d3")
    assert "Rangers lost" in after.log[-1].text
    assert "Vera 1" in after.log[-1].text


def test_it_lands_a_hit_given_to_a_fallen_part_on_one_still_standing() -> None:
    """A hit always finds a miniature: the second hit given to a fallen commissar goes to the squad."""
    setup = riders_setup()
    state = flak_on_rangers(setup, 2, 6)
    hits = unsaved(state)
    after = apply(setup, state, Allocate(by="defender", rider_hits=((0,), (0,), (2,)), seed=1))
    assert status(setup, after, "d4").eliminated
    assert status(setup, after, "d1").remaining == 5 - (hits - 1)


def test_it_offers_a_split_to_each_rider_among_its_legal_steps() -> None:
    """The page offers, in one tap, every hit to the squad or the first hits to any one rider."""
    setup = riders_setup()
    state = flak_on_rangers(setup, 2, 6)
    offered = [step for step in legal_steps(setup, state) if isinstance(step, Allocate)]
    hits = unsaved(state)
    assert len(offered) == 1 + 3 * hits
    for rider in range(3):
        assert any(step.rider_hits[rider] == (1,) for step in offered)
    for step in offered:
        apply(setup, state, with_seed(step, 7))


# -- the squad falls -----------------------------------------------------------------------------


def fallen(setup: BattleSetup) -> BattleState:
    """Every hit on the Rangers, enough to wipe them out."""
    state = flak_on_rangers(setup, 5, 8)
    return apply(setup, state, Allocate(by="defender", rider_hits=((0,), (0,), (0,)), seed=1))


def test_it_eliminates_the_commissar_with_his_squad_and_lets_the_heroes_play_on() -> None:
    """Seed 004, Commissar (part of the unit for the rest of the game) and Heroes (played separately once
    the unit they joined is eliminated)."""
    setup = riders_setup()
    state = fallen(setup)
    assert status(setup, state, "d1").eliminated
    assert status(setup, state, "d4").eliminated
    assert list(groups(setup, state, "defender")) == ["d2", "d3", "d5"]
    assert state.side("attacker").victory_points == 20 + 5
    assert "Vera fell with Rangers." in state.log[-1].text
    report = report_from_state(setup, state)
    assert sorted(report["defender"]["lost"]) == ["d1", "d4"]


def _to_next_turn(setup: BattleSetup, state: BattleState) -> BattleState:
    """Everyone does nothing (or passes) to the end of the turn; then the next turn's initiative."""
    while state.phase is Phase.ACTIVATIONS:
        steps = legal_steps(setup, state)
        quiet = [s for s in steps if isinstance(s, Activate) and set(s.actions) == {Action.NOTHING}]
        ends = [s for s in steps if s.kind in {"end-activation", "pass"}]
        state = apply(setup, state, with_seed((quiet or ends)[0], 1))
    state = apply(setup, state, EndTurn(by="attacker"))
    state = apply(setup, state, Initiative(by="attacker", attacker_faces=(S, S, S), defender_faces=(B, B, B)))
    return apply(setup, state, ChooseFirst(by="defender", first="defender"))


def test_it_sends_the_commissar_to_reserve_with_his_squad_and_brings_him_back_whole() -> None:
    """Seed 004, Commissar: a unit returned to the game brings its commissar; one reserve placement."""
    setup = riders_setup(reserves=(1, 1))
    state = fallen(setup)
    assert not any(
        isinstance(step, PlaceInReserve) and step.unit == "d4" for step in legal_steps(setup, state)
    )
    state = apply(setup, state, PlaceInReserve(by="defender", unit="d1"))
    assert status(setup, state, "d4").in_reserve
    assert state.side("defender").reserve.remaining == 0
    assert refusal(setup, state, PlaceInReserve(by="defender", unit="d4")).code == "unit-in-reserve"
    state = _to_next_turn(setup, state)
    back = [s for s in legal_steps(setup, state) if isinstance(s, Activate) and s.unit in {"d1", "d4"}]
    assert {step.unit for step in back} == {"d1"}
    alone = refusal(setup, state, Activate(by="defender", unit="d4", actions=(Action.MOVE,)))
    assert alone.code == "reserve-with-squad"
    assert "Rangers" in alone.message
    state = apply(setup, state, Activate(by="defender", unit="d1", actions=(Action.MOVE,)))
    assert status(setup, state, "d1").remaining == 5
    assert status(setup, state, "d4").remaining == 1
    assert members(setup, state, "d1") == ("d1", "d4")
    assert status(setup, state, "d4").markers.activated
    assert report_from_state(setup, state)["defender"]["reserves"] == ["d1"]


def test_it_never_sends_a_commissar_to_reserve_on_his_own() -> None:
    """Seed 004, Commissar: he returns with his unit; placing him alone is refused with a sentence."""
    setup = riders_setup()
    state = flak_on_rangers(setup, 1, 6)
    state = apply(setup, state, Allocate(by="defender", rider_hits=((0,), (0,), (1,)), seed=1))
    assert status(setup, state, "d4").eliminated
    assert status(setup, state, "d1").in_play
    refused = refusal(setup, state, PlaceInReserve(by="defender", unit="d4"))
    assert refused.code == "reserve-with-squad"
    assert "Rangers" in refused.message
