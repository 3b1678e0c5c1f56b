"""The player endpoints: the places of a campaign, joining, the organisers' decisions, withdrawing,
leaving, placeholders and claiming them; each success and each refusal with its code and status."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from armies.blocs import Bloc
from campaign.models import Campaign, Enrolment, EnrolmentStatus, LogEntry, LogKind
from campaign.options import Status
from tests.campaign.api_world import build_world
from tests.factories import EnrolmentFactory, UserFactory

pytestmark = pytest.mark.django_db


def problems(response):
    return [(e["field"], e["code"]) for e in response.json()["errors"]]


def names(response):
    return [row["name"] for row in response.json()["results"]]


# --------------------------------------------------------------------------- the list


@pytest.mark.parametrize(
    ("persona", "seen"),
    [
        ("creator", ["Grisha", "Anya", "Pavel", "Refused"]),
        ("co_organiser", ["Grisha", "Anya", "Pavel", "Refused"]),
        ("applicant", ["Grisha", "Anya", "Pavel"]),
        ("player", ["Grisha", "Pavel"]),
        ("stranger", ["Grisha", "Pavel"]),
        ("anonymous", ["Grisha", "Pavel"]),
    ],
)
def test_pending_and_refused_places_are_shown_to_organisers_and_their_own_player_only(persona, seen):
    world = build_world(public=True)
    EnrolmentFactory(campaign=world.campaign, player=UserFactory(username="refused"), bloc=Bloc.SSU,
                     status=EnrolmentStatus.REFUSED)  # fmt: skip

    response = world.client(persona).get(world.url("enrolments/"))

    assert names(response) == seen


@pytest.mark.parametrize(("persona", "shown"), [("creator", True), ("applicant", True), ("player", False)])
def test_an_applicants_message_is_between_them_and_the_organisers(persona, shown):
    world = build_world()

    rows = world.client(persona).get(world.url("enrolments/?status=pending")).json()["results"]

    messages = [row["message"] for row in rows]
    assert messages == (["Let me in"] if shown else [])


def test_it_filters_places_by_bloc_and_status():
    world = build_world()
    client = world.client("creator")

    assert names(client.get(world.url("enrolments/?bloc=SSU"))) == ["Pavel"]
    assert names(client.get(world.url("enrolments/?status=admitted"))) == ["Grisha", "Pavel"]
    assert names(client.get(world.url("enrolments/?bloc=Axis&status=admitted"))) == []


def test_it_refuses_an_unknown_bloc_filter():
    world = build_world()

    response = world.client("creator").get(world.url("enrolments/?bloc=Mercenaries"))

    assert (response.status_code, problems(response)) == (400, [("bloc", "invalid_choice")])


def test_a_placeholder_shows_as_one():
    world = build_world()

    row = next(
        r
        for r in world.client("player").get(world.url("enrolments/")).json()["results"]
        if r["is_placeholder"]
    )

    assert (row["name"], row["player"], row["bloc"], row["status"]) == ("Grisha", None, "Allies", "admitted")


# --------------------------------------------------------------------------- joining


def test_a_player_asks_to_join_a_public_campaign():
    world = build_world(public=True)

    response = world.client("stranger").post(
        world.url("enrolments/"), {"bloc": "SSU", "mercenary": True, "message": "Hello"}, format="json"
    )

    assert response.status_code == 201
    body = response.json()
    assert (body["bloc"], body["mercenary"], body["status"], body["message"]) == (
        "SSU",
        True,
        "pending",
        "Hello",
    )
    assert body["player"]["username"] == "sasha"


def test_a_private_campaign_is_joined_with_its_invitation():
    world = build_world()

    response = world.client("stranger").post(
        world.url("enrolments/"), {"bloc": "Axis", "invite_token": world.campaign.invite_token}, format="json"
    )

    assert (response.status_code, response.json()["status"]) == (201, "pending")


@pytest.mark.parametrize("token", ["", "not-the-token"])
def test_a_private_campaign_without_its_invitation_is_a_404(token):
    world = build_world()

    response = world.client("stranger").post(
        world.url("enrolments/"), {"bloc": "Axis", "invite_token": token}, format="json"
    )

    assert (response.status_code, response.json()["code"]) == (404, "not_found")
    assert not Enrolment.objects.filter(player=world.stranger).exists()


def test_an_old_invitation_stops_working():
    world = build_world()
    old = world.campaign.invite_token
    world.client("creator").post(world.url("invite/"))

    response = world.client("stranger").post(
        world.url("enrolments/"), {"bloc": "Axis", "invite_token": old}, format="json"
    )

    assert response.status_code == 404


@pytest.mark.parametrize(
    ("status", "payload", "expected", "field", "code"),
    [
        (Status.REGISTRATION, {"bloc": "Mercenaries"}, 400, "bloc", "invalid_choice"),
        (Status.REGISTRATION, {"bloc": "Axis", "faction": "nope"}, 400, "faction", "unknown-faction"),
        (Status.REGISTRATION, {"bloc": "Axis", "message": "x" * 501}, 400, "message", "max_length"),
        (Status.REGISTRATION, {"bloc": "Axis", "team": "red"}, 400, "team", "unknown-field"),
        (Status.DRAFT, {"bloc": "Axis"}, 409, "campaign", "not-taking-players"),
        (Status.FINISHED, {"bloc": "Axis"}, 409, "campaign", "not-taking-players"),
    ],
)
def test_it_refuses_a_join_request_it_cannot_take(status, payload, expected, field, code):
    world = build_world(public=True, status=status)

    response = world.client("stranger").post(world.url("enrolments/"), payload, format="json")

    assert (response.status_code, problems(response)) == (expected, [(field, code)])
    assert not Enrolment.objects.filter(player=world.stranger).exists()


def test_joining_twice_is_a_conflict():
    world = build_world()

    response = world.client("applicant").post(world.url("enrolments/"), {"bloc": "SSU"}, format="json")

    assert (response.status_code, problems(response)) == (409, [("campaign", "already-joined")])
    assert Enrolment.objects.get(player=world.applicant).bloc == "Axis"


# --------------------------------------------------------------------------- decisions


def test_an_organiser_admits_a_request():
    world = build_world()

    response = world.client("co_organiser").post(world.url(f"enrolments/{world.applicant_place.pk}/admit/"))

    assert (response.status_code, response.json()["status"]) == (200, "admitted")
    assert Enrolment.objects.get(pk=world.applicant_place.pk).decided_by == world.co_organiser


def test_an_admission_beyond_the_blocs_cap_is_a_conflict():
    world = build_world()
    Campaign.objects.filter(pk=world.campaign.pk).update(max_players_per_bloc=1)
    EnrolmentFactory(campaign=world.campaign, player=UserFactory(username="ivan"), bloc=Bloc.AXIS)

    response = world.client("creator").post(world.url(f"enrolments/{world.applicant_place.pk}/admit/"))

    assert (response.status_code, problems(response)) == (409, [("bloc", "bloc-full")])
    assert Enrolment.objects.get(pk=world.applicant_place.pk).status == "pending"


def test_admitting_someone_already_admitted_is_a_conflict():
    world = build_world()

    response = world.client("creator").post(world.url(f"enrolments/{world.player_place.pk}/admit/"))

    assert (response.status_code, problems(response)) == (409, [("status", "enrolment-changed")])


def test_another_campaigns_place_is_not_found_here():
    world = build_world()
    elsewhere = EnrolmentFactory(status=EnrolmentStatus.PENDING)

    response = world.client("creator").post(world.url(f"enrolments/{elsewhere.pk}/admit/"))

    assert response.status_code == 404
    assert Enrolment.objects.get(pk=elsewhere.pk).status == "pending"


def test_an_organiser_refuses_with_a_reason_the_player_sees():
    # Public: a refused applicant no longer sees a private campaign (campaign.permissions).
    world = build_world(public=True)

    response = world.client("creator").post(
        world.url(f"enrolments/{world.applicant_place.pk}/refuse/"), {"reason": "Axis is full"}, format="json"
    )

    assert (response.status_code, response.json()["status"]) == (200, "refused")
    own = world.client("applicant").get(world.url("enrolments/?status=refused")).json()["results"]
    assert [row["decision_reason"] for row in own] == ["Axis is full"]


@pytest.mark.parametrize(("payload", "code"), [({}, "required"), ({"reason": "   "}, "blank")])
def test_a_refusal_needs_a_reason(payload, code):
    world = build_world()

    response = world.client("creator").post(
        world.url(f"enrolments/{world.applicant_place.pk}/refuse/"), payload, format="json"
    )

    assert (response.status_code, problems(response)) == (400, [("reason", code)])
    assert Enrolment.objects.get(pk=world.applicant_place.pk).status == "pending"


# --------------------------------------------------------------------------- withdrawing and leaving


def test_a_player_withdraws_before_the_campaign_runs():
    world = build_world()

    response = world.client("player").post(world.url("withdraw/"))

    assert (response.status_code, response.json()["status"]) == (200, "withdrawn")


def test_withdrawing_from_a_running_campaign_is_a_conflict():
    world = build_world(status=Status.RUNNING)

    response = world.client("player").post(world.url("withdraw/"))

    assert (response.status_code, problems(response)) == (409, [("status", "campaign-running")])


def test_a_player_who_fought_rejoins_only_for_the_bloc_they_fought_for():
    world = build_world(public=True, status=Status.RUNNING)
    world.battle()  # the player (SSU) against the placeholder, scheduled
    world.client("player").post(world.url("leave/"))

    elsewhere = world.client("player").post(world.url("enrolments/"), {"bloc": "Axis"}, format="json")
    same = world.client("player").post(world.url("enrolments/"), {"bloc": "SSU"}, format="json")

    assert (elsewhere.status_code, problems(elsewhere)) == (400, [("bloc", "rejoin-other-bloc")])
    assert elsewhere.json()["errors"][0]["message"] == (
        "You fought for the SSU in this campaign: you can rejoin only for the SSU"
    )
    assert (same.status_code, same.json()["bloc"], same.json()["status"]) == (201, "SSU", "pending")
    assert same.json()["id"] == world.player_place.pk


def test_a_player_leaves_a_running_campaign_with_a_reason():
    world = build_world(status=Status.RUNNING)

    response = world.client("player").post(world.url("leave/"), {"reason": "Moving away"}, format="json")

    assert (response.status_code, response.json()["status"]) == (200, "left")
    entry = LogEntry.objects.filter(kind=LogKind.ENROLMENT_CHANGED).latest("id")
    assert (entry.reason, entry.actor) == ("Moving away", world.player)


def test_leaving_a_campaign_that_does_not_run_is_a_conflict():
    world = build_world()

    response = world.client("player").post(world.url("leave/"))

    assert (response.status_code, response.json()["code"]) == (409, "campaign-not-running")


def test_someone_without_a_place_has_nothing_to_withdraw():
    world = build_world(public=True)

    response = world.client("stranger").post(world.url("withdraw/"))

    assert (response.status_code, response.json()["code"]) == (403, "not-enrolled")


# --------------------------------------------------------------------------- placeholders


def test_an_organiser_adds_a_placeholder_admitted_at_once():
    world = build_world()

    response = world.client("creator").post(
        world.url("placeholders/"), {"name": "Dima", "bloc": "SSU"}, format="json"
    )

    assert response.status_code == 201
    body = response.json()
    assert (body["name"], body["is_placeholder"], body["status"], body["player"]) == (
        "Dima",
        True,
        "admitted",
        None,
    )


@pytest.mark.parametrize(
    ("payload", "field", "code"),
    [({"bloc": "SSU"}, "name", "required"), ({"name": "x" * 61, "bloc": "SSU"}, "name", "max_length"),
     ({"name": "Dima", "bloc": "Nowhere"}, "bloc", "invalid_choice")],
)  # fmt: skip
def test_it_refuses_a_placeholder_it_cannot_add(payload, field, code):
    world = build_world()

    response = world.client("creator").post(world.url("placeholders/"), payload, format="json")

    assert (response.status_code, problems(response)) == (400, [(field, code)])


def test_a_placeholder_beyond_the_blocs_cap_is_a_conflict():
    world = build_world()
    Campaign.objects.filter(pk=world.campaign.pk).update(max_players_per_bloc=1)

    response = world.client("creator").post(
        world.url("placeholders/"), {"name": "Dima", "bloc": "SSU"}, format="json"
    )

    assert (response.status_code, problems(response)) == (409, [("bloc", "bloc-full")])


def test_a_member_claims_a_placeholder_with_the_link_and_everything_is_kept():
    world = build_world()
    link = world.client("creator").post(world.url(f"enrolments/{world.placeholder.pk}/claim-link/")).json()
    member = UserFactory(username="grisha")

    client = APIClient()
    client.force_authenticate(member)
    claimed = client.post(link["claim_url"], {"token": link["claim_token"]}, format="json")

    assert link["enrolment"] == world.placeholder.pk
    assert (claimed.status_code, claimed.json()["id"], claimed.json()["player"]["username"]) == (
        200, world.placeholder.pk, "grisha",
    )  # fmt: skip
    assert Enrolment.objects.get(pk=world.placeholder.pk).player == member


def test_a_new_claim_link_replaces_the_old_one():
    world = build_world()
    old = world.placeholder.claim_token
    world.client("creator").post(world.url(f"enrolments/{world.placeholder.pk}/claim-link/"))

    response = world.client("stranger").post("/api/campaigns/claims/", {"token": old}, format="json")

    assert (response.status_code, response.json()["code"]) == (400, "claim-invalid")


def test_a_place_with_an_account_has_no_claim_link():
    world = build_world()

    response = world.client("creator").post(world.url(f"enrolments/{world.player_place.pk}/claim-link/"))

    assert (response.status_code, response.json()["code"]) == (409, "not-a-placeholder")


def test_someone_with_a_place_cannot_claim_another_in_the_same_campaign():
    world = build_world()

    response = world.client("player").post(
        "/api/campaigns/claims/", {"token": world.placeholder.claim_token}, format="json"
    )

    assert (response.status_code, response.json()["code"]) == (409, "already-joined")
    assert Enrolment.objects.get(pk=world.placeholder.pk).player is None
