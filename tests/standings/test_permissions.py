"""Who gets what on every standings page and endpoint: the permission matrix.

Five people ask each of a private and a public running campaign: its creator, a
co-organiser, an admitted player, a logged-in stranger and an anonymous visitor.
Seeing follows the campaign (a private one is a 404, never a 403, to whoever may
not see it); adjusting campaign points is for organisers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from accounts.models import User
from campaign.models import Campaign, CoOrganiser, Enrolment
from standings.models import Adjustment
from standings.urls import urlpatterns
from tests.factories import UserFactory
from tests.standings.conftest import League

pytestmark = pytest.mark.django_db

PERSONAS = ("creator", "co_organiser", "player", "stranger", "anonymous")
LOGIN = "login"


@dataclass
class World:
    campaign: Campaign
    people: dict[str, User | None]
    place: Enrolment


@pytest.fixture(params=[False, True], ids=["private", "public"])
def world(request: Any, league: League, organiser: User) -> World:
    league.fight("a1", "x1", "attacker", vp=(4, 1))
    league.standings()
    Campaign.objects.filter(pk=league.campaign.pk).update(is_public=request.param)
    league.campaign.refresh_from_db()
    co = UserFactory(username="corinna")
    CoOrganiser.objects.create(campaign=league.campaign, user=co, added_by=organiser)
    place = league.place("a1")
    people: dict[str, User | None] = {
        "creator": organiser, "co_organiser": co, "player": place.player,
        "stranger": UserFactory(username="stranger"), "anonymous": None,
    }  # fmt: skip
    return World(league.campaign, people, place)


def _seen(world: World, ok: int | str = 200) -> dict[str, int | str]:
    hidden = not world.campaign.is_public
    return {
        "creator": ok, "co_organiser": ok, "player": ok,
        "stranger": 404 if hidden else ok, "anonymous": 404 if hidden else ok,
    }  # fmt: skip


PAGES: dict[str, Callable[[World], str]] = {
    "standings": lambda w: reverse("standings:standings", args=[w.campaign.pk]),
    "status": lambda w: reverse("standings:status", args=[w.campaign.pk]) + "?seen=0",
    "print": lambda w: reverse("standings:print", args=[w.campaign.pk]),
    "player": lambda w: reverse("standings:player", args=[w.campaign.pk, w.place.pk]),
}


def _page_client(world: World, persona: str) -> Client:
    client = Client()
    user = world.people[persona]
    if user is not None:
        client.force_login(user)
    return client


@pytest.mark.parametrize("page", sorted(PAGES))
@pytest.mark.parametrize("persona", PERSONAS)
def test_every_page_is_seen_by_whoever_sees_the_campaign(world: World, page: str, persona: str) -> None:
    response = _page_client(world, persona).get(PAGES[page](world))
    assert response.status_code == _seen(world)[persona]


@pytest.mark.parametrize("persona", PERSONAS)
def test_only_organisers_adjust_points_on_the_page(world: World, persona: str) -> None:
    response = _page_client(world, persona).post(
        reverse("standings:adjust", args=[world.campaign.pk]),
        {"adjust-enrolment": world.place.pk, "adjust-points": 1, "adjust-reason": "Fair play"},
    )
    expected = _seen(world, 302) | {"player": 403, "anonymous": LOGIN}
    if world.campaign.is_public:
        expected["stranger"] = 403
    if expected[persona] == LOGIN:
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("accounts:login"))
    else:
        assert response.status_code == expected[persona]
    assert Adjustment.objects.exists() == (expected[persona] == 302)


@pytest.mark.parametrize("persona", PERSONAS)
def test_only_organisers_see_the_adjustment_form(world: World, persona: str) -> None:
    response = _page_client(world, persona).get(PAGES["standings"](world))
    if response.status_code == 200:
        assert ('data-testid="adjust-form"' in response.content.decode()) == (
            persona in ("creator", "co_organiser")
        )


ENDPOINTS: dict[str, Callable[[World], str]] = {
    "standings": lambda w: f"/api/campaigns/{w.campaign.pk}/standings/",
    "status": lambda w: f"/api/campaigns/{w.campaign.pk}/standings/status/",
    "history": lambda w: f"/api/campaigns/{w.campaign.pk}/standings/history/",
    "adjustments": lambda w: f"/api/campaigns/{w.campaign.pk}/standings/adjustments/",
    "player": lambda w: f"/api/campaigns/{w.campaign.pk}/standings/players/{w.place.pk}/",
}


def _api_client(world: World, persona: str) -> APIClient:
    client = APIClient()
    user = world.people[persona]
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.mark.parametrize("endpoint", sorted(ENDPOINTS))
@pytest.mark.parametrize("persona", PERSONAS)
def test_every_endpoint_is_read_by_whoever_sees_the_campaign(
    world: World, endpoint: str, persona: str
) -> None:
    response = _api_client(world, persona).get(ENDPOINTS[endpoint](world))
    assert response.status_code == _seen(world)[persona]


@pytest.mark.parametrize("persona", PERSONAS)
def test_only_organisers_adjust_points_through_the_api(world: World, persona: str) -> None:
    response = _api_client(world, persona).post(
        ENDPOINTS["adjustments"](world),
        {"player": world.place.pk, "points": 2, "reason": "Fair play"},
        format="json",
    )
    expected = _seen(world, 201) | {"player": 403}
    if world.campaign.is_public:
        expected |= {"stranger": 403, "anonymous": 403}
    assert response.status_code == expected[persona]
    assert Adjustment.objects.exists() == (expected[persona] == 201)


def test_a_place_of_another_campaign_is_not_found_through_the_api(world: World) -> None:
    response = _api_client(world, "creator").get(
        f"/api/campaigns/{world.campaign.pk}/standings/players/{world.place.pk + 10_000}/"
    )
    assert response.status_code == 404


def test_the_matrix_covers_every_standings_endpoint_and_page(api_client: APIClient) -> None:
    schema = api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    documented = {
        (path, method.upper())
        for path, operations in schema["paths"].items()
        if "/standings/" in path
        for method in operations
    }
    covered = {(path, "GET") for path in (
        "/api/campaigns/{id}/standings/", "/api/campaigns/{id}/standings/status/",
        "/api/campaigns/{id}/standings/history/", "/api/campaigns/{id}/standings/adjustments/",
        "/api/campaigns/{id}/standings/players/{enrolment_id}/",
    )} | {("/api/campaigns/{id}/standings/adjustments/", "POST")}  # fmt: skip
    assert documented == covered
    assert {pattern.name for pattern in urlpatterns} == set(PAGES) | {"adjust"}
