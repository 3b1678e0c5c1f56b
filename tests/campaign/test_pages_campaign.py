"""The campaign page (map, round selector, players by bloc, lists, settings) and its timeline."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from accounts.models import User
from armies.blocs import Bloc
from campaign.engine.svg import DEFAULT_COLOURS
from campaign.models import Campaign, CoOrganiser, EnrolmentStatus, Registration
from campaign.options import Status
from campaign.services.campaigns import campaign_update
from campaign.services.map import sector_update
from tests.factories import EnrolmentFactory, UserFactory

pytestmark = pytest.mark.django_db


def detail(campaign: Campaign) -> str:
    return reverse("campaign:detail", args=[campaign.pk])


def svg_owner(content: bytes, key: str) -> str:
    match = re.search(rf'<a [^>]*data-sector="{key}" data-owner="([^"]+)"', content.decode())
    assert match, f"no sector {key} in the map"
    return match.group(1)


def svg_fill(content: bytes, key: str) -> str:
    match = re.search(rf'data-sector="{key}"[^>]*>.*?<polygon [^>]*fill="([^"]+)"', content.decode(), re.S)
    assert match
    return match.group(1)


def move(campaign: Campaign, organiser: User, key: str, owner: str | None, *, round_number: int) -> None:
    Campaign.objects.filter(pk=campaign.pk).update(current_round=round_number)
    campaign.refresh_from_db()
    sector_update(
        campaign=campaign, actor=organiser, key=key, changes={"owner": owner}, reason=f"Round {round_number}"
    )


def test_it_draws_the_map_with_each_sector_in_its_holders_colour(client, open_campaign, player):
    client.force_login(player)

    response = client.get(detail(open_campaign))

    content = response.content
    assert b'<svg xmlns="http://www.w3.org/2000/svg"' in content
    assert (svg_owner(content, "airfield"), svg_owner(content, "zoo"), svg_owner(content, "port")) == (
        "Axis", "neutral", "Allies",
    )  # fmt: skip
    assert svg_fill(content, "airfield") == DEFAULT_COLOURS["Axis"]
    assert svg_fill(content, "zoo") == DEFAULT_COLOURS[None]
    assert f'href="{reverse("campaign:sector", args=[open_campaign.pk, "zoo"])}"'.encode() in content


def test_it_states_the_map_in_a_table_for_screen_readers(client, open_campaign, player):
    client.force_login(player)

    content = client.get(detail(open_campaign)).content.decode()

    row = re.search(r'<tr data-sector="airfield">(.*?)</tr>', content, re.S).group(1)
    assert "The Airfield" in row
    assert "Axis HQ" in row
    assert "strongpoint" in row
    assert ">open<" in row
    assert content.count("<tr data-sector=") == 14


def test_it_shows_the_map_as_it_was_at_the_end_of_a_round(client, open_campaign, organiser, player):
    move(open_campaign, organiser, "zoo", "SSU", round_number=0)
    move(open_campaign, organiser, "zoo", "Axis", round_number=1)
    move(open_campaign, organiser, "central-station", "SSU", round_number=2)
    client.force_login(player)

    now = client.get(detail(open_campaign)).content
    start = client.get(detail(open_campaign), {"round": 0}).content
    first = client.get(detail(open_campaign), {"round": 1}).content

    assert (svg_owner(start, "zoo"), svg_owner(first, "zoo"), svg_owner(now, "zoo")) == (
        "SSU",
        "Axis",
        "Axis",
    )
    assert (svg_owner(first, "central-station"), svg_owner(now, "central-station")) == ("neutral", "SSU")
    assert b"as it was at the end of round 1" in first
    assert b'<option value="1" selected>' in first
    assert b"Now (round 2)" in now


def test_it_shows_the_map_now_for_a_round_it_cannot_show(client, open_campaign, organiser, player):
    move(open_campaign, organiser, "zoo", "SSU", round_number=1)
    client.force_login(player)

    future = client.get(detail(open_campaign), {"round": 7})
    nonsense = client.get(detail(open_campaign), {"round": "soon"})

    assert (future.status_code, nonsense.status_code) == (200, 200)
    assert svg_owner(future.content, "zoo") == svg_owner(nonsense.content, "zoo") == "SSU"


def test_it_answers_the_htmx_round_selector_with_the_map_only(client, open_campaign, organiser, player):
    move(open_campaign, organiser, "zoo", "SSU", round_number=1)
    client.force_login(player)

    response = client.get(
        detail(open_campaign), {"round": 0}, headers={"HX-Request": "true", "HX-Target": "campaign-map"}
    )

    assert response.content.lstrip().startswith(b'<div id="campaign-map"')
    assert b"<html" not in response.content
    assert svg_owner(response.content, "zoo") == "neutral"


def test_it_says_when_there_is_no_map_yet(client, campaign, organiser):
    client.force_login(organiser)

    response = client.get(detail(campaign))

    assert b"No map yet." in response.content
    assert reverse("campaign:map", args=[campaign.pk]).encode() in response.content


def test_it_lists_players_by_bloc_in_their_colours(client, open_campaign, organiser, player):
    EnrolmentFactory(campaign=open_campaign, player=UserFactory(username="hans", display_name="Hans"), bloc=Bloc.AXIS,
                     faction="blutkreuz", mercenary=False)  # fmt: skip
    EnrolmentFactory(campaign=open_campaign, player=None, placeholder_name="Misha", bloc=Bloc.AXIS)
    EnrolmentFactory(campaign=open_campaign, player=UserFactory(username="wait"), bloc=Bloc.AXIS,
                     status=EnrolmentStatus.PENDING)  # fmt: skip
    client.force_login(player)

    content = client.get(detail(open_campaign)).content.decode()

    axis = re.search(
        r'<div class="card bloc-card" style="--bloc-colour: ([^"]+)" data-bloc="Axis">(.*?)</div>',
        content,
        re.S,
    )
    assert axis.group(1) == DEFAULT_COLOURS["Axis"]
    assert "Hans" in axis.group(2)
    assert "Blutkreuz" in axis.group(2)  # a key the catalogue does not know still reads as a word
    assert "Misha" in axis.group(2)
    assert "no account yet" in axis.group(2)
    assert "wait" not in axis.group(2)
    ssu = re.search(r'data-bloc="SSU">(.*?)</div>', content, re.S).group(1)
    assert "Pavel" in ssu


def test_it_names_the_organisers_and_summarises_the_settings(client, open_campaign, organiser, player):
    CoOrganiser.objects.create(campaign=open_campaign, user=UserFactory(username="cora", display_name="Cora"))
    changes = {"tiebreakers": ["head_to_head", "vp_for"], "ruleset": {"name": "rtz", "scout_rtz": False}}
    campaign_update(campaign=open_campaign, actor=organiser, changes=changes)
    client.force_login(player)

    content = client.get(detail(open_campaign)).content.decode()

    assert "Run by Olga, Cora" in content
    assert "Head to head, then VP for" in content
    assert "Zverograd Demo (version 1)" in content
    assert "Pass tokens" in content
    assert "Scout," not in content


def test_it_renders_the_registered_lists_section(client, open_campaign, player, demo_catalogue):
    enrolment = open_campaign.enrolments.get(player=player)
    for name, problems in (("Red Wall", []), ("Iron Rain", [{"severity": "warning", "code": "x"}])):
        Registration.objects.create(
            campaign=open_campaign, enrolment=enrolment, name=name, bloc="SSU", document={},
            catalogue=demo_catalogue, catalogue_name="Demo", catalogue_version="1", total_ap=148,
            verdict={"ok": True, "totals": {}, "problems": problems},
        )  # fmt: skip
    client.force_login(player)

    content = client.get(detail(open_campaign)).content.decode()

    assert content.count('data-testid="registration-row"') == 2
    assert "Red Wall" in content
    assert "148" in content
    assert "badge-ok" in content
    assert "1 warning" in content


def test_it_offers_each_person_the_buttons_they_may_use(client, open_campaign, organiser, player, stranger):
    open_campaign.is_public = True
    open_campaign.save()
    url = detail(open_campaign)

    client.force_login(stranger)
    for_stranger = client.get(url).content.decode()
    client.force_login(player)
    for_player = client.get(url).content.decode()
    client.force_login(organiser)
    for_organiser = client.get(url).content.decode()

    join, withdraw, dashboard = (
        "Ask to join",
        reverse("campaign:withdraw", args=[open_campaign.pk]),
        "Organiser's dashboard",
    )
    assert (join in for_stranger, withdraw in for_stranger, dashboard in for_stranger) == (True, False, False)
    assert (join in for_player, withdraw in for_player, dashboard in for_player) == (False, True, False)
    assert (join in for_organiser, dashboard in for_organiser) == (False, True)
    assert "Play in it yourself" in for_organiser  # organisers may play, but do not ask themselves to join
    assert "Play in it yourself" not in for_stranger


def test_it_offers_leaving_once_the_campaign_runs(client, open_campaign, player):
    Campaign.objects.filter(pk=open_campaign.pk).update(status=Status.RUNNING)
    client.force_login(player)

    content = client.get(detail(open_campaign)).content.decode()

    assert reverse("campaign:leave", args=[open_campaign.pk]) in content
    assert reverse("campaign:withdraw", args=[open_campaign.pk]) not in content


def test_it_shows_the_timeline_newest_first_and_paginated(client, open_campaign, organiser, player):
    for index in range(55):
        campaign_update(
            campaign=open_campaign,
            actor=organiser,
            changes={"points_limit": 100 + index},
            reason=f"try {index}",
        )
    move(open_campaign, organiser, "zoo", "SSU", round_number=1)
    client.force_login(player)

    first = client.get(reverse("campaign:timeline", args=[open_campaign.pk]))
    second = client.get(reverse("campaign:timeline", args=[open_campaign.pk]), {"page": 2})

    lines = [line.text for line in first.context["lines"]]
    assert len(lines) == 50
    assert lines[0] == "The Zoo: holder neutral → SSU"
    assert lines[1] == "Points limit: 153 → 154"
    assert b"Why: Round 1" in first.content
    assert f'href="{reverse("campaign:sector", args=[open_campaign.pk, "zoo"])}"'.encode() in first.content
    older = [line.text for line in second.context["lines"]]
    assert older[-1] == "Loaded the map Zverograd (14 sectors)"
    assert len(lines) + len(older) == open_campaign.log.count()
