from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts.models import User
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def test_it_signs_up_through_the_api(api_client):
    response = api_client.post(
        "/api/accounts/sign-up/",
        {
            "username": "vera",
            "email": "vera@example.test",
            "password": "a-long-passphrase-9",
            "display_name": "Vera",
        },
        format="json",
    )

    assert response.status_code == 201
    assert response.json()["display_name"] == "Vera"
    assert User.objects.get(username="vera").check_password("a-long-passphrase-9")


def test_it_rejects_a_weak_password_naming_the_field(api_client):
    response = api_client.post(
        "/api/accounts/sign-up/",
        {"username": "vera", "email": "vera@example.test", "password": "123"},
        format="json",
    )

    assert response.status_code == 400
    assert {e["field"] for e in response.json()["errors"]} == {"password"}


def test_it_exchanges_a_password_for_a_token_that_authenticates(api_client, stranger):
    token = api_client.post("/api/accounts/token/", {"username": "sasha", "password": PASSWORD}).json()[
        "token"
    ]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")

    response = client.get("/api/accounts/me/")

    assert response.status_code == 200
    assert response.json()["username"] == "sasha"


def test_it_authenticates_with_the_session_too(client, stranger):
    client.force_login(stranger)

    assert client.get("/api/accounts/me/").json()["display_name"] == "Sasha"


def test_it_refuses_me_to_an_anonymous_caller(api_client):
    response = api_client.get("/api/accounts/me/")

    assert response.status_code in {401, 403}
    assert response.json()["code"] == "not_authenticated"


def test_it_updates_the_display_name_through_the_api(api_as, stranger):
    response = api_as(stranger).patch("/api/accounts/me/", {"display_name": "S."}, format="json")

    assert response.status_code == 200
    stranger.refresh_from_db()
    assert stranger.display_name == "S."


def test_it_locks_out_the_token_endpoint_after_repeated_wrong_passwords(api_client, stranger, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        api_client.post("/api/accounts/token/", {"username": "sasha", "password": "wrong"})

    response = api_client.post("/api/accounts/token/", {"username": "sasha", "password": PASSWORD})

    assert response.status_code == 429
    assert response.json()["code"] == "login-locked-out"
