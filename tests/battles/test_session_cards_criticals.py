"""The battle page's cards say what a critical hit does to the vehicle that took it (seed 004, Critical hits)."""

from __future__ import annotations

from battles.session_presenters import cards
from rules.engine.battle import legal_steps, state_to_dict, step_to_dict
from rules.engine.targets import CriticalHit
from tests.rules.engine.battle_builders import CANNON, MG, struck, vehicle_hunted, walker


def test_it_names_each_critical_hit_on_the_card_with_its_effect_in_words() -> None:
    """Seed 004, Critical hits, main weapon destroyed: the card names the weapon that can no longer fire."""
    setup = vehicle_hunted(walker("d1", "Pounder", damage=12, weapons=[CANNON, MG]))
    state = struck(setup, CriticalHit.MAIN_WEAPON_DESTROYED)
    legal = [step_to_dict(step) for step in legal_steps(setup, state)]
    shown = cards(state_to_dict(setup, state), legal, setup={"ruleset": {"name": "rulebook"}})
    card = next(card for card in shown["defender"] if card.unit["id"] == "d1")
    assert card.unit["critical_hits"] == ["Main weapon destroyed: Cannon cannot attack"]
    assert "main_weapon" not in str(card.unit["critical_hits"])
