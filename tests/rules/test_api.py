"""The referee API: digital dice with a replayable log, exact odds, and 400s that name the field."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db

LASER_ON_TANK = {
    "ruleset": {"name": "rtz"},
    "attack": {
        "action": "sustained_attack",
        "weapons": [{"name": "Laser cannon", "kind": "laser", "line": {"vehicle": "3/2"}, "count": 1}],
        "target": {
            "unit_class": "vehicle", "armour": 4, "models": 1, "damage_per_model": 5, "in_cover": True,
            "skills": ["damage_resilient"],
        },
    },
}  # fmt: skip


def test_it_gives_exact_odds_without_an_account(api_client):
    response = api_client.post("/api/rules/attacks/odds/", LASER_ON_TANK, format="json")

    assert response.status_code == 200
    odds = response.json()
    assert sum(odds["hits"]["probabilities"]) == pytest.approx(1.0, abs=1e-12)
    assert 0 < odds["p_destroyed"] < 1
    assert odds["expected"]["unsaved"] <= odds["expected"]["hits"]
    assert odds["ruleset"]["name"] == "rtz"


def test_it_resolves_an_attack_and_replays_it_from_its_seed(api_client):
    first = api_client.post("/api/rules/attacks/resolve/", LASER_ON_TANK, format="json").json()

    again = api_client.post(
        "/api/rules/attacks/resolve/", {**LASER_ON_TANK, "seed": first["seed"]}, format="json"
    )

    assert again.status_code == 200
    assert again.json() == first
    assert first["log"], "every die is recorded"
    assert {"purpose", "face", "success"} <= set(first["log"][0])


def test_it_names_the_field_of_an_unknown_weapon_kind(api_client):
    attack = {
        **LASER_ON_TANK["attack"],
        "weapons": [{"name": "X", "kind": "plasma", "line": {"vehicle": "3/2"}}],
    }

    response = api_client.post("/api/rules/attacks/odds/", {"attack": attack}, format="json")

    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert error["field"] == "attack.weapons[0].kind"
    assert "plasma" in error["message"]


def test_it_refuses_negative_dice(api_client):
    attack = {
        **LASER_ON_TANK["attack"],
        "weapons": [{"name": "X", "kind": "laser", "line": {"vehicle": "-3/2"}}],
    }

    response = api_client.post("/api/rules/attacks/odds/", {"attack": attack}, format="json")

    assert response.status_code == 400
    assert response.json()["errors"][0]["field"].startswith("attack.weapons[0].line")


def test_it_refuses_a_class_the_weapon_cannot_target(api_client):
    attack = {
        **LASER_ON_TANK["attack"],
        "weapons": [{"name": "X", "kind": "laser", "line": {"infantry": "3/1"}}],
    }

    response = api_client.post("/api/rules/attacks/odds/", {"attack": attack}, format="json")

    assert response.status_code == 400
    assert response.json()["errors"][0]["field"].startswith("attack.weapons[0]")


def test_it_refuses_an_unknown_rule_switch(api_client):
    response = api_client.post(
        "/api/rules/attacks/odds/",
        {**LASER_ON_TANK, "ruleset": {"name": "rtz", "moon_gravity": True}},
        format="json",
    )

    assert response.status_code == 400
    assert response.json()["errors"][0]["field"].startswith("ruleset")


def test_it_refuses_a_bad_seed(api_client):
    response = api_client.post("/api/rules/attacks/resolve/", {**LASER_ON_TANK, "seed": -4}, format="json")

    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "seed"


def test_it_lists_the_switchable_rtz_rules(api_client):
    switches = api_client.get("/api/rules/switches/").json()

    assert {"unified_saves", "damage_resilient_rtz", "suppression_rtz"} <= {s["name"] for s in switches}
    assert all(s["description"] for s in switches)


def test_close_combat_odds_include_the_targets_strike_back(api_client):
    brawl = {
        "ruleset": {"name": "rulebook"},
        "attack": {
            "weapons": [{"name": "Knife", "line": {"infantry": "1/1"}, "close_combat": True}],
            "target": {"unit_class": "infantry", "armour": 1, "models": 1, "skills": ["first_strike"]},
            "attacker": {"unit_class": "infantry", "armour": 1, "models": 1},
        },
    }

    odds = api_client.post("/api/rules/attacks/odds/", brawl, format="json").json()

    back = odds["strike_back"]
    assert back["order"] == "defender_first"
    # The defender's die kills first 1 time in 3; the knife then kills 1 time in 3 of the rest.
    assert back["p_destroyed"] == pytest.approx(1 / 3)
    assert odds["p_destroyed"] == pytest.approx(2 / 9)
    assert back["models_removed"]["probabilities"] == pytest.approx([2 / 3, 1 / 3])
