"""A damaged targeting system and the strike back (seed 004, Critical hits and Close combat).

Seed 004: "Vehicle must re-roll all successful hits in its initial dice roll for an ATTACK action."
A strike back is the target's retaliatory close-combat attack, not an ATTACK action of its own, so a
vehicle with a damaged targeting system strikes back with its hits as rolled; its own attacks still
re-roll them.
"""

from __future__ import annotations

from dataclasses import replace

from rules.engine import AttackRequest, attack_odds
from rules.engine.battle import (
    Action,
    Activate,
    Attack,
    ChooseFirst,
    Initiative,
    WeaponUse,
    apply,
    replay,
    setup_from_dict,
)
from rules.engine.battle.state import with_unit
from rules.engine.closecombat import retaliation_request
from rules.engine.dice import Face
from rules.engine.plan import build_plan
from rules.engine.targets import CriticalHit

from .attack_builders import RULEBOOK, attack, infantry, vehicle, weapon
from .battle_builders import CLAWS, battle, squad, walker

BLIND = frozenset({CriticalHit.TARGETING_SYSTEM_DAMAGED})
FORCED = "forced re-roll of a hit"


def brawl(criticals: frozenset[CriticalHit]) -> AttackRequest:
    """Soldiers with claws attack a walker with claws of its own (it strikes back)."""
    return attack(
        weapon("2/1", close_combat=True, count=3),
        target=vehicle(
            armour=1, damage=5, critical_hits=criticals, cc_weapons=(weapon("2/1", close_combat=True),)
        ),
        attacker=infantry(armour=1, models=3),
    )


def test_it_gives_the_strike_back_of_a_vehicle_with_a_damaged_targeting_system_no_forced_reroll() -> None:
    back = retaliation_request(brawl(BLIND), 1)

    assert back is not None
    assert not any(line.reroll_hits for line in build_plan(back, RULEBOOK).weapons)


def test_it_gives_the_same_strike_back_odds_with_or_without_the_damaged_targeting_system() -> None:
    blind = attack_odds(request=brawl(BLIND), ruleset=RULEBOOK).strike_back
    healthy = attack_odds(request=brawl(frozenset()), ruleset=RULEBOOK).strike_back

    assert blind is not None
    assert healthy is not None
    assert blind.models_removed.probabilities == healthy.models_removed.probabilities


def test_it_still_rerolls_the_hits_of_the_vehicles_own_attack() -> None:
    request = brawl(BLIND)
    own = replace(
        request, target=request.attacker, attacker=request.target, weapons=request.target.cc_weapons
    )

    assert all(line.reroll_hits for line in build_plan(own, RULEBOOK).weapons)


def test_it_rolls_a_battles_strike_back_without_the_forced_reroll() -> None:
    """In a battle: the Grenadiers charge the Pounder, whose targeting system is damaged; its strike back
    is logged with no forced re-roll, whatever the dice."""
    setup = setup_from_dict(
        battle(
            [squad("a1", "Grenadiers", models=5, weapons=[dict(CLAWS, count=5)])],
            [walker("d1", "Pounder", armour=1, damage=12, weapons=[CLAWS])],
        )
    )
    opening = replay(
        setup,
        [
            Initiative(by="attacker", attacker_faces=(Face.BLOC,) * 3, defender_faces=(Face.SHIELD,) * 3),
            ChooseFirst(by="attacker", first="attacker"),
            Activate(by="attacker", unit="a1", actions=(Action.ATTACK,)),
        ],
    )
    opening = with_unit(setup, opening, "d1", critical_hits=BLIND)
    struck_back = 0
    for seed in range(40):
        after = apply(
            setup, opening, Attack(by="attacker", unit="a1", target="d1", weapons=(WeaponUse(0),), seed=seed)
        )
        dice = after.log[-1].dice
        back = [die for die in dice if die.purpose.startswith("strike back")]
        struck_back += bool(back)
        assert not [die for die in back if FORCED in die.purpose]
    assert struck_back
