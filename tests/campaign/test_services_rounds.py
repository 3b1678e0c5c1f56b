"""Rounds: opening with a deadline, closing (settling unplayed battles, paying income once), reopening."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from campaign.errors import CampaignConflictError, CampaignError
from campaign.models import Battle, BattleStatus, Campaign, EntryKind, ResourceEntry, Round, RoundStatus
from campaign.options import ResourceHolder, UnplayedPolicy
from campaign.services.economy import Holder, balance, ledger_adjust
from campaign.services.pairings import pairings_generate, pairings_publish
from campaign.services.rounds import round_close, round_open, round_reopen

pytestmark = pytest.mark.django_db


def _deadline(days: int = 7):
    return timezone.now() + timedelta(days=days)


def test_an_organiser_opens_one_round_at_a_time(running_campaign, organiser):
    first = round_open(campaign=running_campaign, actor=organiser, deadline=_deadline())

    assert (first.number, first.status) == (1, RoundStatus.OPEN)
    assert Campaign.objects.get(pk=running_campaign.pk).current_round == 1
    with pytest.raises(CampaignConflictError) as caught:
        round_open(campaign=running_campaign, actor=organiser, deadline=_deadline())
    assert caught.value.code == "round-already-open"


@pytest.mark.parametrize(("days", "code"), [(-1, "deadline-past"), (91, "deadline-too-far")])
def test_a_deadline_is_in_the_future_and_not_too_far(running_campaign, organiser, days, code):
    with pytest.raises(CampaignError) as caught:
        round_open(campaign=running_campaign, actor=organiser, deadline=_deadline(days))

    assert caught.value.code == code
    assert not Round.objects.exists()


def test_closing_pays_each_bloc_its_income_once(running_campaign, organiser):
    Campaign.objects.filter(pk=running_campaign.pk).update(income_base=1)
    running_campaign.refresh_from_db()
    first = round_open(campaign=running_campaign, actor=organiser, deadline=_deadline())

    round_close(round=first, actor=organiser)
    with pytest.raises(CampaignConflictError) as caught:
        round_close(round=first, actor=organiser)

    assert caught.value.code == "round-not-open"
    held = {s.owner: 0 for s in running_campaign.sectors.exclude(owner="")}
    for sector in running_campaign.sectors.exclude(owner=""):
        held[sector.owner] += sector.value
    for bloc, value in held.items():
        assert balance(campaign=running_campaign, holder=Holder(bloc=bloc)) == value + 1
    assert ResourceEntry.objects.filter(kind=EntryKind.INCOME).count() == len(held)


def test_closing_settles_the_battles_nobody_played_as_the_settings_say(running_campaign, organiser):
    Campaign.objects.filter(pk=running_campaign.pk).update(unplayed_battles=UnplayedPolicy.FORFEIT)
    running_campaign.refresh_from_db()
    first = round_open(campaign=running_campaign, actor=organiser, deadline=_deadline())
    pairings_generate(round=first, actor=organiser)
    pairings_publish(round=first, actor=organiser)

    round_close(round=first, actor=organiser)

    assert set(Battle.objects.values_list("status", flat=True)) == {BattleStatus.FORFEITED}


def test_reopening_reverses_what_closing_paid_by_new_entries(running_campaign, organiser):
    first = round_open(campaign=running_campaign, actor=organiser, deadline=_deadline())
    pairings_generate(round=first, actor=organiser)
    pairings_publish(round=first, actor=organiser)
    round_close(round=first, actor=organiser)
    paid = ResourceEntry.objects.count()

    round_reopen(round=first, actor=organiser, reason="a report came in late")

    assert ResourceEntry.objects.count() == 2 * paid  # nothing deleted: every payment has its reversal
    assert all(
        balance(campaign=running_campaign, holder=Holder(bloc=b)) == 0 for b in ("Allies", "Axis", "SSU")
    )
    assert set(Battle.objects.values_list("status", flat=True)) == {BattleStatus.SCHEDULED}
    assert Round.objects.get(pk=first.pk).status == RoundStatus.OPEN
    round_close(round=first, actor=organiser)
    assert balance(campaign=running_campaign, holder=Holder(bloc="Axis")) > 0


def test_only_the_last_round_reopens_and_not_once_its_income_is_spent(running_campaign, organiser):
    first = round_open(campaign=running_campaign, actor=organiser, deadline=_deadline())
    round_close(round=first, actor=organiser)
    axis = Holder(bloc="Axis")
    ledger_adjust(campaign=running_campaign, holder=axis, amount=-balance(campaign=running_campaign, holder=axis),
                  reason="spent at the front", actor=organiser)  # fmt: skip

    with pytest.raises(CampaignConflictError) as caught:
        round_reopen(round=first, actor=organiser, reason="oops")
    assert caught.value.code == "income-spent"

    second = round_open(campaign=running_campaign, actor=organiser, deadline=_deadline())
    round_close(round=second, actor=organiser)
    with pytest.raises(CampaignConflictError) as caught:
        round_reopen(round=first, actor=organiser, reason="oops")
    assert caught.value.code == "not-the-last-round"


def test_income_goes_to_the_players_holding_sectors_where_resources_are_per_player(
    running_campaign, organiser, place
):
    from campaign.services.map import sector_update

    Campaign.objects.filter(pk=running_campaign.pk).update(
        resources_held_by=ResourceHolder.PLAYER, income_base=2
    )
    running_campaign.refresh_from_db()
    x1 = place("x1")
    sector_update(campaign=running_campaign, actor=organiser, key="zoo", changes={"owner": "Axis", "held_by": x1.pk},
                  reason="taken")  # fmt: skip
    zoo = running_campaign.sectors.get(key="zoo")

    round_close(
        round=round_open(campaign=running_campaign, actor=organiser, deadline=_deadline()), actor=organiser
    )

    assert balance(campaign=running_campaign, holder=Holder(enrolment=x1)) == 2 + zoo.value
    assert balance(campaign=running_campaign, holder=Holder(enrolment=place("x2"))) == 2
