"""The battle engine's turn (seed 004, Game turn; seed 002, Initiative and Pass tokens)."""

from __future__ import annotations

import pytest

from rules.engine.battle import (
    Action,
    Activate,
    Attack,
    BattleSetup,
    BattleState,
    ChooseFirst,
    Concede,
    EndTurn,
    Initiative,
    Pass,
    Phase,
    Reactive,
    Step,
    StepRefused,
    WeaponUse,
    apply,
    replay,
    setup_from_dict,
)
from rules.engine.battle.state import status
from rules.engine.dice import Face

from .battle_builders import CLAWS, battle, hero, squad

B, T, S = Face.BLOC, Face.TARGET, Face.SHIELD
WINS, LOSES = (B, B, B), (S, S, S)
NOTHING = ("nothing", "nothing")


def two_a_side(*, rtz: bool = False, turn_limit: int = 3) -> BattleSetup:
    return setup_from_dict(
        battle(
            [squad("a1", "Grenadiers"), squad("a2", "Laser Grenadiers")],
            [squad("d1", "Rangers"), squad("d2", "Recon Boys")],
            rtz=rtz,
            turn_limit=turn_limit,
        )
    )


def start(setup: BattleSetup, first: str = "attacker") -> BattleState:
    """The attacker wins turn 1's initiative on entered dice and sends ``first`` first."""
    return replay(
        setup,
        [
            Initiative(by="attacker", attacker_faces=WINS, defender_faces=LOSES),
            ChooseFirst(by="attacker", first=first),
        ],
    )


def act(side: str, unit: str, actions: tuple[str, ...] = NOTHING) -> Activate:
    return Activate(by=side, unit=unit, actions=tuple(Action(action) for action in actions))


def refusal(setup: BattleSetup, state: BattleState, step: Step) -> StepRefused:
    with pytest.raises(StepRefused) as caught:
        apply(setup, state, step)
    return caught.value


def play(setup: BattleSetup, state: BattleState, *steps: Step) -> BattleState:
    for step in steps:
        state = apply(setup, state, step)
    return state


def whole_turn(setup: BattleSetup, state: BattleState) -> BattleState:
    """Both sides activate their two units doing nothing, then the turn ends."""
    state = play(
        setup,
        state,
        act("attacker", "a1"),
        act("defender", "d1"),
        act("attacker", "a2"),
        act("defender", "d2"),
    )
    assert state.phase is Phase.TURN_OVER
    return apply(setup, state, EndTurn(by="defender"))


# -- initiative ------------------------------------------------------------------------------


def test_it_gives_the_initiative_to_the_side_with_more_bloc_faces() -> None:
    """Seed 004, Game turn, 1. Initiative: each side rolls 3 dice, the most [BLOC] wins."""
    setup = two_a_side()
    state = apply(
        setup,
        replay(setup, []),
        Initiative(by="defender", attacker_faces=(B, S, S), defender_faces=(B, B, T)),
    )
    assert state.phase is Phase.CHOOSE_FIRST
    assert state.initiative == "defender"
    assert [record.face for record in state.log[-1].dice] == [B, S, S, B, B, T]


def test_it_breaks_an_equal_bloc_count_on_the_second_face_and_rolls_again_on_a_full_tie() -> None:
    """Seed 004, Game turn, 1. Initiative: equal [BLOC] goes to the second face; a further tie re-rolls."""
    setup = two_a_side()
    state = replay(setup, [])
    tied = apply(setup, state, Initiative(by="attacker", attacker_faces=(B, T, S), defender_faces=(B, T, S)))
    assert tied.phase is Phase.INITIATIVE
    assert "roll again" in tied.log[-1].text
    broken = apply(setup, tied, Initiative(by="attacker", attacker_faces=(B, T, S), defender_faces=(B, S, S)))
    assert broken.initiative == "attacker"


def test_it_lets_the_rtz_attacker_win_a_tie() -> None:
    """Seed 002, Initiative: the scenario's attacker breaks ties."""
    setup = two_a_side(rtz=True)
    state = apply(
        setup,
        replay(setup, []),
        Initiative(by="attacker", attacker_faces=(B, S, S), defender_faces=(B, T, T)),
    )
    assert state.initiative == "attacker"


def test_it_gives_the_rtz_side_with_fewer_units_an_extra_die() -> None:
    """Seed 002, Initiative: the player with fewer units (a joined hero counting once) rolls one more die."""
    setup = setup_from_dict(
        battle(
            [squad("a1", "Grenadiers"), hero("a2", "Sigrid", joined_to="a1")],
            [squad("d1", "Rangers"), squad("d2", "Recon Boys")],
            rtz=True,
        )
    )
    step = Initiative(by="attacker", attacker_faces=WINS, defender_faces=LOSES)
    assert refusal(setup, replay(setup, []), step).code == "dice-too-few"
    state = apply(
        setup, replay(setup, []), Initiative(by="attacker", attacker_faces=(B, B, B, S), defender_faces=LOSES)
    )
    assert state.initiative == "attacker"


def test_it_lets_only_the_winner_choose_who_activates_first() -> None:
    """Seed 004, Game turn, 1. Initiative: the player with the initiative chooses who goes first."""
    setup = two_a_side()
    state = apply(
        setup, replay(setup, []), Initiative(by="attacker", attacker_faces=WINS, defender_faces=LOSES)
    )
    refused = refusal(setup, state, ChooseFirst(by="defender", first="defender"))
    assert refused.code == "not-initiative-winner"
    assert refused.message == "Anna won the initiative and chooses who goes first."
    chosen = apply(setup, state, ChooseFirst(by="attacker", first="defender"))
    assert chosen.to_act == "defender"


def test_it_keeps_the_turn_one_order_for_turn_two_under_rtz() -> None:
    """Seed 002, Initiative: the turn 1 order is kept in turn 2; from turn 3 initiative is rolled again."""
    setup = two_a_side(rtz=True)
    state = play(
        setup,
        start(setup, first="defender"),
        act("defender", "d1"),
        act("attacker", "a1"),
        act("defender", "d2"),
        act("attacker", "a2"),
        EndTurn(by="defender"),
    )
    assert state.turn == 2
    assert state.phase is Phase.ACTIVATIONS
    assert state.to_act == "defender"
    state = play(
        setup,
        state,
        act("defender", "d1"),
        act("attacker", "a1"),
        act("defender", "d2"),
        act("attacker", "a2"),
    )
    state = apply(setup, state, EndTurn(by="attacker"))
    assert state.turn == 3
    assert state.phase is Phase.INITIATIVE


def test_it_rolls_initiative_every_turn_in_the_rulebook() -> None:
    """Seed 004, Game turn: every turn starts with the initiative roll."""
    setup = two_a_side()
    state = whole_turn(setup, start(setup))
    assert state.phase is Phase.INITIATIVE
    assert refusal(setup, state, act("attacker", "a1")).code == "wrong-phase"


# -- activations -----------------------------------------------------------------------------


def test_it_alternates_activations() -> None:
    """Seed 004, Game turn, 2. Activations: players take turns activating one unit each."""
    setup = two_a_side()
    state = apply(setup, start(setup), act("attacker", "a1"))
    assert state.to_act == "defender"
    refused = refusal(setup, state, act("attacker", "a2"))
    assert refused.code == "not-your-activation"
    assert refused.message == "It is Boris's activation."


def test_it_refuses_a_unit_that_has_already_activated() -> None:
    """Seed 004, Game turn, 2. Activations: each unit activates once a turn."""
    setup = two_a_side()
    state = play(setup, start(setup), act("attacker", "a1"), act("defender", "d1"))
    refused = refusal(setup, state, act("attacker", "a1"))
    assert refused.code == "unit-already-activated"
    assert refused.message == "Grenadiers have already activated this turn."


def test_it_refuses_someone_elses_unit_and_impossible_declarations() -> None:
    """Seed 004, Game turn, 2. Activations: two actions, at most one move and one attack."""
    setup = two_a_side()
    state = start(setup)
    assert refusal(setup, state, act("attacker", "d1")).code == "not-your-unit"
    assert refusal(setup, state, act("attacker", "a1", ("move", "march"))).code == "actions-invalid"
    assert refusal(setup, state, act("attacker", "a1", ("sustained", "move"))).code == "actions-invalid"
    assert refusal(setup, state, act("attacker", "a1", ("attack", "attack"))).code == "actions-invalid"


def test_it_lets_a_player_pass_only_with_fewer_units_left_to_activate() -> None:
    """Seed 004, Game turn, 2. Activations: pass only with fewer units left to activate than the opponent."""
    setup = two_a_side()
    state = start(setup)
    refused = refusal(setup, state, Pass(by="attacker"))
    assert refused.code == "pass-not-allowed"
    state = play(setup, state, act("attacker", "a1"), act("defender", "d1"), act("attacker", "a2"))
    # The defender has one unit left, the attacker none: the defender may not pass, and must activate it.
    assert refusal(setup, state, Pass(by="defender")).code == "pass-not-allowed"


def test_it_counts_a_hero_and_its_squad_as_one_unit_for_passing() -> None:
    """Seed 004, Heroes: a combined unit counts once when counting units left to activate."""
    setup = setup_from_dict(
        battle(
            [squad("a1", "Grenadiers"), hero("a2", "Sigrid", joined_to="a1")],
            [squad("d1", "Rangers"), squad("d2", "Recon Boys")],
        )
    )
    state = start(setup)
    passed = apply(setup, state, Pass(by="attacker"))
    assert passed.to_act == "defender"
    # Activating the hero activates the whole combined unit.
    state = play(setup, state, act("attacker", "a2"))
    assert status(setup, state, "a1").markers.activated
    # The attacker has nothing left to activate, so the defender activates both its units in a row.
    state = play(setup, state, act("defender", "d1"))
    assert state.to_act == "defender"


def test_it_grants_an_rtz_pass_token_for_a_reactive_attempt_and_spends_it_on_a_pass() -> None:
    """Seed 002, Pass tokens: a unit activated by a reactive attempt earns its player a pass token."""
    setup = two_a_side(rtz=True)
    state = play(setup, start(setup), act("attacker", "a1", ("march",)))
    state = apply(setup, state, Reactive(by="defender", unit="d1", faces=(S, S)))
    assert state.side("defender").pass_tokens == 1
    # Nothing rolled, nothing left to do: the marching unit's activation ends by itself.
    assert state.activation is None
    state = play(setup, state, act("defender", "d2"), act("attacker", "a2"))
    assert state.phase is Phase.TURN_OVER
    # Next turn both have two units left: only the token lets the defender pass.
    state = apply(setup, state, EndTurn(by="attacker"))
    assert state.to_act == "attacker"
    state = apply(setup, state, act("attacker", "a1"))
    assert refusal(setup, state, Pass(by="attacker")).code == "not-your-activation"
    state = apply(setup, state, Pass(by="defender"))
    assert state.side("defender").pass_tokens == 0


# -- reactive attacks ------------------------------------------------------------------------


def test_it_lets_one_unit_react_once_to_an_enemy_move_and_uses_its_activation() -> None:
    """Seed 004, Reactive attacks: one unit that has not acted may try, once per enemy activation."""
    setup = two_a_side()
    state = apply(setup, start(setup), act("attacker", "a1", ("move", "attack")))
    state = apply(setup, state, Reactive(by="defender", unit="d1", faces=(B, S)))
    assert state.activation is not None
    assert state.activation.reaction is not None
    assert refusal(setup, state, Reactive(by="defender", unit="d2", faces=(B, B))).code == "reaction-used"
    # The reaction comes first: the activating unit waits for it.
    waiting = refusal(
        setup, state, Attack(by="attacker", unit="a1", target="d1", weapons=(WeaponUse(0),), seed=1)
    )
    assert waiting.code == "reaction-waiting"
    state = apply(
        setup, state, Attack(by="defender", unit="d1", target="a1", weapons=(WeaponUse(0),), seed=7)
    )
    assert status(setup, state, "d1").markers.activated


def test_it_allows_no_reaction_to_an_activation_without_a_move() -> None:
    """Seed 004, Reactive attacks: the attempt is triggered by the enemy's move."""
    setup = two_a_side()
    state = apply(setup, start(setup), act("attacker", "a1", ("sustained",)))
    assert refusal(setup, state, Reactive(by="defender", unit="d1", seed=1)).code == "reaction-not-triggered"


def test_it_allows_a_sustained_reaction_only_on_two_successes() -> None:
    """Seed 004, Reactive attacks: two [BLOC] allow a sustained attack, one a plain attack."""
    setup = two_a_side()
    state = apply(setup, start(setup), act("attacker", "a1", ("march",)))
    state = apply(setup, state, Reactive(by="defender", unit="d1", faces=(B, T)))
    step = Attack(by="defender", unit="d1", target="a1", weapons=(WeaponUse(0),), sustained=True, seed=3)
    assert refusal(setup, state, step).code == "sustained-not-allowed"


def test_it_never_reacts_with_close_combat_weapons() -> None:
    """Seed 004, Reactive attacks: range C weapons are never used in a reactive attack."""
    setup = setup_from_dict(
        battle(
            [squad("a1", "Grenadiers")],
            [squad("d1", "Gorillas", armour=3, weapons=[CLAWS]), squad("d2", "Recon Boys")],
        )
    )
    state = apply(setup, start(setup), act("attacker", "a1", ("march",)))
    state = apply(setup, state, Reactive(by="defender", unit="d1", faces=(B, S)))
    step = Attack(by="defender", unit="d1", target="a1", weapons=(WeaponUse(0),), seed=3)
    assert refusal(setup, state, step).code == "close-combat-in-reaction"


# -- the end of a turn and of the battle ----------------------------------------------------


def test_it_waits_for_every_unit_before_the_turn_ends() -> None:
    """Seed 004, Victory: the conditions are checked at the end of a turn, once every unit has acted."""
    setup = two_a_side()
    state = apply(setup, start(setup), act("attacker", "a1"))
    refused = refusal(setup, state, EndTurn(by="attacker"))
    assert (refused.code, refused.message) == (
        "turn-not-over",
        "The turn is not over: units are still to activate.",
    )
    state = whole_turn(setup, start(setup))
    assert state.turn == 2
    assert not any(found.markers.activated for found in state.units)


def test_it_ends_the_battle_at_the_turn_limit_on_victory_points() -> None:
    """Seed 004, Victory: at the turn limit, the side with more VP wins; equal VP is a draw."""
    setup = two_a_side(turn_limit=1)
    state = whole_turn(setup, start(setup))
    assert state.phase is Phase.ENDED
    assert state.ending is not None
    assert state.ending.reasons == ("turn_limit",)
    assert state.ending.draw
    assert refusal(setup, state, Initiative(by="attacker", seed=1)).code == "battle-over"


def test_it_ends_the_battle_with_a_concession() -> None:
    """Product ruling (docs/battle-reports.md): a concession ends the battle, the side that conceded loses."""
    setup = two_a_side()
    state = apply(setup, start(setup), Concede(by="defender"))
    assert state.ending is not None
    assert (state.ending.winner, state.ending.decided_by, state.ending.conceded_by) == (
        "attacker",
        "concession",
        "defender",
    )
