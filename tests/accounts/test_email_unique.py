"""An e-mail belongs to one account whatever its case: sign-up, the profile page, the API, the admin, the database."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from accounts.models import User
from accounts.services import user_update_profile
from core.errors import DomainError
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

TAKEN = "An account with this email already exists."


@pytest.fixture
def vera(db: None) -> User:
    return UserFactory(username="vera", email="vera@example.test")


def test_it_refuses_another_accounts_email_in_another_case_on_the_profile_page(client, stranger, vera):
    client.force_login(stranger)

    response = client.post("/accounts/profile/", {"display_name": "Sasha", "email": "VERA@Example.test"})

    assert response.status_code == 200
    assert TAKEN.encode() in response.content
    stranger.refresh_from_db()
    assert stranger.email == "sasha@example.test"


def test_it_keeps_ones_own_email_whatever_case_it_is_typed_in(client, stranger):
    client.force_login(stranger)

    response = client.post("/accounts/profile/", {"display_name": "Sasha", "email": "SASHA@example.test"})

    assert response.status_code == 302
    stranger.refresh_from_db()
    assert stranger.email == "sasha@example.test"


def test_it_refuses_another_accounts_email_through_patch_me_as_sign_up_words_it(api_as, stranger, vera):
    response = api_as(stranger).patch("/api/accounts/me/", {"email": "Vera@example.test"}, format="json")

    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "email-taken"
    assert body["errors"] == [{"field": "email", "code": "email-taken", "message": TAKEN}]
    stranger.refresh_from_db()
    assert stranger.email == "sasha@example.test"


def test_it_words_the_refusal_the_same_whoever_owns_the_email(api_client, api_as, stranger, vera):
    staff = UserFactory(username="olga-staff", email="staff@example.test", is_staff=True)

    by_profile = api_as(stranger).patch("/api/accounts/me/", {"email": staff.email}, format="json").json()
    by_sign_up = api_client.post(
        "/api/accounts/sign-up/",
        {"username": "newcomer", "email": "VERA@example.test", "password": "a-long-passphrase-9"},
        format="json",
    ).json()

    assert by_profile["errors"][0]["message"] == by_sign_up["errors"][0]["message"] == TAKEN
    assert by_profile["errors"][0]["code"] == by_sign_up["errors"][0]["code"] == "email-taken"


def test_it_refuses_another_accounts_email_in_another_case_at_sign_up(client, vera):
    response = client.post(
        "/accounts/sign-up/",
        {
            "username": "nadia",
            "email": "Vera@EXAMPLE.test",
            "password1": "a-long-passphrase-9",
            "password2": "a-long-passphrase-9",
        },
    )

    assert response.status_code == 200
    assert TAKEN.encode() in response.content
    assert not User.objects.filter(username="nadia").exists()


def _admin_change(admin_client, user: User, **changes: str):
    page = admin_client.get(f"/admin/accounts/user/{user.pk}/change/")
    data = {
        key: value
        for key, value in page.context["adminform"].form.initial.items()
        if value is not None and key not in {"groups", "user_permissions", "password"}
    }
    data.update({"date_joined_0": "2026-01-01", "date_joined_1": "10:00:00", **changes})
    return admin_client.post(f"/admin/accounts/user/{user.pk}/change/", data)


def test_it_refuses_another_accounts_email_in_the_admin(admin_client, vera, stranger):
    response = _admin_change(admin_client, stranger, email="VERA@example.test")

    assert response.status_code == 200
    assert TAKEN.encode() in response.content
    stranger.refresh_from_db()
    assert stranger.email == "sasha@example.test"


def test_it_saves_a_free_email_in_the_admin(admin_client, vera, stranger):
    response = _admin_change(admin_client, stranger, email="sasha@elsewhere.test")

    assert response.status_code == 302
    stranger.refresh_from_db()
    assert stranger.email == "sasha@elsewhere.test"


def test_it_lets_many_accounts_have_no_email(stranger):
    UserFactory(username="no-mail-1", email="")
    UserFactory(username="no-mail-2", email="")

    user_update_profile(user=stranger, display_name="Sasha", email="")

    assert User.objects.filter(email="").count() == 3


def test_the_database_refuses_one_email_in_two_cases_whatever_wrote_it(vera):
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create(username="direct", email="VERA@example.TEST")


def test_the_service_refuses_it_with_a_stable_code_and_the_field(stranger, vera):
    with pytest.raises(DomainError) as refused:
        user_update_profile(user=stranger, display_name="Sasha", email=" vera@EXAMPLE.test ")

    assert (refused.value.code, refused.value.field, refused.value.message) == ("email-taken", "email", TAKEN)
