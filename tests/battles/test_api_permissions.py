"""Who gets what from every report endpoint: seven personas, a private and a public campaign.

The personas (tests/battles/api_world.py): the campaign's creator and co-organiser, the battle's attacker
and defender, a player of the campaign not in this battle, a stranger and an anonymous visitor. Each row
names the exact status each gets. A private campaign is a 404 to whoever may not see it, exactly like one
that does not exist; a caller who sees it but may not act gets 403 with a code; what the report's state
refuses is the service's 409 (tested with each endpoint, not here).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import transaction

from tests.battles.api_world import PERSONAS, ReportWorld

pytestmark = pytest.mark.django_db

# Status per persona, in PERSONAS order: creator, co-organiser, attacker, defender, bystander, stranger,
# anonymous.
Row = tuple[int, int, int, int, int, int, int]


def seen_by_all(ok: int) -> dict[bool, Row]:
    """Reading: everyone who sees the campaign; strangers and visitors get a 404 when it is private."""
    return {False: (ok, ok, ok, ok, ok, 404, 404), True: (ok,) * 7}


def the_battle_and_organisers(ok: int) -> dict[bool, Row]:
    """A report before it is settled (or while its result is hidden), and a preview."""
    return {False: (ok, ok, ok, ok, 403, 404, 404), True: (ok, ok, ok, ok, 403, 403, 403)}


def the_players_only(ok: int) -> dict[bool, Row]:
    """Submitting: the battle's players (organisers only for a placeholder; here both sides have players)."""
    return {False: (403, 403, ok, ok, 403, 404, 404), True: (403, 403, ok, ok, 403, 403, 403)}


def the_defender_only(ok: int) -> dict[bool, Row]:
    """Answering the attacker's report: the other side."""
    return {False: (403, 403, 403, ok, 403, 404, 404), True: (403, 403, 403, ok, 403, 403, 403)}


def the_organisers(ok: int) -> dict[bool, Row]:
    return {False: (ok, ok, 403, 403, 403, 404, 404), True: (ok, ok, 403, 403, 403, 403, 403)}


@dataclass(frozen=True)
class Endpoint:
    operation_id: str
    method: str
    tail: str  # after /api/campaigns/<id>/; "{report}" stands for battles/<battle id>/report/
    expected: dict[bool, Row]  # public? -> statuses
    body: Callable[[ReportWorld], Any] = lambda _w: None
    # What the battle needs before the call (a report in some state), made anew for each persona.
    setup: Callable[[ReportWorld], Any] = lambda _w: None
    label: str = ""

    @property
    def id(self) -> str:
        return f"{self.operation_id}{'-' + self.label if self.label else ''}"

    def path(self, world: ReportWorld) -> str:
        return world.campaign_url(self.tail.replace("{report}", f"battles/{world.battle.pk}/report/"))


def hidden_and_confirmed(world: ReportWorld) -> None:
    world.hide_results()
    world.confirmed()


ENDPOINTS = [
    Endpoint("reports_retrieve", "get", "{report}", seen_by_all(200), setup=lambda w: w.confirmed(),
             label="confirmed"),
    Endpoint("reports_retrieve", "get", "{report}", the_battle_and_organisers(200), setup=lambda w: w.submitted(),
             label="waiting"),
    Endpoint("reports_retrieve", "get", "{report}", the_battle_and_organisers(200), setup=hidden_and_confirmed,
             label="result-hidden"),
    Endpoint("reports_submit", "post", "{report}", the_players_only(201), body=lambda w: w.body()),
    Endpoint("reports_preview", "post", "{report}preview/", the_battle_and_organisers(200), body=lambda w: w.body()),
    Endpoint("reports_confirm", "post", "{report}confirm/", the_defender_only(200), setup=lambda w: w.submitted()),
    Endpoint("reports_dispute", "post", "{report}dispute/", the_defender_only(200), setup=lambda w: w.submitted(),
             body=lambda w: {"reason": "My squad was never lost"}),
    Endpoint("reports_resolve", "post", "{report}resolve/", the_organisers(200), setup=lambda w: w.disputed(),
             body=lambda w: {"decision": "accepted", "reason": "The score sheet says so"}, label="disputed"),
    Endpoint("reports_resolve", "post", "{report}resolve/", the_organisers(200), setup=lambda w: w.confirmed(),
             body=lambda w: {"decision": "amended", "reason": "The squad came back",
                             "report": w.body(defender={"lost": ["e1", "e2"]})}, label="confirmed"),
    Endpoint("reports_enter", "post", "{report}enter/", the_organisers(201),
             body=lambda w: {"reason": "Paper slip from club night", "report": w.body()}),
    Endpoint("reports_list", "get", "reports/", seen_by_all(200), setup=lambda w: w.confirmed()),
    Endpoint("reports_disputes", "get", "reports/disputes/", the_organisers(200), setup=lambda w: w.disputed()),
]  # fmt: skip


def answer(world: ReportWorld, endpoint: Endpoint, persona: str) -> tuple[int, Any]:
    """The persona's answer, every change it made rolled back, so the next persona meets the same battle."""
    with transaction.atomic():
        client = world.client(persona)
        endpoint.setup(world)
        response = getattr(client, endpoint.method)(endpoint.path(world), endpoint.body(world), format="json")
        transaction.set_rollback(True)
    world.campaign.refresh_from_db()
    return response.status_code, response.json()


@pytest.mark.parametrize("public", [False, True], ids=["private", "public"])
@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=[endpoint.id for endpoint in ENDPOINTS])
def test_each_persona_gets_exactly_its_answer(
    report_world: ReportWorld, endpoint: Endpoint, public: bool
) -> None:
    report_world.publish(public)

    answers = {persona: answer(report_world, endpoint, persona) for persona in PERSONAS}

    assert dict(zip(PERSONAS, endpoint.expected[public], strict=True)) == {
        persona: status for persona, (status, _body) in answers.items()
    }
    for persona, (status, body) in answers.items():
        if status == 404:
            # The same answer as for a campaign that does not exist: nothing leaks.
            assert body == {"code": "not_found", "detail": "no such campaign", "errors": []}
        if status == 403 and endpoint.method != "get":
            # An action needs an account first; then the refusal says why.
            assert (body["code"] == "not_authenticated") == (persona == "anonymous"), (persona, body)


def test_the_matrix_covers_every_report_endpoint_of_the_schema(api_client) -> None:
    schema = api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    documented = {
        operation["operationId"]
        for operations in schema["paths"].values()
        for operation in operations.values()
        if "reports" in operation.get("tags", [])
    }

    assert documented == {endpoint.operation_id for endpoint in ENDPOINTS}
