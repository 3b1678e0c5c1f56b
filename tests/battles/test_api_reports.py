"""The report endpoints a battle's players use: read a report, preview it, submit it, confirm or dispute it;
with the refusals each answers (400 naming every field at fault, 403 with a code, 409 for a conflict)."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import Notification
from battles import judging
from battles.api.shapes import ENTRY_ID_MAX_LENGTH
from battles.models import REASON_MAX_LENGTH, BattleReport, ReportStatus
from campaign.models import Battle, BattleStatus, EntryKind, ResourceEntry, Sector
from campaign.services.rounds import round_close
from core.openapi import MAX_ID

pytestmark = pytest.mark.django_db


def problems(response: Any) -> set[tuple[str, str]]:
    return {(error["field"], error["code"]) for error in response.json()["errors"]}


def test_it_shows_both_lists_what_each_side_lost_the_result_and_the_history(report_world):
    report_world.submitted()

    response = report_world.client("defender").get(report_world.url())

    assert response.status_code == 200
    body = response.json()
    assert (body["status"], body["submitted_by"], body["turns"], body["ending"]) == (
        "submitted", "attacker", 6, "turn_limit",
    )  # fmt: skip
    defender = body["sides"]["defender"]
    assert defender["registration"]["id"] == report_world.lists["defender"].pk
    assert defender["entries"] == [
        {"entry_id": "e1", "name": "Gulfport Marine Squad", "paid_ap": 6, "lost": 1, "reserves": 0},
        {"entry_id": "e2", "name": "Prairie Dog", "paid_ap": 8, "lost": 0, "reserves": 0},
    ]
    assert [entry["name"] for entry in body["sides"]["attacker"]["entries"]] == [
        "Grauwolf Rifle Squad",
        "Keiler",
    ]
    # The attacker destroyed the squad's 6 AP and scored nothing else: 6 VP to 0.
    assert body["result"] == {
        "winner": "attacker", "draw": False, "decided_by": "victory_points",
        "victory_points": {"attacker": 6, "defender": 0}, "ap_destroyed": {"attacker": 6, "defender": 0},
        "scenario_vp": {"attacker": 0, "defender": 0}, "units_in_play": {"attacker": 2, "defender": 1},
    }  # fmt: skip
    assert [
        (step["status_before"], step["status_after"], step["actor"]["username"]) for step in body["history"]
    ] == [(None, "submitted", "x1")]
    assert (body["dispute"], body["resolution"]) == (None, None)
    # The defender answers it; the attacker, who sent it, may not.
    assert body["actions"] == {"confirm": True, "dispute": True, "resolve": False}
    assert report_world.client("attacker").get(report_world.url()).json()["actions"]["confirm"] is False


def test_a_battle_without_a_report_says_so(report_world):
    response = report_world.client("creator").get(report_world.url())

    assert (response.status_code, response.json()["code"]) == (404, "no-report")


def test_the_preview_judges_the_report_and_saves_nothing(report_world):
    body = report_world.body(defender={"lost": ["e1", "e2"], "scenario_vp": 5})

    response = report_world.client("attacker").post(report_world.url("preview/"), body, format="json")

    assert response.status_code == 200
    result = response.json()
    assert (result["winner"], result["victory_points"]) == ("attacker", {"attacker": 14, "defender": 5})
    assert result["scenario_vp"] == {"attacker": 0, "defender": 5}
    assert not BattleReport.objects.exists()
    assert Battle.objects.get(pk=report_world.battle.pk).status == BattleStatus.SCHEDULED


def test_a_report_that_does_not_add_up_is_refused_with_every_problem_and_nothing_saved(report_world):
    # An unknown unit, two reserve placements where the mission allows one, a unit placed in reserve
    # without being lost, and an elimination claimed while both sides still have units in play.
    body = report_world.body(
        ending="elimination",
        defender={"lost": ["e9", "e1"], "reserves": ["e1", "e2"]},
    )

    for tail in ("preview/", ""):
        response = report_world.client("attacker").post(report_world.url(tail), body, format="json")

        assert response.status_code == 400
        assert problems(response) >= {
            ("defender.lost[0]", "unknown-entry"),
            ("defender.reserves", "too-many-reserves"),
            ("defender.reserves", "reserve-without-loss"),
            ("ending", "elimination-with-units-in-play"),
        }
    assert not BattleReport.objects.exists()
    assert Battle.objects.get(pk=report_world.battle.pk).status == BattleStatus.SCHEDULED


LONG_ID = "e" * (ENTRY_ID_MAX_LENGTH + 1)


@pytest.mark.parametrize(
    ("changes", "field", "code"),
    [
        ({"turns": 0}, "turns", "min_value"),
        ({"turns": judging.MAX_TURNS + 1}, "turns", "max_value"),
        ({"attacker": {"scenario_vp": judging.MAX_SCENARIO_VP + 1}}, "attacker.scenario_vp", "max_value"),
        ({"defender": {"scenario_vp": -1}}, "defender.scenario_vp", "min_value"),
        ({"defender": {"lost": ["e1"] * (judging.MAX_LOSSES + 1)}}, "defender.lost", "max_length"),
        ({"attacker": {"reserves": ["e1"] * (judging.MAX_LOSSES + 1)}}, "attacker.reserves", "max_length"),
        ({"defender": {"lost": [LONG_ID]}}, "defender.lost[0]", "max_length"),
        ({"attacker_registration": 0}, "attacker_registration", "min_value"),
        ({"defender_registration": MAX_ID + 1}, "defender_registration", "max_value"),
        ({"ending": "a draw"}, "ending", "invalid_choice"),
        ({"fortification": "castle"}, "fortification", "invalid_choice"),
        ({"conceded_by": "referee"}, "conceded_by", "invalid_choice"),
        ({"winner": "attacker"}, "winner", "unknown-field"),
        ({"defender": {"lost": [], "killed": 3}}, "defender.killed", "unknown-field"),
    ],
)
def test_every_bound_is_kept_and_named(report_world, changes, field, code):
    response = report_world.client("attacker").post(
        report_world.url("preview/"), report_world.body(**changes), format="json"
    )

    assert response.status_code == 400
    assert (field, code) in problems(response)


def test_a_list_that_is_not_in_the_campaign_or_not_that_sides_is_refused(report_world):
    lists = report_world.lists
    swapped = report_world.body(attacker_registration=lists["defender"].pk, defender_registration=MAX_ID)

    response = report_world.client("attacker").post(report_world.url(), swapped, format="json")

    assert response.status_code == 400
    assert problems(response) == {("defender_registration", "unknown-registration")}
    swapped["defender_registration"] = lists["attacker"].pk
    response = report_world.client("attacker").post(report_world.url(), swapped, format="json")
    assert problems(response) == {
        ("attacker_registration", "not-their-list"),
        ("defender_registration", "not-their-list"),
    }


def test_a_player_submits_for_their_side_and_the_opponent_is_told(report_world):
    response = report_world.client("defender").post(report_world.url(), report_world.body(), format="json")

    assert response.status_code == 201
    body = response.json()
    assert (body["status"], body["submitted_by"]) == ("submitted", "defender")
    assert Battle.objects.get(pk=report_world.battle.pk).status == BattleStatus.REPORTED
    assert Notification.objects.filter(user=report_world.attacker, kind="report-waiting").exists()


def test_naming_the_other_side_is_refused(report_world):
    body = report_world.body(side="defender")

    response = report_world.client("attacker").post(report_world.url(), body, format="json")

    assert (response.status_code, response.json()["code"]) == (403, "not-that-side")
    assert not BattleReport.objects.exists()


def test_a_second_report_of_the_battle_is_a_conflict(report_world):
    report_world.submitted()

    response = report_world.client("defender").post(report_world.url(), report_world.body(), format="json")

    assert (response.status_code, response.json()["code"]) == (409, "already-reported")
    assert BattleReport.objects.count() == 1


def test_a_battle_of_a_closed_round_is_reported_by_an_organiser_not_a_player(report_world):
    round_close(round=report_world.battle.round, actor=report_world.creator)

    response = report_world.client("attacker").post(report_world.url(), report_world.body(), format="json")

    assert (response.status_code, response.json()["code"]) == (409, "round-closed")
    assert not BattleReport.objects.exists()


def test_the_opponent_confirms_and_the_front_line_moves(report_world):
    report_world.submitted()

    response = report_world.client("defender").post(report_world.url("confirm/"))

    assert response.status_code == 200
    body = response.json()
    assert (body["status"], body["confirmed_at"] is not None) == ("confirmed", True)
    assert body["sector"]["owner"] == "Axis"
    assert Sector.objects.get(pk=report_world.battle.sector_id).owner == "Axis"
    assert [step["status_after"] for step in body["history"]] == ["submitted", "confirmed"]
    assert ResourceEntry.objects.filter(kind=EntryKind.AWARD).count() == 1


def test_confirming_twice_is_a_conflict_and_applies_nothing_again(report_world):
    report_world.submitted()
    client = report_world.client("defender")
    client.post(report_world.url("confirm/"))

    again = client.post(report_world.url("confirm/"))

    assert (again.status_code, again.json()["code"]) == (409, "report-changed")
    assert ResourceEntry.objects.filter(kind=EntryKind.AWARD).count() == 1


def test_who_sent_the_report_may_not_confirm_it(report_world):
    report_world.submitted()

    response = report_world.client("attacker").post(report_world.url("confirm/"))

    assert (response.status_code, response.json()["code"]) == (403, "not-the-opponent")
    assert BattleReport.objects.get().status == ReportStatus.SUBMITTED


def test_the_opponent_disputes_with_a_reason_and_the_organisers_are_told(report_world):
    report_world.submitted()

    response = report_world.client("defender").post(
        report_world.url("dispute/"), {"reason": "My squad was never lost"}, format="json"
    )

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "disputed"
    assert body["dispute"]["reason"] == "My squad was never lost"
    assert body["history"][-1]["reason"] == "My squad was never lost"
    told = set(Notification.objects.filter(kind="report-disputed").values_list("user__username", flat=True))
    assert told == {"olga", "cora", "x1"}  # a1 disputed it: not told of their own act


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({}, "required"),
        ({"reason": "  "}, "blank"),
        ({"reason": "x" * (REASON_MAX_LENGTH + 1)}, "max_length"),
    ],
)
def test_a_dispute_needs_a_reason_of_bounded_length(report_world, body, code):
    report_world.submitted()

    response = report_world.client("defender").post(report_world.url("dispute/"), body, format="json")

    assert response.status_code == 400
    assert problems(response) == {("reason", code)}
    assert BattleReport.objects.get().status == ReportStatus.SUBMITTED


def test_a_disputed_report_can_no_longer_be_confirmed(report_world):
    report_world.disputed()

    response = report_world.client("defender").post(report_world.url("confirm/"))

    assert (response.status_code, response.json()["code"]) == (409, "report-changed")
    assert not ResourceEntry.objects.filter(kind=EntryKind.AWARD).exists()


def test_until_it_is_confirmed_a_report_is_the_players_and_the_organisers_only(report_world):
    report_world.submitted()

    refused = report_world.client("bystander").get(report_world.url())
    report_world.client("defender").post(report_world.url("confirm/"))
    shown = report_world.client("bystander").get(report_world.url())

    assert (refused.status_code, refused.json()["code"]) == (403, "report-not-confirmed")
    assert (shown.status_code, shown.json()["status"]) == (200, "confirmed")
    assert shown.json()["actions"] == {"confirm": False, "dispute": False, "resolve": False}
