"""Joining (openly and by invitation), withdrawing, leaving and claiming a placeholder's place."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from armies.blocs import Bloc
from armies.models import Faction
from campaign.models import (
    Battle,
    BattleSource,
    BattleStatus,
    Campaign,
    Enrolment,
    EnrolmentStatus,
    Round,
    sides_recorded,
)
from campaign.options import Status
from campaign.services.campaigns import campaign_invite_regenerate
from tests.factories import EnrolmentFactory

pytestmark = pytest.mark.django_db


def join_url(campaign: Campaign, token: str = "") -> str:
    if token:
        return reverse("campaign:join_invite", args=[campaign.pk, token])
    return reverse("campaign:join", args=[campaign.pk])


@pytest.fixture
def public_campaign(open_campaign: Campaign) -> Campaign:
    open_campaign.is_public = True
    open_campaign.save()
    return open_campaign


def test_it_offers_the_factions_of_the_bloc_chosen_from_the_campaign_catalogue(
    client, public_campaign, stranger
):
    client.force_login(stranger)

    everything = client.get(join_url(public_campaign)).content.decode()
    axis = client.get(join_url(public_campaign), {"bloc": "Axis"}).content.decode()

    assert "Eisenwacht Korps" in everything
    assert "Volga Shock Guard" in everything
    assert "Eisenwacht Korps" in axis
    assert "Sturmfalke Legion" in axis
    assert "Volga Shock Guard" not in axis
    assert "Coastal Raiders" not in axis


def test_it_refreshes_the_faction_field_when_htmx_asks(client, public_campaign, stranger):
    client.force_login(stranger)

    response = client.get(
        join_url(public_campaign),
        {"bloc": "SSU"},
        headers={"HX-Request": "true", "HX-Target": "faction-field"},
    )

    content = response.content.decode()
    assert content.lstrip().startswith('<div class="field" id="faction-field">')
    assert "Taiga Scouts" in content
    assert "Eisenwacht Korps" not in content


def test_it_asks_to_join_with_bloc_faction_and_message(client, public_campaign, stranger):
    faction = Faction.objects.get(catalogue=public_campaign.catalogue, name="Taiga Scouts")
    client.force_login(stranger)

    response = client.post(
        join_url(public_campaign), {"bloc": "SSU", "faction": faction.key, "message": "I bring snow."}
    )

    assert response.status_code == 302
    assert response["Location"] == reverse("campaign:detail", args=[public_campaign.pk])
    enrolment = Enrolment.objects.get(campaign=public_campaign, player=stranger)
    assert (enrolment.status, enrolment.bloc, enrolment.faction, enrolment.message) == (
        EnrolmentStatus.PENDING, "SSU", faction.key, "I bring snow.",
    )  # fmt: skip
    page = client.get(response["Location"])
    assert b"You asked to join for SSU: an organiser will decide." in page.content


def test_it_shows_a_refusal_next_to_the_field_and_keeps_the_message(client, public_campaign, stranger):
    axis_faction = Faction.objects.get(catalogue=public_campaign.catalogue, name="Eisenwacht Korps")
    client.force_login(stranger)

    response = client.post(
        join_url(public_campaign), {"bloc": "SSU", "faction": axis_faction.key, "message": "Please"}
    )

    assert response.status_code == 200
    errors = response.context["form"].errors["faction"]
    assert errors == ["Eisenwacht Korps fights for Axis, not SSU"]
    assert b"Please</textarea>" in response.content
    assert not Enrolment.objects.filter(player=stranger).exists()


def test_it_refuses_a_mercenary_who_claims_a_faction(client, public_campaign, stranger):
    faction = Faction.objects.get(catalogue=public_campaign.catalogue, name="Taiga Scouts")
    client.force_login(stranger)

    response = client.post(
        join_url(public_campaign), {"bloc": "SSU", "faction": faction.key, "mercenary": "on"}
    )

    assert response.context["form"].has_error("faction", "mercenary-faction")


def test_it_lets_a_mercenary_join_for_a_bloc(client, public_campaign, stranger):
    client.force_login(stranger)

    client.post(join_url(public_campaign), {"bloc": "Allies", "mercenary": "on"})

    enrolment = Enrolment.objects.get(player=stranger)
    assert (enrolment.bloc, enrolment.mercenary, enrolment.faction) == ("Allies", True, "")


def test_it_opens_a_private_campaign_only_through_its_invitation_link(client, open_campaign, stranger):
    client.force_login(stranger)

    plain = client.get(join_url(open_campaign))
    wrong = client.get(join_url(open_campaign, "not-the-token"))
    invited = client.get(join_url(open_campaign, open_campaign.invite_token))
    joined = client.post(join_url(open_campaign, open_campaign.invite_token), {"bloc": "Axis"})

    assert (plain.status_code, wrong.status_code, invited.status_code) == (404, 404, 200)
    assert f'action="{join_url(open_campaign, open_campaign.invite_token)}"'.encode() in invited.content
    assert joined.status_code == 302
    assert client.get(joined["Location"]).status_code == 200  # an applicant sees the campaign


def test_it_closes_an_old_invitation_link_when_a_new_one_is_made(client, open_campaign, organiser, stranger):
    old = open_campaign.invite_token
    campaign_invite_regenerate(campaign=open_campaign, actor=organiser)
    client.force_login(stranger)

    assert client.get(join_url(open_campaign, old)).status_code == 404


def test_it_says_why_a_campaign_cannot_be_joined_yet(client, campaign, stranger):
    campaign.is_public = True
    campaign.save()
    client.force_login(stranger)

    draft = client.get(join_url(campaign))
    refused_post = client.post(join_url(campaign), {"bloc": "Axis"})
    Campaign.objects.filter(pk=campaign.pk).update(status=Status.FINISHED)
    finished = client.get(join_url(campaign))

    assert b"not open for registration yet" in draft.content
    assert b"Ask to join</button>" not in draft.content
    assert refused_post.status_code == 200
    assert b"has finished" in finished.content
    assert not Enrolment.objects.filter(player=stranger).exists()


def test_it_sends_someone_already_in_to_the_campaign_page(client, open_campaign, player):
    client.force_login(player)

    response = client.post(join_url(open_campaign), {"bloc": "Axis"})

    assert response["Location"] == reverse("campaign:detail", args=[open_campaign.pk])
    assert Enrolment.objects.get(player=player).bloc == Bloc.SSU


def test_it_lets_a_player_withdraw_before_the_campaign_runs(client, open_campaign, player):
    client.force_login(player)

    response = client.post(reverse("campaign:withdraw", args=[open_campaign.pk]))

    assert response["Location"] == reverse("campaign:list")  # a private campaign closes behind them
    assert Enrolment.objects.get(player=player).status == EnrolmentStatus.WITHDRAWN


def test_it_lets_a_player_leave_a_running_campaign_with_a_reason(client, open_campaign, player):
    Campaign.objects.filter(pk=open_campaign.pk).update(status=Status.RUNNING)
    client.force_login(player)

    page = client.get(reverse("campaign:leave", args=[open_campaign.pk]))
    too_long = client.post(reverse("campaign:leave", args=[open_campaign.pk]), {"reason": "x" * 501})
    left = client.post(reverse("campaign:leave", args=[open_campaign.pk]), {"reason": "Moving to Omsk"})

    assert b"Your past battles and results stay" in page.content
    assert too_long.status_code == 200
    assert too_long.context["form"].errors["reason"]
    assert left.status_code == 302
    enrolment = Enrolment.objects.get(player=player)
    assert (enrolment.status, enrolment.left_at is not None) == (EnrolmentStatus.LEFT, True)
    assert open_campaign.log.filter(kind="enrolment-changed", reason="Moving to Omsk").exists()


def test_it_offers_leaving_last_on_the_campaign_page_and_only_through_the_page_that_asks(
    client, open_campaign, player
):
    Campaign.objects.filter(pk=open_campaign.pk).update(status=Status.RUNNING)
    client.force_login(player)
    leave = reverse("campaign:leave", args=[open_campaign.pk])

    html = client.get(reverse("campaign:detail", args=[open_campaign.pk])).content.decode()
    asked = client.get(leave)

    # After every section of the page (it was the first button a player saw), a link and not a form.
    assert html.count(f'href="{leave}"') == 1
    assert html.index(f'href="{leave}"') > html.index('id="settings-heading"')
    assert html.index('data-testid="leave-section"') == html.rindex('data-testid="')
    assert f'action="{leave}"' not in html
    # Following it leaves nothing: the page asks, and only its form's POST leaves.
    assert asked.status_code == 200
    assert b"Leave the campaign" in asked.content
    assert Enrolment.objects.get(player=player).status == EnrolmentStatus.ADMITTED


def test_it_says_beside_the_bloc_why_a_player_who_fought_cannot_rejoin_elsewhere(
    client, public_campaign, running_campaign, place
):
    x1 = place("x1")
    first = Round.objects.create(campaign=running_campaign, number=1, deadline=timezone.now())
    Battle.objects.create(
        campaign=running_campaign, round=first, attacker=x1, defender=place("a1"), mission="landing",
        **sides_recorded(attacker=x1, defender=place("a1")), points_limit=150, status=BattleStatus.CONFIRMED,
        source=BattleSource.PAIRING,
    )  # fmt: skip
    Enrolment.objects.filter(pk=x1.pk).update(status=EnrolmentStatus.LEFT)
    client.force_login(x1.player)

    response = client.post(join_url(running_campaign), {"bloc": "SSU", "message": "Back again"})

    assert response.status_code == 200
    assert response.context["form"].errors["bloc"] == [
        "You fought for the Axis in this campaign: you can rejoin only for the Axis"
    ]
    assert b"you can rejoin only for the Axis" in response.content
    assert (place("x1").status, place("x1").bloc) == (EnrolmentStatus.LEFT, "Axis")


def test_it_lets_an_account_claim_a_placeholders_place(client, open_campaign, stranger):
    place = EnrolmentFactory(campaign=open_campaign, player=None, placeholder_name="Misha", bloc=Bloc.AXIS,
                             claim_token="tok-123")  # fmt: skip
    client.force_login(stranger)
    url = reverse("campaign:claim", args=["tok-123"])

    page = client.get(url)
    claimed = client.post(url)

    assert b"kept a place for <strong>Misha</strong>" in page.content
    assert claimed["Location"] == reverse("campaign:detail", args=[open_campaign.pk])
    place.refresh_from_db()
    assert (place.player, place.claim_token, place.pk) == (stranger, None, place.pk)
    assert client.get(url).status_code == 404  # the link is spent


def test_it_refuses_a_claim_by_someone_already_in_the_campaign(client, open_campaign, player):
    EnrolmentFactory(campaign=open_campaign, player=None, placeholder_name="Misha", claim_token="tok-123")
    client.force_login(player)

    response = client.post(reverse("campaign:claim", args=["tok-123"]))

    assert response.status_code == 200
    assert b"you already have a place in this campaign" in response.content
    assert Enrolment.objects.get(claim_token="tok-123").player is None
