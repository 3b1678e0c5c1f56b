"""The bounds and the work budget leave room for every real attack of the real catalogue."""

from __future__ import annotations

import json
from typing import Any

import pytest

from armies.models import Catalogue, Unit
from rules.catalogue import folded_weapon, strike_back_weapons, unit_target, unit_weapons
from rules.engine import RuleSet, parse_attack_request
from rules.engine.budget import ODDS_WORK_BUDGET, declared_dice, odds_work
from rules.engine.plan import build_plan
from rules.engine.requests import MAX_ODDS_DICE

pytestmark = pytest.mark.django_db


def _hardest_targets(units: list[Unit]) -> list[Unit]:
    """Per class, the unit with the most damage points, and per infantry armour the largest squad."""
    chosen: dict[tuple[str, int | str], Unit] = {}
    for unit in units:
        keys: list[tuple[str, int | str]] = [(unit.unit_type, "damage")]
        if unit.unit_type == "infantry":
            keys.append(("squad", unit.armour))
        for key in keys:
            best = chosen.get(key)
            size = unit.damage if key[1] == "damage" else unit.model_count
            if best is None or size > (best.damage if key[1] == "damage" else best.model_count):
                chosen[key] = unit
    return list({unit.pk: unit for unit in chosen.values()}.values())


def _whole_attack(attacker: Unit, target: Unit) -> dict[str, Any] | None:
    """Everything the attacker has that can fire at the target, at its heaviest: sustained, salvos, full volleys."""
    shooter, aimed = unit_target(attacker), unit_target(target)
    weapons = []
    for weapon in unit_weapons(attacker):
        no_melee = "aircraft" in (aimed["unit_class"], shooter["unit_class"])
        if not weapon.can_target(aimed["unit_class"], aimed["armour"]) or (weapon.close_combat and no_melee):
            continue
        line = dict(weapon.weapon, count=weapon.default_count)
        if weapon.default_ammo is not None:
            line["ammo"] = weapon.default_ammo
        if "volley" in line["traits"]:
            line["volley"] = weapon.default_ammo
        if "salvo" in line["traits"]:
            line["fire_salvo"] = True
        weapons.append(folded_weapon(line, shooter["models"]))
    if not weapons:
        return None
    if any(weapon["close_combat"] for weapon in weapons):
        back = strike_back_weapons(target, aimed["models"], shooter)
        if back is not None:
            aimed["cc_weapons"] = back
    return {"action": "sustained_attack", "weapons": weapons, "target": aimed, "attacker": shooter}


def test_every_real_unit_attacks_the_hardest_real_targets_within_the_bounds_and_the_budget(bsdata: Catalogue):
    ruleset = RuleSet.rtz()
    units = list(bsdata.units.all())
    targets = _hardest_targets(units)
    heaviest, most_dice, attacks = 0, 0, 0
    seen: set[str] = set()
    for attacker in units:
        for target in targets:
            data = _whole_attack(attacker, target)
            key = json.dumps(data, sort_keys=True)
            if data is None or key in seen:  # the same card in several factions
                continue
            seen.add(key)
            request = parse_attack_request(data, ruleset=ruleset)
            plan = build_plan(request, ruleset)
            heaviest = max(heaviest, odds_work(request, ruleset, plan))
            most_dice = max(most_dice, declared_dice(request).total)
            attacks += 1

    assert attacks > 800
    assert most_dice <= MAX_ODDS_DICE / 2
    assert heaviest <= ODDS_WORK_BUDGET / 20
