"""The log-in backend reads the signed-in user by a precompiled query: the same account as the ORM's, or none."""

from __future__ import annotations

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY
from django.urls import reverse

from accounts.backends import PATH, AccountBackend
from accounts.models import User
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_it_gives_the_same_account_the_orm_reads():
    made = UserFactory(username="anna", display_name="Anna K", email="anna@example.org", is_staff=True)

    user = AccountBackend().get_user(str(made.pk))

    assert isinstance(user, User)
    assert user.pk == made.pk
    expected = User.objects.get(pk=made.pk)
    for field in User._meta.concrete_fields:
        assert getattr(user, field.attname) == getattr(expected, field.attname), field.attname
    assert user._state.adding is False
    assert user._state.db == "default"


@pytest.mark.parametrize("user_id", ["999999", "0", "-3", "abc", "", None, str(2**70)])
def test_it_gives_none_for_an_id_of_no_account(user_id):
    UserFactory()

    assert AccountBackend().get_user(user_id) is None


def test_an_inactive_account_is_not_signed_in():
    made = UserFactory(is_active=False)

    assert AccountBackend().get_user(made.pk) is None


def test_a_signed_in_player_is_known_on_the_next_request(client):
    made = UserFactory(username="boris")
    client.force_login(made)

    assert client.session[BACKEND_SESSION_KEY] == PATH
    response = client.get(reverse("accounts:profile"))

    assert response.status_code == 200
    assert response.wsgi_request.user.pk == made.pk


def test_a_changed_password_still_ends_the_other_sessions(client):
    made = UserFactory(username="lena")
    client.force_login(made)
    made.set_password("a new long password 42")
    made.save()

    response = client.get(reverse("accounts:profile"))

    assert response.status_code == 302  # the session's hash no longer matches: asked to log in again
