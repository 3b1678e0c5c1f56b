"""Who gets what from every campaign endpoint: six personas, a private and a public campaign.

Each row names the exact status each persona gets. A private campaign is a 404
to whoever may not see it, exactly like one that does not exist; a caller who
sees it but may not act gets 403; what the campaign's state refuses (joining
twice, leaving while pending) is the service's 409.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone

from campaign.engine.mapformat import default_map, map_to_json
from campaign.models import Battle
from campaign.options import Status
from tests.battles.test_api_permissions import ENDPOINTS as REPORT_ENDPOINTS
from tests.battles.test_api_sessions import CAMPAIGN_OPERATIONS as SESSION_OPERATIONS
from tests.battles.test_matchup_sheet import OPERATIONS as MATCHUP_OPERATIONS
from tests.campaign.api_world import PERSONAS, World, build_world
from tests.exchange.test_permissions import OPERATIONS as EXCHANGE_OPERATIONS
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

# Status per persona, in PERSONAS order: creator, co-organiser, player, applicant, stranger, anonymous.
Row = tuple[int, int, int, int, int, int]


def seen_by_all(ok: int) -> dict[bool, Row]:
    """Reading: players and applicants see a private campaign; strangers and visitors get a 404."""
    return {False: (ok, ok, ok, ok, 404, 404), True: (ok, ok, ok, ok, ok, ok)}


def run_by_organisers(ok: int) -> dict[bool, Row]:
    return {False: (ok, ok, 403, 403, 404, 404), True: (ok, ok, 403, 403, 403, 403)}


def the_player_only(ok: int) -> dict[bool, Row]:
    """What only the admitted player may do: organisers without a place and the applicant get 403."""
    return {False: (403, 403, ok, 403, 404, 404), True: (403, 403, ok, 403, 403, 403)}


def seen_with_an_account(ok: int) -> dict[bool, Row]:
    return {False: (ok, ok, ok, ok, 404, 404), True: (ok, ok, ok, ok, ok, 403)}


RUNNING = Status.RUNNING


@dataclass(frozen=True)
class Endpoint:
    operation_id: str
    method: str
    path: Callable[[World], str]
    expected: dict[bool, Row]  # public? -> statuses
    body: Callable[[World], Any] = lambda _w: None
    status: str = Status.REGISTRATION
    # What the campaign needs before the call (an open round, a balance), made anew for each persona.
    setup: Callable[[World], Any] = lambda _w: None


ENDPOINTS = [
    Endpoint("campaigns_list", "get", lambda w: "/api/campaigns/", {False: (200,) * 6, True: (200,) * 6}),
    Endpoint(
        "campaigns_create", "post", lambda w: "/api/campaigns/",
        dict.fromkeys((False, True), (201, 201, 201, 201, 201, 403)), body=lambda w: {"name": "Another"},
    ),
    Endpoint("campaigns_retrieve", "get", lambda w: w.url(), seen_by_all(200)),
    Endpoint("campaigns_dashboard", "get", lambda w: w.url("dashboard/"), run_by_organisers(200)),
    Endpoint(
        "campaigns_update", "patch", lambda w: w.url(), run_by_organisers(200),
        body=lambda w: {"points_limit": 200}, status=Status.DRAFT,
    ),
    Endpoint(
        "campaigns_open_registration", "post", lambda w: w.url("open-registration/"), run_by_organisers(200),
        status=Status.DRAFT,
    ),
    Endpoint("campaigns_start", "post", lambda w: w.url("start/"), run_by_organisers(200)),
    Endpoint("campaigns_finish", "post", lambda w: w.url("finish/"), run_by_organisers(200), status=Status.RUNNING),
    Endpoint("campaigns_invite_regenerate", "post", lambda w: w.url("invite/"), run_by_organisers(200)),
    Endpoint("campaigns_log", "get", lambda w: w.url("log/"), seen_by_all(200)),
    Endpoint("co_organisers_list", "get", lambda w: w.url("co-organisers/"), seen_by_all(200)),
    Endpoint(
        "co_organisers_add", "post", lambda w: w.url("co-organisers/"),
        {False: (201, 403, 403, 403, 404, 404), True: (201, 403, 403, 403, 403, 403)},
        body=lambda w: {"username": UserFactory(username="newbie").username},
    ),
    Endpoint(
        # The co-organiser removes themself: stepping down is allowed.
        "co_organisers_remove", "delete", lambda w: w.url("co-organisers/cora/"), run_by_organisers(204)
    ),
    Endpoint("enrolments_list", "get", lambda w: w.url("enrolments/"), seen_by_all(200)),
    Endpoint(
        # Organisers may play in their own campaign; the player and the applicant are already in (409).
        "enrolments_join", "post", lambda w: w.url("enrolments/"),
        {False: (201, 201, 409, 409, 404, 404), True: (201, 201, 409, 409, 201, 403)},
        body=lambda w: {"bloc": "Axis"},
    ),
    Endpoint(
        "enrolments_withdraw", "post", lambda w: w.url("withdraw/"),
        {False: (403, 403, 200, 200, 404, 404), True: (403, 403, 200, 200, 403, 403)},
    ),
    Endpoint(
        # A pending applicant has no place to leave: the service's conflict.
        "enrolments_leave", "post", lambda w: w.url("leave/"),
        {False: (403, 403, 200, 409, 404, 404), True: (403, 403, 200, 409, 403, 403)},
        status=Status.RUNNING,
    ),
    Endpoint(
        "enrolments_admit", "post", lambda w: w.url(f"enrolments/{w.applicant_place.pk}/admit/"),
        run_by_organisers(200),
    ),
    Endpoint(
        "enrolments_refuse", "post", lambda w: w.url(f"enrolments/{w.applicant_place.pk}/refuse/"),
        run_by_organisers(200), body=lambda w: {"reason": "The Axis is full"},
    ),
    Endpoint(
        "placeholders_add", "post", lambda w: w.url("placeholders/"), run_by_organisers(201),
        body=lambda w: {"name": "Dima", "bloc": "Axis"},
    ),
    Endpoint(
        "placeholders_claim_link", "post", lambda w: w.url(f"enrolments/{w.placeholder.pk}/claim-link/"),
        run_by_organisers(200),
    ),
    Endpoint(
        # The token is the way in, private or not; who already has a place gets the service's 409.
        "placeholders_claim", "post", lambda w: "/api/campaigns/claims/",
        dict.fromkeys((False, True), (200, 200, 409, 409, 200, 403)),
        body=lambda w: {"token": w.placeholder.claim_token},
    ),
    Endpoint("sectors_list", "get", lambda w: w.url("sectors/"), seen_by_all(200)),
    Endpoint("map_svg", "get", lambda w: w.url("map.svg"), seen_by_all(200)),
    Endpoint("map_retrieve", "get", lambda w: w.url("map/"), seen_by_all(200)),
    Endpoint(
        "map_load", "put", lambda w: w.url("map/"), run_by_organisers(200),
        body=lambda w: map_to_json(default_map()), status=Status.DRAFT,
    ),
    Endpoint(
        "map_load_default", "post", lambda w: w.url("map/default/"), run_by_organisers(200), status=Status.DRAFT
    ),
    Endpoint(
        "sectors_update", "patch", lambda w: w.url("sectors/zoo/"), run_by_organisers(200),
        body=lambda w: {"owner": "Axis", "reason": "Taken in a skirmish"},
    ),
    Endpoint("sectors_history", "get", lambda w: w.url("sectors/zoo/history/"), seen_by_all(200)),
    Endpoint("registrations_list", "get", lambda w: w.url("registrations/"), seen_by_all(200)),
    Endpoint(
        # Everyone sends the player's list: only the player registers it. Organisers and strangers have
        # no place of their own (403); the applicant's place is not admitted yet (the service's 409).
        "registrations_create", "post", lambda w: w.url("registrations/"),
        {False: (403, 403, 201, 409, 404, 404), True: (403, 403, 201, 409, 403, 403)},
        body=lambda w: {"army_list": w.player_list().pk},
    ),
    Endpoint(
        "registrations_retrieve", "get", lambda w: w.url(f"registrations/{w.registration().pk}/"),
        seen_by_all(200),
    ),
    # Rounds and pairings
    Endpoint("rounds_list", "get", lambda w: w.url("rounds/"), seen_by_all(200), status=RUNNING),
    Endpoint(
        "rounds_open", "post", lambda w: w.url("rounds/"), run_by_organisers(201),
        body=lambda w: {"deadline": (timezone.now() + timedelta(days=7)).isoformat()}, status=RUNNING,
    ),
    Endpoint(
        "rounds_retrieve", "get", lambda w: w.url(f"rounds/{w.open_round().number}/"), seen_by_all(200),
        status=RUNNING,
    ),
    Endpoint(
        "rounds_close_preview", "get", lambda w: w.url(f"rounds/{w.open_round().number}/close/"),
        run_by_organisers(200), status=RUNNING,
    ),
    Endpoint(
        "rounds_close", "post", lambda w: w.url(f"rounds/{w.open_round().number}/close/"),
        run_by_organisers(200), status=RUNNING,
    ),
    Endpoint(
        "rounds_reopen", "post", lambda w: w.url(f"rounds/{w.closed_round().number}/reopen/"),
        run_by_organisers(200), body=lambda w: {"reason": "A result came in late"}, status=RUNNING,
    ),
    Endpoint(
        "pairings_generate", "post", lambda w: w.url(f"rounds/{w.open_round().number}/pairings/"),
        run_by_organisers(200), status=RUNNING,
    ),
    Endpoint(
        "pairings_swap", "post", lambda w: w.url(f"rounds/{w.drafted_round().number}/pairings/swap/"),
        run_by_organisers(200), body=lambda w: {"first": w.player_place.pk, "second": w.placeholder.pk},
        status=RUNNING,
    ),
    Endpoint(
        "pairings_set_sector", "post", lambda w: w.url(f"rounds/{w.drafted_round().number}/pairings/sector/"),
        run_by_organisers(200), body=lambda w: {"battle": w.draft_battle().pk, "sector": None}, status=RUNNING,
    ),
    Endpoint(
        "pairings_publish", "post", lambda w: w.url(f"rounds/{w.drafted_round().number}/pairings/publish/"),
        run_by_organisers(200), status=RUNNING,
    ),
    Endpoint(
        "battles_schedule", "post", lambda w: w.url(f"rounds/{w.open_round().number}/battles/"),
        run_by_organisers(201), status=RUNNING,
        body=lambda w: {"attacker": w.player_place.pk, "defender": w.placeholder.pk, "sector": "zoo"},
    ),
    # Battles
    Endpoint("battles_list", "get", lambda w: w.url("battles/"), seen_by_all(200), status=RUNNING),
    Endpoint(
        "battles_retrieve", "get", lambda w: w.url(f"battles/{w.battle().pk}/"), seen_by_all(200),
        status=RUNNING,
    ),
    Endpoint(
        "battles_update", "patch", lambda w: w.url(f"battles/{w.battle().pk}/"), run_by_organisers(200),
        body=lambda w: {"mission": "sabotage", "points_limit": 200}, status=RUNNING,
    ),
    Endpoint(
        # A check changes nothing and registered lists are open to whoever sees the campaign: any account.
        "battles_list_check", "post", lambda w: w.url(f"battles/{w.battle().pk}/list-check/"),
        seen_with_an_account(200),
        body=lambda w: {
            "side": w.side_of_player(Battle.objects.get(campaign=w.campaign)), "registration": w.registration().pk,
        },
        status=RUNNING,
    ),
    # Challenges
    Endpoint("challenges_list", "get", lambda w: w.url("challenges/"), seen_by_all(200), status=RUNNING),
    Endpoint(
        # The player challenges the placeholder over the Zoo: only an admitted player challenges.
        "challenges_issue", "post", lambda w: w.url("challenges/"), the_player_only(201),
        body=lambda w: {"challenged": w.placeholder.pk, "sector": "zoo"}, status=RUNNING,
        setup=lambda w: w.open_round(),
    ),
    Endpoint(
        "challenges_retrieve", "get", lambda w: w.url(f"challenges/{w.challenge(by_player=True).pk}/"),
        seen_by_all(200), status=RUNNING,
    ),
    Endpoint(
        # The placeholder challenged the player: only the player answers (organisers only for a placeholder).
        "challenges_accept", "post", lambda w: w.url(f"challenges/{w.challenge(by_player=False).pk}/accept/"),
        the_player_only(200), status=RUNNING,
    ),
    Endpoint(
        "challenges_decline", "post", lambda w: w.url(f"challenges/{w.challenge(by_player=False).pk}/decline/"),
        the_player_only(200), status=RUNNING,
    ),
    Endpoint(
        "challenges_withdraw", "post", lambda w: w.url(f"challenges/{w.challenge(by_player=True).pk}/withdraw/"),
        the_player_only(200), status=RUNNING,
    ),
    # The war economy
    Endpoint("economy_balances", "get", lambda w: w.url("balances/"), seen_by_all(200), status=RUNNING),
    Endpoint("economy_ledger", "get", lambda w: w.url("ledger/"), seen_by_all(200), status=RUNNING),
    Endpoint(
        "economy_adjust", "post", lambda w: w.url("ledger/"), run_by_organisers(201),
        body=lambda w: {"bloc": "SSU", "amount": 5, "reason": "Captured a supply dump"}, status=RUNNING,
    ),
    Endpoint("economy_purchases", "get", lambda w: w.url("purchases/"), seen_by_all(200), status=RUNNING),
    Endpoint(
        # The SSU holds the Workers' Settlement; the player's bloc has the points for a strongpoint.
        "economy_buy", "post", lambda w: w.url("purchases/"), the_player_only(201),
        body=lambda w: {"sector": "workers-settlement", "kind": "strongpoint"}, status=RUNNING,
        setup=lambda w: w.fund("SSU", 3),
    ),
]  # fmt: skip


def answer(world: World, endpoint: Endpoint, persona: str) -> tuple[int, Any]:
    """The persona's answer, every change it made rolled back, so the next persona meets the same campaign."""
    with transaction.atomic():
        client = world.client(persona)
        endpoint.setup(world)
        response = getattr(client, endpoint.method)(endpoint.path(world), endpoint.body(world), format="json")
        transaction.set_rollback(True)
    body = response.json() if response.get("Content-Type", "").startswith("application/json") else None
    return response.status_code, body


@pytest.mark.parametrize("public", [False, True], ids=["private", "public"])
@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=[endpoint.operation_id for endpoint in ENDPOINTS])
def test_each_persona_gets_exactly_its_answer(endpoint: Endpoint, public: bool) -> None:
    world = build_world(public=public, status=endpoint.status)

    answers = {persona: answer(world, endpoint, persona) for persona in PERSONAS}

    assert dict(zip(PERSONAS, endpoint.expected[public], strict=True)) == {
        persona: status for persona, (status, _body) in answers.items()
    }
    for status, body in answers.values():
        if status == 404:
            # The same answer as for a campaign that does not exist: nothing leaks.
            assert body == {"code": "not_found", "detail": "no such campaign", "errors": []}


def test_the_matrix_covers_every_campaign_endpoint_of_the_schema(api_client) -> None:
    schema = api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    documented = {
        operation["operationId"]
        for path, operations in schema["paths"].items()
        if path.startswith("/api/campaigns/")
        # The standings' endpoints have their own matrix (tests/standings/test_permissions.py).
        and not path.startswith("/api/campaigns/{id}/standings/")
        for operation in operations.values()
    }

    # The battle reports (seven personas: a battle's two players are part of it), the export, CSV and
    # import endpoints (exchange app), a battle's matchup sheet and the start of its session have their own
    # matrices: between them, every operation is covered.
    reports = {endpoint.operation_id for endpoint in REPORT_ENDPOINTS}
    others = EXCHANGE_OPERATIONS | MATCHUP_OPERATIONS | SESSION_OPERATIONS
    assert documented == {endpoint.operation_id for endpoint in ENDPOINTS} | reports | others


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_campaign_list_shows_a_private_campaign_only_to_those_who_may_see_it(persona: str) -> None:
    world = build_world(public=False)

    names = [row["name"] for row in world.client(persona).get("/api/campaigns/").json()["results"]]

    seen = persona in {"creator", "co_organiser", "player", "applicant"}
    assert names == (["Siege of the Tractor Works"] if seen else [])


def test_a_missing_campaign_and_a_hidden_one_answer_alike() -> None:
    world = build_world(public=False)
    client = world.client("stranger")

    hidden = client.post(world.url("start/"))
    missing = client.post(f"/api/campaigns/{world.campaign.pk + 1000}/start/")

    assert (hidden.status_code, hidden.json()) == (missing.status_code, missing.json())
