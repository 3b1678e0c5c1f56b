"""The campaign endpoints: listing and filtering, creating, the detail, settings, the life cycle,
the invitation and the co-organisers; each success and each refusal with its code, field and status."""

from __future__ import annotations

import pytest

from campaign.engine.mapformat import default_map
from campaign.models import Campaign, CoOrganiser, LogEntry, LogKind
from campaign.options import Status
from tests.campaign.api_world import build_world
from tests.factories import CampaignFactory, CatalogueFactory, UserFactory

pytestmark = pytest.mark.django_db


def problems(response):
    return [(e["field"], e["code"]) for e in response.json()["errors"]]


# --------------------------------------------------------------------------- list


def test_it_lists_public_campaigns_and_mine_newest_first(api_as, stranger, organiser):
    CampaignFactory(name="Public one", is_public=True)
    CampaignFactory(name="Someone's private one")
    CampaignFactory(name="My private one", organiser=stranger)

    body = api_as(stranger).get("/api/campaigns/").json()

    assert [row["name"] for row in body["results"]] == ["My private one", "Public one"]
    assert body["count"] == 2
    assert body["results"][0]["url"].endswith(
        f"/api/campaigns/{Campaign.objects.get(name='My private one').pk}/"
    )


def test_it_filters_the_list_by_scope_and_status(api_as, stranger):
    CampaignFactory(name="Public draft", is_public=True)
    CampaignFactory(name="Public running", is_public=True, status=Status.RUNNING)
    CampaignFactory(name="Mine", organiser=stranger, status=Status.RUNNING)
    client = api_as(stranger)

    def names(query):
        return {row["name"] for row in client.get(f"/api/campaigns/?{query}").json()["results"]}

    assert names("scope=public") == {"Public draft", "Public running"}
    assert names("scope=mine") == {"Mine"}
    assert names("status=running") == {"Public running", "Mine"}
    assert names("scope=public&status=running") == {"Public running"}


def test_an_anonymous_visitor_has_no_campaigns_of_their_own(api_client):
    CampaignFactory(name="Public", is_public=True)

    assert api_client.get("/api/campaigns/?scope=mine").json()["results"] == []


@pytest.mark.parametrize(("query", "field"), [("status=lost", "status"), ("scope=everyone", "scope")])
def test_it_refuses_an_unknown_filter_value(api_client, query, field):
    response = api_client.get(f"/api/campaigns/?{query}")

    assert response.status_code == 400
    assert problems(response) == [(field, "invalid_choice")]


def test_it_pages_the_list_by_fifty(api_client):
    CampaignFactory.create_batch(51, is_public=True)

    first = api_client.get("/api/campaigns/").json()
    second = api_client.get(first["next"]).json()

    assert (first["count"], len(first["results"]), len(second["results"])) == (51, 50, 1)


# --------------------------------------------------------------------------- create


def test_anyone_with_an_account_creates_a_draft_they_organise(api_as, stranger):
    catalogue = CatalogueFactory()

    response = api_as(stranger).post(
        "/api/campaigns/",
        {"name": "Winter offensive", "is_public": True, "catalogue": catalogue.pk, "points_limit": 200,
         "tiebreakers": ["vp_for", "head_to_head"], "ruleset": {"name": "rtz", "scout_rtz": False}},
        format="json",
    )  # fmt: skip

    assert response.status_code == 201
    body = response.json()
    assert (body["name"], body["status"], body["organiser"]["username"]) == (
        "Winter offensive",
        "draft",
        "sasha",
    )
    assert body["catalogue"] == {"id": catalogue.pk, "name": catalogue.name, "version": "1"}
    assert body["tiebreakers"] == ["vp_for", "head_to_head"]
    assert body["ruleset"]["scout_rtz"] is False
    assert body["ruleset"]["unified_saves"] is True
    assert body["viewer"]["is_creator"] is True
    assert body["invite_token"] == Campaign.objects.get(pk=body["id"]).invite_token


@pytest.mark.parametrize(
    ("payload", "field", "code"),
    [
        ({}, "name", "required"),
        ({"name": "x" * 81}, "name", "max_length"),
        ({"name": "A", "points_limit": 0}, "points_limit", "min_value"),
        ({"name": "A", "points_limit": 10_001}, "points_limit", "max_value"),
        ({"name": "A", "points_win": 101}, "points_win", "max_value"),
        # DRF names list items "field.index" (core.api flattens its error dict as is).
        ({"name": "A", "tiebreakers": ["coin_toss"]}, "tiebreakers[0]", "invalid_choice"),
        ({"name": "A", "tiebreakers": ["vp_for"] * 6}, "tiebreakers", "max_length"),
        ({"name": "A", "ruleset": {"name": "rtz", "scout_rts": False}}, "ruleset.scout_rts", "unknown-field"),
        ({"name": "A", "max_players_per_bloc": 0}, "max_players_per_bloc", "min_value"),
        ({"name": "A", "colour": "red"}, "colour", "unknown-field"),
        ({"name": "A", "catalogue": 999_999}, "catalogue", "does_not_exist"),
        ({"name": "A", "points_win": 0, "points_draw": 1}, "points_win", "scores-order"),
        ({"name": "A", "points_draw": -2, "points_loss": -1}, "points_draw", "scores-order"),
        ({"name": "A", "award_win": 0, "award_draw": 1}, "award_win", "awards-order"),
        ({"name": "A", "bunker_cost": 1, "strongpoint_cost": 2}, "bunker_cost", "costs-order"),
        ({"name": "A", "tiebreakers": ["vp_for", "vp_for"]}, "tiebreakers", "duplicate"),
    ],
)
def test_it_refuses_a_setting_out_of_bounds_naming_the_field(api_as, stranger, payload, field, code):
    response = api_as(stranger).post("/api/campaigns/", payload, format="json")

    assert response.status_code == 400
    assert problems(response) == [(field, code)]
    assert not Campaign.objects.exists()


def test_an_anonymous_visitor_cannot_create_a_campaign(api_client):
    response = api_client.post("/api/campaigns/", {"name": "Nope"}, format="json")

    assert (response.status_code, response.json()["code"]) == (403, "not_authenticated")


# --------------------------------------------------------------------------- detail


def test_the_detail_shows_settings_organisers_counts_and_links():
    world = build_world(public=True)

    body = world.client("stranger").get(world.url()).json()

    assert body["organiser"]["username"] == "olga"
    assert [row["user"]["username"] for row in body["co_organisers"]] == ["cora"]
    assert body["players_per_bloc"] == {"Allies": 1, "Axis": 0, "SSU": 1}
    assert body["pending_count"] == 1
    assert body["map"] == {"name": "Zverograd", "version": 1, "sectors": len(default_map().sectors)}
    assert body["invite_token"] is None
    assert body["viewer"] == {
        "is_creator": False, "is_organiser": False, "enrolment": None, "enrolment_status": None,
        "can_manage": False, "can_add_co_organisers": False, "can_join": True, "can_withdraw": False,
        "can_leave": False,
    }  # fmt: skip
    assert set(body["links"]) == {
        "enrolments",
        "co_organisers",
        "sectors",
        "map",
        "map_svg",
        "log",
        "registrations",
        "rounds",
        "battles",
        "challenges",
        "balances",
        "ledger",
        "purchases",
        "reports",
        "standings",
    }
    assert body["links"]["sectors"].endswith(world.url("sectors/"))
    assert body["links"]["rounds"].endswith(world.url("rounds/"))
    assert body["links"]["reports"].endswith(world.url("reports/"))
    assert body["links"]["standings"].endswith(world.url("standings/"))
    for link in body["links"].values():
        assert world.client("creator").get(link).status_code == 200, link


@pytest.mark.parametrize(
    ("persona", "sees_token"),
    [("creator", True), ("co_organiser", True), ("player", False), ("applicant", False)],
)
def test_only_organisers_see_the_invitation(persona, sees_token):
    world = build_world()

    body = world.client(persona).get(world.url()).json()

    assert body["invite_token"] == (world.campaign.invite_token if sees_token else None)


def test_the_detail_tells_a_player_what_they_may_do():
    world = build_world()

    viewer = world.client("player").get(world.url()).json()["viewer"]

    assert (viewer["enrolment"], viewer["enrolment_status"]) == (world.player_place.pk, "admitted")
    assert (viewer["can_withdraw"], viewer["can_leave"], viewer["can_manage"]) == (True, False, False)


# --------------------------------------------------------------------------- settings


def test_an_organiser_changes_settings_and_each_change_is_logged():
    world = build_world(status=Status.DRAFT)

    response = world.client("co_organiser").patch(
        world.url(), {"points_limit": 250, "max_players_per_bloc": 4, "reason": "Bigger games"}, format="json"
    )

    assert response.status_code == 200
    assert (response.json()["points_limit"], response.json()["max_players_per_bloc"]) == (250, 4)
    entry = LogEntry.objects.get(kind=LogKind.SETTING_CHANGED, field="points_limit")
    assert (entry.before, entry.after, entry.reason, entry.actor) == (
        150,
        250,
        "Bigger games",
        world.co_organiser,
    )


def test_a_setting_that_decides_results_is_locked_once_the_campaign_runs():
    world = build_world(status=Status.RUNNING)

    response = world.client("creator").patch(world.url(), {"points_win": 2}, format="json")

    assert response.status_code == 409
    assert (response.json()["code"], problems(response)) == (
        "setting-locked",
        [("points_win", "setting-locked")],
    )
    assert Campaign.objects.get(pk=world.campaign.pk).points_win == 3


def test_a_running_campaign_still_takes_settings_that_decide_no_result():
    world = build_world(status=Status.RUNNING)

    response = world.client("creator").patch(world.url(), {"description": "Round 2 on Friday"}, format="json")

    assert (response.status_code, response.json()["description"]) == (200, "Round 2 on Friday")


def test_a_finished_campaign_changes_no_more():
    world = build_world(status=Status.FINISHED)

    response = world.client("creator").patch(world.url(), {"name": "Renamed"}, format="json")

    assert (response.status_code, response.json()["code"]) == (409, "campaign-finished")


def test_a_player_may_not_change_settings():
    world = build_world()

    response = world.client("player").patch(world.url(), {"name": "Mine now"}, format="json")

    assert (response.status_code, response.json()["code"]) == (403, "not-organiser")


def test_settings_are_read_from_json_only():
    world = build_world()

    response = world.client("creator").patch(
        world.url(), "name=Form", content_type="application/x-www-form-urlencoded"
    )

    assert response.status_code == 415


# --------------------------------------------------------------------------- life cycle


def test_the_life_cycle_goes_draft_registration_running_finished():
    world = build_world(status=Status.DRAFT)
    client = world.client("creator")

    statuses = [
        client.post(world.url(step)).json()["status"] for step in ("open-registration/", "start/", "finish/")
    ]

    assert statuses == ["registration", "running", "finished"]
    assert LogEntry.objects.filter(kind=LogKind.STATUS_CHANGED).count() == 3


def test_a_campaign_does_not_start_until_two_blocs_have_players():
    world = build_world()
    world.placeholder.delete()

    response = world.client("creator").post(world.url("start/"))

    assert response.status_code == 400
    assert (response.json()["code"], problems(response)) == ("too-few-blocs", [("status", "too-few-blocs")])


def test_registration_does_not_open_without_a_catalogue():
    world = build_world(status=Status.DRAFT)
    Campaign.objects.filter(pk=world.campaign.pk).update(catalogue=None)

    response = world.client("creator").post(world.url("open-registration/"))

    assert (response.status_code, problems(response)) == (400, [("catalogue", "catalogue-missing")])


@pytest.mark.parametrize(("status", "step"), [(Status.DRAFT, "start/"), (Status.REGISTRATION, "finish/"),
                                               (Status.FINISHED, "open-registration/")])  # fmt: skip
def test_a_step_from_the_wrong_state_is_a_conflict(status, step):
    world = build_world(status=status)

    response = world.client("creator").post(world.url(step))

    assert (response.status_code, problems(response)) == (409, [("status", "wrong-status")])
    assert Campaign.objects.get(pk=world.campaign.pk).status == status


def test_a_new_invitation_replaces_the_old_one():
    world = build_world()
    old = world.campaign.invite_token

    response = world.client("co_organiser").post(world.url("invite/"))

    assert response.status_code == 200
    new = response.json()["invite_token"]
    assert new != old
    assert Campaign.objects.get(pk=world.campaign.pk).invite_token == new
    assert old not in str(list(LogEntry.objects.values_list("before", "after")))


# --------------------------------------------------------------------------- co-organisers


def test_the_creator_adds_a_co_organiser_by_username():
    world = build_world()
    UserFactory(username="vera")

    response = world.client("creator").post(world.url("co-organisers/"), {"username": "vera"}, format="json")

    assert (response.status_code, response.json()["user"]["username"]) == (201, "vera")
    listed = world.client("player").get(world.url("co-organisers/")).json()
    assert [row["user"]["username"] for row in listed] == ["cora", "vera"]


@pytest.mark.parametrize(
    ("username", "status", "code"),
    [("nobody", 400, "unknown-user"), ("olga", 400, "already-organiser"), ("cora", 409, "already-organiser")],
)
def test_it_refuses_a_co_organiser_it_cannot_add(username, status, code):
    world = build_world()

    response = world.client("creator").post(
        world.url("co-organisers/"), {"username": username}, format="json"
    )

    assert (response.status_code, problems(response)) == (
        status,
        [("username" if code == "unknown-user" else "user", code)],
    )


def test_a_co_organiser_may_not_add_another():
    world = build_world()
    UserFactory(username="vera")

    response = world.client("co_organiser").post(
        world.url("co-organisers/"), {"username": "vera"}, format="json"
    )

    assert (response.status_code, response.json()["code"]) == (403, "not-creator")


def test_the_creator_removes_a_co_organiser_and_it_is_logged():
    world = build_world()

    response = world.client("creator").delete(world.url("co-organisers/cora/"))

    assert response.status_code == 204
    assert not CoOrganiser.objects.exists()
    assert LogEntry.objects.filter(kind=LogKind.CO_ORGANISER_REMOVED).exists()


def test_a_co_organiser_may_step_down_but_not_remove_another():
    world = build_world()
    vera = UserFactory(username="vera")
    CoOrganiser.objects.create(campaign=world.campaign, user=vera)

    other = world.client("co_organiser").delete(world.url("co-organisers/vera/"))
    own = world.client("co_organiser").delete(world.url("co-organisers/cora/"))

    assert (other.status_code, other.json()["code"], own.status_code) == (403, "not-creator", 204)
    assert list(CoOrganiser.objects.values_list("user__username", flat=True)) == ["vera"]


def test_removing_someone_who_does_not_help_is_a_404():
    world = build_world()

    response = world.client("creator").delete(world.url("co-organisers/pavel/"))

    assert response.status_code == 404


def test_a_username_no_account_can_have_is_not_found():
    world = build_world()

    response = world.client("creator").delete(world.url("co-organisers/no%20one!/"))

    assert (response.status_code, response.json()["code"]) == (404, "not_found")


def test_a_nul_in_the_address_is_refused_at_the_door():
    world = build_world()

    response = world.client("creator").delete(world.url("co-organisers/%00/"))

    assert (response.status_code, response.json()["code"]) == (400, "invalid")
