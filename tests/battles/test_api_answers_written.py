"""A submission's, a confirmation's and a dispute's answer is built from what the service wrote and read
under the campaign's lock (battles.api.reports.written), not read again: it must be exactly what reading the
report afterwards gives (GET, as the same player)."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.models import Registration, Sector

pytestmark = pytest.mark.django_db


def read_back(world: Any, persona: str) -> dict[str, Any]:
    response = world.client(persona).get(world.url())
    assert response.status_code == 200, response.content
    answer: dict[str, Any] = response.json()
    return answer


def test_it_answers_a_submission_as_the_report_reads_afterwards(report_world):
    submitted = report_world.client("attacker").post(report_world.url(), report_world.body(), format="json")

    assert submitted.status_code == 201, submitted.content
    assert submitted.json() == read_back(report_world, "attacker")
    assert submitted.json()["status"] == "submitted"


def test_it_answers_a_confirmation_with_the_sector_it_moved(report_world):
    report_world.submitted()
    sector = Sector.objects.get(pk=report_world.battle.sector_id)
    assert sector.owner == ""

    confirmed = report_world.client("defender").post(report_world.url("confirm/"), format="json")

    assert confirmed.status_code == 200, confirmed.content
    answer = confirmed.json()
    assert answer == read_back(report_world, "defender")
    # The attacker won over a neutral sector: the answer shows it held by the attacker's bloc now.
    assert (answer["status"], answer["sector"]["owner"]) == ("confirmed", "Axis")
    assert answer["attacker"]["has_registered_list"]
    assert answer["defender"]["has_registered_list"]


def test_it_answers_a_confirmation_waiting_for_the_close_without_moving_the_sector(report_world):
    report_world.hide_results()
    report_world.submitted()

    confirmed = report_world.client("defender").post(report_world.url("confirm/"), format="json")

    assert confirmed.status_code == 200, confirmed.content
    answer = confirmed.json()
    assert answer == read_back(report_world, "defender")
    assert (answer["status"], answer["sector"]["owner"]) == ("confirmed", None)


def test_it_answers_a_dispute_as_the_report_reads_afterwards(report_world):
    report_world.submitted()

    disputed = report_world.client("defender").post(
        report_world.url("dispute/"), {"reason": "My squad was never lost"}, format="json"
    )

    assert disputed.status_code == 200, disputed.content
    assert disputed.json() == read_back(report_world, "defender")
    assert disputed.json()["dispute"]["reason"] == "My squad was never lost"


def test_it_answers_a_side_without_a_registered_list_as_the_report_reads_afterwards(report_world):
    report_world.submitted()
    # The attacker's list is withdrawn from the campaign's current lists (superseded by nothing else).
    Registration.objects.filter(pk=report_world.lists["attacker"].pk).update(
        superseded_by=report_world.lists["defender"]
    )

    confirmed = report_world.client("defender").post(report_world.url("confirm/"), format="json")

    assert confirmed.status_code == 200, confirmed.content
    answer = confirmed.json()
    assert answer == read_back(report_world, "defender")
    assert (answer["attacker"]["has_registered_list"], answer["defender"]["has_registered_list"]) == (
        False,
        True,
    )
