"""Where a player finds a friendly game and the join-by-code page: the home page's card and the menu's
"Play", for a logged-in player only (both pages want an account: a visitor would only be sent to log in)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

FRIENDLY = reverse("battles:session-friendly")
JOIN = reverse("battles:session-join")


def links(html: str) -> list[str]:
    return re.findall(r'href="([^"]+)"', html)


def test_the_home_page_offers_a_player_a_friendly_game_and_joining_by_code(client: Client, player):
    client.force_login(player)

    html = client.get("/").content.decode()

    assert 'data-testid="home-play"' in html
    assert FRIENDLY in links(html)
    assert JOIN in links(html)


@pytest.mark.parametrize("path", ["/", "/campaigns/", "/odds/"])
def test_the_menu_offers_a_player_the_table_on_every_page(client: Client, player, path):
    client.force_login(player)

    html = client.get(path).content.decode()

    assert re.search(rf'<a href="{JOIN}" data-testid="nav-play">Play</a>', html)


@pytest.mark.parametrize("path", ["/", "/campaigns/", "/odds/"])
def test_a_visitor_is_offered_neither_page(client: Client, path):
    html = client.get(path).content.decode()

    assert FRIENDLY not in links(html)
    assert JOIN not in links(html)
    assert 'data-testid="nav-play"' not in html


def test_the_links_lead_a_player_to_pages_that_serve_them(client: Client, player):
    client.force_login(player)

    friendly = client.get(FRIENDLY)
    join = client.get(JOIN)

    assert (friendly.status_code, join.status_code) == (200, 200)
    assert JOIN in links(friendly.content.decode())
    assert FRIENDLY in links(join.content.decode())


def test_the_join_pages_title_and_head_hold_no_link(client: Client, player):
    client.force_login(player)

    html = client.get(JOIN).content.decode()

    title = re.search(r"<title>(.*?)</title>", html, re.S)
    head = html.split("</head>")[0]
    assert title is not None
    assert "<" not in title.group(1)
    assert FRIENDLY not in head
    assert links(html.split("<main")[1]).count(FRIENDLY) == 1
