"""The work budget: exact odds and rolls too big to answer quickly are refused before they start."""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rules.engine import EngineInputError, attack_odds, parse_attack_request, resolve_attack
from rules.engine.budget import (
    ODDS_WORK_BUDGET,
    _damage_per_hit,
    _spec,
    check_odds_work,
    declared_dice,
    odds_work,
)
from rules.engine.distributions import planned
from rules.engine.plan import build_plan
from rules.engine.requests import MAX_COUNT, MAX_ODDS_DICE, MAX_RESOLVE_DICE, TOO_LARGE

from .attack_builders import RTZ

SQUAD = {"unit_class": "infantry", "armour": 2, "models": MAX_COUNT}
ONE_SOLDIER = {"unit_class": "infantry", "armour": 2, "models": 1}
TANK = {"unit_class": "vehicle", "armour": 1, "damage_per_model": 24, "skills": ["damage_resilient"]}


def attack(*weapons: dict[str, Any], target: dict[str, Any] = ONE_SOLDIER, **extra: Any) -> Any:
    data = {"weapons": list(weapons), "target": target, "attacker": SQUAD, **extra}
    return parse_attack_request(data, ruleset=RTZ)


def line(cell: str, count: int = 1, **options: Any) -> dict[str, Any]:
    return {"name": "Gun", "line": {"infantry": cell, "vehicle": cell}, "count": count, **options}


def refused(action: Any) -> EngineInputError:
    with pytest.raises(EngineInputError) as caught:
        action()
    assert caught.value.code == TOO_LARGE
    return caught.value


def test_exact_odds_take_the_most_dice_there_are_at_the_limit():
    request = attack(line(f"{MAX_ODDS_DICE // 3}/1", count=3))

    odds = attack_odds(request=request, ruleset=RTZ)

    assert len(odds.hits.probabilities) == MAX_ODDS_DICE + 1


def test_one_die_over_the_limit_is_refused_naming_the_count_and_the_limit_and_what_to_do():
    request = attack(line(f"{MAX_ODDS_DICE // 3}/1", count=3), line("1/1"))

    error = refused(lambda: attack_odds(request=request, ruleset=RTZ))

    assert error.field == "weapons"
    assert f"at most {MAX_ODDS_DICE}" in error.message
    assert "resolve" in error.message
    assert "split the attack" in error.message


def test_a_line_over_the_limit_on_its_own_names_its_count():
    request = attack(line("40/1", count=4))

    error = refused(lambda: attack_odds(request=request, ruleset=RTZ))

    assert error.field == "weapons[0].count"
    assert "160 in all" in error.message


def test_the_most_dice_the_bounds_allow_are_refused_at_once():
    blasts = line("BBBB/1", count=MAX_COUNT, traits=["salvo"], fire_salvo=True)
    target = {"unit_class": "infantry", "armour": 2, "models": MAX_COUNT}

    request = attack(*([blasts] * 10), target=target)

    assert declared_dice(request).total == 8000
    refused(lambda: attack_odds(request=request, ruleset=RTZ))
    refused(lambda: resolve_attack(request=request, ruleset=RTZ, seed=1))


def test_the_strike_back_counts_its_dice_too():
    club = {"name": "Club", "line": {"infantry": "40/1"}, "close_combat": True}
    target = {**SQUAD, "cc_weapons": [{**club, "count": 4}]}

    request = attack({**club, "count": 1}, target=target)

    error = refused(lambda: attack_odds(request=request, ruleset=RTZ))
    assert error.field == "target.cc_weapons[0].count"


def test_a_roll_takes_more_dice_than_the_exact_odds_and_no_more_than_its_limit():
    at_limit = attack(*[line("40/1", count=3)] * 2)
    over = attack(*[line("40/1", count=3)] * 2, line("1/1"))

    result = resolve_attack(request=at_limit, ruleset=RTZ, seed=5)
    error = refused(lambda: resolve_attack(request=over, ruleset=RTZ, seed=5))

    assert sum(weapon.dice for weapon in result.weapons) == MAX_RESOLVE_DICE
    assert f"at most {MAX_RESOLVE_DICE}" in error.message
    assert error.field == "weapons"


def test_an_attack_within_the_dice_but_too_much_work_is_refused_naming_the_budget():
    """A 20-dice laser doing 16 per hit into a 24-point damage-resilient vehicle: too many exact states."""
    request = attack(line("20/16", kind="laser"), target=TANK)

    error = refused(lambda: attack_odds(request=request, ruleset=RTZ))

    assert error.field == "weapons[0].line"
    assert f"{ODDS_WORK_BUDGET:,}" in error.message
    assert "resolve" in error.message


def test_the_heaviest_real_sized_attacks_fit_the_budget_with_room_to_spare():
    """The largest real line (20 dice), a full squad's fire, a 4-rocket volley of 10 dice each."""
    laser = line("20/1", kind="laser")
    volley = line("10/2", traits=["volley"], ammo=4, volley=4)
    requests = [
        attack(laser, target={**TANK, "damage_per_model": 11}, action="sustained_attack"),
        attack(line("7/1", count=5), volley, line("2/3"), target={**SQUAD, "models": 5}),
    ]
    for request in requests:
        assert odds_work(request, RTZ, build_plan(request, RTZ)) < ODDS_WORK_BUDGET / 20


ATTACKS = st.builds(
    lambda dice, damage, count, kind, dpm, resilient: (
        line(f"{dice}/{damage}", count=count, kind=kind),
        {**TANK, "damage_per_model": dpm, "skills": ["damage_resilient"] if resilient else []},
    ),
    st.integers(0, 12),
    st.sampled_from(["1", "3", "8", "AK"]),
    st.integers(1, MAX_COUNT - 1),
    st.sampled_from(["standard", "laser", "sniper", "tesla"]),
    st.integers(1, 24),
    st.booleans(),
)


@settings(max_examples=80, deadline=None)
@given(ATTACKS)
def test_more_dice_never_lower_the_estimate(case):
    """Otherwise a bigger attack could slip under the budget that refuses a smaller one.

    Within one way of computing: where a distribution is worked out whole, more
    dice always mean more work. Past ``WHOLE_LIMIT`` entries the program
    computes a truncated distribution instead, which can be smaller for more
    dice, so the real work drops too (``test_a_truncated_distribution_can_be_less_work``).
    """
    weapon, target = case
    request = attack(weapon, target=target)
    more = replace(request, weapons=(replace(request.weapons[0], count=request.weapons[0].count + 1),))
    assume(_computed_whole(more) and _computed_whole(request))

    assert odds_work(more, RTZ, build_plan(more, RTZ)) >= odds_work(request, RTZ, build_plan(request, RTZ))


def _computed_whole(request: Any) -> bool:
    plan = build_plan(request, RTZ)
    return not planned([_spec(w, _damage_per_hit(w)) for w in plan.weapons]).tail


def test_a_truncated_distribution_can_be_less_work_and_the_estimate_follows_it():
    """Found by hypothesis: nine 5/8 guns into a resilient one-point vehicle cost more than ten.

    Nine guns' damage (45 dice of up to 8) is computed whole, 361 entries; ten
    guns' passes the whole limit and is truncated where its tail is negligible,
    269 entries: less real work, and a smaller estimate with it.
    """
    target = {**TANK, "damage_per_model": 1}
    nine, ten = (attack(line("5/8", count=count), target=target) for count in (9, 10))
    sizes = [
        planned([_spec(w, _damage_per_hit(w)) for w in build_plan(r, RTZ).weapons]).size for r in (nine, ten)
    ]

    assert sizes == [361, 269]
    assert odds_work(ten, RTZ, build_plan(ten, RTZ)) < odds_work(nine, RTZ, build_plan(nine, RTZ))


def test_the_check_runs_on_estimates_alone():
    """The refusal of a huge attack must not depend on running any of it (it would never finish)."""
    request = attack(*[line("12/16", kind="laser")] * 10, target=TANK)

    error = refused(lambda: check_odds_work(request, RTZ, build_plan(request, RTZ)))

    assert error.field == "weapons"


def test_the_exact_program_and_the_strike_back_import_one_way():
    """exact <- strikeback <- odds: neither of the first two imports the ones after it."""
    engine = Path(__file__).resolve().parents[3] / "rules" / "engine"

    def imported(module: str) -> set[str]:
        tree = ast.parse((engine / f"{module}.py").read_text())
        return {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}

    assert not {"rules.engine.odds", "rules.engine.strikeback"} & imported("exact")
    assert "rules.engine.odds" not in imported("strikeback")
    assert {"rules.engine.exact", "rules.engine.strikeback"} <= imported("odds")
