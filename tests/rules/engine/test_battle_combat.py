"""Attacks in a battle: damage and VP, a hero's hits split by its player, a pilot's escape, reserves, dice."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from rules.engine import attack_odds, resolve_attack
from rules.engine.battle import (
    Action,
    Activate,
    Allocate,
    Attack,
    AttackConditions,
    BattleSetup,
    BattleState,
    ChooseFirst,
    EndTurn,
    Escape,
    Initiative,
    PlaceInReserve,
    Step,
    StepRefused,
    WeaponUse,
    apply,
    attack_request,
    legal_steps,
    replay,
    report_from_state,
    setup_from_dict,
)
from rules.engine.battle.combat import build_request
from rules.engine.battle.state import Phase, status
from rules.engine.dice import Face
from rules.engine.state import RtzLevel

from .battle_builders import CLAWS, PISTOL, ROCKETS, battle, hero, squad, walker

B, T, S = Face.BLOC, Face.TARGET, Face.SHIELD
FLAK = {"name": "Flak", "line": {"infantry": "8/AK", "vehicle": "8/AK"}}


def started(setup: BattleSetup, first: str = "attacker") -> BattleState:
    return replay(
        setup,
        [
            Initiative(by="attacker", attacker_faces=(B, B, B), defender_faces=(S, S, S)),
            ChooseFirst(by="attacker", first=first),
        ],
    )


def activated(
    setup: BattleSetup, unit: str = "a1", actions: tuple[Action, ...] = (Action.SUSTAINED,)
) -> BattleState:
    return apply(setup, started(setup), Activate(by="attacker", unit=unit, actions=actions))


def refusal(setup: BattleSetup, state: BattleState, step: Step) -> StepRefused:
    with pytest.raises(StepRefused) as caught:
        apply(setup, state, step)
    return caught.value


def first_seed(
    setup: BattleSetup, state: BattleState, make: Callable[[int], Step], wanted: Callable[[BattleState], bool]
) -> BattleState:
    """The state after the first seeded step (seeds 0, 1, 2...) that gives what the test needs."""
    for seed in range(500):
        after = apply(setup, state, make(seed))
        if wanted(after):
            return after
    raise AssertionError("no seed under 500 gives it")


def flak_battle(defender: list[dict[str, Any]], **options: Any) -> BattleSetup:
    return setup_from_dict(battle([squad("a1", "Flak Troopers", weapons=[FLAK], ap=40)], defender, **options))


def fire(target: str, seed: int, **options: Any) -> Attack:
    return Attack(by="attacker", unit="a1", target=target, weapons=(WeaponUse(0),), seed=seed, **options)


# -- damage, eliminations, VP ----------------------------------------------------------------


def test_it_rolls_an_attack_as_the_engine_does_and_keeps_every_die() -> None:
    """Seed 004, Attack sequence: the battle resolves an attack with the engine's own dice, kept in the log."""
    setup = flak_battle([squad("d1", "Rangers"), squad("d2", "Recon Boys")])
    state = activated(setup)
    after = apply(setup, state, fire("d1", 11))
    request, _ = build_request(
        setup,
        state,
        "a1",
        "d1",
        (WeaponUse(0),),
        AttackConditions(),
        sustained=True,
        sustained_close_combat=False,
    )
    result = resolve_attack(request=request, ruleset=setup.ruleset, seed=11)
    logged = after.log[-1].dice[: len(result.log)]
    # The same dice, each named by its weapon rather than its place in the request.
    assert [(r.face, r.success) for r in logged] == [(r.face, r.success) for r in result.log]
    assert [r.purpose for r in logged] == [r.purpose.replace("weapons[0]", "Flak") for r in result.log]
    assert after.log[-1].seed == 11
    models_left = status(setup, after, "d1").remaining
    assert models_left == (0 if result.destroyed else result.models_left)


def test_it_scores_the_ap_of_an_eliminated_unit_and_reports_the_loss() -> None:
    """Seed 004, Victory: each side scores the AP of the enemy units it eliminated."""
    setup = flak_battle([squad("d1", "Rangers", ap=35), squad("d2", "Recon Boys")])
    state = first_seed(
        setup, activated(setup), lambda seed: fire("d1", seed), lambda s: status(setup, s, "d1").eliminated
    )
    assert state.side("attacker").victory_points == 35
    assert report_from_state(setup, state)["defender"]["lost"] == ["d1"]
    refused = refusal(setup, state, Activate(by="defender", unit="d1", actions=(Action.MOVE,)))
    assert (refused.code, refused.message) == ("unit-eliminated", "Rangers have been eliminated.")


def test_it_refuses_a_target_on_the_same_side_or_off_the_table() -> None:
    """Seed 004, Attack sequence: an attack is declared against an enemy unit in play."""
    setup = flak_battle([squad("d1", "Rangers")])
    state = activated(setup)
    assert refusal(setup, state, fire("a1", 1)).code == "target-friendly"
    assert refusal(setup, state, fire("zz", 1)).code == "unknown-unit"


# -- a hero joined to a squad ----------------------------------------------------------------


def hero_battle() -> BattleSetup:
    return flak_battle(
        [squad("d1", "Rangers"), hero("d2", "Rosie", joined_to="d1", damage=3), squad("d3", "Recon Boys")]
    )


def split_waiting(setup: BattleSetup) -> BattleState:
    def wanted(state: BattleState) -> bool:
        return bool(state.pending) and sum(unsaved for _, unsaved in state.pending[0].lines) >= 2  # type: ignore[union-attr]

    return first_seed(setup, activated(setup), lambda seed: fire("d2", seed), wanted)


def test_it_lets_the_defending_player_split_the_hits_between_hero_and_squad() -> None:
    """Seed 004, Heroes: when a combined unit takes damage, its player assigns hits between squad and hero."""
    setup = hero_battle()
    state = split_waiting(setup)
    assert (
        refusal(setup, state, Activate(by="defender", unit="d3", actions=(Action.MOVE,))).code
        == "decision-waiting"
    )
    assert refusal(setup, state, Allocate(by="attacker", hero_hits=(1,), seed=1)).code == "not-your-decision"
    assert (
        refusal(setup, state, Allocate(by="defender", hero_hits=(1, 1), seed=1)).code == "allocation-invalid"
    )
    assert (
        refusal(setup, state, Allocate(by="defender", hero_hits=(99,), seed=1)).code == "allocation-invalid"
    )
    after = apply(setup, state, Allocate(by="defender", hero_hits=(1,), seed=1))
    # One automatic-kill hit on the hero takes all three of its points; the others each take a soldier.
    assert status(setup, after, "d2").eliminated
    unsaved = state.pending[0].lines[0][1]  # type: ignore[union-attr]
    assert status(setup, after, "d1").remaining == max(0, 5 - (unsaved - 1))
    squad_fell = unsaved - 1 >= 5
    assert after.side("attacker").victory_points == 15 + (20 if squad_fell else 0)


def test_it_sends_every_hit_to_the_squad_when_the_hero_takes_none() -> None:
    """Seed 004, Heroes: the player may keep the hero out of harm while the squad has soldiers."""
    setup = hero_battle()
    state = split_waiting(setup)
    after = apply(setup, state, Allocate(by="defender", hero_hits=(0,), seed=1))
    assert status(setup, after, "d2").remaining == 3
    unsaved = state.pending[0].lines[0][1]  # type: ignore[union-attr]
    assert status(setup, after, "d1").remaining == max(0, 5 - unsaved)


def test_it_offers_each_split_of_the_hits_as_a_legal_step() -> None:
    """The page offers every split in two taps: from none to all of the hits on the hero."""
    setup = hero_battle()
    state = split_waiting(setup)
    unsaved = state.pending[0].lines[0][1]  # type: ignore[union-attr]
    offered = legal_steps(setup, state)
    assert [step.hero_hits for step in offered if isinstance(step, Allocate)] == [
        (k,) for k in range(unsaved + 1)
    ]


# -- a pilot in a destroyed vehicle ----------------------------------------------------------


def pilot_battle() -> BattleSetup:
    return flak_battle(
        [
            walker("d1", "Pounder", damage=2, armour=1),
            hero("d2", "Joe", pilot_of="d1"),
            squad("d3", "Recon Boys"),
        ]
    )


def wrecked(setup: BattleSetup) -> BattleState:
    return first_seed(
        setup, activated(setup), lambda seed: fire("d1", seed), lambda s: status(setup, s, "d1").eliminated
    )


def test_it_never_lets_a_pilot_be_attacked_in_their_vehicle() -> None:
    """Seed 004, Piloting vehicles: while piloting, a hero cannot be the target of an attack."""
    setup = pilot_battle()
    assert refusal(setup, activated(setup), fire("d2", 1)).code == "pilot-not-a-target"


def test_it_makes_the_pilot_of_a_destroyed_vehicle_roll_to_escape() -> None:
    """Seed 004, Piloting vehicles: when the vehicle is destroyed its player rolls a die for the pilot."""
    setup = pilot_battle()
    state = wrecked(setup)
    assert state.pending
    assert state.pending[0].pilot == "d2"
    assert refusal(setup, state, Escape(by="defender")).code == "dice-missing"
    unharmed = apply(setup, state, Escape(by="defender", faces=(B,)))
    joe = status(setup, unharmed, "d2")
    assert (joe.remaining, joe.detached, joe.markers.activated, joe.in_play) == (3, True, True, True)
    hurt = apply(setup, state, Escape(by="defender", faces=(S,)))
    assert status(setup, hurt, "d2").remaining == 2
    # Free of the wreck, the hero can be attacked like any other.
    assert "pilot-not-a-target" not in {r.code for r in _refusals(setup, hurt, fire("d2", 1))}


def test_it_loses_a_pilot_with_no_free_square_beside_the_wreck() -> None:
    """Seed 004, Piloting vehicles: a pilot who cannot be placed next to the vehicle is destroyed."""
    setup = pilot_battle()
    state = apply(setup, wrecked(setup), Escape(by="defender", blocked=True))
    assert status(setup, state, "d2").eliminated
    assert state.side("attacker").victory_points == 30 + 15


def _refusals(setup: BattleSetup, state: BattleState, step: Step) -> list[StepRefused]:
    try:
        apply(setup, state, step)
    except StepRefused as refused:
        return [refused]
    return []


# -- reserves --------------------------------------------------------------------------------


def reserve_battle(reserves: tuple[int, int] = (0, 1)) -> BattleSetup:
    defenders = [
        squad("d1", "Rangers", models=1),
        hero("d2", "Rosie", damage=1),
        squad("d3", "Recon Boys", models=1),
    ]
    return flak_battle(defenders, reserves=reserves)


def kill(setup: BattleSetup, state: BattleState, target: str) -> BattleState:
    return first_seed(
        setup, state, lambda seed: fire(target, seed), lambda s: status(setup, s, target).eliminated
    )


def test_it_places_an_eliminated_unit_in_reserve_and_brings_it_back_whole_next_turn() -> None:
    """Seed 004, Reserve (#): an eliminated unit may go to reserve and returns, whole, in a later turn."""
    setup = reserve_battle()
    state = apply(setup, kill(setup, activated(setup), "d1"), PlaceInReserve(by="defender", unit="d1"))
    assert status(setup, state, "d1").in_reserve
    assert state.side("defender").reserve.remaining == 0
    refused = refusal(setup, state, Activate(by="defender", unit="d1", actions=(Action.MOVE,)))
    assert refused.code == "reserve-too-early"
    for unit in ("d2", "d3"):
        state = apply(setup, state, Activate(by="defender", unit=unit, actions=(Action.NOTHING,)))
    assert state.phase is Phase.TURN_OVER
    state = replay_turn_two(setup, state)
    state = apply(setup, state, Activate(by="defender", unit="d1", actions=(Action.MOVE,)))
    back = status(setup, state, "d1")
    assert (back.in_play, back.remaining, back.losses) == (True, 1, 1)
    report = report_from_state(setup, state)
    assert report["defender"]["reserves"] == ["d1"]


def replay_turn_two(setup: BattleSetup, state: BattleState) -> BattleState:
    for step in (
        EndTurn(by="attacker"),
        Initiative(by="defender", attacker_faces=(S, S, S), defender_faces=(B, B, B)),
        ChooseFirst(by="defender", first="defender"),
    ):
        state = apply(setup, state, step)
    return state


def test_it_never_places_a_hero_in_reserve() -> None:
    """Seed 004, Reserve (#): heroes can never be placed in reserve unless a rule says so."""
    setup = reserve_battle()
    state = kill(setup, activated(setup), "d2")
    refused = refusal(setup, state, PlaceInReserve(by="defender", unit="d2"))
    assert (refused.code, refused.message) == ("reserve-hero", "Rosie is a hero: heroes never go to reserve.")


def test_it_refuses_a_reserve_placement_beyond_the_mission_or_in_a_later_turn() -> None:
    """Seed 004, Reserve (#): a unit goes to reserve when it is eliminated, while placements remain."""
    setup = reserve_battle()
    state = kill(setup, activated(setup), "d1")
    assert refusal(setup, state, PlaceInReserve(by="defender", unit="d3")).code == "unit-not-eliminated"
    assert refusal(setup, state, PlaceInReserve(by="attacker", unit="a1")).code == "unit-not-eliminated"
    none_allowed = reserve_battle(reserves=(0, 0))
    assert refusal(
        none_allowed,
        kill(none_allowed, activated(none_allowed), "d1"),
        PlaceInReserve(by="defender", unit="d1"),
    ).code == ("reserve-not-allowed")
    for unit in ("d2", "d3"):
        state = apply(setup, state, Activate(by="defender", unit=unit, actions=(Action.NOTHING,)))
    state = replay_turn_two(setup, state)
    assert refusal(setup, state, PlaceInReserve(by="defender", unit="d1")).code == "reserve-too-late"


# -- suppression and ammunition --------------------------------------------------------------


def test_it_makes_a_suppressed_unit_start_with_nothing() -> None:
    """Seed 002, Suppression rules: a suppressed unit rallies on activating; still suppressed, it first does nothing."""
    setup = setup_from_dict(
        battle(
            [squad("a1", "Grenadiers", weapons=[dict(PISTOL, count=5, line={"infantry": "3/1"})])],
            [squad("d1", "Rangers")],
            rtz=True,
        )
    )
    state = first_seed(
        setup,
        activated(setup),
        lambda seed: fire("d1", seed),
        lambda s: (
            status(setup, s, "d1").markers.rtz_level is not RtzLevel.NONE and status(setup, s, "d1").in_play
        ),
    )
    refused = refusal(
        setup, state, Activate(by="defender", unit="d1", actions=(Action.MOVE, Action.ATTACK), faces=(S, S))
    )
    assert refused.code == "first-action-nothing"
    assert (
        refusal(
            setup, state, Activate(by="defender", unit="d1", actions=(Action.NOTHING, Action.ATTACK))
        ).code
        == "dice-missing"
    )
    after = apply(
        setup,
        state,
        Activate(by="defender", unit="d1", actions=(Action.NOTHING, Action.ATTACK), faces=(S, S)),
    )
    assert [record.purpose for record in after.log[-1].dice] == ["suppression: rally (activation)"] * 2


def test_it_marks_limited_ammunition_and_refuses_an_empty_weapon() -> None:
    """Seed 001, Limited ammo: each attack marks a box; with none left the weapon cannot fire."""
    setup = setup_from_dict(
        battle(
            [walker("a1", "Ludwig", weapons=[ROCKETS])],
            [squad("d1", "Rangers"), squad("d2", "Recon Boys")],
            turn_limit=3,
        )
    )
    state = apply(setup, activated(setup), fire("d1", 5))
    assert status(setup, state, "a1").ammo == (0,)
    for step in (
        Activate(by="defender", unit="d1", actions=(Action.NOTHING,)),
        Activate(by="defender", unit="d2", actions=(Action.NOTHING,)),
        EndTurn(by="defender"),
        Initiative(by="attacker", attacker_faces=(B, B, B), defender_faces=(S, S, S)),
        ChooseFirst(by="attacker", first="attacker"),
        Activate(by="attacker", unit="a1", actions=(Action.SUSTAINED,)),
    ):
        state = apply(setup, state, step)
    assert refusal(setup, state, fire("d1", 5)).code == "attack-invalid"
    assert not [step for step in legal_steps(setup, state) if isinstance(step, Attack)]


# -- dice ------------------------------------------------------------------------------------


def pistol_battle() -> BattleSetup:
    return setup_from_dict(
        battle([squad("a1", "Officer", models=1, weapons=[PISTOL])], [squad("d1", "Rangers")])
    )


def test_it_takes_the_faces_the_table_rolled_and_counts_them() -> None:
    """Entered dice: exactly the dice the rules roll, in order; too few or too many is refused."""
    setup = pistol_battle()
    state = activated(setup, actions=(Action.ATTACK,))
    shot = Attack(by="attacker", unit="a1", target="d1", weapons=(WeaponUse(0),))
    assert refusal(setup, state, shot).code == "dice-missing"
    assert refusal(setup, state, Attack(**{**shot.__dict__, "seed": 1, "faces": (S, S)})).code == "dice-both"
    assert refusal(setup, state, Attack(**{**shot.__dict__, "faces": (S,)})).code == "dice-too-few"
    assert refusal(setup, state, Attack(**{**shot.__dict__, "faces": (S, S, S)})).code == "dice-too-many"
    missed = apply(setup, state, Attack(**{**shot.__dict__, "faces": (S, T)}))
    assert [record.face for record in missed.log[-1].dice] == [S, T]
    assert status(setup, missed, "d1").remaining == 5


# -- the odds before the roll ----------------------------------------------------------------


def test_it_gives_the_request_an_attack_will_roll_for_its_exact_odds() -> None:
    """The page shows the exact odds of the attack about to be rolled: the same request the step rolls."""
    setup = flak_battle([squad("d1", "Rangers"), squad("d2", "Recon Boys")])
    state = activated(setup)
    step = Attack(by="attacker", unit="a1", target="d1", weapons=(WeaponUse(0),), seed=4)
    request = attack_request(setup, state, step)
    odds = attack_odds(request=request, ruleset=setup.ruleset)
    assert 0 < odds.p_destroyed < 1
    rolled = resolve_attack(request=request, ruleset=setup.ruleset, seed=4)
    after = apply(setup, state, step)
    assert [r.face for r in after.log[-1].dice[: len(rolled.log)]] == [r.face for r in rolled.log]
    refused = refusal(setup, state, Attack(by="attacker", unit="a1", target="a1", weapons=(WeaponUse(0),)))
    with pytest.raises(StepRefused) as caught:
        attack_request(setup, state, Attack(by="attacker", unit="a1", target="a1", weapons=(WeaponUse(0),)))
    assert caught.value.code == refused.code == "target-friendly"


def test_it_names_each_die_by_its_weapon_and_the_strike_back_by_the_defenders() -> None:
    """Every die is shown in words: the weapon that rolled it, and the strike back's as a strike back."""
    setup = setup_from_dict(
        battle(
            [squad("a1", "Gorillas", armour=3, weapons=[dict(CLAWS, count=3)], models=3)],
            [squad("d1", "Rangers"), squad("d2", "Recon Boys")],
        )
    )
    state = activated(setup, actions=(Action.ATTACK,))
    after = apply(
        setup, state, Attack(by="attacker", unit="a1", target="d1", weapons=(WeaponUse(0),), seed=3)
    )
    purposes = [record.purpose for record in after.log[-1].dice]
    assert purposes[0] == "Claws hit"
    assert any(purpose.startswith("strike back: Improvised close-combat weapon") for purpose in purposes)
    assert not any("weapons[" in purpose for purpose in purposes)


def test_it_ends_the_battle_when_a_sides_only_units_wait_in_reserve() -> None:
    """Seed 004, Victory: a side with no units left on the table loses, units waiting in reserve included."""
    setup = flak_battle([squad("d1", "Rangers", models=1)], reserves=(0, 1))
    state = apply(setup, kill(setup, activated(setup), "d1"), PlaceInReserve(by="defender", unit="d1"))
    assert state.phase is Phase.TURN_OVER
    ended = apply(setup, state, EndTurn(by="defender"))
    assert ended.ending is not None
    assert (ended.ending.reasons, ended.ending.winner) == (("elimination",), "attacker")
    assert report_from_state(setup, ended)["ending"] == "elimination"
