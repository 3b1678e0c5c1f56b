"""A report's sides are written by battles.api.shapes._side as SidesOutput would write them (each value through
its field's conversion, in the fields' order), without building its nested serializers for every answer: what
SidesOutput makes of the written sides must be those sides again, byte for byte."""

from __future__ import annotations

import json
from typing import Any

import pytest

from battles import selectors
from battles.api.shapes import SidesOutput, _side
from battles.judging import SIDES

pytestmark = pytest.mark.django_db


def written_sides(world: Any) -> dict[str, Any]:
    report = selectors.report_for_api(battle=world.battle)
    assert report is not None
    return {side: _side(getattr(report, f"{side}_registration"), report.sides[side], None) for side in SIDES}


def test_it_writes_the_sides_of_a_report_as_the_serializer_does(report_world):
    report_world.submitted()

    sides = written_sides(report_world)

    assert json.dumps(SidesOutput(sides).data) == json.dumps(sides)
    assert sides["defender"]["lost"] == ["e1"]
    assert [entry["lost"] for entry in sides["defender"]["entries"]].count(1) == 1


def test_it_writes_an_objective_and_scenario_points_as_the_serializer_does(report_world):
    body = report_world.body(attacker={"lost": [], "reserves": [], "objective": True, "scenario_vp": 2})
    submitted = report_world.client("attacker").post(report_world.url(), body, format="json")
    assert submitted.status_code == 201, submitted.content

    sides = written_sides(report_world)

    assert json.dumps(SidesOutput(sides).data) == json.dumps(sides)
    assert (sides["attacker"]["objective"], sides["attacker"]["scenario_vp"]) == (True, 2)
    assert submitted.json()["sides"]["attacker"]["objective"] is True
