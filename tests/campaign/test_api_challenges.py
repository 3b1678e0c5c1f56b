"""The challenge endpoints: issuing a challenge, the list and its filters, accepting, declining and
withdrawing. Each success, and each refusal with its status, code and field, with nothing changed."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import Notification
from campaign.models import Battle, BattleStatus, Challenge, ChallengeStatus
from campaign.options import Status
from campaign.services.challenges import challenge_issue
from campaign.services.rounds import round_open
from tests.campaign.api_world import build_world

pytestmark = pytest.mark.django_db


def url(campaign: Any, tail: str = "") -> str:
    return f"/api/campaigns/{campaign.pk}/{tail}"


def problem(response: Any) -> tuple[int, str, str]:
    body = response.json()
    return response.status_code, body["code"], body["errors"][0]["field"] if body["errors"] else ""


@pytest.fixture
def round_one(running_campaign, organiser):
    return round_open(campaign=running_campaign, actor=organiser, deadline=timezone.now() + timedelta(days=7))


@pytest.fixture
def as_player(api_as, place):
    def client(name: str) -> Any:
        return api_as(place(name).player)

    return client


@pytest.fixture
def x1_challenges_a1(round_one, place) -> Challenge:
    return challenge_issue(challenger=place("x1"), challenged=place("a1"), sector_key="zoo", actor=None)


def test_a_player_challenges_a_player_of_another_bloc_who_is_told(
    as_player, running_campaign, round_one, place
):
    response = as_player("x1").post(
        url(running_campaign, "challenges/"),
        {"challenged": place("a1").pk, "sector": "zoo", "message": "At dawn"},
        format="json",
    )

    assert response.status_code == 201
    body = response.json()
    assert (body["challenger"]["name"], body["challenged"]["name"], body["sector"]["key"]) == (
        "X1",
        "A1",
        "zoo",
    )
    assert (body["status"], body["round"], body["message"], body["battle"]) == ("open", 1, "At dawn", None)
    assert Notification.objects.filter(kind="challenge-issued", user=place("a1").player).count() == 1


@pytest.mark.parametrize(
    ("challenged", "sector", "code"),
    [
        ("a1", "airfield", "sector-not-attackable"),  # the challenger's own headquarters
        ("a1", "kolkhoz-fields", "sector-not-attackable"),  # a sector the challenger's bloc holds
        ("a1", "riverside", "sector-not-attackable"),  # theirs, but not next to anything the Axis holds
        ("a1", "workers-settlement", "sector-not-theirs"),  # the SSU's, not the challenged player's bloc
        ("a1", "atlantis", "unknown-sector"),
    ],
)
def test_a_challenge_over_a_sector_that_cannot_be_fought_for_is_refused(
    as_player, running_campaign, round_one, place, challenged, sector, code
):
    response = as_player("x1").post(
        url(running_campaign, "challenges/"),
        {"challenged": place(challenged).pk, "sector": sector},
        format="json",
    )

    assert problem(response) == (400, code, "sector")
    assert not Challenge.objects.exists()


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (lambda place: {"challenged": place("x2").pk, "sector": "zoo"}, (400, "same-bloc", "challenged")),
        (lambda place: {"challenged": 999_999, "sector": "zoo"}, (400, "unknown-player", "challenged")),
        (lambda place: {"challenged": place("a1").pk, "sector": "Zoo!"}, (400, "invalid", "sector")),
        (lambda place: {"challenged": place("a1").pk, "sector": "zoo", "when": 1}, (400, "invalid", "when")),
    ],
)
def test_a_challenge_of_the_wrong_player_or_in_bad_shape_is_refused(
    as_player, running_campaign, round_one, place, body, expected
):
    response = as_player("x1").post(url(running_campaign, "challenges/"), body(place), format="json")

    assert problem(response) == expected
    assert not Challenge.objects.exists()


def test_no_challenge_is_made_while_no_round_is_open(as_player, running_campaign, place):
    response = as_player("x1").post(
        url(running_campaign, "challenges/"), {"challenged": place("a1").pk, "sector": "zoo"}, format="json"
    )

    assert problem(response) == (409, "no-open-round", "round")


def test_a_player_has_at_most_the_campaigns_number_of_open_challenges(
    as_player, running_campaign, place, x1_challenges_a1
):
    response = as_player("x1").post(
        url(running_campaign, "challenges/"), {"challenged": place("s1").pk, "sector": "zoo"}, format="json"
    )

    assert problem(response) == (409, "too-many-challenges", "challenger")
    assert Challenge.objects.count() == 1


def test_an_organiser_without_a_place_cannot_challenge(api_as, organiser, running_campaign, round_one, place):
    response = api_as(organiser).post(
        url(running_campaign, "challenges/"), {"challenged": place("a1").pk, "sector": "zoo"}, format="json"
    )

    assert problem(response) == (403, "not-a-player", "")


def test_the_challenges_are_filtered_by_round_status_and_mine(
    as_player, running_campaign, place, x1_challenges_a1
):
    other = challenge_issue(challenger=place("s1"), challenged=place("x2"), sector_key="zoo", actor=None)
    Challenge.objects.filter(pk=other.pk).update(status=ChallengeStatus.DECLINED)
    client = as_player("a1")

    def ids(query: str = "") -> list[int]:
        return [
            row["id"] for row in client.get(url(running_campaign, f"challenges/?{query}")).json()["results"]
        ]

    assert ids() == [other.pk, x1_challenges_a1.pk]
    assert ids("mine=true") == [x1_challenges_a1.pk]
    assert ids("status=declined") == [other.pk]
    assert ids("round=1&status=open") == [x1_challenges_a1.pk]
    assert ids("round=2") == []


def test_the_challenged_player_accepts_and_the_battle_is_scheduled(as_player, running_campaign, place,
                                                                   x1_challenges_a1):  # fmt: skip
    response = as_player("a1").post(url(running_campaign, f"challenges/{x1_challenges_a1.pk}/accept/"))

    assert response.status_code == 200
    assert response.json()["status"] == "accepted"
    battle = Battle.objects.get(pk=response.json()["battle"])
    assert (battle.attacker, battle.defender, battle.status, battle.sector.key) == (
        place("x1"), place("a1"), BattleStatus.SCHEDULED, "zoo",
    )  # fmt: skip
    again = as_player("a1").post(url(running_campaign, f"challenges/{x1_challenges_a1.pk}/decline/"))
    assert problem(again) == (409, "challenge-answered", "challenge")


@pytest.mark.parametrize("who", ["x1", "s1", "x2"])
@pytest.mark.parametrize("answer", ["accept", "decline"])
def test_only_the_challenged_player_answers(as_player, running_campaign, x1_challenges_a1, who, answer):
    response = as_player(who).post(url(running_campaign, f"challenges/{x1_challenges_a1.pk}/{answer}/"))

    assert problem(response) == (403, "not-challenged", "")
    assert Challenge.objects.get().status == ChallengeStatus.OPEN
    assert not Battle.objects.exists()


def test_the_challenged_player_declines_and_the_challenger_is_told(as_player, running_campaign, place,
                                                                   x1_challenges_a1):  # fmt: skip
    response = as_player("a1").post(url(running_campaign, f"challenges/{x1_challenges_a1.pk}/decline/"))

    assert response.json()["status"] == "declined"
    assert Notification.objects.filter(kind="challenge-answered", user=place("x1").player).exists()
    assert not Battle.objects.exists()


def test_the_challenger_withdraws_and_the_challenged_may_not(as_player, running_campaign, x1_challenges_a1):
    refused = as_player("a1").post(url(running_campaign, f"challenges/{x1_challenges_a1.pk}/withdraw/"))
    withdrawn = as_player("x1").post(url(running_campaign, f"challenges/{x1_challenges_a1.pk}/withdraw/"))

    assert problem(refused) == (403, "not-challenger", "")
    assert withdrawn.json()["status"] == "withdrawn"


def test_a_challenge_answered_after_its_deadline_is_refused_as_expired(as_player, running_campaign,
                                                                       x1_challenges_a1):  # fmt: skip
    Challenge.objects.filter(pk=x1_challenges_a1.pk).update(deadline=timezone.now() - timedelta(minutes=1))

    response = as_player("a1").post(url(running_campaign, f"challenges/{x1_challenges_a1.pk}/accept/"))

    assert problem(response) == (409, "challenge-expired", "challenge")
    assert not Battle.objects.exists()


def test_an_organiser_answers_for_a_placeholder_but_not_for_a_player():
    world = build_world(status=Status.RUNNING)
    to_placeholder = world.challenge(by_player=True)
    client = world.client("co_organiser")

    accepted = client.post(world.url(f"challenges/{to_placeholder.pk}/accept/"))

    assert accepted.json()["status"] == "accepted"
    Challenge.objects.filter(pk=to_placeholder.pk).update(status=ChallengeStatus.WITHDRAWN)
    Battle.objects.all().delete()
    to_player = challenge_issue(challenger=world.placeholder, challenged=world.player_place, sector_key="zoo",
                                actor=world.creator)  # fmt: skip
    assert problem(client.post(world.url(f"challenges/{to_player.pk}/accept/"))) == (
        403,
        "not-challenged",
        "",
    )


def test_a_challenge_of_another_campaign_is_a_404(as_player, running_campaign, x1_challenges_a1):
    response = as_player("a1").get(url(running_campaign, f"challenges/{x1_challenges_a1.pk + 1}/"))

    assert (response.status_code, response.json()["detail"]) == (404, "no such challenge in this campaign")
