"""Through the API, each persona's unread count follows what needs them (GET /api/notifications/count/).

The world (tests/battles/api_world.py): round 1 is open (every player was told once) and x1 attacks
a1. Reporting, disputing, resolving and a join request go through the API as a client would.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.battles.api_world import PERSONAS
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def counts(world: Any) -> dict[str, int | None]:
    """Each persona's unread count as the API gives it; None where the API refuses (anonymous: 403)."""
    seen: dict[str, int | None] = {}
    for persona in PERSONAS:
        response = world.client(persona).get("/api/notifications/count/")
        seen[persona] = response.json()["unread"] if response.status_code == 200 else None
    return seen


def unread_kinds(world: Any, persona: str) -> list[str]:
    response = world.client(persona).get("/api/notifications/?unread=true")
    assert response.status_code == 200
    return sorted(row["kind"] for row in response.json()["results"])


def test_each_persona_counts_what_needs_them_through_a_report_its_dispute_and_its_resolution(report_world):
    start = {"creator": 0, "co_organiser": 0, "attacker": 1, "defender": 1, "bystander": 1, "stranger": 0,
             "anonymous": None}  # fmt: skip
    assert counts(report_world) == start

    submitted = report_world.client("attacker").post(report_world.url(), report_world.body(), format="json")
    assert submitted.status_code == 201, submitted.content
    assert counts(report_world) == start | {"defender": 2}
    assert unread_kinds(report_world, "defender") == ["report-waiting", "round-opened"]

    disputed = report_world.client("defender").post(
        report_world.url("dispute/"), {"reason": "My squad was never lost"}, format="json"
    )
    assert disputed.status_code == 200, disputed.content
    assert counts(report_world) == start | {"creator": 1, "co_organiser": 1, "attacker": 2}
    assert unread_kinds(report_world, "defender") == ["round-opened"]

    resolved = report_world.client("co_organiser").post(
        report_world.url("resolve/"),
        {"decision": "accepted", "reason": "The score sheet says so"},
        format="json",
    )
    assert resolved.status_code == 200, resolved.content
    assert counts(report_world) == start | {"attacker": 2, "defender": 2}
    assert unread_kinds(report_world, "attacker") == ["report-resolved", "round-opened"]


def test_the_opponent_confirming_reads_their_notice_and_tells_only_the_reporter(report_world):
    report_world.client("attacker").post(report_world.url(), report_world.body(), format="json")

    confirmed = report_world.client("defender").post(report_world.url("confirm/"))

    assert confirmed.status_code == 200, confirmed.content
    assert unread_kinds(report_world, "defender") == ["round-opened"]
    assert unread_kinds(report_world, "attacker") == ["report-confirmed", "round-opened"]


def test_a_join_request_is_news_for_both_organisers_until_one_of_them_answers(report_world):
    report_world.publish(True)
    newcomer = UserFactory(username="nadia", display_name="Nadia")
    client = report_world.client("anonymous")
    client.force_authenticate(newcomer)

    asked = client.post(report_world.campaign_url("enrolments/"), {"bloc": "SSU"}, format="json")

    assert asked.status_code == 201, asked.content
    assert (counts(report_world)["creator"], counts(report_world)["co_organiser"]) == (1, 1)
    (told,) = report_world.client("creator").get("/api/notifications/?unread=true").json()["results"]
    assert told["kind"] == "join-requested"
    assert told["link"] == f"/campaigns/{report_world.campaign.pk}/dashboard/#request-{asked.json()['id']}"

    admitted = report_world.client("creator").post(
        report_world.campaign_url(f"enrolments/{asked.json()['id']}/admit/")
    )

    assert admitted.status_code == 200, admitted.content
    assert (counts(report_world)["creator"], counts(report_world)["co_organiser"]) == (0, 0)
