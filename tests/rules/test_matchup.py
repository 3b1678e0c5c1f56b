"""The matchup sheet's pure part (rules.matchup): the exact engine's numbers, the best weapon, the budget."""

from __future__ import annotations

import time
from typing import Any

import pytest

from rules.engine import EngineInputError, RuleSet, attack_odds, parse_attack_request
from rules.matchup import (
    MATCHUP_WORK_BUDGET,
    MAX_UNITS_PER_SIDE,
    MatchupUnit,
    matchup_check,
    matchup_sheet,
    matchup_work,
)

RIFLE = {"name": "Rifle", "kind": "standard", "line": {"infantry": "2/1", "vehicle": "1/1"}, "count": 5}
LMG = {"name": "Light MG", "kind": "standard", "line": {"infantry": "4/1"}, "count": 1}
CANNON = {"name": "Cannon", "kind": "standard", "line": {"vehicle": "3/3", "infantry": "1/1"}, "count": 1}
SQUAD = {"unit_class": "infantry", "armour": 1, "models": 5, "damage_per_model": 1}
WALKER = {"unit_class": "vehicle", "armour": 2, "models": 1, "damage_per_model": 4}
PLANE = {"unit_class": "aircraft", "armour": 1, "models": 1, "damage_per_model": 3}


def unit(name: str, target: dict[str, Any], *weapons: dict[str, Any]) -> MatchupUnit:
    return MatchupUnit(name=name, target=target, weapons=tuple(weapons))


def odds(weapon: dict[str, Any], target: dict[str, Any]) -> Any:
    ruleset = RuleSet.rtz()
    request = parse_attack_request({"weapons": [weapon], "target": target}, ruleset=ruleset)
    return attack_odds(request=request, ruleset=ruleset)


@pytest.fixture
def sides() -> dict[str, list[MatchupUnit]]:
    return {
        "attacker": [unit("Rifles", SQUAD, RIFLE, LMG), unit("Walker", WALKER, CANNON)],
        "defender": [
            unit("Marines", SQUAD, RIFLE),
            unit("Tank", WALKER, CANNON),
            unit("Plane", PLANE, RIFLE),
        ],
    }


def test_it_gives_the_exact_engines_numbers_in_the_open_and_in_cover(sides):
    sheet = matchup_sheet(sides, RuleSet.rtz())

    walker_on_tank = sheet["firing"]["attacker"][1]["cells"][1]
    in_open, in_cover = odds(CANNON, WALKER), odds(CANNON, {**WALKER, "in_cover": True})
    assert walker_on_tank["weapon"] == "Cannon"
    assert walker_on_tank["open"] == {
        "p_destroyed": float(in_open.p_destroyed),
        "expected_damage": float(in_open.damage_removed.expected),
    }
    assert walker_on_tank["cover"] == {
        "p_destroyed": float(in_cover.p_destroyed),
        "expected_damage": float(in_cover.damage_removed.expected),
    }
    assert walker_on_tank["cover"]["expected_damage"] < walker_on_tank["open"]["expected_damage"]


def test_it_picks_the_weapon_most_likely_to_destroy_the_target(sides):
    sheet = matchup_sheet(sides, RuleSet.rtz())

    rifles_on_marines = sheet["firing"]["attacker"][0]["cells"][0]
    best = max(
        (RIFLE, LMG), key=lambda w: (odds(w, SQUAD).p_destroyed, odds(w, SQUAD).damage_removed.expected)
    )
    assert rifles_on_marines["weapon"] == best["name"]
    assert rifles_on_marines["open"]["p_destroyed"] == float(odds(best, SQUAD).p_destroyed)


def test_it_says_when_no_weapon_reaches_a_unit_and_gives_no_cover_to_aircraft(sides):
    sheet = matchup_sheet(sides, RuleSet.rtz())

    walker_on_plane = sheet["firing"]["attacker"][1]["cells"][2]
    rifles_on_plane = sheet["firing"]["attacker"][0]["cells"][2]
    assert walker_on_plane == {"weapon": None, "open": None, "cover": None}
    assert rifles_on_plane["weapon"] is None  # neither the rifle nor the MG has an aircraft line here
    tank_on_rifles = sheet["firing"]["defender"][1]["cells"][0]
    assert tank_on_rifles["weapon"] == "Cannon"
    assert sheet["units"] == {"attacker": ["Rifles", "Walker"], "defender": ["Marines", "Tank", "Plane"]}


def test_it_works_out_each_pair_of_profiles_once_and_tells_its_progress():
    squads = [unit(f"Squad {i}", SQUAD, RIFLE) for i in range(1, 5)]
    told: list[tuple[int, ...]] = []
    sides = {"attacker": squads, "defender": squads[:2]}

    sheet = matchup_sheet(sides, RuleSet.rtz(), progress=lambda *done: told.append(done))

    assert told == [(1, 2), (2, 2)]  # one profile each way
    assert len(sheet["firing"]["attacker"]) == 4
    assert all(len(row["cells"]) == 2 for row in sheet["firing"]["attacker"])
    assert sheet["firing"]["attacker"][3]["cells"][1] == sheet["firing"]["attacker"][0]["cells"][0]


def test_it_refuses_a_list_with_too_many_units_before_any_work():
    crowd = [unit(f"Squad {i}", SQUAD, RIFLE) for i in range(MAX_UNITS_PER_SIDE + 1)]

    with pytest.raises(EngineInputError) as refused:
        matchup_check({"attacker": crowd, "defender": crowd[:1]}, RuleSet.rtz())

    assert refused.value.code == "too-large"
    assert refused.value.field == "attacker.units"


def test_it_refuses_lists_whose_odds_together_are_over_the_budget_without_working_them_out():
    lasers = tuple({"name": f"Laser {i}", "kind": "laser", "line": {"vehicle": "40/4"}} for i in range(10))
    tanks = [unit(f"Tank {i}", {**WALKER, "armour": i % 7 + 1, "damage_per_model": 24 - i // 7}, *lasers)
             for i in range(40)]  # fmt: skip
    sides = {"attacker": tanks, "defender": tanks}

    started = time.perf_counter()
    with pytest.raises(EngineInputError) as refused:
        matchup_check(sides, RuleSet.rtz())

    assert time.perf_counter() - started < 5  # sized, not worked out (that would take minutes)
    assert matchup_work(sides, RuleSet.rtz()) > MATCHUP_WORK_BUDGET
    assert refused.value.code == "too-large"
    assert "more exact odds than a matchup sheet may work out" in refused.value.reason


def test_it_accepts_two_ordinary_lists(sides):
    assert matchup_check(sides, RuleSet.rtz()) == 2 * 3 + 3 * 2
