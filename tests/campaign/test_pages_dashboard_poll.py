"""The dashboard's poll brings the join requests out of band when the players changed them, and only then."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from armies.blocs import Bloc
from campaign.models import Campaign, CoOrganiser
from campaign.services.players import enrolment_request, enrolment_withdraw, placeholder_add
from campaign.views.dashboard_panel import requests_news
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

OOB_LIST = '<div id="join-requests" hx-swap-oob="true">'


def digests(page: str) -> dict[str, str]:
    """What the page's panel sends back at its next poll: the panel's digest and its join requests'."""
    panel = re.search(r'dashboard/waits/\?v=([0-9a-f]+)"', page)
    listed = re.search(r"hx-vals='\{\"r\": \"([0-9a-f]+)\"\}'", page)
    assert panel is not None
    assert listed is not None
    return {"v": panel.group(1), "r": listed.group(1)}


def poll(client: Client, campaign: Campaign, seen: dict[str, str]) -> tuple[int, str]:
    answer = client.get(reverse("campaign:dashboard_waits", args=[campaign.pk]), seen)
    return answer.status_code, answer.content.decode()


@pytest.fixture
def watching(client: Client, open_campaign: Campaign, organiser: User) -> dict[str, str]:
    """The organiser has the dashboard open: the digests its next poll sends."""
    client.force_login(organiser)
    return digests(client.get(reverse("campaign:dashboard", args=[open_campaign.pk])).content.decode())


def test_it_answers_204_while_neither_the_panel_nor_the_requests_changed(client, open_campaign, watching):
    assert poll(client, open_campaign, watching) == (204, "")


def test_it_brings_a_new_join_request_out_of_band_with_its_buttons(client, open_campaign, watching):
    enrolment = enrolment_request(campaign=open_campaign, user=UserFactory(username="vera", display_name="Vera"),
                                  bloc=Bloc.SSU, message="I bring a Koshka.")  # fmt: skip

    status, html = poll(client, open_campaign, watching)

    assert status == 200
    assert "1 join request to decide" in html
    listed = html[html.index(OOB_LIST) :]
    assert "<strong>Vera</strong> for <strong>SSU</strong>" in listed
    assert "I bring a Koshka." in listed
    assert f'hx-post="{reverse("campaign:refuse", args=[open_campaign.pk, enrolment.pk])}"' in listed
    assert "Admit Vera" in listed
    # The panel now sends the new list's digest: the next poll is quiet again.
    assert poll(client, open_campaign, digests(html)) == (204, "")


def test_it_brings_the_list_when_one_request_is_withdrawn_and_another_made_the_counts_unchanged(
    client, open_campaign, organiser
):
    client.force_login(organiser)
    vera = enrolment_request(campaign=open_campaign, user=UserFactory(username="vera", display_name="Vera"),
                             bloc=Bloc.SSU)  # fmt: skip
    seen = digests(client.get(reverse("campaign:dashboard", args=[open_campaign.pk])).content.decode())
    enrolment_withdraw(enrolment=vera, actor=vera.player)
    enrolment_request(
        campaign=open_campaign, user=UserFactory(username="yuri", display_name="Yuri"), bloc=Bloc.AXIS
    )

    status, html = poll(client, open_campaign, seen)

    assert status == 200
    assert digests(html)["v"] == seen["v"]  # still "1 join request to decide"
    listed = html[html.index(OOB_LIST) :]
    assert "Yuri" in listed
    assert "Vera" not in listed
    assert 'id="disputes"' not in html  # the panel's own sections come only when its counts change


NEWS = '<p id="dashboard-news" hx-swap-oob="innerHTML">'


def test_the_page_has_an_empty_status_line_the_poll_fills(client, open_campaign, organiser):
    client.force_login(organiser)
    page = client.get(reverse("campaign:dashboard", args=[open_campaign.pk])).content.decode()

    assert (
        '<p id="dashboard-news" class="visually-hidden" role="status" data-testid="dashboard-news"></p>'
        in page
    )


def test_it_tells_a_screen_reader_who_asked_to_join_when_the_list_changes(client, open_campaign, watching):
    enrolment_request(
        campaign=open_campaign, user=UserFactory(username="vera", display_name="Vera"), bloc=Bloc.SSU
    )

    status, html = poll(client, open_campaign, watching)

    assert status == 200
    assert f"{NEWS}The join requests changed: 1 request waits for an answer, from Vera.</p>" in html


def test_it_says_nobody_waits_once_the_last_request_is_withdrawn(client, open_campaign, organiser):
    client.force_login(organiser)
    vera = enrolment_request(
        campaign=open_campaign, user=UserFactory(username="vera", display_name="Vera"), bloc=Bloc.SSU
    )
    seen = digests(client.get(reverse("campaign:dashboard", args=[open_campaign.pk])).content.decode())
    enrolment_withdraw(enrolment=vera, actor=vera.player)

    status, html = poll(client, open_campaign, seen)

    assert status == 200
    assert f"{NEWS}The join requests changed: nobody waits for an answer now.</p>" in html


def test_it_names_the_first_three_who_wait_and_counts_the_rest():
    names = ["Vera", "Yuri", "Lev", "Nina", "Oleg"]

    assert requests_news(names) == (
        "The join requests changed: 5 requests wait for an answer, from Vera, Yuri, Lev and 2 more."
    )
    assert (
        requests_news(names[:2])
        == "The join requests changed: 2 requests wait for an answer, from Vera and Yuri."
    )


def test_it_leaves_the_list_out_when_only_the_counts_changed(client, open_campaign, organiser, watching):
    placeholder_add(campaign=open_campaign, actor=organiser, name="Grandpa Lev", bloc=Bloc.ALLIES)

    status, html = poll(client, open_campaign, watching)

    assert status == 200
    assert "1 player admitted" in html
    assert 'id="join-requests"' not in html
    assert 'id="dashboard-news"' not in html  # nothing to announce: the requests did not change


def test_it_leaves_the_list_out_for_a_caller_that_sends_no_digest_of_it(client, open_campaign, watching):
    enrolment_request(campaign=open_campaign, user=UserFactory(username="vera"), bloc=Bloc.SSU)

    status, html = poll(client, open_campaign, {"v": watching["v"]})

    assert status == 200
    assert "1 join request to decide" in html
    assert 'id="join-requests"' not in html


def test_a_co_organiser_gets_the_list_too(client, open_campaign, organiser):
    co = UserFactory(username="nina")
    CoOrganiser.objects.create(campaign=open_campaign, user=co, added_by=organiser)
    client.force_login(co)
    enrolment_request(
        campaign=open_campaign, user=UserFactory(username="vera", display_name="Vera"), bloc=Bloc.SSU
    )

    status, html = poll(client, open_campaign, {"v": "old", "r": "old"})

    assert status == 200
    assert "Admit Vera" in html[html.index(OOB_LIST) :]


@pytest.mark.parametrize(("persona", "expected"), [("player", 403), ("stranger", 404), ("anonymous", 302)])
def test_nobody_but_the_organisers_gets_the_requests_from_the_poll(
    client, open_campaign, player, stranger, persona, expected
):
    open_campaign.is_public = False
    open_campaign.save(update_fields=["is_public"])
    enrolment_request(
        campaign=open_campaign, user=UserFactory(username="vera", display_name="Vera"), bloc=Bloc.SSU
    )
    user = {"player": player, "stranger": stranger, "anonymous": None}[persona]
    if user is not None:
        client.force_login(user)

    status, html = poll(client, open_campaign, {"v": "old", "r": "old"})

    assert status == expected
    assert "Vera" not in html
    assert "join-request" not in html
