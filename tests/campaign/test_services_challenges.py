"""Challenges: over a sector the challenger's bloc may attack, answered only by the challenged, expiring."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from campaign.errors import CampaignConflictError, CampaignError
from campaign.models import Battle, BattleSource, BattleStatus, Challenge, ChallengeStatus
from campaign.services.challenges import (
    challenge_accept,
    challenge_decline,
    challenge_issue,
    challenges_expire,
)
from campaign.services.rounds import round_open

pytestmark = pytest.mark.django_db


@pytest.fixture
def round_one(running_campaign, organiser):
    return round_open(campaign=running_campaign, actor=organiser, deadline=timezone.now() + timedelta(days=7))


def _neutral(campaign) -> str:
    return campaign.sectors.filter(owner="").values_list("key", flat=True).first()


def test_a_challenge_accepted_schedules_the_battle(round_one, running_campaign, place):
    challenge = challenge_issue(challenger=place("x1"), challenged=place("a1"), sector_key=_neutral(running_campaign),
                                actor=place("x1").player, message="Meet me at dawn")  # fmt: skip

    battle = challenge_accept(challenge=challenge, actor=place("a1").player)

    assert (battle.attacker, battle.defender, battle.status, battle.source) == (
        place("x1"), place("a1"), BattleStatus.SCHEDULED, BattleSource.CHALLENGE,
    )  # fmt: skip
    assert Challenge.objects.get(pk=challenge.pk).status == ChallengeStatus.ACCEPTED
    with pytest.raises(CampaignConflictError) as caught:
        challenge_decline(challenge=challenge, actor=place("a1").player)
    assert caught.value.code == "challenge-answered"


@pytest.mark.parametrize(
    ("challenger", "challenged", "sector", "code"),
    [
        ("x1", "x2", "neutral", "same-bloc"),
        ("x1", "a1", "axis-hq", "sector-not-attackable"),
        ("x1", "a1", "ssu-held", "sector-not-theirs"),
    ],
)
def test_a_challenge_over_a_sector_that_cannot_be_fought_for_is_refused(
    round_one, running_campaign, place, challenger, challenged, sector, code
):
    keys = {
        "neutral": _neutral(running_campaign),
        "axis-hq": running_campaign.sectors.get(headquarters_of="Axis").key,
        "ssu-held": running_campaign.sectors.filter(owner="SSU", headquarters_of="").values_list(
            "key", flat=True
        )[0],
    }

    with pytest.raises(CampaignError) as caught:
        challenge_issue(
            challenger=place(challenger), challenged=place(challenged), sector_key=keys[sector], actor=None
        )

    assert caught.value.code == code
    assert not Challenge.objects.exists()


def test_a_player_has_at_most_the_campaigns_number_of_open_challenges(round_one, running_campaign, place):
    sector = _neutral(running_campaign)
    challenge_issue(challenger=place("x1"), challenged=place("a1"), sector_key=sector, actor=None)

    with pytest.raises(CampaignConflictError) as caught:
        challenge_issue(challenger=place("x1"), challenged=place("s1"), sector_key=sector, actor=None)

    assert caught.value.code == "too-many-challenges"


def test_a_challenge_not_answered_by_its_deadline_expires(round_one, running_campaign, place):
    challenge = challenge_issue(challenger=place("x1"), challenged=place("a1"),
                                sector_key=_neutral(running_campaign), actor=None)  # fmt: skip
    Challenge.objects.filter(pk=challenge.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    challenge.refresh_from_db()

    with pytest.raises(CampaignConflictError) as caught:
        challenge_accept(challenge=challenge, actor=None)
    assert caught.value.code == "challenge-expired"
    assert challenges_expire() == 1
    assert Challenge.objects.get(pk=challenge.pk).status == ChallengeStatus.EXPIRED
    assert not Battle.objects.exists()


def test_no_challenge_without_an_open_round(running_campaign, place):
    with pytest.raises(CampaignConflictError) as caught:
        challenge_issue(challenger=place("x1"), challenged=place("a1"), sector_key=_neutral(running_campaign),
                        actor=None)  # fmt: skip

    assert caught.value.code == "no-open-round"
