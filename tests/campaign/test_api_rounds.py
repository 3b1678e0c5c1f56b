"""The round and pairing endpoints: opening, reading, closing and reopening a round; generating, editing and
publishing its pairings. Each success, and each refusal with its status, code and field."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import Notification
from armies.blocs import Bloc
from campaign.models import Battle, BattleStatus, Bye, Campaign, EntryKind, ResourceEntry, Round, RoundStatus
from campaign.options import Status, UnplayedPolicy
from campaign.services.pairings import fronts
from tests.factories import EnrolmentFactory

pytestmark = pytest.mark.django_db


def url(campaign: Any, tail: str = "") -> str:
    return f"/api/campaigns/{campaign.pk}/{tail}"


def in_a_week() -> str:
    return (timezone.now() + timedelta(days=7)).isoformat()


def problem(response: Any) -> tuple[int, str, str]:
    """The status, the stable code and the field at fault of a refusal."""
    body = response.json()
    return response.status_code, body["code"], body["errors"][0]["field"] if body["errors"] else ""


def field_problem(response: Any) -> tuple[int, str, str]:
    """A refusal of bad input: the status, the first input at fault and its code."""
    error = response.json()["errors"][0]
    return response.status_code, error["field"], error["code"]


@pytest.fixture
def olga(api_as, organiser):
    return api_as(organiser)


@pytest.fixture
def round_one(olga, running_campaign) -> int:
    response = olga.post(url(running_campaign, "rounds/"), {"deadline": in_a_week()}, format="json")
    assert response.status_code == 201
    return int(response.json()["number"])


def published(olga, campaign) -> dict[str, Any]:
    assert olga.post(url(campaign, "rounds/1/pairings/")).status_code == 200
    response = olga.post(url(campaign, "rounds/1/pairings/publish/"))
    assert response.status_code == 200
    return dict(response.json())


# --------------------------------------------------------------------------- opening


def test_it_opens_the_next_round_with_its_deadline_and_tells_every_player(olga, running_campaign):
    deadline = timezone.now() + timedelta(days=10)

    response = olga.post(url(running_campaign, "rounds/"), {"deadline": deadline.isoformat()}, format="json")

    assert response.status_code == 201
    body = response.json()
    assert (body["number"], body["status"], body["battles"], body["byes"]) == (1, "open", [], [])
    running_campaign.refresh_from_db()
    assert running_campaign.current_round == 1
    assert Round.objects.get(campaign=running_campaign).deadline == deadline
    told = set(Notification.objects.filter(kind="round-opened").values_list("user__username", flat=True))
    assert told == {"a1", "a2", "s1", "s2", "x1", "x2"}


def test_a_second_open_round_is_refused_and_nothing_is_opened(olga, running_campaign, round_one):
    response = olga.post(url(running_campaign, "rounds/"), {"deadline": in_a_week()}, format="json")

    assert problem(response) == (409, "round-already-open", "round")
    assert Round.objects.count() == 1


@pytest.mark.parametrize(
    ("deadline", "code"),
    [(timedelta(hours=-1), "deadline-past"), (timedelta(days=91), "deadline-too-far")],
)
def test_a_deadline_in_the_past_or_too_far_ahead_is_refused(olga, running_campaign, deadline, code):
    when = (timezone.now() + deadline).isoformat()

    response = olga.post(url(running_campaign, "rounds/"), {"deadline": when}, format="json")

    assert problem(response) == (400, code, "deadline")
    assert not Round.objects.exists()


def test_a_deadline_that_is_not_a_date_is_refused_at_its_field(olga, running_campaign):
    response = olga.post(url(running_campaign, "rounds/"), {"deadline": "next Tuesday"}, format="json")

    assert field_problem(response) == (400, "deadline", "invalid")


def test_no_round_opens_before_the_campaign_runs(olga, running_campaign):
    Campaign.objects.filter(pk=running_campaign.pk).update(status=Status.REGISTRATION)

    response = olga.post(url(running_campaign, "rounds/"), {"deadline": in_a_week()}, format="json")

    assert problem(response) == (409, "campaign-not-running", "status")


# --------------------------------------------------------------------------- reading


def test_the_rounds_are_listed_newest_first_with_what_they_hold_counted(olga, running_campaign, round_one):
    published(olga, running_campaign)
    assert olga.post(url(running_campaign, "rounds/1/close/")).status_code == 200
    olga.post(url(running_campaign, "rounds/"), {"deadline": in_a_week()}, format="json")

    rows = olga.get(url(running_campaign, "rounds/")).json()["results"]

    assert [(r["number"], r["status"], r["battle_count"], r["pairings_published"]) for r in rows] == [
        (2, "open", 0, False),
        (1, "closed", 3, True),
    ]
    assert rows[1]["url"].endswith(f"/api/campaigns/{running_campaign.pk}/rounds/1/")


def test_a_drafted_pairing_is_shown_to_the_organisers_only(olga, api_as, running_campaign, round_one, place):
    olga.post(url(running_campaign, "rounds/1/pairings/"))
    player = api_as(place("a1").player)

    theirs = olga.get(url(running_campaign, "rounds/1/")).json()
    mine = player.get(url(running_campaign, "rounds/1/")).json()

    assert theirs["drafts_shown"]
    assert len(theirs["battles"]) == 3
    assert {b["status"] for b in theirs["battles"]} == {"draft"}
    assert (mine["drafts_shown"], mine["battles"], mine["byes"]) == (False, [], [])
    draft = theirs["battles"][0]["id"]
    assert player.get(url(running_campaign, f"battles/{draft}/")).status_code == 404
    assert player.get(url(running_campaign, "battles/")).json()["count"] == 0


@pytest.mark.parametrize("number", ["2", "32768", "999999999999999999"])
def test_a_round_that_does_not_exist_is_a_404(olga, running_campaign, round_one, number):
    response = olga.get(url(running_campaign, f"rounds/{number}/"))

    assert (response.status_code, response.json()["detail"]) == (404, "no such round in this campaign")


# --------------------------------------------------------------------------- closing and reopening


def test_closing_settles_unplayed_battles_and_pays_the_income_once(olga, running_campaign, round_one):
    published(olga, running_campaign)

    closed = olga.post(url(running_campaign, "rounds/1/close/"))
    again = olga.post(url(running_campaign, "rounds/1/close/"))

    assert closed.status_code == 200
    assert closed.json()["status"] == "closed"
    assert {b["status"] for b in closed.json()["battles"]} == {"unplayed"}
    assert problem(again) == (409, "round-not-open", "round")
    # Each bloc holds its headquarters and one more sector: 3 + 1 points each, paid once.
    paid = ResourceEntry.objects.filter(kind=EntryKind.INCOME).values_list("bloc", "amount")
    assert sorted(paid) == [("Allies", 4), ("Axis", 4), ("SSU", 4)]


def test_closing_forfeits_unplayed_battles_where_the_settings_say_so(olga, running_campaign, round_one):
    Campaign.objects.filter(pk=running_campaign.pk).update(unplayed_battles=UnplayedPolicy.FORFEIT)
    published(olga, running_campaign)

    closed = olga.post(url(running_campaign, "rounds/1/close/")).json()

    assert {b["status"] for b in closed["battles"]} == {"forfeited"}


def test_reopening_reverses_what_closing_paid_with_new_entries(olga, running_campaign, round_one):
    published(olga, running_campaign)
    olga.post(url(running_campaign, "rounds/1/close/"))
    income = list(ResourceEntry.objects.filter(kind=EntryKind.INCOME).values_list("pk", flat=True))

    response = olga.post(url(running_campaign, "rounds/1/reopen/"), {"reason": "A report came in late"},
                         format="json")  # fmt: skip

    assert response.status_code == 200
    assert response.json()["status"] == "open"
    assert {b["status"] for b in response.json()["battles"]} == {"scheduled"}
    # The income entries are still there, each cancelled by a reversal.
    assert set(ResourceEntry.objects.filter(kind=EntryKind.INCOME).values_list("pk", flat=True)) == set(
        income
    )
    reversals = ResourceEntry.objects.filter(kind=EntryKind.REVERSAL)
    assert sorted(reversals.values_list("reverses_id", flat=True)) == sorted(income)
    balances = olga.get(url(running_campaign, "balances/")).json()
    assert {row["balance"] for row in balances} == {0}


def test_reopening_needs_a_reason(olga, running_campaign, round_one):
    olga.post(url(running_campaign, "rounds/1/close/"))

    response = olga.post(url(running_campaign, "rounds/1/reopen/"), {"reason": ""}, format="json")

    assert field_problem(response) == (400, "reason", "blank")
    assert Round.objects.get().status == RoundStatus.CLOSED


def test_only_the_last_closed_round_is_reopened(olga, running_campaign, round_one):
    olga.post(url(running_campaign, "rounds/1/close/"))
    olga.post(url(running_campaign, "rounds/"), {"deadline": in_a_week()}, format="json")
    body = {"reason": "Oops"}

    earlier = olga.post(url(running_campaign, "rounds/1/reopen/"), body, format="json")
    still_open = olga.post(url(running_campaign, "rounds/2/reopen/"), body, format="json")

    assert problem(earlier) == (409, "not-the-last-round", "round")
    assert problem(still_open) == (409, "round-not-closed", "round")


def test_an_unknown_field_in_a_round_request_is_refused(olga, running_campaign):
    response = olga.post(
        url(running_campaign, "rounds/"), {"deadline": in_a_week(), "number": 5}, format="json"
    )

    assert field_problem(response) == (400, "number", "unknown-field")


# --------------------------------------------------------------------------- pairings


def test_generating_drafts_battles_between_blocs_that_nobody_is_told_about(olga, running_campaign, round_one):
    response = olga.post(url(running_campaign, "rounds/1/pairings/"))

    assert response.status_code == 200
    battles = response.json()["battles"]
    assert len(battles) == 3
    for battle in battles:
        assert battle["status"] == "draft"
        assert battle["attacker"]["bloc"] != battle["defender"]["bloc"]
    assert not Notification.objects.filter(kind="pairings-published").exists()


def test_an_odd_player_is_drafted_a_bye(olga, running_campaign, round_one):
    EnrolmentFactory(campaign=running_campaign, bloc=Bloc.SSU)

    response = olga.post(url(running_campaign, "rounds/1/pairings/"))

    byes = response.json()["byes"]
    assert len(byes) == 1
    assert (byes[0]["published"], bool(byes[0]["note"])) == (False, True)


def test_swapping_two_players_of_a_battle_exchanges_their_roles(olga, running_campaign, round_one):
    battle = olga.post(url(running_campaign, "rounds/1/pairings/")).json()["battles"][0]
    attacker, defender = battle["attacker"]["id"], battle["defender"]["id"]

    response = olga.post(url(running_campaign, "rounds/1/pairings/swap/"), {"first": attacker, "second": defender},
                         format="json")  # fmt: skip

    assert response.status_code == 200
    sides = {(b["attacker"]["id"], b["defender"]["id"]) for b in response.json()["battles"]}
    assert (defender, attacker) in sides
    assert (attacker, defender) not in sides


def test_a_swap_putting_one_bloc_on_both_sides_is_refused_and_the_draft_kept(olga, running_campaign, round_one,
                                                                           place):  # fmt: skip
    drafted = olga.post(url(running_campaign, "rounds/1/pairings/")).json()["battles"]
    battle = drafted[0]
    same_bloc = next(
        p for p in ("a1", "a2", "s1", "s2", "x1", "x2")
        if place(p).bloc == battle["defender"]["bloc"] and place(p).pk != battle["defender"]["id"]
    )  # fmt: skip

    response = olga.post(url(running_campaign, "rounds/1/pairings/swap/"),
                         {"first": battle["attacker"]["id"], "second": place(same_bloc).pk}, format="json")  # fmt: skip

    assert problem(response) == (400, "pairing-same-bloc", "second")
    assert sorted(Battle.objects.values_list("pk", flat=True)) == sorted(b["id"] for b in drafted)


def test_a_swap_naming_someone_outside_the_draft_is_refused_at_that_field(olga, running_campaign, round_one):
    battle = olga.post(url(running_campaign, "rounds/1/pairings/")).json()["battles"][0]
    outsider = EnrolmentFactory(campaign=running_campaign, bloc=Bloc.AXIS)

    response = olga.post(url(running_campaign, "rounds/1/pairings/swap/"),
                         {"first": outsider.pk, "second": battle["attacker"]["id"]}, format="json")  # fmt: skip

    assert problem(response) == (400, "pairing-unknown-player", "first")


def test_a_swap_before_any_draft_is_a_conflict(olga, running_campaign, round_one, place):
    response = olga.post(url(running_campaign, "rounds/1/pairings/swap/"),
                         {"first": place("a1").pk, "second": place("x1").pk}, format="json")  # fmt: skip

    assert problem(response) == (409, "no-draft", "round")


def test_the_organiser_sets_a_drafted_battles_sector_on_the_front(olga, running_campaign, round_one):
    battle = olga.post(url(running_campaign, "rounds/1/pairings/")).json()["battles"][0]
    options = fronts(campaign=running_campaign)[
        (Bloc(battle["attacker"]["bloc"]), Bloc(battle["defender"]["bloc"]))
    ]
    chosen = next(key for key in options if key != (battle["sector"] or {}).get("key"))

    response = olga.post(url(running_campaign, "rounds/1/pairings/sector/"),
                         {"battle": battle["id"], "sector": chosen}, format="json")  # fmt: skip

    assert response.status_code == 200
    same_sides = [
        b for b in response.json()["battles"]
        if (b["attacker"]["id"], b["defender"]["id"]) == (battle["attacker"]["id"], battle["defender"]["id"])
    ]  # fmt: skip
    assert [b["sector"]["key"] for b in same_sides] == [chosen]


def test_a_sector_the_attacker_cannot_attack_is_refused_at_the_sector(olga, running_campaign, round_one):
    battle = olga.post(url(running_campaign, "rounds/1/pairings/")).json()["battles"][0]
    own_headquarters = running_campaign.sectors.get(headquarters_of=battle["attacker"]["bloc"]).key
    before = Battle.objects.get(pk=battle["id"]).sector_id

    response = olga.post(url(running_campaign, "rounds/1/pairings/sector/"),
                         {"battle": battle["id"], "sector": own_headquarters}, format="json")  # fmt: skip

    assert problem(response) == (400, "pairing-sector-not-attackable", "sector")
    assert Battle.objects.get(pk=battle["id"]).sector_id == before


def test_a_battle_not_in_the_draft_is_refused_at_the_battle(olga, running_campaign, round_one):
    olga.post(url(running_campaign, "rounds/1/pairings/"))

    response = olga.post(url(running_campaign, "rounds/1/pairings/sector/"),
                         {"battle": 999_999, "sector": None}, format="json")  # fmt: skip

    assert problem(response) == (400, "unknown-battle", "battle")


def test_publishing_schedules_the_draft_tells_the_players_and_fixes_it(olga, running_campaign, round_one):
    EnrolmentFactory(campaign=running_campaign, bloc=Bloc.SSU)

    body = published(olga, running_campaign)

    assert body["pairings_published"] is True
    assert {b["status"] for b in body["battles"]} == {"scheduled"}
    assert [bye["published"] for bye in body["byes"]] == [True]
    # Six players told their battle, the seventh their bye.
    assert Notification.objects.filter(kind="pairings-published").count() == 7
    assert problem(olga.post(url(running_campaign, "rounds/1/pairings/"))) == (
        409,
        "pairings-published",
        "round",
    )
    assert problem(olga.post(url(running_campaign, "rounds/1/pairings/publish/"))) == (
        409, "pairings-published", "round",
    )  # fmt: skip
    assert Bye.objects.filter(published=True).count() == 1


def test_publishing_without_a_draft_is_a_conflict(olga, running_campaign, round_one):
    assert problem(olga.post(url(running_campaign, "rounds/1/pairings/publish/"))) == (
        409,
        "no-draft",
        "round",
    )


def test_a_closed_rounds_pairings_cannot_be_generated(olga, running_campaign, round_one):
    olga.post(url(running_campaign, "rounds/1/close/"))

    response = olga.post(url(running_campaign, "rounds/1/pairings/"))

    assert problem(response) == (409, "round-not-open", "round")
    assert not Battle.objects.filter(status=BattleStatus.DRAFT).exists()
