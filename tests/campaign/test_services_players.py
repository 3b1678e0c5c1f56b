"""Players: join requests and decisions, the bloc cap, withdrawing and leaving, placeholders claimed."""

from __future__ import annotations

import pytest

from armies.blocs import Bloc
from campaign.errors import CampaignConflictError, CampaignError
from campaign.models import Campaign, Enrolment, EnrolmentStatus, LogEntry, LogKind
from campaign.options import Status
from campaign.services import players as services
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_a_player_asks_to_join_with_a_bloc_and_a_faction(open_campaign, stranger):
    enrolment = services.enrolment_request(
        campaign=open_campaign, user=stranger, bloc="Allies", faction="coastal-raiders", message="Hi!"
    )

    assert (enrolment.status, enrolment.bloc, enrolment.faction) == ("pending", "Allies", "coastal-raiders")
    assert LogEntry.objects.filter(
        kind=LogKind.ENROLMENT_CHANGED, subject=f"enrolment:{enrolment.pk}"
    ).exists()


@pytest.mark.parametrize(
    ("bloc", "faction", "mercenary", "code"),
    [
        ("Mercenaries", "", False, "unknown-bloc"),
        ("Allies", "nope", False, "unknown-faction"),
        ("SSU", "coastal-raiders", False, "faction-of-another-bloc"),
        ("Allies", "coastal-raiders", True, "mercenary-faction"),
    ],
)
def test_it_refuses_a_bloc_or_faction_the_campaign_does_not_have(
    open_campaign, stranger, bloc, faction, mercenary, code
):
    with pytest.raises(CampaignError) as caught:
        services.enrolment_request(
            campaign=open_campaign, user=stranger, bloc=bloc, faction=faction, mercenary=mercenary
        )

    assert caught.value.code == code
    assert not Enrolment.objects.filter(player=stranger).exists()


def test_a_mercenary_player_fights_for_a_bloc(open_campaign, stranger):
    enrolment = services.enrolment_request(campaign=open_campaign, user=stranger, bloc="SSU", mercenary=True)

    assert (enrolment.bloc, enrolment.mercenary) == ("SSU", True)


def test_it_refuses_joining_twice(open_campaign, stranger):
    services.enrolment_request(campaign=open_campaign, user=stranger, bloc="Axis")

    with pytest.raises(CampaignConflictError) as caught:
        services.enrolment_request(campaign=open_campaign, user=stranger, bloc="SSU")
    assert caught.value.code == "already-joined"
    assert Enrolment.objects.get(player=stranger).bloc == "Axis"


@pytest.mark.parametrize("status", [Status.DRAFT, Status.FINISHED])
def test_it_refuses_joining_a_campaign_not_taking_players(campaign, stranger, status):
    Campaign.objects.filter(pk=campaign.pk).update(status=status)
    campaign.refresh_from_db()

    with pytest.raises(CampaignConflictError) as caught:
        services.enrolment_request(campaign=campaign, user=stranger, bloc="Axis")
    assert caught.value.code == "not-taking-players"


def test_an_organiser_admits_or_refuses_with_a_reason(open_campaign, organiser):
    first = services.enrolment_request(campaign=open_campaign, user=UserFactory(), bloc="Axis")
    second = services.enrolment_request(campaign=open_campaign, user=UserFactory(), bloc="Axis")

    services.enrolment_admit(enrolment=first, actor=organiser)
    with pytest.raises(CampaignError) as caught:
        services.enrolment_refuse(enrolment=second, actor=organiser, reason="  ")
    assert caught.value.code == "reason-required"
    services.enrolment_refuse(enrolment=second, actor=organiser, reason="Axis is full tonight")

    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.status, first.decided_by) == (EnrolmentStatus.ADMITTED, organiser)
    assert (second.status, second.decision_reason) == (EnrolmentStatus.REFUSED, "Axis is full tonight")


def test_deciding_an_already_decided_request_is_a_conflict_that_changes_nothing(open_campaign, organiser):
    enrolment = services.enrolment_request(campaign=open_campaign, user=UserFactory(), bloc="Axis")
    stale = Enrolment.objects.get(pk=enrolment.pk)
    services.enrolment_admit(enrolment=enrolment, actor=organiser)

    with pytest.raises(CampaignConflictError) as caught:
        services.enrolment_refuse(enrolment=stale, actor=organiser, reason="too late")

    assert caught.value.code == "enrolment-changed"
    assert Enrolment.objects.get(pk=enrolment.pk).status == EnrolmentStatus.ADMITTED


def test_it_caps_the_players_of_a_bloc(open_campaign, organiser, make_player):
    Campaign.objects.filter(pk=open_campaign.pk).update(max_players_per_bloc=1)
    make_player("first", Bloc.AXIS)
    late = services.enrolment_request(campaign=open_campaign, user=UserFactory(), bloc="Axis")

    with pytest.raises(CampaignConflictError) as caught:
        services.enrolment_admit(enrolment=late, actor=organiser)

    assert caught.value.code == "bloc-full"
    assert Enrolment.objects.get(pk=late.pk).status == EnrolmentStatus.PENDING


def test_a_player_withdraws_before_the_campaign_runs_and_may_ask_again(open_campaign, stranger):
    enrolment = services.enrolment_request(campaign=open_campaign, user=stranger, bloc="Axis")
    services.enrolment_withdraw(enrolment=enrolment, actor=stranger)
    assert Enrolment.objects.get(pk=enrolment.pk).status == EnrolmentStatus.WITHDRAWN

    again = services.enrolment_request(campaign=open_campaign, user=stranger, bloc="SSU")
    assert (again.pk, again.status, again.bloc) == (enrolment.pk, EnrolmentStatus.PENDING, "SSU")


def test_a_player_leaves_a_running_campaign_and_keeps_their_place_in_history(
    open_campaign, make_player, organiser
):
    axis = make_player("a", Bloc.AXIS)
    make_player("b", Bloc.SSU)
    Campaign.objects.filter(pk=open_campaign.pk).update(status=Status.RUNNING)

    with pytest.raises(CampaignConflictError):
        services.enrolment_withdraw(enrolment=axis, actor=axis.player)
    services.enrolment_leave(enrolment=axis, actor=axis.player, reason="moving away")

    axis.refresh_from_db()
    assert axis.status == EnrolmentStatus.LEFT
    assert axis.left_at is not None


def test_a_placeholder_plays_and_is_claimed_by_an_account_with_everything_kept(
    open_campaign, organiser, stranger
):
    place = services.placeholder_add(campaign=open_campaign, actor=organiser, name="Uncle Vanya", bloc="SSU")
    assert (place.status, place.is_placeholder, place.display_name) == ("admitted", True, "Uncle Vanya")

    with pytest.raises(CampaignError):
        services.placeholder_claim(token="", user=stranger)
    services.placeholder_claim_link(enrolment=place, actor=organiser)
    place.refresh_from_db()
    first_token = place.claim_token
    services.placeholder_claim_link(enrolment=place, actor=organiser)
    place.refresh_from_db()
    with pytest.raises(CampaignError) as caught:
        services.placeholder_claim(token=first_token, user=stranger)
    assert caught.value.code == "claim-invalid"

    claimed = services.placeholder_claim(token=place.claim_token, user=stranger)

    assert (claimed.pk, claimed.player, claimed.status, claimed.claim_token) == (
        place.pk,
        stranger,
        "admitted",
        None,
    )
    with pytest.raises(CampaignConflictError):
        services.placeholder_claim_link(enrolment=claimed, actor=organiser)


def test_a_pending_request_may_be_withdrawn_while_the_campaign_runs(open_campaign, stranger):
    enrolment = services.enrolment_request(campaign=open_campaign, user=stranger, bloc="Axis")
    Campaign.objects.filter(pk=open_campaign.pk).update(status=Status.RUNNING)

    services.enrolment_withdraw(enrolment=enrolment, actor=stranger)

    assert Enrolment.objects.get(pk=enrolment.pk).status == EnrolmentStatus.WITHDRAWN


def test_a_refused_applicant_still_sees_the_private_campaign_to_read_why(open_campaign, organiser, stranger):
    from campaign.permissions import can_view_campaign

    enrolment = services.enrolment_request(campaign=open_campaign, user=stranger, bloc="Axis")
    services.enrolment_refuse(enrolment=enrolment, actor=organiser, reason="the table is full")
    open_campaign.refresh_from_db()

    assert not open_campaign.is_public
    assert can_view_campaign(stranger, open_campaign)


def test_a_finished_campaign_refuses_decisions_and_claim_links(open_campaign, organiser, stranger):
    enrolment = services.enrolment_request(campaign=open_campaign, user=stranger, bloc="Axis")
    place = services.placeholder_add(campaign=open_campaign, actor=organiser, name="Vanya", bloc="SSU")
    Campaign.objects.filter(pk=open_campaign.pk).update(status=Status.FINISHED)

    with pytest.raises(CampaignConflictError):
        services.enrolment_refuse(enrolment=enrolment, actor=organiser, reason="too late")
    with pytest.raises(CampaignConflictError):
        services.placeholder_claim_link(enrolment=place, actor=organiser)
    assert Enrolment.objects.get(pk=place.pk).claim_token is None
