"""The battle endpoints: the list and its filters, one battle with its mission, changing its terms, and the
list check under the battle's terms. Each success, and each refusal with its status, code and field."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.engine.missions import MISSIONS_BY_KEY
from campaign.models import Battle, BattleStatus, Sector
from campaign.options import Status
from campaign.services.registrations import army_list_register
from campaign.services.rounds import round_close
from tests.campaign.api_world import World, build_world
from tests.factories import CampaignFactory, EnrolmentFactory, UserFactory

pytestmark = pytest.mark.django_db


def problem(response: Any) -> tuple[int, str, str]:
    body = response.json()
    return response.status_code, body["code"], body["errors"][0]["field"] if body["errors"] else ""


def field_problem(response: Any) -> tuple[int, str, str]:
    error = response.json()["errors"][0]
    return response.status_code, error["field"], error["code"]


@pytest.fixture
def world() -> World:
    return build_world(status=Status.RUNNING)


def test_the_battles_are_listed_with_their_sides_sector_and_mission(world):
    battle = world.battle()

    rows = world.client("player").get(world.url("battles/")).json()["results"]

    assert len(rows) == 1
    row = rows[0]
    assert (row["id"], row["round"], row["status"], row["source"]) == (battle.pk, 1, "scheduled", "pairing")
    assert {row["attacker"]["name"], row["defender"]["name"]} == {"Pavel", "Grisha"}
    assert {row["attacker"]["username"], row["defender"]["username"]} == {"pavel", None}
    assert row["mission"] == battle.mission
    assert row["points_limit"] == world.campaign.points_limit
    assert row["url"].endswith(world.url(f"battles/{battle.pk}/"))


def test_the_battles_are_filtered_by_round_status_and_player(world):
    first = world.battle()
    Battle.objects.filter(pk=first.pk).update(status=BattleStatus.CONFIRMED)
    round_close(round=first.round, actor=world.creator)
    world.open_round()
    newcomer = EnrolmentFactory(campaign=world.campaign, player=UserFactory(username="nadia"), bloc="Axis")
    client = world.client("creator")
    client.post(world.url("rounds/2/pairings/"))
    client.post(world.url("rounds/2/pairings/publish/"))

    def ids(query: str) -> list[int]:
        return [row["id"] for row in client.get(world.url(f"battles/?{query}")).json()["results"]]

    second_round = ids("round=2")
    assert ids("round=1") == [first.pk]
    assert len(second_round) == 1
    assert ids("status=confirmed") == [first.pk]
    assert ids("status=scheduled") == second_round
    # Three players, one battle: the newcomer never met anyone, so fights whoever the seed leaves
    # without the bye; each place's filter shows exactly the battles it fought.
    assert ids(f"player={newcomer.pk}") == second_round
    paired = Battle.objects.get(pk=second_round[0])
    for place in (world.player_place, world.placeholder):
        fought_second = place.pk in (paired.attacker_id, paired.defender_id)
        assert ids(f"player={place.pk}") == [first.pk, *(second_round if fought_second else [])]
        assert ids(f"player={place.pk}&round=1") == [first.pk]


def test_a_filter_out_of_its_choices_is_refused_at_that_parameter(world):
    response = world.client("player").get(world.url("battles/?status=won"))

    assert field_problem(response) == (400, "status", "invalid_choice")


def test_a_battle_shows_its_mission_whole(world):
    battle = world.battle()

    body = world.client("player").get(world.url(f"battles/{battle.pk}/")).json()

    assert body["mission_details"] == MISSIONS_BY_KEY[battle.mission].to_dict()


def test_a_battle_asked_of_another_campaign_is_a_404(world):
    battle = world.battle()
    other = CampaignFactory(is_public=True, organiser=world.creator)

    response = world.client("creator").get(f"/api/campaigns/{other.pk}/battles/{battle.pk}/")

    assert (response.status_code, response.json()["detail"]) == (404, "no such battle in this campaign")


def test_the_organiser_changes_a_battles_mission_and_points_limit(world):
    battle = world.battle()

    response = world.client("co_organiser").patch(
        world.url(f"battles/{battle.pk}/"), {"mission": "sabotage", "points_limit": 250}, format="json"
    )

    assert response.status_code == 200
    assert (response.json()["mission"], response.json()["points_limit"]) == ("sabotage", 250)
    assert response.json()["mission_details"]["name"] == "Sabotage"
    battle.refresh_from_db()
    assert (battle.mission, battle.points_limit) == ("sabotage", 250)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({}, (400, "", "no-change")),
        ({"mission": "tea-party"}, (400, "mission", "invalid_choice")),
        ({"points_limit": 0}, (400, "points_limit", "min_value")),
        ({"points_limit": 10_001}, (400, "points_limit", "max_value")),
        ({"points_limit": 200, "sector": "zoo"}, (400, "sector", "unknown-field")),
    ],
)
def test_bad_terms_are_refused_and_nothing_changes(world, body, expected):
    battle = world.battle()
    before = (battle.mission, battle.points_limit)

    response = world.client("creator").patch(world.url(f"battles/{battle.pk}/"), body, format="json")

    assert field_problem(response) == expected
    battle.refresh_from_db()
    assert (battle.mission, battle.points_limit) == before


def test_a_reported_battles_terms_are_fixed(world):
    battle = world.battle()
    Battle.objects.filter(pk=battle.pk).update(status=BattleStatus.REPORTED)

    response = world.client("creator").patch(
        world.url(f"battles/{battle.pk}/"), {"points_limit": 300}, format="json"
    )

    assert problem(response) == (409, "battle-reported", "battle")
    assert Battle.objects.get(pk=battle.pk).points_limit == world.campaign.points_limit


# --------------------------------------------------------------------------- the list check


def as_defender_in(world: World, *, fortification: str, mission: str) -> Battle:
    """The player defends the Zoo, fortified so, in ``mission``."""
    battle = world.battle()
    Sector.objects.filter(campaign=world.campaign, key="zoo").update(fortification=fortification)
    Battle.objects.filter(pk=battle.pk).update(
        attacker=world.placeholder, defender=world.player_place, mission=mission,
        sector=Sector.objects.get(campaign=world.campaign, key="zoo"), points_limit=120,
    )  # fmt: skip
    return Battle.objects.get(pk=battle.pk)


def test_a_list_is_checked_with_its_role_the_battles_limit_and_the_missions_terms(world):
    battle = as_defender_in(world, fortification="none", mission="sabotage")
    registration = world.registration()

    response = world.client("player").post(
        world.url(f"battles/{battle.pk}/list-check/"),
        {"side": "defender", "registration": registration.pk},
        format="json",
    )

    assert response.status_code == 200
    verdict = response.json()
    assert verdict["ok"] is True
    terms = verdict["terms"]
    mission = MISSIONS_BY_KEY["sabotage"]
    assert (terms["role"], terms["points_limit"], terms["reserve_limit"]) == (
        "defender", 120, mission.defender_reserves,
    )  # fmt: skip
    assert terms["granted_fortifications"] == []
    assert terms["fortification_purchases"] == ["strongpoint", "bunker"]


@pytest.mark.parametrize(
    ("fortification", "mission", "granted"),
    [
        ("bunker", "hold-the-line", ["bunker"]),
        # A mission that allows only a strongpoint: the bunker is fought as one.
        ("bunker", "breakthrough", ["strongpoint"]),
        ("strongpoint", "meeting-engagement", []),
    ],
)
def test_a_defender_in_a_fortified_sector_fields_it_for_free_as_the_mission_allows(
    world, fortification, mission, granted
):
    battle = as_defender_in(world, fortification=fortification, mission=mission)
    registration = world.registration()

    response = world.client("creator").post(
        world.url(f"battles/{battle.pk}/list-check/"),
        {"side": "defender", "registration": registration.pk},
        format="json",
    )

    assert response.json()["terms"]["granted_fortifications"] == granted


def test_the_attackers_list_gets_the_attackers_reserve_count_and_no_fortification(world):
    battle = world.battle()
    Battle.objects.filter(pk=battle.pk).update(attacker=world.player_place, defender=world.placeholder,
                                               mission="landing")  # fmt: skip
    registration = world.registration()

    response = world.client("player").post(
        world.url(f"battles/{battle.pk}/list-check/"), {"side": "attacker", "registration": registration.pk},
        format="json",
    )  # fmt: skip

    terms = response.json()["terms"]
    assert (terms["role"], terms["reserve_limit"], terms["granted_fortifications"]) == (
        "attacker", MISSIONS_BY_KEY["landing"].attacker_reserves, [],
    )  # fmt: skip


def test_a_list_of_the_other_sides_player_is_refused(world):
    battle = as_defender_in(world, fortification="none", mission="sabotage")
    registration = world.registration()

    response = world.client("player").post(
        world.url(f"battles/{battle.pk}/list-check/"), {"side": "attacker", "registration": registration.pk},
        format="json",
    )  # fmt: skip

    assert problem(response) == (400, "not-that-sides-list", "registration")


def test_a_superseded_snapshot_is_refused(world):
    battle = as_defender_in(world, fortification="none", mission="sabotage")
    old = world.registration()
    assert old.army_list is not None
    army_list_register(enrolment=world.player_place, army_list=old.army_list, actor=world.player)

    response = world.client("player").post(
        world.url(f"battles/{battle.pk}/list-check/"),
        {"side": "defender", "registration": old.pk},
        format="json",
    )

    assert problem(response) == (400, "registration-superseded", "registration")


def test_a_registration_the_campaign_does_not_have_is_refused(world):
    battle = as_defender_in(world, fortification="none", mission="sabotage")
    registration = world.registration()

    response = world.client("player").post(
        world.url(f"battles/{battle.pk}/list-check/"), {"side": "defender", "registration": registration.pk + 1},
        format="json",
    )  # fmt: skip

    assert problem(response) == (400, "unknown-registration", "registration")


def test_a_side_that_is_neither_is_refused_at_its_field(world):
    battle = world.battle()

    response = world.client("player").post(
        world.url(f"battles/{battle.pk}/list-check/"), {"side": "referee", "registration": 1}, format="json"
    )

    assert field_problem(response) == (400, "side", "invalid_choice")


def test_a_drafted_battle_cannot_be_checked_by_a_player(world):
    world.drafted_round()
    draft = world.draft_battle()
    registration = world.registration()

    response = world.client("player").post(
        world.url(f"battles/{draft.pk}/list-check/"), {"side": "defender", "registration": registration.pk},
        format="json",
    )  # fmt: skip

    assert response.status_code == 404
