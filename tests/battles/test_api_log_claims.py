"""The campaign's log through the API: what a report claims is shown as the report itself is."""

from __future__ import annotations

import pytest

from tests.battles.api_world import PERSONAS

pytestmark = pytest.mark.django_db

SEE_CLAIMS_ALWAYS = {"creator", "co_organiser", "attacker", "defender"}


def _report_entries(world, persona: str) -> list[dict]:
    response = world.client(persona).get(world.campaign_url("log/"))
    assert response.status_code == 200
    return [row for row in response.json()["results"] if row["kind"] == "report-changed"]


@pytest.mark.parametrize("persona", PERSONAS)
def test_a_disputed_reports_claims_reach_only_the_organisers_and_its_two_players(report_world, persona):
    report_world.publish(public=True)
    report_world.disputed()

    entries = _report_entries(report_world, persona)

    assert [row["after"]["status"] for row in entries] == ["disputed", "submitted"]
    if persona in SEE_CLAIMS_ALWAYS:
        assert entries[1]["after"]["judgement"]["winner"] == "attacker"
        assert entries[0]["reason"] == "I kept the squad"
    else:
        assert all(set(row["after"]) == {"status"} for row in entries)
        assert all(row["reason"] == "" for row in entries)


@pytest.mark.parametrize("persona", PERSONAS)
def test_once_confirmed_everyone_who_sees_the_campaign_sees_the_claims(report_world, persona):
    report_world.publish(public=True)
    report_world.confirmed()

    entries = _report_entries(report_world, persona)

    assert [row["after"]["status"] for row in entries] == ["confirmed", "submitted"]
    assert all(row["after"]["judgement"]["winner"] == "attacker" for row in entries)
