"""The registered-lists pages: register a list, refusals shown beside the form, the frozen snapshot."""

from __future__ import annotations

import pytest
from django.urls import reverse

from armies.services.army_lists import army_list_add_unit
from campaign.models import Registration
from campaign.services.players import placeholder_add
from tests.factories import ArmyListFactory

pytestmark = pytest.mark.django_db


def _list(owner, catalogue, *units, points_limit=150):
    army_list = ArmyListFactory(owner=owner, catalogue=catalogue, bloc="SSU", points_limit=points_limit)
    for unit in units:
        army_list_add_unit(army_list=army_list, unit_key=unit)
    army_list.refresh_from_db()
    return army_list


def test_a_player_registers_a_list_and_sees_what_each_entry_cost(
    client, open_campaign, player, demo_catalogue
):
    army_list = _list(player, demo_catalogue, "ssu.volga-rifle-squad", "ssu.medved")
    place = open_campaign.enrolments.get(player=player)
    client.force_login(player)

    response = client.post(
        reverse("campaign:registrations", args=[open_campaign.pk]),
        {"enrolment": place.pk, "army_list": army_list.pk},
        follow=True,
    )

    registration = Registration.objects.get()
    assert response.redirect_chain[-1][0] == reverse(
        "campaign:registration", args=[open_campaign.pk, registration.pk]
    )
    page = response.content.decode()
    assert "Volga Rifle Squad" in page
    assert f'data-testid="registration-total">{registration.total_ap}<' in page


def test_a_list_with_errors_is_refused_beside_the_form_and_nothing_registered(
    client, open_campaign, player, demo_catalogue
):
    empty = _list(player, demo_catalogue)
    place = open_campaign.enrolments.get(player=player)
    client.force_login(player)

    response = client.post(
        reverse("campaign:registrations", args=[open_campaign.pk]),
        {"enrolment": place.pk, "army_list": empty.pk},
    )

    assert response.status_code == 200
    assert response.context["form"].has_error("army_list", "list-has-errors")
    assert "has no units" in response.content.decode()
    assert not Registration.objects.exists()


def test_an_organiser_registers_for_a_placeholder_and_is_not_offered_other_players_places(
    client, open_campaign, organiser, player, demo_catalogue
):
    place = placeholder_add(campaign=open_campaign, actor=organiser, name="Uncle Vanya", bloc="SSU")
    army_list = _list(organiser, demo_catalogue, "ssu.volga-rifle-squad")
    client.force_login(organiser)

    page = client.get(reverse("campaign:registrations", args=[open_campaign.pk])).content.decode()
    assert "Uncle Vanya" in page
    assert "Pavel (SSU)" not in page
    client.post(
        reverse("campaign:registrations", args=[open_campaign.pk]),
        {"enrolment": place.pk, "army_list": army_list.pk},
    )

    assert Registration.objects.get().enrolment == place


def test_the_list_shows_superseded_snapshots_only_when_asked(client, open_campaign, player, demo_catalogue):
    army_list = _list(player, demo_catalogue, "ssu.volga-rifle-squad")
    place = open_campaign.enrolments.get(player=player)
    client.force_login(player)
    url = reverse("campaign:registrations", args=[open_campaign.pk])
    client.post(url, {"enrolment": place.pk, "army_list": army_list.pk})
    army_list_add_unit(army_list=army_list, unit_key="ssu.medved")
    client.post(url, {"enrolment": place.pk, "army_list": army_list.pk})

    current = client.get(url).content.decode()
    everything = client.get(url + "?all=1").content.decode()

    assert current.count('data-testid="registration-row"') == 1
    assert everything.count('data-testid="registration-row"') == 2
    assert "(superseded)" in everything
    old = Registration.objects.filter(superseded_by__isnull=False).get()
    detail = client.get(reverse("campaign:registration", args=[open_campaign.pk, old.pk])).content.decode()
    assert 'data-testid="superseded"' in detail
