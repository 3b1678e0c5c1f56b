"""The organisers' dashboard: join requests, what needs action, status changes, invitations, people."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from accounts.models import User
from armies.blocs import Bloc
from campaign.models import Campaign, CoOrganiser, Enrolment, EnrolmentStatus
from campaign.options import Status
from tests.factories import CampaignFactory, EnrolmentFactory, UserFactory

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true", "HX-Target": "join-requests"}


def words(content: str) -> str:
    """The page's text as a reader sees it: tags dropped, spaces collapsed."""
    return " ".join(re.sub(r"<[^>]+>", " ", content).split()).replace(" .", ".")


def url(name: str, campaign: Campaign, *args: object) -> str:
    return reverse(f"campaign:{name}", args=[campaign.pk, *args])


@pytest.fixture
def applicant(open_campaign: Campaign) -> Enrolment:
    return EnrolmentFactory(campaign=open_campaign, player=UserFactory(username="anya", display_name="Anya"),
                            bloc=Bloc.AXIS, status=EnrolmentStatus.PENDING, message="I have tanks.")  # fmt: skip


def test_it_lists_join_requests_and_what_blocks_the_next_step(client, open_campaign, organiser, applicant):
    client.force_login(organiser)

    content = client.get(url("dashboard", open_campaign)).content.decode()

    assert content.count('data-testid="join-request"') == 1
    assert "Anya" in content
    assert "I have tanks." in content
    assert "1 join request to decide." in words(content)
    assert "Admit players in at least two blocs before starting." in content
    assert url("status", open_campaign, "start") in content


def test_it_names_the_blockers_of_a_draft(client, campaign, organiser):
    client.force_login(organiser)

    content = client.get(url("dashboard", campaign)).content.decode()

    assert "Choose the catalogue lists are checked against." in content
    assert "Load a map." in content
    assert url("status", campaign, "open-registration") in content


def test_it_admits_a_player_and_redirects_back(client, open_campaign, organiser, applicant):
    client.force_login(organiser)

    response = client.post(url("admit", open_campaign, applicant.pk))

    assert response["Location"] == url("dashboard", open_campaign)
    applicant.refresh_from_db()
    assert (applicant.status, applicant.decided_by) == (EnrolmentStatus.ADMITTED, organiser)


def test_it_answers_an_htmx_admission_with_the_panels(client, open_campaign, organiser, applicant, player):
    client.force_login(organiser)

    response = client.post(url("admit", open_campaign, applicant.pk), headers=HTMX)

    content = response.content.decode()
    assert content.lstrip().startswith('<div id="join-requests">')
    assert "Admitted Anya." in content
    assert "No one is waiting for an answer." in content
    # The "needs action" panel is swapped out of band: two blocs now have players.
    assert (
        'id="needs-action" class="card needs-action" aria-labelledby="needs-heading" hx-swap-oob="true"'
        in content
    )
    assert "blocs with admitted players: Axis, SSU." in words(content)
    assert "Admit players in at least two blocs" not in content


def test_it_shows_a_full_bloc_on_the_request_it_concerns(client, open_campaign, organiser, applicant):
    Campaign.objects.filter(pk=open_campaign.pk).update(max_players_per_bloc=1)
    EnrolmentFactory(campaign=open_campaign, player=UserFactory(username="hans"), bloc=Bloc.AXIS)
    client.force_login(organiser)

    plain = client.post(url("admit", open_campaign, applicant.pk))
    htmx = client.post(url("admit", open_campaign, applicant.pk), headers=HTMX)

    assert plain.status_code == 200
    assert "Axis already has 1 player, the campaign&#x27;s cap" in plain.content.decode()
    assert b"the campaign&#x27;s cap" in htmx.content
    assert b"<html" not in htmx.content
    assert Enrolment.objects.get(pk=applicant.pk).status == EnrolmentStatus.PENDING


def test_it_refuses_a_request_with_a_reason(client, open_campaign, organiser, applicant):
    client.force_login(organiser)

    response = client.post(
        url("refuse", open_campaign, applicant.pk), {f"refuse-{applicant.pk}-reason": "Full up"}
    )

    assert response.status_code == 302
    applicant.refresh_from_db()
    assert (applicant.status, applicant.decision_reason) == (EnrolmentStatus.REFUSED, "Full up")


def test_it_asks_for_a_reason_to_refuse_and_keeps_what_was_typed(client, open_campaign, organiser, applicant):
    client.force_login(organiser)
    field = f"refuse-{applicant.pk}-reason"

    empty = client.post(url("refuse", open_campaign, applicant.pk), {field: ""}, headers=HTMX)
    long = client.post(url("refuse", open_campaign, applicant.pk), {field: "no" * 300})

    assert b"This field is required." in empty.content
    assert long.status_code == 200
    assert ("no" * 300).encode() in long.content
    assert Enrolment.objects.get(pk=applicant.pk).status == EnrolmentStatus.PENDING


def test_it_shows_a_decision_already_taken_by_another_organiser(client, open_campaign, organiser, applicant):
    Enrolment.objects.filter(pk=applicant.pk).update(status=EnrolmentStatus.ADMITTED)
    client.force_login(organiser)

    response = client.post(
        url("refuse", open_campaign, applicant.pk), {f"refuse-{applicant.pk}-reason": "No"}
    )

    assert response.status_code == 200
    assert b"nothing was changed" in response.content


def test_it_answers_404_for_a_request_of_another_campaign(client, open_campaign, organiser):
    elsewhere = EnrolmentFactory(campaign=CampaignFactory(), status=EnrolmentStatus.PENDING)
    client.force_login(organiser)

    assert client.post(url("admit", open_campaign, elsewhere.pk)).status_code == 404


def test_it_confirms_a_status_change_before_making_it(client, open_campaign, organiser, player):
    EnrolmentFactory(campaign=open_campaign, player=UserFactory(username="hans"), bloc=Bloc.AXIS)
    client.force_login(organiser)

    page = client.get(url("status", open_campaign, "start"))
    started = client.post(url("status", open_campaign, "start"))

    assert b"Start the campaign?" in page.content
    assert b"cannot be undone" in page.content
    assert started["Location"] == url("dashboard", open_campaign)
    assert Campaign.objects.get(pk=open_campaign.pk).status == Status.RUNNING


def test_it_shows_why_a_status_change_is_refused(client, open_campaign, organiser):
    client.force_login(organiser)

    response = client.post(url("status", open_campaign, "start"))

    assert response.status_code == 200
    assert b"a campaign starts when at least two blocs have admitted players" in response.content
    assert Campaign.objects.get(pk=open_campaign.pk).status == Status.REGISTRATION


def test_it_opens_registration_and_finishes(client, campaign, organiser, demo_catalogue):
    client.force_login(organiser)

    refused = client.post(url("status", campaign, "open-registration"))
    campaign.catalogue = demo_catalogue
    campaign.save()
    client.post(url("map_default", campaign))
    opened = client.post(url("status", campaign, "open-registration"))
    Campaign.objects.filter(pk=campaign.pk).update(status=Status.RUNNING)
    finished = client.post(url("status", campaign, "finish"))

    assert b"choose the catalogue lists are checked against" in refused.content
    assert opened.status_code == finished.status_code == 302
    assert Campaign.objects.get(pk=campaign.pk).status == Status.FINISHED


def test_it_answers_404_for_an_unknown_status_change(client, open_campaign, organiser):
    client.force_login(organiser)

    assert client.get(url("status", open_campaign, "explode")).status_code == 404


def test_it_shows_and_regenerates_the_invitation_link(client, open_campaign, organiser):
    client.force_login(organiser)
    old = open_campaign.invite_token

    before = client.get(url("dashboard", open_campaign)).content.decode()
    client.post(url("invite_regenerate", open_campaign))
    after = client.get(url("dashboard", open_campaign)).content.decode()

    new = Campaign.objects.get(pk=open_campaign.pk).invite_token
    assert new != old
    assert f"http://testserver{url('join_invite', open_campaign, old)}" in before
    assert f"http://testserver{url('join_invite', open_campaign, new)}" in after


def test_it_adds_a_co_organiser_by_username(client, open_campaign, organiser):
    cora = UserFactory(username="cora")
    client.force_login(organiser)

    response = client.post(url("co_organiser_add", open_campaign), {"co-username": "CORA"})

    assert response.status_code == 302
    assert CoOrganiser.objects.filter(campaign=open_campaign, user=cora).exists()


def test_it_names_an_unknown_or_repeated_co_organiser_next_to_the_username(client, open_campaign, organiser):
    CoOrganiser.objects.create(campaign=open_campaign, user=UserFactory(username="cora"))
    client.force_login(organiser)

    unknown = client.post(url("co_organiser_add", open_campaign), {"co-username": "nobody"})
    twice = client.post(url("co_organiser_add", open_campaign), {"co-username": "cora"})
    creator = client.post(url("co_organiser_add", open_campaign), {"co-username": "olga"})

    assert unknown.context["co_form"].errors["username"] == ["No one on the site has that username"]
    assert twice.context["co_form"].has_error("username", "already-organiser")
    assert creator.context["co_form"].has_error("username", "already-organiser")
    assert b'value="nobody"' in unknown.content


def test_it_lets_the_creator_remove_and_a_co_organiser_step_down(client, open_campaign, organiser):
    cora, boris = UserFactory(username="cora"), UserFactory(username="boris")
    for user in (cora, boris):
        CoOrganiser.objects.create(campaign=open_campaign, user=user)

    client.force_login(cora)
    page = client.get(url("dashboard", open_campaign)).content.decode()
    not_others = client.post(url("co_organiser_remove", open_campaign, boris.pk))
    stepped_down = client.post(url("co_organiser_remove", open_campaign, cora.pk))
    client.force_login(organiser)
    removed = client.post(url("co_organiser_remove", open_campaign, boris.pk))

    assert "Step down" in page
    assert url("co_organiser_remove", open_campaign, boris.pk) not in page
    assert "Add co-organiser" not in page
    assert not_others.status_code == 403
    assert stepped_down["Location"] == url("detail", open_campaign)
    assert removed["Location"] == url("dashboard", open_campaign)
    assert not CoOrganiser.objects.filter(campaign=open_campaign).exists()


def test_it_adds_a_placeholder_and_makes_a_claim_link(client, open_campaign, organiser):
    client.force_login(organiser)

    added = client.post(
        url("placeholder_add", open_campaign), {"placeholder-name": "Misha", "placeholder-bloc": "SSU"}
    )
    place = Enrolment.objects.get(campaign=open_campaign, placeholder_name="Misha")
    linked = client.post(url("claim_link", open_campaign, place.pk))
    page = client.get(url("dashboard", open_campaign)).content.decode()

    assert added.status_code == linked.status_code == 302
    place.refresh_from_db()
    assert (place.status, place.player, bool(place.claim_token)) == (EnrolmentStatus.ADMITTED, None, True)
    assert f"http://testserver{reverse('campaign:claim', args=[place.claim_token])}" in page


def test_it_keeps_the_placeholder_form_when_refused(client, open_campaign, organiser, player):
    Campaign.objects.filter(pk=open_campaign.pk).update(max_players_per_bloc=1)
    client.force_login(organiser)

    response = client.post(
        url("placeholder_add", open_campaign), {"placeholder-name": "Misha", "placeholder-bloc": "SSU"}
    )

    form = response.context["placeholder_form"]
    assert form.has_error("bloc", "bloc-full")
    assert form["name"].value() == "Misha"
    assert not Enrolment.objects.filter(placeholder_name="Misha").exists()


def test_it_refuses_a_claim_link_for_a_place_with_an_account(client, open_campaign, organiser, player: User):
    client.force_login(organiser)
    place = Enrolment.objects.get(player=player)

    response = client.post(url("claim_link", open_campaign, place.pk))

    assert response.status_code == 200
    assert b"this place already belongs to an account" in response.content
