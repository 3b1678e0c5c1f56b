"""A campaign that hides results gives nothing away: every page and GET endpoint, enumerated.

The campaign is public and hides results until the round closes, a win is
worth resource points and the standings are computed after every step. x1
(Axis) attacks a1 (Allies) over a neutral sector; x1 reports a win. Then a1
confirms it. To an anonymous visitor, a stranger and a player of each bloc who
is not in the battle (a2 of the Allies, x2 of the Axis, s1 of the SSU), every
page and every GET endpoint of the campaign must answer exactly as before the
confirmation: status, type and body. The addresses are not listed by hand:
they are every route of the URL conf under the campaign (pages, API, CSVs, the
export, the SVG map), each filled with the world's ids, plus the
notifications, the campaign lists and the home page; the published OpenAPI
schema is checked to hold no campaign GET operation the walk missed. So a page
or endpoint added later is covered by itself.

Closing the round then shows the result to everyone at once.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from drf_spectacular.generators import SchemaGenerator

from campaign.models import Campaign, Sector
from campaign.services.rounds import round_close
from standings.services import standings_recompute
from tests.urlconf import PARAMETER, filled, routes

pytestmark = pytest.mark.django_db

OUTSIDERS = ("anonymous", "stranger", "a2", "x2", "s1")
CAMPAIGN_ROUTES = ("campaigns/<id:pk>/", "api/campaigns/<id:pk>/")
# Pages and endpoints of the viewer rather than of one campaign, which a result could still reach.
ALSO = (
    "core:home", "campaign:list", "api:campaigns", "notifications:list", "notifications:bell",
    "api:notifications", "api:notifications-count",
)  # fmt: skip
# Query strings every address is also asked with: a round, a status filter, a table, a page, a player.
QUERIES = ("", "?round=1&status=confirmed&table=blocs&page=1", "?round=0&status=reported&table=players")
_CSRF = re.compile(rb'(csrfmiddlewaretoken" value="|X-CSRFToken": ")[^"]+')


def _fillings(world: Any) -> dict[str, list[str]]:
    """What each route parameter is filled with: the world's own ids (every one a result could touch)."""
    battle, campaign = world.battle, world.campaign
    return {
        "pk": [str(campaign.pk)],
        "battle_id": [str(battle.pk)],
        "number": ["1"],
        "key": [battle.sector.key],
        "enrolment_id": [str(battle.attacker_id), str(battle.defender_id)],
        "registration_id": [str(world.lists["attacker"].pk), str(world.lists["defender"].pk)],
        "challenge_id": ["1"],
        "user_id": [str(world.creator.pk)],
        "username": [world.creator.username],
        "token": ["not-a-token"],
        "action": ["start"],
        "answer": ["accept"],
        "decision": ["accept", "amend", "void"],
    }


def campaign_addresses(world: Any) -> list[str]:
    fillings = _fillings(world)
    campaign_routes = [route for route, _name in routes() if route.startswith(CAMPAIGN_ROUTES)]
    addresses = [path for route in campaign_routes for path in filled(route, fillings)]
    addresses += [reverse(name) for name in ALSO]
    return sorted(set(addresses))


def _schema_get_paths() -> set[str]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return {path for path, operations in schema["paths"].items() if "get" in operations}


def _as_route(path: str) -> str:
    return re.sub(r"\{\w+\}", "{}", path.lstrip("/"))


def test_it_walks_every_campaign_get_operation_of_the_schema(report_world):
    known = {PARAMETER.sub("{}", route) for route, _ in routes()}
    campaign_ops = {path for path in _schema_get_paths() if path.startswith("/api/campaigns/{id}/")}
    assert campaign_ops, "the schema names campaign operations"
    assert {_as_route(path) for path in campaign_ops} <= known
    walked = campaign_addresses(report_world)
    # Every campaign route of the schema was filled and asked for at least once.
    for path in campaign_ops:
        pattern = re.escape(_as_route(path)).replace(r"\{\}", r"[^/]+")
        assert any(re.fullmatch("/" + pattern, address) for address in walked), path


def _answer(client: Client, address: str, htmx: bool) -> tuple[Any, ...]:
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = client.get(address, **headers)
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return (
        response.status_code, response.get("Content-Type"), response.get("Location"), response.get("ETag"),
        _CSRF.sub(rb"\1", body),
    )  # fmt: skip


def snapshot(
    clients: dict[str, Client], addresses: list[str]
) -> dict[tuple[str, str, bool], tuple[Any, ...]]:
    return {
        (persona, address + query, htmx): _answer(client, address + query, htmx)
        for persona, client in clients.items()
        for address in addresses
        for query in QUERIES
        for htmx in ((False,) if address.startswith("/api/") else (False, True))  # pages answer htmx too
    }


@pytest.fixture
def hidden_world(report_world):
    world = report_world
    Campaign.objects.filter(pk=world.campaign.pk).update(
        is_public=True, hide_results_until_close=True, award_win=3, award_draw=1
    )
    world.campaign.refresh_from_db()
    world.battle.campaign = world.campaign
    return world


def _clients(world: Any) -> dict[str, Client]:
    clients = {}
    for persona in OUTSIDERS:
        client = Client()
        user = {"anonymous": None, "stranger": world.stranger}.get(persona, ...)
        if user is ...:
            user = world.place(persona).player
        if user is not None:
            client.force_login(user)
        clients[persona] = client
    return clients


def test_nothing_any_outsider_can_fetch_changes_when_a_hidden_result_is_confirmed(hidden_world):
    world = hidden_world
    addresses = campaign_addresses(world)
    clients = _clients(world)
    report = world.submitted()
    standings_recompute(campaign_id=world.campaign.pk)
    before = snapshot(clients, addresses)

    from battles.services import report_confirm

    report_confirm(report=report, actor=world.defender)
    standings_recompute(campaign_id=world.campaign.pk)
    after = snapshot(clients, addresses)

    changed = sorted(key for key in before if before[key] != after[key])
    assert not changed, f"{len(changed)} answers changed, e.g. {changed[:5]}"
    # The walk is worth its name: it read pages and endpoints, not only refusals.
    assert sum(answer[0] == 200 for answer in before.values()) > 100
    # The result exists: the battle's players and the organisers see the report confirmed.
    seen = world.client("defender").get(world.url()).json()
    assert seen["status"] == "confirmed"

    # The round's close makes it take effect, for everyone at once.
    round_close(round=world.battle.round, actor=world.creator)
    standings_recompute(campaign_id=world.campaign.pk)
    sector = Sector.objects.get(pk=world.battle.sector_id)
    assert sector.owner == "Axis"
    closed = {key: _answer(clients[key[0]], key[1], key[2]) for key in before if key[1].endswith("/map.svg")}
    assert any(closed[key] != before[key] for key in closed)
