"""Query counts of the rounds, a round with its battles, the battles, the challenges, the ledger, the
purchases and the balances: pinned, each expected query named, and measured at two sizes (one battle,
then dozens of players, battles, byes and entries) so they do not grow with the data."""

from __future__ import annotations

from typing import Any

import pytest

from armies.blocs import Bloc
from campaign.models import Campaign, Challenge, Round, Sector
from campaign.options import ResourceHolder, Status
from campaign.services.economy import Holder, fortification_buy, ledger_adjust
from campaign.services.pairings import pairings_generate, pairings_publish
from campaign.services.rounds import round_close
from tests.campaign.api_world import World, build_world
from tests.factories import EnrolmentFactory

pytestmark = pytest.mark.django_db

# The caller is the player (not the creator): campaign_access asks, in one query, whether they help run the
# campaign and for their place.
ACCESS = 1


def grow(world: World, *, players: int = 31, rounds: int = 3) -> Round:
    """Many more players (an odd number: someone sits out), ``rounds`` played and closed (income, settled
    battles), then one more round open with its pairing published; a purchase and challenges too."""
    round_close(round=Round.objects.get(campaign=world.campaign, status="open"), actor=world.creator)
    for number in range(players):
        EnrolmentFactory(campaign=world.campaign, bloc=list(Bloc)[number % 3])
    for _ in range(rounds):
        round_close(round=played(world), actor=world.creator)
    last = played(world)
    for bloc in Bloc:
        world.fund(bloc.value, 20)
    # A sector the SSU holds now (never its headquarters: nothing is built there).
    held = (
        Sector.objects.filter(campaign=world.campaign, owner="SSU", headquarters_of="")
        .order_by("key")
        .first()
    )
    assert held is not None
    fortification_buy(campaign=world.campaign, buyer=world.player_place, sector_key=held.key,
                      kind="bunker", actor=world.player)  # fmt: skip
    return last


def played(world: World) -> Round:
    round = world.open_round()
    pairings_generate(round=round, actor=world.creator)
    pairings_publish(round=round, actor=world.creator)
    return round


def measured(world: World, tail: str, queries: int, django_assert_num_queries: Any) -> dict[str, Any]:
    with django_assert_num_queries(queries):
        response = world.client("player").get(world.url(tail))
    assert response.status_code == 200
    return dict(body) if isinstance(body := response.json(), dict) else {"rows": body}


@pytest.fixture
def world() -> World:
    world = build_world(status=Status.RUNNING)
    world.battle()
    return world


def test_the_rounds_take_four_queries_however_many_rounds_and_battles(world, django_assert_num_queries):
    # 1 the campaign, 2-3 campaign_access (a co-organiser? the caller's place)
    # 4 the number of rounds (the page count)
    # 5 that page of rounds, each with its battles, byes and open challenges counted (subqueries)
    small = measured(world, "rounds/", 1 + ACCESS + 2, django_assert_num_queries)
    grow(world)
    large = measured(world, "rounds/", 1 + ACCESS + 2, django_assert_num_queries)

    assert [row["battle_count"] for row in small["results"]] == [1]
    # 33 players: 16 battles and a bye a round.
    assert [row["battle_count"] for row in large["results"]] == [16, 16, 16, 16, 1]
    assert large["results"][0]["bye_count"] == 1


def test_a_round_with_its_battles_takes_six_queries_however_many_battles(world, django_assert_num_queries):
    # 1 the campaign, 2-3 campaign_access
    # 4 the round by its number
    # 5 its battles with both sides, their accounts and the sector (select_related)
    # 6 its byes with their places and accounts (select_related)
    # 7 the places with a current registered list (each place's has_registered_list), once per answer
    small = measured(world, "rounds/1/", 1 + ACCESS + 4, django_assert_num_queries)
    last = grow(world)
    large = measured(world, f"rounds/{last.number}/", 1 + ACCESS + 4, django_assert_num_queries)

    assert (len(small["battles"]), len(large["battles"]), len(large["byes"])) == (1, 16, 1)


def test_the_battles_take_five_queries_however_many_battles(world, django_assert_num_queries):
    # 1 the campaign, 2-3 campaign_access (also: may the caller see drafts?)
    # 4 the number of battles (the page count)
    # 5 that page with its rounds, sides, accounts and sectors (select_related)
    # 6 the places with a current registered list (each place's has_registered_list), once per answer
    small = measured(world, "battles/", 1 + ACCESS + 3, django_assert_num_queries)
    grow(world)
    large = measured(world, "battles/", 1 + ACCESS + 3, django_assert_num_queries)

    assert (small["count"], large["count"], len(large["results"])) == (1, 1 + 4 * 16, 50)


def test_the_challenges_take_five_queries_however_many_challenges(world, django_assert_num_queries):
    # 1 the campaign, 2-3 campaign_access
    # 4 the number of challenges, 5 that page with rounds, sides, accounts, sectors and battles
    # 6 the places with a current registered list (each place's has_registered_list), once per answer
    first = Round.objects.get(campaign=world.campaign)
    challenge(first, world.player_place, world.placeholder)
    small = measured(world, "challenges/", 1 + ACCESS + 3, django_assert_num_queries)
    grow(world)
    admitted = world.campaign.enrolments.filter(status="admitted").order_by("id")
    allies, axis = (list(admitted.filter(bloc=bloc)) for bloc in (Bloc.ALLIES, Bloc.AXIS))
    for round in Round.objects.filter(campaign=world.campaign):
        for one, other in zip(allies, axis, strict=False):
            challenge(round, one, other)
    large = measured(world, "challenges/", 1 + ACCESS + 3, django_assert_num_queries)

    # Five rounds, each with a challenge from every Allied player who has an Axis one to match (10).
    assert (small["count"], large["count"]) == (1, 1 + 5 * 10)


def challenge(round: Round, challenger: Any, challenged: Any) -> Challenge:
    """A challenge row as the service stores one (the service's own rules are tested with the service)."""
    return Challenge.objects.create(
        campaign=round.campaign, round=round, challenger=challenger, challenged=challenged,
        sector=Sector.objects.get(campaign=round.campaign, key="zoo"), deadline=round.deadline,
    )  # fmt: skip


def test_the_ledger_takes_four_queries_however_many_entries(world, django_assert_num_queries):
    # 1 the campaign, 2-3 campaign_access
    # 4 the number of entries, 5 that page with places, their accounts and the actors (select_related)
    world.fund("SSU", 3)
    small = measured(world, "ledger/", 1 + ACCESS + 2, django_assert_num_queries)
    grow(world)
    large = measured(world, "ledger/", 1 + ACCESS + 2, django_assert_num_queries)

    # The fund; each of four closings paying three blocs; three more funds; a purchase.
    assert (small["count"], large["count"]) == (1, 1 + 4 * 3 + 3 + 1)


def test_the_purchases_take_five_queries_however_many(world, django_assert_num_queries):
    # 1 the campaign, 2-3 campaign_access, 4 the number of purchases, 5 that page with sectors and buyers
    # 6 the places with a current registered list (each place's has_registered_list), once per answer
    world.fund("SSU", 3)
    fortification_buy(campaign=world.campaign, buyer=world.player_place, sector_key="workers-settlement",
                      kind="strongpoint", actor=world.player)  # fmt: skip
    small = measured(world, "purchases/", 1 + ACCESS + 3, django_assert_num_queries)
    grow(world)
    large = measured(world, "purchases/", 1 + ACCESS + 3, django_assert_num_queries)

    assert (small["count"], large["count"]) == (1, 2)


def test_the_balances_take_four_queries_however_many_entries(world, django_assert_num_queries):
    # 1 the campaign, 2-3 campaign_access, 4 every bloc's sum of entries (one GROUP BY),
    # 5 the blocs with admitted players (listed at 0 before they earn anything)
    world.fund("SSU", 3)
    small = measured(world, "balances/", 1 + ACCESS + 2, django_assert_num_queries)
    grow(world)
    large = measured(world, "balances/", 1 + ACCESS + 2, django_assert_num_queries)

    assert (len(small["rows"]), len(large["rows"])) == (2, 3)


def test_the_balances_per_player_take_five_queries_however_many_players(world, django_assert_num_queries):
    # 1 the campaign, 2-3 campaign_access
    # 4 every player's sum of entries (one GROUP BY), 5 those players and every admitted one, with accounts
    # 6 the places with a current registered list (each place's has_registered_list), once per answer
    Campaign.objects.filter(pk=world.campaign.pk).update(resources_held_by=ResourceHolder.PLAYER)
    world.campaign.refresh_from_db()
    ledger_adjust(campaign=world.campaign, holder=Holder(enrolment=world.player_place), amount=3, reason="x",
                  actor=world.creator)  # fmt: skip
    small = measured(world, "balances/", 1 + ACCESS + 3, django_assert_num_queries)
    for place in world.campaign.enrolments.all():
        EnrolmentFactory(campaign=world.campaign, bloc=place.bloc)
    for place in world.campaign.enrolments.filter(status="admitted"):
        ledger_adjust(campaign=world.campaign, holder=Holder(enrolment=place), amount=2, reason="x",
                      actor=world.creator)  # fmt: skip
    large = measured(world, "balances/", 1 + ACCESS + 3, django_assert_num_queries)

    assert (len(small["rows"]), len(large["rows"])) == (
        2,
        5,
    )  # the placeholder (admitted, nothing earned) is listed at 0
