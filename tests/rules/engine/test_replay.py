"""Replaying a resolution from its seed, and the JSON shape of the result."""

from __future__ import annotations

import json

from rules.engine import Skill, WeaponKind, WeaponTrait, resolve_attack
from rules.engine.weapons import improvised_weapon

from .attack_builders import RTZ, attack, infantry, vehicle, weapon

REQUEST = attack(
    weapon("4/2", kind=WeaponKind.LASER, traits=[WeaponTrait.LIMITED_AMMO], ammo=2),
    weapon("2/1", count=3),
    improvised_weapon(3),
    target=infantry(
        armour=3, models=4, damage_per_model=2, in_cover=True, skills=frozenset({Skill.FIRST_STRIKE})
    ),
    attacker=infantry(armour=3, models=3),
    sustained=True,
)


def test_it_replays_an_attack_die_for_die_from_its_seed():
    """The same request, rule set and seed give the same result and the same log."""
    first = resolve_attack(request=REQUEST, ruleset=RTZ, seed=20_470)
    again = resolve_attack(request=REQUEST, ruleset=RTZ, seed=20_470)
    assert first == again
    assert first.to_dict() == again.to_dict()
    assert first.log
    assert first.seed == 20_470


def test_it_reports_a_drawn_seed_that_replays_the_attack():
    """Without a seed one is drawn and reported, and it replays the same attack."""
    first = resolve_attack(request=REQUEST, ruleset=RTZ, seed=None)
    assert resolve_attack(request=REQUEST, ruleset=RTZ, seed=first.seed) == first


def test_it_rolls_differently_with_another_seed():
    """Different seeds give different dice (over a handful of seeds)."""
    logs = {tuple(resolve_attack(request=REQUEST, ruleset=RTZ, seed=seed).log) for seed in range(5)}
    assert len(logs) > 1


def test_it_gives_a_json_ready_result_with_every_die():
    """The result, its retaliation and its log serialise to JSON as they are."""
    result = resolve_attack(request=REQUEST, ruleset=RTZ, seed=1)
    data = json.loads(json.dumps(result.to_dict()))
    assert data["seed"] == 1
    assert len(data["log"]) == len(result.log)
    assert {"purpose", "face", "success"} <= set(data["log"][0])
    assert data["ammo"][0] == {"index": 0, "name": "gun", "ammo": 1, "loaded": None}
    assert data["hits"] == sum(weapon["hits"] for weapon in data["weapons"])


def test_it_keeps_the_log_in_rolling_order_with_a_purpose_for_each_die():
    """Every die of the attack is in the log, in order, saying what it was for."""
    result = resolve_attack(request=attack(weapon("3/1"), target=vehicle(damage=9)), ruleset=RTZ, seed=5)
    assert [record.purpose for record in result.log[:3]] == ["weapons[0] hit"] * 3
    assert all(record.success is not None for record in result.log)
