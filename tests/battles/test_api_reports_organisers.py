"""The report endpoints of the organisers: resolving (accept, amend, void; a confirmed report too), entering
a result, acting for a placeholder's side; and the campaign's reports and its dispute queue."""

from __future__ import annotations

from typing import Any

import pytest

from armies.blocs import Bloc
from battles.models import BattleReport, ReportStatus
from campaign.models import Battle, BattleStatus, EntryKind, ResourceEntry, Sector
from campaign.services.results import campaign_check
from tests.battles.api_world import PERSONAS
from tests.factories import EnrolmentFactory

pytestmark = pytest.mark.django_db


def problems(response: Any) -> set[tuple[str, str]]:
    return {(error["field"], error["code"]) for error in response.json()["errors"]}


def owner_of(battle: Battle) -> str:
    return Sector.objects.get(pk=battle.sector_id).owner


def resolve(world: Any, body: dict[str, Any], persona: str = "creator") -> Any:
    return world.client(persona).post(world.url("resolve/"), body, format="json")


def test_an_organiser_accepts_a_disputed_report_and_the_result_is_applied(report_world):
    report_world.disputed()

    response = resolve(report_world, {"decision": "accepted", "reason": "The score sheet says so"})

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "resolved"
    assert (body["resolution"]["decision"], body["resolution"]["by"]["username"]) == ("accepted", "olga")
    assert body["dispute"]["reason"] == "I kept the squad"
    assert [step["status_after"] for step in body["history"]] == ["submitted", "disputed", "resolved"]
    assert Battle.objects.get(pk=report_world.battle.pk).status == BattleStatus.CONFIRMED
    assert owner_of(report_world.battle) == "Axis"


def test_an_organiser_amends_a_disputed_report_and_the_amended_result_counts(report_world):
    report_world.disputed()
    # As amended, the attacker lost both units and the defender none: the defender wins on points.
    amended = report_world.body(attacker={"lost": ["e1", "e2"]}, defender={"lost": []})

    response = resolve(
        report_world, {"decision": "amended", "reason": "Both sides agreed", "report": amended}
    )

    assert response.status_code == 200
    body = response.json()
    assert (body["status"], body["result"]["winner"]) == ("resolved", "defender")
    assert body["sides"]["attacker"]["lost"] == ["e1", "e2"]
    assert body["history"][-1]["result"]["winner"] == "defender"
    assert body["history"][0]["result"]["winner"] == "attacker"
    assert owner_of(report_world.battle) == ""  # a defender's win moves nothing
    assert ResourceEntry.objects.get(kind=EntryKind.AWARD).bloc == "Allies"
    assert campaign_check(campaign=report_world.campaign).ok


def test_an_organiser_voids_a_report(report_world):
    report_world.disputed()

    response = resolve(report_world, {"decision": "voided", "reason": "The battle was never played"})

    assert (response.status_code, response.json()["status"]) == (200, "void")
    assert Battle.objects.get(pk=report_world.battle.pk).status == BattleStatus.VOID
    assert not ResourceEntry.objects.filter(kind=EntryKind.AWARD).exists()


def test_a_decision_on_the_report_as_seen_is_a_conflict_once_another_organiser_changed_it(report_world):
    report = report_world.disputed()
    seen = report_world.client("co_organiser").get(report_world.url()).json()["status"]
    assert seen == "disputed"
    voided = resolve(report_world, {"decision": "voided", "reason": "Never played"})
    assert voided.status_code == 200

    late = resolve(
        report_world,
        {"decision": "accepted", "reason": "Both agreed", "seen_status": seen},
        persona="co_organiser",
    )

    assert late.status_code == 409
    assert late.json()["code"] == "report-changed"
    report.refresh_from_db()
    assert report.status == ReportStatus.VOID
    assert not ResourceEntry.objects.filter(kind=EntryKind.AWARD).exists()


def test_a_decision_on_the_report_as_seen_applies_while_it_is_unchanged(report_world):
    report = report_world.disputed()

    response = resolve(
        report_world, {"decision": "accepted", "reason": "Both agreed", "seen_status": "disputed"}
    )

    assert response.status_code == 200
    report.refresh_from_db()
    assert report.status == ReportStatus.RESOLVED


def test_an_organiser_changes_a_confirmed_report_and_its_consequences_are_taken_back(report_world):
    report_world.confirmed()
    assert owner_of(report_world.battle) == "Axis"
    amended = report_world.body(attacker={"lost": ["e1", "e2"]}, defender={"lost": []})

    response = resolve(
        report_world, {"decision": "amended", "reason": "The photo shows otherwise", "report": amended}
    )

    assert response.status_code == 200
    assert response.json()["resolution"]["reason"] == "The photo shows otherwise"
    assert owner_of(report_world.battle) == ""
    awards = ResourceEntry.objects.filter(battle=report_world.battle)
    assert sorted(awards.values_list("bloc", "amount")) == sorted(
        [("Axis", report_world.campaign.award_win), ("Axis", -report_world.campaign.award_win),
         ("Allies", report_world.campaign.award_win)]
    )  # fmt: skip
    assert campaign_check(campaign=report_world.campaign).ok


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"decision": "amended", "reason": "Fixing it"}, {("report", "required")}),
        ({"decision": "accepted", "reason": "Fine", "report": "the report"}, {("report", "not-amended")}),
        ({"decision": "accepted"}, {("reason", "required")}),
        ({"decision": "entered", "reason": "Fine"}, {("decision", "invalid_choice")}),
    ],
)
def test_a_resolution_says_what_it_decides_and_why(report_world, body, expected):
    report_world.disputed()
    if body.get("report") == "the report":
        body["report"] = report_world.body()

    response = resolve(report_world, body)

    assert response.status_code == 400
    assert problems(response) == expected
    assert BattleReport.objects.get().status == ReportStatus.DISPUTED


def test_an_amendment_that_does_not_add_up_names_its_fields_inside_the_report(report_world):
    report_world.disputed()
    amended = report_world.body(
        defender={"lost": ["e9"]}, attacker_registration=report_world.lists["defender"].pk
    )

    response = resolve(report_world, {"decision": "amended", "reason": "Fixing it", "report": amended})

    assert response.status_code == 400
    assert problems(response) == {("report.attacker_registration", "not-their-list")}
    amended = report_world.body(defender={"lost": ["e9"]})
    response = resolve(report_world, {"decision": "amended", "reason": "Fixing it", "report": amended})
    assert problems(response) == {("report.defender.lost[0]", "unknown-entry")}
    assert BattleReport.objects.get().status == ReportStatus.DISPUTED


def test_an_organiser_enters_a_result_directly(report_world):
    body = {"reason": "Paper slip from club night", "report": report_world.body()}

    response = report_world.client("co_organiser").post(report_world.url("enter/"), body, format="json")

    assert response.status_code == 201
    shown = response.json()
    assert (shown["status"], shown["resolution"]["decision"]) == ("resolved", "entered")
    assert shown["resolution"]["by"]["username"] == "cora"
    assert Battle.objects.get(pk=report_world.battle.pk).status == BattleStatus.CONFIRMED


def test_entering_a_reported_battle_is_a_conflict(report_world):
    report_world.submitted()
    body = {"reason": "Paper slip", "report": report_world.body()}

    response = report_world.client("creator").post(report_world.url("enter/"), body, format="json")

    assert (response.status_code, response.json()["code"]) == (409, "already-reported")
    assert BattleReport.objects.get().status == ReportStatus.SUBMITTED


def test_an_entry_needs_a_reason(report_world):
    response = report_world.client("creator").post(
        report_world.url("enter/"), {"report": report_world.body()}, format="json"
    )

    assert (response.status_code, problems(response)) == (400, {("reason", "required")})


@pytest.fixture
def placeholder_battle(report_world: Any) -> tuple[Battle, Any]:
    """x2 (Axis) attacks Grisha, a placeholder of the Allies the organisers play for."""
    grisha = EnrolmentFactory(
        campaign=report_world.campaign, player=None, placeholder_name="Grisha", bloc=Bloc.ALLIES
    )
    return report_world.another_battle(report_world.place("x2"), grisha)


def test_an_organiser_reports_for_a_placeholder_and_its_opponent_confirms(report_world, placeholder_battle):
    battle, lists = placeholder_battle

    sent = report_world.client("creator").post(
        report_world.url(battle=battle), report_world.body(lists), format="json"
    )
    confirmed = report_world.client_of("x2").post(report_world.url("confirm/", battle=battle))

    assert (sent.status_code, sent.json()["submitted_by"]) == (201, "defender")
    assert (confirmed.status_code, confirmed.json()["status"]) == (200, "confirmed")


def test_an_organiser_answers_for_a_placeholder_but_reports_only_its_side(report_world, placeholder_battle):
    battle, lists = placeholder_battle
    other_side = report_world.client("creator").post(
        report_world.url(battle=battle), report_world.body(lists, side="attacker"), format="json"
    )
    report_world.client_of("x2").post(
        report_world.url(battle=battle), report_world.body(lists), format="json"
    )

    confirmed = report_world.client("co_organiser").post(report_world.url("confirm/", battle=battle))

    assert (other_side.status_code, other_side.json()["code"]) == (403, "not-that-side")
    assert (confirmed.status_code, confirmed.json()["status"]) == (200, "confirmed")


def test_the_reports_list_shows_each_caller_what_they_may_see_filtered_by_status_and_round(report_world):
    report_world.confirmed()
    battle, lists = report_world.another_battle(report_world.place("x2"), report_world.place("a2"))
    report_world.client_of("x2").post(
        report_world.url(battle=battle), report_world.body(lists), format="json"
    )

    report_world.publish(True)

    def battles(persona: str, query: str = "") -> list[int]:
        client = report_world.client(persona) if persona in PERSONAS else report_world.client_of(persona)
        response = client.get(report_world.campaign_url(f"reports/{query}"))
        assert response.status_code == 200
        return [row["battle"] for row in response.json()["results"]]

    first, second = report_world.battle.pk, battle.pk
    assert battles("creator") == [second, first]  # newest first
    assert battles("creator", "?status=submitted") == [second]
    assert battles("creator", "?round=1&status=confirmed") == [first]
    assert battles("creator", "?round=2") == []
    # A report waiting for its opponent is the two players' and the organisers' only: a2 is in it.
    assert battles("bystander") == [second, first]
    assert battles("s1") == battles("stranger") == battles("anonymous") == [first]


@pytest.mark.parametrize(
    ("query", "expected"),
    [("?round=0", ("round", "min_value")), ("?round=40000", ("round", "max_value")),
     ("?status=lost", ("status", "invalid_choice"))],
)  # fmt: skip
def test_the_reports_list_refuses_a_filter_out_of_bounds(report_world, query, expected):
    response = report_world.client("creator").get(report_world.campaign_url(f"reports/{query}"))

    assert (response.status_code, problems(response)) == (400, {expected})


def test_the_dispute_queue_lists_the_disputes_oldest_first_for_the_organisers(report_world):
    battle, lists = report_world.another_battle(report_world.place("x2"), report_world.place("a2"))
    report_world.client_of("x2").post(
        report_world.url(battle=battle), report_world.body(lists), format="json"
    )
    report_world.client_of("a2").post(
        report_world.url("dispute/", battle=battle), {"reason": "No"}, format="json"
    )
    report_world.disputed()

    response = report_world.client("co_organiser").get(report_world.campaign_url("reports/disputes/"))

    assert response.status_code == 200
    rows = response.json()["results"]
    assert [(row["battle"], row["status"]) for row in rows] == [
        (battle.pk, "disputed"), (report_world.battle.pk, "disputed"),
    ]  # fmt: skip
