from __future__ import annotations

import pytest
from django.test import RequestFactory
from django.views.defaults import permission_denied, server_error

pytestmark = pytest.mark.django_db


def test_it_shows_the_home_page_to_anyone(client):
    response = client.get("/")

    assert response.status_code == 200
    assert b"Return to Zverograd" in response.content
    assert b"django_htmx/htmx-2.min.js" in response.content


def test_it_greets_a_logged_in_player_by_display_name(client, player):
    client.force_login(player)

    response = client.get("/")

    assert b"Welcome back, <strong>Pavel</strong>" in response.content


def test_its_cards_link_to_what_they_describe(client, player):
    visitor = client.get("/").content.decode()
    client.force_login(player)
    member = client.get("/").content.decode()

    for page, lists in ((visitor, "/validator/"), (member, "/lists/")):
        assert '<h2><a href="/campaigns/">Campaigns</a></h2>' in page
        assert f'<h2><a href="{lists}">Army lists</a></h2>' in page
        assert '<h2><a href="/odds/">Odds</a></h2>' in page


def test_it_serves_htmx_from_our_own_static_files(client):
    response = client.get("/static/django_htmx/htmx-2.min.js")

    assert response.status_code == 200


def test_it_shows_a_friendly_404(client):
    response = client.get("/no-such-page/")

    assert response.status_code == 404
    assert b"Lost in the rubble" in response.content


def test_it_shows_a_friendly_403():
    request = RequestFactory().get("/")

    response = permission_denied(request, Exception("no"), template_name="403.html")

    assert response.status_code == 403
    assert b"Restricted sector" in response.content


def test_it_shows_a_friendly_500_without_needing_the_database_or_context():
    response = server_error(RequestFactory().get("/"))

    assert response.status_code == 500
    assert b"Something went wrong" in response.content


@pytest.mark.django_db
def test_an_id_too_large_for_the_database_is_a_plain_404(client):
    huge = "9" * 30

    assert client.get(f"/lists/{huge}/").status_code == 404
    assert client.get(f"/api/army-lists/{huge}/").status_code == 404
    assert client.get(f"/catalogues/{huge}/").status_code == 404


@pytest.mark.parametrize(
    "url",
    ["/api/catalogues/1/units/?search=%00", "/campaigns/?status=a%00b", "/api/campaigns/1/sectors/zo%00o/"],
)
def test_a_nul_character_in_the_address_is_a_400_before_any_query(client, url):
    response = client.get(url)

    assert response.status_code == 400
    if url.startswith("/api/"):
        assert response.json()["code"] == "invalid"


def test_a_json_body_with_a_nul_character_or_a_lone_surrogate_is_a_400(client):
    for text in ('{"list": {"name": "a\\u0000b"}}', '{"list": {"name": "\\ud800"}}', '{"\\u0000": 1}'):
        response = client.post("/api/army-lists/validate/", text, content_type="application/json")

        assert response.status_code == 400
        assert "NUL characters or unpaired surrogates" in response.json()["detail"]
