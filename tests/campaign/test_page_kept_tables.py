"""The campaign page's rosters and lists table, kept per process under the rows they are drawn from, give every
viewer the page a fresh drawing gives, after every kind of change those tables show.

Each test compares the page as served (tables kept from the requests before) with the page drawn after the
kept tables are dropped, for the organiser, a player, a stranger and a visitor; the names checked in the page
prove each change reached it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from armies.blocs import Bloc
from campaign.models import Campaign, Enrolment, EnrolmentStatus, Registration
from campaign.views import page_rows
from tests.battles.test_round_waits_queries import build
from tests.factories import EnrolmentFactory, FactionFactory, UserFactory

pytestmark = pytest.mark.django_db


def _forget() -> None:
    page_rows._registration_rows_drawn.cache_clear()
    page_rows._rosters_drawn.cache_clear()


def _viewers(campaign: Campaign, organiser: User, stranger: User) -> dict[str, Client]:
    player = Enrolment.objects.filter(campaign=campaign, status=EnrolmentStatus.ADMITTED).order_by("pk")[0]
    clients = {}
    for name, user in (("organiser", organiser), ("player", player.player), ("stranger", stranger),
                       ("visitor", None)):  # fmt: skip
        client = Client()
        if user is not None:
            client.force_login(user)
        clients[name] = client
    return clients


def _pages(campaign: Campaign, clients: dict[str, Client]) -> dict[str, bytes]:
    url = reverse("campaign:detail", args=[campaign.pk])
    pages = {}
    for name, client in clients.items():
        response = client.get(url)
        assert response.status_code == 200, name
        pages[name] = response.content
    return pages


def _steady(page: bytes) -> bytes:
    """The page without its CSRF token, which changes with every request."""
    return re.sub(rb'(csrfmiddlewaretoken" value=|"X-CSRFToken": )"[^"]*"', rb'\1""', page)


def _rename_a_player(campaign: Campaign) -> str:
    place = Enrolment.objects.filter(campaign=campaign, status=EnrolmentStatus.ADMITTED).order_by("pk")[1]
    User.objects.filter(pk=place.player_id).update(display_name="Renamed <Rodion>")
    return "Renamed &lt;Rodion&gt;"


def _register_a_new_list(campaign: Campaign) -> str:
    old = Registration.objects.filter(campaign=campaign).order_by("pk")[0]
    new = Registration.objects.create(
        campaign=campaign, enrolment=old.enrolment, name="Second wind", bloc=old.bloc, document={},
        catalogue=campaign.catalogue, catalogue_name="Demo", catalogue_version="1", total_ap=149,
        verdict={"ok": True, "totals": {}, "problems": [{"code": "a"}, {"code": "b"}]},
    )  # fmt: skip
    Registration.objects.filter(pk=old.pk).update(superseded_by=new)
    return "2 warnings"


def _rename_a_list(campaign: Campaign) -> str:
    Registration.objects.filter(campaign=campaign).order_by("pk").update(name="Same name")
    return "Same name"


def _a_player_leaves_with_a_faction(campaign: Campaign) -> str:
    FactionFactory(catalogue=campaign.catalogue, key="steel-guard", name="The Steel Guard")
    place = Enrolment.objects.filter(campaign=campaign, status=EnrolmentStatus.ADMITTED).order_by("pk")[2]
    Enrolment.objects.filter(pk=place.pk).update(status=EnrolmentStatus.LEFT, faction="steel-guard")
    return "The Steel Guard"


def _a_list_registered_a_day_later(campaign: Campaign) -> str:
    first = Registration.objects.filter(campaign=campaign).order_by("pk")[1]
    Registration.objects.filter(pk=first.pk).update(registered_at=first.registered_at + timedelta(days=1))
    return ""


def _a_placeholder_joins(campaign: Campaign) -> str:
    EnrolmentFactory(campaign=campaign, player=None, placeholder_name="Club member Yuri", bloc=Bloc.ALLIES)
    return "Club member Yuri"


CHANGES: list[Callable[[Campaign], str]] = [
    _rename_a_player,
    _register_a_new_list,
    _rename_a_list,
    _a_player_leaves_with_a_faction,
    _a_list_registered_a_day_later,
    _a_placeholder_joins,
]


@pytest.mark.parametrize("change", CHANGES, ids=lambda change: change.__name__.strip("_"))
def test_it_gives_every_viewer_a_fresh_drawing_after_a_change(
    open_campaign: Campaign, organiser: User, stranger: User, change: Callable[[Campaign], Any]
):
    build(open_campaign, 3)
    Campaign.objects.filter(pk=open_campaign.pk).update(is_public=True)
    clients = _viewers(open_campaign, organiser, stranger)
    before = _pages(open_campaign, clients)  # the tables now kept

    shown = change(open_campaign)
    kept = _pages(open_campaign, clients)
    _forget()
    fresh = _pages(open_campaign, clients)

    for name in clients:
        assert _steady(kept[name]) == _steady(fresh[name]), name
        assert _steady(kept[name]) != _steady(before[name]), name
        assert shown.encode() in kept[name], name


def test_it_draws_the_tables_once_for_the_same_rows(open_campaign: Campaign, organiser: User, stranger: User):
    build(open_campaign, 3)
    Campaign.objects.filter(pk=open_campaign.pk).update(is_public=True)
    clients = _viewers(open_campaign, organiser, stranger)
    _forget()

    pages = [_pages(open_campaign, clients) for _ in range(2)]

    # Two tables drawn on the first request; every later request, whoever asks, finds both.
    assert page_rows._registration_rows_drawn.cache_info().misses == 1
    assert page_rows._rosters_drawn.cache_info().misses == 1
    assert page_rows._registration_rows_drawn.cache_info().hits == 2 * len(clients) - 1
    for name in clients:
        assert _steady(pages[0][name]) == _steady(pages[1][name])


def test_it_keeps_another_campaign_s_tables_apart(open_campaign: Campaign, organiser: User, stranger: User):
    build(open_campaign, 2)
    other = Campaign.objects.create(
        name="Other front", organiser=UserFactory(username="other-organiser"), is_public=True,
        catalogue=open_campaign.catalogue, catalogue_version=open_campaign.catalogue_version,
    )  # fmt: skip
    EnrolmentFactory(campaign=other, player=UserFactory(username="lonely", display_name="Lonely Lev"))
    client = Client()
    client.force_login(organiser)

    ours = client.get(reverse("campaign:detail", args=[open_campaign.pk])).content
    theirs = Client().get(reverse("campaign:detail", args=[other.pk])).content

    assert b"Lonely Lev" in theirs
    assert b"Lonely Lev" not in ours
    assert b"List " in ours
    assert b"List " not in theirs


@pytest.mark.parametrize("everything", ["", "1"])
def test_it_gives_the_lists_page_a_fresh_drawing_after_a_list_is_superseded(
    open_campaign: Campaign, organiser: User, stranger: User, everything: str
):
    build(open_campaign, 2)
    Campaign.objects.filter(pk=open_campaign.pk).update(is_public=True)
    clients = _viewers(open_campaign, organiser, stranger)
    url = reverse("campaign:registrations", args=[open_campaign.pk]) + ("?all=1" if everything else "")
    before = {name: client.get(url).content for name, client in clients.items()}

    _register_a_new_list(open_campaign)
    kept = {name: client.get(url).content for name, client in clients.items()}
    _forget()
    fresh = {name: client.get(url).content for name, client in clients.items()}

    for name in clients:
        assert _steady(kept[name]) == _steady(fresh[name]), name
        assert _steady(kept[name]) != _steady(before[name]), name
        assert b"Second wind" in kept[name]
        assert (b"(superseded)" in kept[name]) == bool(everything)
