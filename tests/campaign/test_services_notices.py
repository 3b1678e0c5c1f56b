"""What the campaign's services tell, to whom, and what they mark read once it is done.

Nobody is told of their own act (an organiser who also plays is not told of the round they
closed); a challenge answered, withdrawn or expired, a join request decided or withdrawn, and
a round closed each mark read the notifications that asked for them.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import Notification
from armies.blocs import Bloc
from campaign.models import Challenge
from campaign.services.campaigns import co_organiser_add
from campaign.services.challenges import (
    challenge_decline,
    challenge_issue,
    challenge_withdraw,
    challenges_expire,
)
from campaign.services.pairings import pairings_generate, pairings_publish
from campaign.services.players import enrolment_refuse, enrolment_request, enrolment_withdraw
from campaign.services.rounds import round_close, round_open
from tests.factories import EnrolmentFactory, UserFactory

pytestmark = pytest.mark.django_db


def unread(user, kind: str) -> int:
    return Notification.objects.filter(user=user, kind=kind, read_at__isnull=True).count()


def told(user, kind: str) -> int:
    return Notification.objects.filter(user=user, kind=kind).count()


@pytest.fixture
def round_one(running_campaign, organiser):
    return round_open(campaign=running_campaign, actor=organiser, deadline=timezone.now() + timedelta(days=7))


@pytest.fixture
def challenge(round_one, running_campaign, place):
    sector = running_campaign.sectors.filter(owner="").values_list("key", flat=True).first()
    return challenge_issue(challenger=place("x1"), challenged=place("a1"), sector_key=sector,
                           actor=place("x1").player)  # fmt: skip


def test_a_challenge_is_news_for_the_challenged_only(challenge, place):
    assert (unread(place("a1").player, "challenge-issued"), told(place("x1").player, "challenge-issued")) == (
        1,
        0,
    )


def test_declining_reads_the_challenge_and_tells_the_challenger(challenge, place):
    challenge_decline(challenge=challenge, actor=place("a1").player)

    assert unread(place("a1").player, "challenge-issued") == 0
    assert (
        told(place("x1").player, "challenge-answered"),
        told(place("a1").player, "challenge-answered"),
    ) == (1, 0)


def test_a_withdrawn_challenge_no_longer_waits_on_the_challenged(challenge, place):
    challenge_withdraw(challenge=challenge, actor=place("x1").player)

    assert unread(place("a1").player, "challenge-issued") == 0
    assert not Notification.objects.filter(user=place("x1").player, kind__startswith="challenge").exists()


def test_an_expired_challenge_no_longer_waits_on_the_challenged(challenge, place):
    Challenge.objects.filter(pk=challenge.pk).update(deadline=timezone.now() - timedelta(minutes=1))

    assert challenges_expire() == 1

    assert unread(place("a1").player, "challenge-issued") == 0


@pytest.fixture
def helper(open_campaign, organiser):
    cora = UserFactory(username="cora")
    co_organiser_add(campaign=open_campaign, actor=organiser, user=cora)
    return cora


@pytest.fixture
def request_of_nadia(open_campaign, helper):
    return enrolment_request(campaign=open_campaign, user=UserFactory(username="nadia"), bloc=Bloc.SSU)


def test_a_join_request_tells_every_organiser_but_not_the_one_asking(request_of_nadia, organiser, helper):
    assert (unread(organiser, "join-requested"), unread(helper, "join-requested")) == (1, 1)
    assert told(request_of_nadia.player, "join-requested") == 0


def test_refusing_a_request_reads_it_for_every_organiser(request_of_nadia, organiser, helper):
    enrolment_refuse(enrolment=request_of_nadia, actor=helper, reason="The table is full tonight")

    assert (unread(organiser, "join-requested"), unread(helper, "join-requested")) == (0, 0)
    assert unread(request_of_nadia.player, "join-decided") == 1
    assert told(helper, "join-decided") == 0


def test_a_request_withdrawn_is_no_longer_news_for_the_organisers(request_of_nadia, organiser, helper):
    enrolment_withdraw(enrolment=request_of_nadia, actor=request_of_nadia.player)

    assert (unread(organiser, "join-requested"), unread(helper, "join-requested")) == (0, 0)


def test_deciding_one_request_leaves_the_others_waiting(request_of_nadia, open_campaign, organiser):
    other = enrolment_request(campaign=open_campaign, user=UserFactory(username="otto"), bloc=Bloc.AXIS)

    enrolment_refuse(enrolment=request_of_nadia, actor=organiser, reason="Ask again next season")

    (waiting,) = Notification.objects.filter(user=organiser, kind="join-requested", read_at__isnull=True)
    assert waiting.link.endswith(f"#request-{other.pk}")


def test_an_organiser_who_plays_is_not_told_of_the_rounds_they_open_and_close(
    running_campaign, organiser, place
):
    EnrolmentFactory(campaign=running_campaign, player=organiser, bloc=Bloc.SSU)
    opened = round_open(
        campaign=running_campaign, actor=organiser, deadline=timezone.now() + timedelta(days=7)
    )

    round_close(round=opened, actor=organiser)

    assert not Notification.objects.filter(user=organiser).exists()
    assert (told(place("a1").player, "round-opened"), told(place("a1").player, "round-closed")) == (1, 1)


def test_closing_a_round_reads_its_opening_and_its_challenges_and_opening_the_next_reads_the_close(
    challenge, running_campaign, organiser, place
):
    a1 = place("a1").player

    round_close(round=challenge.round, actor=organiser)

    assert (unread(a1, "round-opened"), unread(a1, "challenge-issued"), unread(a1, "round-closed")) == (
        0,
        0,
        1,
    )

    round_open(campaign=running_campaign, actor=organiser, deadline=timezone.now() + timedelta(days=7))

    assert (unread(a1, "round-closed"), unread(a1, "round-opened")) == (0, 1)


def test_published_pairings_tell_every_player_and_closing_the_round_reads_them(
    round_one, running_campaign, organiser, make_player
):
    make_player("s3", bloc=Bloc.SSU)  # seven players: one of them sits the round out
    pairings_generate(round=round_one, actor=organiser)
    pairings_publish(round=round_one, actor=organiser)
    players = [place.player for place in running_campaign.enrolments.all()]
    assert [unread(user, "pairings-published") for user in players] == [1] * 7
    assert (
        Notification.objects.filter(
            kind="pairings-published", link=f"/campaigns/{running_campaign.pk}/"
        ).count()
        == 1
    )

    round_close(round=round_one, actor=organiser)

    assert [unread(user, "pairings-published") for user in players] == [0] * 7
