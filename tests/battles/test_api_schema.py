"""The report endpoints' OpenAPI schema: it states every bound the judge keeps, an example for each report
body, and the shape of what is answered."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.management import call_command

from battles import judging
from battles.api.shapes import ENTRY_ID_MAX_LENGTH
from battles.models import REASON_MAX_LENGTH
from core.openapi import MAX_ID

pytestmark = pytest.mark.django_db

REPORT = "/api/campaigns/{id}/battles/{battle_id}/report/"


@pytest.fixture(scope="module")
def schema(django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    path = tmp_path_factory.mktemp("schema") / "schema.json"
    with django_db_blocker.unblock():
        # --fail-on-warn: a warning (an unnamed enum, a guessed type) fails the generation.
        call_command(
            "spectacular", "--validate", "--fail-on-warn", "--format", "openapi-json", "--file", str(path)
        )
    return dict(json.loads(path.read_text()))


def component(schema: dict[str, Any], name: str) -> dict[str, Any]:
    return dict(schema["components"]["schemas"][name]["properties"])


def test_the_report_body_states_the_judges_bounds(schema):
    report = component(schema, "ReportBody")
    side = component(schema, "SideInputBody")

    assert (report["turns"]["minimum"], report["turns"]["maximum"]) == (1, judging.MAX_TURNS)
    for name in ("attacker_registration", "defender_registration"):
        assert (report[name]["minimum"], report[name]["maximum"]) == (1, MAX_ID)
    assert (side["scenario_vp"]["minimum"], side["scenario_vp"]["maximum"]) == (0, judging.MAX_SCENARIO_VP)
    for name in ("lost", "reserves"):
        assert side[name]["maxItems"] == judging.MAX_LOSSES
        assert side[name]["items"]["maxLength"] == ENTRY_ID_MAX_LENGTH
    assert set(schema["components"]["schemas"]["ReportBody"]["required"]) == {
        "attacker_registration", "defender_registration", "turns", "ending", "attacker", "defender",
    }  # fmt: skip


def test_every_reason_is_bounded_and_the_decision_is_an_organisers(schema):
    for name in ("ReasonBody", "ResolveBody", "EnterBody"):
        assert component(schema, name)["reason"]["maxLength"] == REASON_MAX_LENGTH
    decision = schema["components"]["schemas"]["DecisionEnum"]["enum"]
    assert decision == ["accepted", "amended", "voided"]


def test_the_report_bodies_come_with_examples(schema):
    for tail, operation in (("", "post"), ("preview/", "post"), ("resolve/", "post")):
        body = schema["paths"][f"{REPORT}{tail}"][operation]["requestBody"]["content"]["application/json"]
        assert body["examples"], tail


def test_the_lists_are_pages_filtered_by_status_and_round(schema):
    listed = schema["paths"]["/api/campaigns/{id}/reports/"]["get"]
    answer = listed["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]

    assert answer.endswith("PaginatedReportSummaryOutputList")
    assert {p["name"] for p in listed["parameters"]} == {"id", "page", "round", "status"}


def test_a_report_shows_both_sides_the_result_and_the_history(schema):
    report = component(schema, "ReportOutput")
    result = component(schema, "ResultOutput")

    assert {"sides", "result", "status", "dispute", "resolution", "history", "actions"} <= set(report)
    assert set(result) == {
        "winner", "draw", "decided_by", "victory_points", "ap_destroyed", "scenario_vp", "units_in_play",
    }  # fmt: skip
    assert set(component(schema, "EntryOutput")) == {"entry_id", "name", "paid_ap", "lost", "reserves"}
