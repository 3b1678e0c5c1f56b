"""The referee API holds no process: bounded fields, a bounded body, a work budget, all answered with 4xx."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from rules.engine.requests import MAX_COUNT, MAX_ODDS_DICE, MAX_REQUEST_BYTES, MAX_RESOLVE_DICE, TOO_LARGE
from tests.rules.limit_cases import BOUNDS, Bound, absurd_in_a_body, squad_attack
from tests.rules.test_api import LASER_ON_TANK

pytestmark = pytest.mark.django_db

ODDS, RESOLVE = "/api/rules/attacks/odds/", "/api/rules/attacks/resolve/"
CASES = [pytest.param(bound, id=bound.name) for bound in BOUNDS]


def post(client: Any, url: str, body: Any) -> Any:
    return client.post(url, json.dumps(body), content_type="application/json")


def post_raw(client: Any, url: str, raw: bytes) -> Any:
    return client.generic("POST", url, raw, content_type="application/json")


def the_error(response: Any) -> dict[str, str]:
    body = response.json()
    assert body["code"] == body["errors"][0]["code"]
    return body["errors"][0]


@pytest.mark.parametrize("bound", CASES)
def test_every_bound_at_its_edge_gets_the_odds(api_client, bound: Bound):
    response = post(api_client, ODDS, bound.build(bound.edge))

    assert response.status_code == 200, response.json()


@pytest.mark.parametrize("bound", CASES)
@pytest.mark.parametrize("how_far", ["over", "absurd"])
def test_every_bound_over_is_a_400_naming_the_field_and_the_limit(api_client, bound: Bound, how_far: str):
    value = bound.over if how_far == "over" else absurd_in_a_body(bound)
    body = bound.build(value)
    assert len(json.dumps(body)) < MAX_REQUEST_BYTES, "the case must reach the engine, not the body limit"

    for url in (ODDS, RESOLVE):
        response = post(api_client, url, body)

        assert response.status_code == 400
        error = the_error(response)
        assert error["field"] == f"attack.{bound.refused_field(value)}"
        assert error["code"] == TOO_LARGE
        assert re.search(rf"\bat most {bound.stated_limit(value)}\b", error["message"])


@pytest.mark.parametrize(
    "weapon",
    [
        {"count": 1_000_000},
        {"line": {"infantry": "1000000/2"}},
        {"count": MAX_COUNT, "line": {"infantry": "40/1"}},
    ],
)
def test_the_issues_attacks_are_refused_by_both_endpoints(api_client, weapon):
    """Finding 1: each of these held a worker for minutes, or answered 164 MB."""
    body = squad_attack(**weapon)

    for url in (ODDS, RESOLVE):
        response = post(api_client, url, body)
        assert response.status_code == 400
        assert the_error(response)["code"] == TOO_LARGE


def test_a_target_of_a_million_damage_points_is_refused(api_client):
    body = {"attack": {**LASER_ON_TANK["attack"], "target": {**LASER_ON_TANK["attack"]["target"]}}}
    body["attack"]["target"]["damage_per_model"] = 1_000_000

    response = post(api_client, ODDS, body)

    assert response.status_code == 400
    assert the_error(response)["field"] == "attack.target.damage_per_model"


def test_too_many_dice_for_exact_odds_says_to_roll_instead_and_the_roll_takes_them(api_client):
    body = squad_attack(
        count=4, line={"infantry": "40/1"}
    )  # 160 dice: over the odds' limit, under the roll's

    odds = post(api_client, ODDS, body)
    roll = post(api_client, RESOLVE, body)

    assert odds.status_code == 400
    error = the_error(odds)
    assert error["field"] == "attack.weapons[0].count"
    assert f"at most {MAX_ODDS_DICE}" in error["message"]
    assert "resolve" in error["message"]
    assert roll.status_code == 200
    assert sum(weapon["dice"] for weapon in roll.json()["weapons"]) == 160 < MAX_RESOLVE_DICE


def test_work_beyond_the_budget_is_refused_with_what_to_do(api_client):
    tank = {"unit_class": "vehicle", "armour": 1, "damage_per_model": 24, "skills": ["damage_resilient"]}
    laser = {"name": "Heavy laser", "kind": "laser", "line": {"vehicle": "20/16"}}

    response = post(api_client, ODDS, {"attack": {"weapons": [laser], "target": tank}})

    assert response.status_code == 400
    error = the_error(response)
    assert (error["field"], error["code"]) == ("attack.weapons[0].line", TOO_LARGE)
    assert "resolve" in error["message"]


# -- the body ------------------------------------------------------------------------------


def _padded(body: dict[str, Any], size: int) -> bytes:
    raw = json.dumps(body).encode()
    return raw + b" " * (size - len(raw))


def test_a_body_of_exactly_the_limit_is_read(api_client):
    response = post_raw(api_client, ODDS, _padded(LASER_ON_TANK, MAX_REQUEST_BYTES))

    assert response.status_code == 200


@pytest.mark.parametrize("size", [MAX_REQUEST_BYTES + 1, 10 * 1024 * 1024])
def test_a_body_over_the_limit_is_a_413_for_both_endpoints(api_client, size):
    for url in (ODDS, RESOLVE):
        response = post_raw(api_client, url, _padded(LASER_ON_TANK, size))

        assert response.status_code == 413
        assert response.json()["code"] == TOO_LARGE
        assert str(MAX_REQUEST_BYTES) in response.json()["detail"]


@pytest.mark.parametrize(
    "raw",
    [
        b"[" * 30_000 + b"]" * 30_000,  # nested past the decoder's recursion limit
        b'{"seed": ' + b"9" * 5_000 + b"}",  # a number too long to convert
        b'{"seed": NaN}',
        b"\xff\xfe not utf-8",
        b'{"attack": ',
    ],
    ids=["deep", "long-number", "nan", "not-utf8", "truncated"],
)
def test_bodies_that_are_not_json_are_a_400(api_client, raw):
    response = post_raw(api_client, ODDS, raw)

    assert response.status_code == 400
    assert response.json()["code"] == "parse_error"


def test_unknown_top_level_fields_are_refused(api_client):
    response = post(api_client, ODDS, {**LASER_ON_TANK, "trials": 10**9})

    assert response.status_code == 400
    assert the_error(response)["field"] == "trials"
