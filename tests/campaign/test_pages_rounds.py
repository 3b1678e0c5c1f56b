"""The rounds pages: the list, opening a round, closing it (confirmed, income shown) and reopening it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from campaign.models import (
    Battle,
    BattleSource,
    BattleStatus,
    Campaign,
    EntryKind,
    ResourceEntry,
    Round,
    sides_recorded,
)
from campaign.options import Status, UnplayedPolicy
from campaign.services.economy import Holder, balance
from campaign.services.rounds import round_close, round_open

pytestmark = pytest.mark.django_db


def url(name: str, campaign: Campaign, *args: object) -> str:
    return reverse(f"campaign:{name}", args=[campaign.pk, *args])


def in_days(days: int) -> str:
    return (timezone.localtime() + timedelta(days=days)).strftime("%Y-%m-%dT%H:%M")


@pytest.fixture
def round_one(running_campaign, organiser) -> Round:
    return round_open(campaign=running_campaign, actor=organiser, deadline=timezone.now() + timedelta(days=7))


def test_it_lists_every_round_with_its_status_and_deadline(
    client, running_campaign, organiser, round_one, place
):
    round_close(round=round_one, actor=organiser)
    round_open(campaign=running_campaign, actor=organiser, deadline=timezone.now() + timedelta(days=3))
    client.force_login(place("a1").player)

    page = client.get(url("rounds", running_campaign)).content.decode()

    assert page.count('data-testid="round-row"') == 2
    assert 'data-round="2"' in page
    assert 'data-round="1"' in page
    assert "Closed" in page
    assert "Open" in page
    # A player sees the rounds but none of the organisers' tools.
    assert "Open round" not in page
    assert "Close round" not in page
    assert "Reopen" not in page


def test_the_organiser_opens_a_round_with_a_deadline(client, running_campaign, organiser):
    client.force_login(organiser)
    form_page = client.get(url("rounds", running_campaign)).content.decode()
    assert 'type="datetime-local"' in form_page
    assert 'name="deadline"' in form_page

    response = client.post(url("round_open", running_campaign), {"deadline": in_days(5)})

    opened = Round.objects.get(campaign=running_campaign)
    assert response["Location"] == url("round", running_campaign, 1)
    assert opened.is_open
    assert timedelta(days=4, hours=23) < opened.deadline - timezone.now() <= timedelta(days=5)


@pytest.mark.parametrize(("days", "code"), [(-1, "deadline-past"), (120, "deadline-too-far")])
def test_a_deadline_out_of_bounds_is_refused_next_to_the_field(
    client, running_campaign, organiser, days, code
):
    client.force_login(organiser)

    response = client.post(url("round_open", running_campaign), {"deadline": in_days(days)})

    assert response.status_code == 200
    assert response.context["open_form"].has_error("deadline", code)
    assert not Round.objects.exists()


def test_a_second_open_round_is_refused_and_nothing_changes(client, running_campaign, organiser, round_one):
    client.force_login(organiser)

    response = client.post(url("round_open", running_campaign), {"deadline": in_days(5)})

    # The form is not offered while a round is open; a forged post is told why.
    assert response.status_code == 200
    assert b"close the open round before opening the next" in response.content
    assert Round.objects.count() == 1


def test_the_close_page_says_what_closing_does_and_the_income_each_holder_gets(
    client, running_campaign, organiser, round_one
):
    Campaign.objects.filter(pk=running_campaign.pk).update(
        income_base=2, unplayed_battles=UnplayedPolicy.FORFEIT
    )
    client.force_login(organiser)

    page = client.get(url("round_close", running_campaign, 1)).content.decode()

    assert "forfeited" in page
    # The default map: the Axis holds the Airfield (3) and Kolkhoz Fields (1), plus the base income of 2.
    assert 'data-testid="income-due"' in page
    assert '<th scope="row">Axis</th><td>6</td>' in page
    assert '<th scope="row">SSU</th><td>6</td>' in page
    assert '<th scope="row">Allies</th><td>6</td>' in page


def test_closing_settles_unplayed_battles_and_pays_income(
    client, running_campaign, organiser, round_one, place
):
    Battle.objects.create(
        campaign=running_campaign, round=round_one, attacker=place("a1"), defender=place("x1"), mission="landing",
        **sides_recorded(attacker=place("a1"), defender=place("x1")),
        points_limit=150, status=BattleStatus.SCHEDULED, source=BattleSource.PAIRING,
    )  # fmt: skip
    client.force_login(organiser)

    response = client.post(url("round_close", running_campaign, 1))

    assert response["Location"] == url("rounds", running_campaign)
    round_one.refresh_from_db()
    assert not round_one.is_open
    assert Battle.objects.get().status == BattleStatus.UNPLAYED
    assert balance(campaign=running_campaign, holder=Holder(bloc="Axis")) == 4


def test_closing_twice_is_refused_and_pays_once(client, running_campaign, organiser, round_one):
    client.force_login(organiser)
    client.post(url("round_close", running_campaign, 1))
    paid = list(ResourceEntry.objects.values_list("pk", flat=True))

    again = client.post(url("round_close", running_campaign, 1))

    assert again.status_code == 200
    assert again.context["error"].code == "round-not-open"
    assert b"closing it again changes nothing" in again.content
    assert list(ResourceEntry.objects.values_list("pk", flat=True)) == paid


def test_the_organiser_reopens_the_last_round_with_a_reason_and_the_income_is_reversed(
    client, running_campaign, organiser, round_one
):
    round_close(round=round_one, actor=organiser)
    client.force_login(organiser)
    listing = client.get(url("rounds", running_campaign)).content.decode()
    assert url("round_reopen", running_campaign, 1) in listing

    response = client.post(url("round_reopen", running_campaign, 1), {"reason": "Closed a day early"})

    assert response["Location"] == url("round", running_campaign, 1)
    round_one.refresh_from_db()
    assert round_one.is_open
    assert ResourceEntry.objects.filter(kind=EntryKind.REVERSAL).count() == 3
    assert balance(campaign=running_campaign, holder=Holder(bloc="Axis")) == 0


def test_reopening_needs_a_reason_and_an_open_round_cannot_be_reopened(
    client, running_campaign, organiser, round_one
):
    client.force_login(organiser)

    no_reason = client.post(url("round_reopen", running_campaign, 1), {"reason": ""})
    still_open = client.post(url("round_reopen", running_campaign, 1), {"reason": "Just because"})

    assert no_reason.status_code == still_open.status_code == 200
    assert no_reason.context["form"].errors["reason"]
    assert still_open.context["form"].has_error("__all__", "round-not-closed")
    assert not ResourceEntry.objects.exists()


def test_no_round_is_opened_before_the_campaign_runs(client, open_campaign, organiser):
    client.force_login(organiser)

    page = client.get(url("rounds", open_campaign)).content.decode()
    forged = client.post(url("round_open", open_campaign), {"deadline": in_days(5)})

    assert "Rounds are played while the campaign runs" in page
    assert "Open the round" not in page
    assert b"rounds are opened while the campaign runs" in forged.content
    assert open_campaign.status == Status.REGISTRATION
    assert not Round.objects.exists()
