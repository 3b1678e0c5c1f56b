from __future__ import annotations

import re

import pytest
from django.core import mail

from accounts.models import User
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def test_it_signs_up_and_logs_in_a_new_player(client):
    response = client.post(
        "/accounts/sign-up/",
        {
            "username": "nadia",
            "display_name": "Nadia",
            "email": "Nadia@Example.test",
            "password1": "a-long-passphrase-9",
            "password2": "a-long-passphrase-9",
        },
        follow=True,
    )

    assert response.status_code == 200
    user = User.objects.get(username="nadia")
    assert user.email == "nadia@example.test"
    assert response.context["user"] == user
    assert b"Welcome to Zverograd, Nadia." in response.content
    assert b"Welcome back" not in response.content  # one greeting, not two


def test_its_sign_up_form_says_which_fields_are_required(client):
    page = client.get("/accounts/sign-up/").content.decode()

    assert "Email (required)" in page
    assert "Display name (optional)" in page
    assert re.search(r'<input type="email" name="email"[^>]* required', page)


def test_it_keeps_what_was_typed_when_sign_up_fails(client, stranger):
    response = client.post(
        "/accounts/sign-up/",
        {
            "username": "nadia",
            "display_name": "Nadia",
            "email": stranger.email,
            "password1": "a-long-passphrase-9",
            "password2": "different",
        },
    )

    assert response.status_code == 200
    assert not User.objects.filter(username="nadia").exists()
    assert b"An account with this email already exists." in response.content
    assert b'value="nadia"' in response.content


def test_it_logs_in_and_out(client, stranger):
    response = client.post("/accounts/log-in/", {"username": "sasha", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get("/").context["user"] == stranger

    client.post("/accounts/log-out/")

    assert not client.get("/").context["user"].is_authenticated


def test_it_changes_the_display_name(client, stranger):
    client.force_login(stranger)

    client.post("/accounts/profile/", {"display_name": "Sasha the Bold", "email": stranger.email})

    stranger.refresh_from_db()
    assert stranger.display_name == "Sasha the Bold"


def test_it_changes_the_password(client, stranger):
    client.force_login(stranger)

    response = client.post(
        "/accounts/password/change/",
        {
            "old_password": PASSWORD,
            "new_password1": "new-passphrase-42",
            "new_password2": "new-passphrase-42",
        },
    )

    assert response.status_code == 302
    stranger.refresh_from_db()
    assert stranger.check_password("new-passphrase-42")


def test_it_resets_a_forgotten_password_by_mail(client, stranger):
    client.post("/accounts/password/reset/", {"email": stranger.email})

    assert len(mail.outbox) == 1
    link = re.search(r"https?://[^/]+(/accounts/password/reset/[^\s]+)", mail.outbox[0].body)
    assert link is not None
    form_page = client.get(link.group(1), follow=True)
    response = client.post(
        form_page.request["PATH_INFO"],
        {"new_password1": "reset-passphrase-77", "new_password2": "reset-passphrase-77"},
    )
    assert response.status_code == 302
    stranger.refresh_from_db()
    assert stranger.check_password("reset-passphrase-77")


def test_it_asks_for_a_login_before_showing_the_profile(client):
    response = client.get("/accounts/profile/")

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/log-in/")


def test_it_locks_out_a_username_after_repeated_wrong_passwords(client, stranger, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post("/accounts/log-in/", {"username": "sasha", "password": "wrong"})

    response = client.post("/accounts/log-in/", {"username": "sasha", "password": PASSWORD})

    assert response.status_code == 429
    assert b"Too many attempts" in response.content
    assert not response.wsgi_request.user.is_authenticated


def test_it_does_not_lock_out_another_username_from_the_same_address(client, stranger, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post("/accounts/log-in/", {"username": "someone-else", "password": "wrong"})

    response = client.post("/accounts/log-in/", {"username": "sasha", "password": PASSWORD})

    assert response.status_code == 302
