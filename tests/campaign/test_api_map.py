"""The map endpoints: the sectors now and at the end of a round, the SVG, loading a map (every problem
of a bad one named), changing a sector with its log, a sector's history and the campaign's log."""

from __future__ import annotations

import re

import pytest

from campaign.engine.mapformat import default_map, map_to_json
from campaign.engine.svg import DEFAULT_COLOURS
from campaign.models import Campaign, LogEntry, LogKind, Sector
from campaign.options import Status
from campaign.services.map import sector_update
from tests.campaign.api_world import World, build_world
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db


def problems(response):
    return [(e["field"], e["code"]) for e in response.json()["errors"]]


def owners(response):
    return {row["key"]: row["owner"] for row in response.json()["sectors"]}


def play_two_rounds(world: World) -> None:
    """The Zoo goes to the Axis in round 1 and to the SSU in round 2."""
    for round_number, holder in ((1, "Axis"), (2, "SSU")):
        Campaign.objects.filter(pk=world.campaign.pk).update(
            status=Status.RUNNING, current_round=round_number
        )
        world.campaign.refresh_from_db()
        sector_update(campaign=world.campaign, actor=world.creator, key="zoo", changes={"owner": holder},
                      reason=f"battle of round {round_number}")  # fmt: skip


# --------------------------------------------------------------------------- sectors


def test_it_lists_the_sectors_with_their_state_and_map_facts():
    world = build_world()

    body = world.client("player").get(world.url("sectors/")).json()

    assert (body["name"], body["map_version"], body["round"]) == ("Zverograd", 1, None)
    assert [row["key"] for row in body["sectors"]] == [sector.key for sector in default_map().sectors]
    port = next(row for row in body["sectors"] if row["key"] == "port")
    assert (port["owner"], port["headquarters_of"], port["fortification"]) == (
        "Allies",
        "Allies",
        "strongpoint",
    )
    assert "riverside" in port["neighbours"]
    assert owners(world.client("player").get(world.url("sectors/")))["zoo"] is None


def test_it_shows_the_sectors_as_they_were_at_the_end_of_a_round():
    world = build_world()
    play_two_rounds(world)
    client = world.client("player")

    zoo = [owners(client.get(world.url(f"sectors/{query}")))["zoo"] for query in ("?round=0", "?round=1", "")]

    assert zoo == [None, "Axis", "SSU"]
    assert client.get(world.url("sectors/?round=1")).json()["round"] == 1


@pytest.mark.parametrize(("query", "code"), [("?round=3", "future-round"), ("?round=-1", "min_value"),
                                              ("?round=x", "invalid")])  # fmt: skip
def test_it_refuses_a_round_that_has_not_been_played(query, code):
    world = build_world()
    play_two_rounds(world)

    response = world.client("player").get(world.url(f"sectors/{query}"))

    assert (response.status_code, problems(response)) == (400, [("round", code)])


@pytest.mark.parametrize("tail", ["sectors/", "map.svg", "map/"])
def test_a_campaign_without_a_map_says_so(api_as, organiser, tail):
    campaign = CampaignFactory(organiser=organiser)

    response = api_as(organiser).get(f"/api/campaigns/{campaign.pk}/{tail}")

    assert (response.status_code, response.json()["code"]) == (404, "map-missing")


# --------------------------------------------------------------------------- the picture


def fills(svg: str) -> dict[str, str]:
    return dict(re.findall(r'data-sector="([^"]+)"[^>]*>.*?<polygon [^>]*fill="([^"]+)"', svg, re.S))


def test_it_draws_the_map_as_svg_coloured_by_holder():
    world = build_world()
    sector_update(
        campaign=world.campaign, actor=world.creator, key="zoo", changes={"owner": "Axis"}, reason="x"
    )

    response = world.client("player").get(world.url("map.svg"), HTTP_ACCEPT="image/svg+xml")

    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml; charset=utf-8"
    svg = response.content.decode()
    assert svg.startswith("<svg")
    colours = fills(svg)
    assert (colours["zoo"], colours["port"], colours["memorial-park"]) == (
        DEFAULT_COLOURS["Axis"], DEFAULT_COLOURS["Allies"], DEFAULT_COLOURS[None],
    )  # fmt: skip
    # Each sector links to its page on the site.
    assert f'href="/campaigns/{world.campaign.pk}/sectors/zoo/"' in svg


def test_it_draws_the_map_of_a_past_round():
    world = build_world()
    play_two_rounds(world)

    svg = world.client("player").get(world.url("map.svg?round=1")).content.decode()

    assert fills(svg)["zoo"] == DEFAULT_COLOURS["Axis"]
    assert "end of round 1" in svg


def test_a_refusal_of_the_picture_is_json_even_to_an_svg_client():
    world = build_world()

    response = world.client("stranger").get(world.url("map.svg"), HTTP_ACCEPT="image/svg+xml")

    assert (response.status_code, response["Content-Type"]) == (404, "application/json")


# --------------------------------------------------------------------------- loading a map


def test_it_returns_the_loaded_map_document():
    world = build_world()

    assert world.client("player").get(world.url("map/")).json() == map_to_json(default_map())


def test_an_organiser_loads_a_map_document():
    world = build_world(status=Status.DRAFT)
    document = map_to_json(default_map())
    document["name"] = "Zverograd, winter"
    document["sectors"][8]["value"] = 7

    response = world.client("creator").put(world.url("map/"), document, format="json")

    assert response.status_code == 200
    body = response.json()
    assert (body["name"], body["map_version"]) == ("Zverograd, winter", 2)
    assert Sector.objects.get(campaign=world.campaign, key=document["sectors"][8]["key"]).value == 7
    assert LogEntry.objects.filter(kind=LogKind.MAP_LOADED).count() == 2


def test_a_bad_map_is_refused_with_every_problem_and_nothing_loaded():
    world = build_world(status=Status.DRAFT)
    document = map_to_json(default_map())
    document["sectors"][0]["neighbours"].append("atlantis")
    document["sectors"][1]["terrain"] = "lava"
    document["sectors"][5]["headquarters_of"] = None

    response = world.client("creator").put(world.url("map/"), document, format="json")

    assert response.status_code == 400
    assert response.json()["code"] == "map-invalid"
    assert problems(response) == [
        ("sectors", "headquarters-missing"),
        (f"sectors[0].neighbours[{len(document['sectors'][0]['neighbours']) - 1}]", "dangling-neighbour"),
        ("sectors[1].terrain", "unknown-terrain"),
    ]
    assert Campaign.objects.get(pk=world.campaign.pk).map_version == 1


def test_a_body_that_is_not_a_map_object_is_refused_as_a_map():
    world = build_world(status=Status.DRAFT)

    response = world.client("creator").put(world.url("map/"), [1, 2], format="json")

    assert (response.status_code, response.json()["code"]) == (400, "map-invalid")


def test_a_running_campaign_keeps_its_map():
    world = build_world(status=Status.RUNNING)

    response = world.client("creator").post(world.url("map/default/"))

    assert (response.status_code, problems(response)) == (409, [("map", "map-locked")])


def test_an_organiser_loads_the_default_map_again():
    world = build_world(status=Status.DRAFT)

    response = world.client("co_organiser").post(world.url("map/default/"))

    assert (response.status_code, response.json()["map_version"]) == (200, 2)


# --------------------------------------------------------------------------- changing a sector


def test_an_organiser_changes_a_sector_and_each_part_is_logged():
    world = build_world()

    response = world.client("creator").patch(
        world.url("sectors/zoo/"),
        {"owner": "SSU", "fortification": "bunker", "value": 4, "terrain": "ruins", "reason": "Shelled"},
        format="json",
    )

    assert response.status_code == 200
    body = response.json()
    assert (body["owner"], body["fortification"], body["value"], body["terrain"]) == (
        "SSU",
        "bunker",
        4,
        "ruins",
    )
    entries = LogEntry.objects.filter(kind=LogKind.SECTOR_CHANGED).order_by("id")
    assert [(e.field, e.after, e.reason) for e in entries] == [
        ("owner", "SSU", "Shelled"), ("fortification", "bunker", "Shelled"), ("value", 4, "Shelled"),
        ("terrain", "ruins", "Shelled"),
    ]  # fmt: skip


def test_a_sector_is_made_neutral_with_a_null_owner():
    world = build_world()

    response = world.client("creator").patch(
        world.url("sectors/riverside/"), {"owner": None, "reason": "Abandoned"}, format="json"
    )

    assert (response.status_code, response.json()["owner"]) == (200, None)
    assert Sector.objects.get(campaign=world.campaign, key="riverside").owner == ""


@pytest.mark.parametrize(
    ("key", "payload", "field", "code"),
    [
        ("zoo", {"owner": "Axis"}, "reason", "required"),
        ("zoo", {"owner": "Axis", "reason": " "}, "reason", "blank"),
        ("zoo", {"value": 11, "reason": "r"}, "value", "max_value"),
        ("zoo", {"owner": "Mercenaries", "reason": "r"}, "owner", "invalid_choice"),
        ("zoo", {"terrain": "lava", "reason": "r"}, "terrain", "invalid_choice"),
        ("zoo", {"height": 3, "reason": "r"}, "height", "unknown-field"),
        ("zoo", {"reason": "nothing"}, "", "no-change"),
        ("port", {"owner": "Axis", "reason": "r"}, "owner", "headquarters-owner"),
        ("port", {"fortification": "bunker", "reason": "r"}, "fortification", "headquarters-not-fortifiable"),
    ],
)
def test_it_refuses_a_sector_change_naming_the_field(key, payload, field, code):
    world = build_world()

    response = world.client("creator").patch(world.url(f"sectors/{key}/"), payload, format="json")

    assert (response.status_code, problems(response)) == (400, [(field, code)])
    assert not LogEntry.objects.filter(kind=LogKind.SECTOR_CHANGED).exists()


def test_a_headquarters_keeps_or_loses_its_fortification_but_never_gains_one():
    world = build_world()
    client = world.client("creator")

    kept = client.patch(world.url("sectors/port/"), {"fortification": "strongpoint", "value": 4, "reason": "Supply"},
                        format="json")  # fmt: skip
    removed = client.patch(
        world.url("sectors/port/"), {"fortification": "none", "reason": "Shelled"}, format="json"
    )
    rebuilt = client.patch(world.url("sectors/port/"), {"fortification": "strongpoint", "reason": "Rebuilt"},
                           format="json")  # fmt: skip

    assert (kept.status_code, kept.json()["fortification"], kept.json()["value"]) == (200, "strongpoint", 4)
    assert (removed.status_code, removed.json()["fortification"]) == (200, "none")
    assert (rebuilt.status_code, problems(rebuilt)) == (
        400,
        [("fortification", "headquarters-not-fortifiable")],
    )
    entries = LogEntry.objects.filter(kind=LogKind.SECTOR_CHANGED, subject="sector:port").order_by("id")
    assert [(e.field, e.after) for e in entries] == [("value", 4), ("fortification", "none")]


def test_an_unknown_sector_is_not_found():
    world = build_world()

    response = world.client("creator").patch(
        world.url("sectors/atlantis/"), {"owner": "Axis", "reason": "r"}, format="json"
    )

    assert response.status_code == 404


def test_a_finished_campaigns_sectors_change_no_more():
    world = build_world(status=Status.FINISHED)

    response = world.client("creator").patch(
        world.url("sectors/zoo/"), {"owner": "Axis", "reason": "r"}, format="json"
    )

    assert (response.status_code, response.json()["code"]) == (409, "campaign-finished")


def test_a_sectors_history_is_every_change_oldest_first():
    world = build_world()
    play_two_rounds(world)

    rows = world.client("player").get(world.url("sectors/zoo/history/")).json()

    assert [(r["round_number"], r["before"], r["after"], r["reason"], r["actor"]["username"]) for r in rows] == [
        (1, "", "Axis", "battle of round 1", "olga"), (2, "Axis", "SSU", "battle of round 2", "olga"),
    ]  # fmt: skip
    assert world.client("player").get(world.url("sectors/atlantis/history/")).status_code == 404


# --------------------------------------------------------------------------- the log


def test_the_log_is_newest_first_and_paged():
    world = build_world()
    for number in range(50):
        sector_update(campaign=world.campaign, actor=world.creator, key="zoo",
                      changes={"value": number % 10}, reason=f"change {number}")  # fmt: skip
    total = LogEntry.objects.filter(campaign=world.campaign).count()

    first = world.client("player").get(world.url("log/")).json()
    second = world.client("player").get(first["next"]).json()

    assert first["count"] == total
    assert [len(first["results"]), len(second["results"])] == [50, total - 50]
    ids = [row["id"] for row in first["results"] + second["results"]]
    assert ids == sorted(ids, reverse=True)
    assert first["results"][0]["reason"] == "change 49"
    assert second["results"][-1]["kind"] == "map-loaded"


@pytest.mark.parametrize("key", ["Zoo", "x" * 41, "zoo%20"])
def test_a_key_no_map_can_have_is_not_found_as_json(key):
    world = build_world()

    history = world.client("player").get(world.url(f"sectors/{key}/history/"))
    change = world.client("creator").patch(
        world.url(f"sectors/{key}/"), {"value": 1, "reason": "r"}, format="json"
    )

    assert (history.status_code, history.json()["code"]) == (404, "not_found")
    assert (change.status_code, change.json()["code"]) == (404, "not_found")
