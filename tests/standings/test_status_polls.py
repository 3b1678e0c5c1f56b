"""The standings status polls cost one small query when nothing changed.

The page's status line sends back the versions it shows (``seen``: its tables', ``results``: the
campaign's) and gets a 204 while both are current; the endpoint gets a 304 for its own ETag. Either
way the answer comes from one query (the campaign joined to its standings, with what the viewer is to
it) after the session's two, and whoever may not see the campaign still gets the 404 they always got.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.test import APIClient

from accounts.models import User
from campaign.models import Campaign, CoOrganiser
from campaign.services.versions import results_changed
from standings.services import standings_recompute
from tests.factories import UserFactory
from tests.standings.builders import populated_campaign
from tests.standings.conftest import League

pytestmark = pytest.mark.django_db

PERSONAS = ("creator", "co_organiser", "player", "stranger", "anonymous")
_POLL_URL = re.compile(r'hx-get="([^"]*/standings/status/[^"]*)"')


def _client(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _api(user: User | None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def _poll_url(client: Client, campaign: Campaign) -> str:
    """The address the standings page polls, as the page writes it."""
    html = client.get(reverse("standings:standings", args=[campaign.pk])).content.decode()
    found = _POLL_URL.search(html)
    assert found is not None
    return found.group(1).replace("&amp;", "&")


def _queries(call: Callable[[], Any]) -> tuple[Any, int]:
    with CaptureQueriesContext(connection) as captured:
        response = call()
    return response, len(captured.captured_queries)


@pytest.fixture
def played(league: League) -> League:
    league.fight("a1", "x1", "attacker", vp=(4, 1))
    league.standings()
    return league


# --------------------------------------------------------------------------- the page's status line


def test_it_answers_204_from_one_query_while_the_page_shows_the_current_versions(
    played: League, organiser: User
) -> None:
    client = _client(organiser)
    url = _poll_url(client, played.campaign)
    response, queries = _queries(lambda: client.get(url, HTTP_HX_REQUEST="true"))
    assert response.status_code == 204
    assert response.content == b""
    # The session, its user, and the campaign joined to its standings with what the viewer is to it.
    assert queries == 3
    assert response["Cache-Control"] == "private, no-cache"


def test_it_takes_three_queries_for_6_players_or_150() -> None:
    counts = []
    for players, seed in ((6, 21), (150, 22)):
        campaign = populated_campaign(players=players, rounds=3, seed=seed)
        standings_recompute(campaign_id=campaign.pk)
        client = _client(campaign.organiser)
        url = _poll_url(client, campaign)
        response, queries = _queries(lambda: client.get(url, HTTP_HX_REQUEST="true"))  # noqa: B023
        assert response.status_code == 204
        counts.append(queries)
    assert counts == [3, 3]


def test_it_says_a_recompute_is_due_once_results_change(played: League, organiser: User) -> None:
    client = _client(organiser)
    url = _poll_url(client, played.campaign)
    results_changed(campaign=played.campaign)
    response = client.get(url, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'data-pending="true"' in html
    assert "hx-swap-oob" not in html  # the tables wait for the recompute
    assert response["Cache-Control"] == "private, no-cache"
    # The answer carries the versions it shows: asked again, nothing new.
    again = _POLL_URL.search(html)
    assert again is not None
    assert client.get(again.group(1).replace("&amp;", "&"), HTTP_HX_REQUEST="true").status_code == 204


def test_it_brings_the_tables_once_fresh_standings_land(played: League, organiser: User) -> None:
    client = _client(organiser)
    url = _poll_url(client, played.campaign)
    played.fight("a2", "s2", "defender", vp=(0, 4), round=1)
    results_changed(campaign=played.campaign)
    standings_recompute(campaign_id=played.campaign.pk)
    response = client.get(url, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="standings-body" hx-swap-oob="true"' in html
    assert 'data-player="S2"' in html


def test_it_answers_in_full_when_the_page_sends_no_versions(played: League, organiser: User) -> None:
    url = reverse("standings:status", args=[played.campaign.pk])
    assert _client(organiser).get(url, HTTP_HX_REQUEST="true").status_code == 200
    assert _client(organiser).get(url + "?seen=x&results=1").status_code == 200


# --------------------------------------------------------------------------- the endpoint


def _status_api(campaign: Campaign) -> str:
    return f"/api/campaigns/{campaign.pk}/standings/status/"


@pytest.mark.parametrize("seen", ["\u00b2", "9" * 5000, "-", "1e3"])
def test_it_answers_a_version_no_page_could_send_without_failing(
    played: League, organiser: User, seen: str
) -> None:
    """A superscript digit passes str.isdigit and a 5,000-digit number passes int()'s limit: neither may
    make a 500; the poll answers in full, as to any page that does not hold the current version."""
    client = _client(organiser)
    address = reverse("standings:status", args=[played.campaign.pk])

    answer = client.get(address, {"seen": seen, "results": "0"}, headers={"HX-Request": "true"})

    assert answer.status_code == 200
    assert b'data-testid="standings-status"' in answer.content


def test_the_endpoint_answers_304_to_its_own_etag_from_one_query(played: League, organiser: User) -> None:
    client = _api(organiser)
    first = client.get(_status_api(played.campaign))
    assert first.status_code == 200
    assert first["ETag"].startswith('W/"')
    assert first["Cache-Control"] == "private, no-cache"
    response, queries = _queries(
        lambda: client.get(_status_api(played.campaign), HTTP_IF_NONE_MATCH=first["ETag"])
    )
    assert response.status_code == 304
    assert response.content == b""
    assert response["ETag"] == first["ETag"]
    assert queries == 1  # the campaign joined to its standings (the token's user is already known)
    # A list of tags naming it, or its strong form, matches too; another tag does not.
    assert (
        client.get(_status_api(played.campaign), HTTP_IF_NONE_MATCH=f'"x", {first["ETag"]}').status_code
        == 304
    )
    assert client.get(_status_api(played.campaign), HTTP_IF_NONE_MATCH=first["ETag"][2:]).status_code == 304
    assert client.get(_status_api(played.campaign), HTTP_IF_NONE_MATCH='W/"other"').status_code == 200


def test_the_endpoint_etag_changes_with_the_results_and_again_with_the_recompute(
    played: League, organiser: User
) -> None:
    client = _api(organiser)
    before = client.get(_status_api(played.campaign))["ETag"]
    played.fight("a2", "s2", "defender", vp=(0, 4), round=1)
    results_changed(campaign=played.campaign)
    due = client.get(_status_api(played.campaign), HTTP_IF_NONE_MATCH=before)
    assert due.status_code == 200
    assert due.json()["pending"] is True
    standings_recompute(campaign_id=played.campaign.pk)
    done = client.get(_status_api(played.campaign), HTTP_IF_NONE_MATCH=due["ETag"])
    assert done.status_code == 200
    assert done.json()["pending"] is False
    assert len({before, due["ETag"], done["ETag"]}) == 3


# --------------------------------------------------------------------------- who gets what


@pytest.fixture(params=[False, True], ids=["private", "public"])
def people(request: Any, played: League, organiser: User) -> dict[str, User | None]:
    Campaign.objects.filter(pk=played.campaign.pk).update(is_public=request.param)
    played.campaign.refresh_from_db()
    co = UserFactory(username="corinna")
    CoOrganiser.objects.create(campaign=played.campaign, user=co, added_by=organiser)
    return {
        "creator": organiser, "co_organiser": co, "player": played.place("a1").player,
        "stranger": UserFactory(username="stranger"), "anonymous": None,
    }  # fmt: skip


@pytest.mark.parametrize("persona", PERSONAS)
def test_every_persona_gets_what_it_got_before_and_an_outsider_no_304(
    played: League, people: dict[str, User | None], persona: str
) -> None:
    campaign = played.campaign
    sees = campaign.is_public or persona in ("creator", "co_organiser", "player")
    # The versions and the ETag, as someone who sees the campaign has them.
    url = _poll_url(_client(people["creator"]), campaign)
    tag = _api(people["creator"]).get(_status_api(campaign))["ETag"]

    page = _client(people[persona]).get(url, HTTP_HX_REQUEST="true")
    api = _api(people[persona]).get(_status_api(campaign), HTTP_IF_NONE_MATCH=tag)
    full = _api(people[persona]).get(_status_api(campaign))
    assert (page.status_code, api.status_code, full.status_code) == (
        (204, 304, 200) if sees else (404, 404, 404)
    )
    if sees:
        assert full["ETag"] == tag  # one version for everyone who sees the campaign
    else:
        assert full.json()["code"] == "not_found"
